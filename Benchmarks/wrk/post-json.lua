-- Shared by the wrk scripts that POST one fixed JSON body (decide.lua, decide-all.lua, ofrep-bulk.lua): each sets
-- `body` and loads this file, which counts the responses by status and prints them at the end (every one must be
-- 200; scripts/bench.sh checks the line).
local threads = {}

setup = function(thread) table.insert(threads, thread) end

init = function(args) ok200, other = 0, 0 end

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = body

response = function(status, headers, body)
    if status == 200 then ok200 = ok200 + 1 else other = other + 1 end
end

done = function(summary, latency, requests)
    local k, o = 0, 0
    for _, t in ipairs(threads) do k = k + t:get("ok200"); o = o + t:get("other") end
    io.write(string.format("responses 200 %d, other %d\n", k, o))
end
