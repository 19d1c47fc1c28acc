-- wrk script: POST /v1/apps/demo/events in batches of BATCH (default 100) events. Every event id is unique
-- (RUN_ID, thread number, counter), so every event must be stored exactly once (scripts/bench.sh public).
--
-- INSTALLS_PER_BATCH (default 1) is how many installs share one batch. 1 is what the mobile SDK sends: one
-- device's own events, under a random 16-hex-digit install id per batch (so each batch lands at a random place
-- of the dedupe index, as a fleet of devices does). 100 mixes 100 installs drawn from a pool of 1,000 in every
-- batch (a relay forwarding many devices' events): every event then dirties its own page of the dedupe index.
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
    installs_per_batch = tonumber(os.getenv("INSTALLS_PER_BATCH") or "1")
    types = {"primeShown", "primeAccepted", "primeDismissed", "systemGranted", "systemDenied"}
    math.randomseed(os.time() * 100 + thread_id)
end

local function random_install()
    return string.format("%08x%08x", math.random(0, 0x7fffffff), math.random(0, 0x7fffffff))
end

request = function()
    local parts = {}
    local own = random_install()
    for i = 1, batch do
        generated = generated + 1
        local install = own
        if installs_per_batch > 1 then install = string.format("install-%d", generated % 1000) end
        parts[i] = string.format(
            '{"id":"%s-%d-%d","installId":"%s","type":"%s","feature":"camera",'
                .. '"occurredAt":"2026-11-22T12:30:00Z"}',
            run, thread_id, generated, install, types[(generated % #types) + 1])
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
