-- wrk script: decide.lua's request with attributes and moments in the body (scripts/bench.sh attributes).
-- Prints the responses by status at the end (every one must be 200).
body = '{"installId":"8C1F0A2E","platform":"ios","os":"17.4","locale":"fr",'
    .. '"attributes":{"sessionCount":4,"plan":"pro","beta":false},"moments":{"notePinned":{"count":1}},'
    .. '"features":[{"feature":"camera","status":"denied"},'
    .. '{"feature":"photos","status":"denied","history":{"settings":{"shownCount":1,"lastShown":1795350600,'
    .. '"lastOutcome":"dismissed"}}}]}'
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "post-json.lua")
