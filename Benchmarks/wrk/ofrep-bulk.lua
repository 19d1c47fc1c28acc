-- wrk script: POST /v1/apps/demo/ofrep/v1/evaluate/flags (OFREP bulk: every feature of the demo app, the same two
-- states as decide.lua, the rest notDetermined) (scripts/bench.sh ofrep). Every response must be 200.
body = '{"context":{"targetingKey":"8C1F0A2E","platform":"ios","os":"17.4","locale":"fr",'
    .. '"features":{"camera":{"status":"denied"},'
    .. '"photos":{"status":"denied","history":{"settings":{"shownCount":1,"lastShown":1795350600,'
    .. '"lastOutcome":"dismissed"}}}}}}'
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "post-json.lua")
