-- wrk script: POST /v1/apps/demo/decide with a fixed two-feature client state (scripts/bench.sh public).
-- Prints the responses by status at the end (every one must be 200).
body = '{"installId":"8C1F0A2E","platform":"ios","os":"17.4","locale":"fr",'
    .. '"features":[{"feature":"camera","status":"denied"},'
    .. '{"feature":"photos","status":"denied","history":{"settings":{"shownCount":1,"lastShown":1795350600,'
    .. '"lastOutcome":"dismissed"}}}]}'
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "post-json.lua")
