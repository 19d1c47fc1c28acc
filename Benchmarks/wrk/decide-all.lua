-- wrk script: POST /v1/apps/demo/decide for every feature of the demo app (the same two states as decide.lua, the
-- rest notDetermined): the same work as ofrep-bulk.lua through decide (scripts/bench.sh ofrep).
body = '{"installId":"8C1F0A2E","platform":"ios","os":"17.4","locale":"fr",'
    .. '"features":[{"feature":"camera","status":"denied"},{"feature":"microphone","status":"notDetermined"},'
    .. '{"feature":"photos","status":"denied","history":{"settings":{"shownCount":1,"lastShown":1795350600,'
    .. '"lastOutcome":"dismissed"}}},{"feature":"contacts","status":"notDetermined"},'
    .. '{"feature":"locationWhenInUse","status":"notDetermined"},{"feature":"notifications","status":"notDetermined"},'
    .. '{"feature":"tracking","status":"notDetermined"}]}'
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "post-json.lua")
