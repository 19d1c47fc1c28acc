-- wrk script: POST /v1/apps/demo/decide for every feature of the demo app (the same two states as decide.lua, the
-- rest notDetermined): the same work as ofrep-bulk.lua through decide (scripts/bench.sh ofrep).
local threads = {}

setup = function(thread) table.insert(threads, thread) end

init = function(args) ok200, other = 0, 0 end

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"installId":"8C1F0A2E","platform":"ios","os":"17.4","locale":"fr",'
    .. '"features":[{"feature":"camera","status":"denied"},{"feature":"microphone","status":"notDetermined"},'
    .. '{"feature":"photos","status":"denied","history":{"settings":{"shownCount":1,"lastShown":1795350600,'
    .. '"lastOutcome":"dismissed"}}},{"feature":"contacts","status":"notDetermined"},'
    .. '{"feature":"locationWhenInUse","status":"notDetermined"},{"feature":"notifications","status":"notDetermined"},'
    .. '{"feature":"tracking","status":"notDetermined"}]}'

response = function(status, headers, body)
    if status == 200 then ok200 = ok200 + 1 else other = other + 1 end
end

done = function(summary, latency, requests)
    local k, o = 0, 0
    for _, t in ipairs(threads) do k = k + t:get("ok200"); o = o + t:get("other") end
    io.write(string.format("responses 200 %d, other %d\n", k, o))
end
