-- wrk script: POST /v1/apps/demo/events in batches of BATCH (default 100) events. Every event id is unique
-- (RUN_ID, thread number, counter), so every event must be stored exactly once (scripts/bench.sh public).
-- At the end it prints the events generated, the responses by status and the sum of their "accepted" and
-- "duplicates" counts, to compare with the events table.
local threads = {}

setup = function(thread)
    thread:set("thread_id", #threads + 1)
    table.insert(threads, thread)
end

init = function(args)
    batch = tonumber(os.getenv("BATCH") or "100")
    run = os.getenv("RUN_ID") or tostring(os.time())
    generated, accepted, duplicates, ok202, other = 0, 0, 0, 0, 0
    types = {"primeShown", "primeAccepted", "primeDismissed", "systemGranted", "systemDenied"}
end

request = function()
    local parts = {}
    for i = 1, batch do
        generated = generated + 1
        parts[i] = string.format(
            '{"id":"%s-%d-%d","installId":"install-%d","type":"%s","feature":"camera",'
                .. '"occurredAt":"2026-11-22T12:30:00Z"}',
            run, thread_id, generated, generated % 1000, types[(generated % #types) + 1])
    end
    return wrk.format("POST", "/v1/apps/demo/events", {["Content-Type"] = "application/json"},
        '{"events":[' .. table.concat(parts, ",") .. ']}')
end

response = function(status, headers, body)
    if status == 202 then
        ok202 = ok202 + 1
        accepted = accepted + tonumber(body:match('"accepted"%s*:%s*(%d+)') or "0")
        duplicates = duplicates + tonumber(body:match('"duplicates"%s*:%s*(%d+)') or "0")
    else
        other = other + 1
    end
end

done = function(summary, latency, requests)
    local g, a, d, k, o = 0, 0, 0, 0, 0
    for _, t in ipairs(threads) do
        g = g + t:get("generated"); a = a + t:get("accepted"); d = d + t:get("duplicates")
        k = k + t:get("ok202"); o = o + t:get("other")
    end
    io.write(string.format("events generated %d, responses 202 %d, other %d, accepted %d, duplicates %d\n",
        g, k, o, a, d))
end
