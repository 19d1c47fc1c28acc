-- wrk script: POST /v1/apps/demo/events in batches of BATCH (default 100) events. Every event id is unique, so
-- every event must be stored exactly once (scripts/bench.sh public counts them by install id, which starts with
-- RUN_ID). Ids are UUIDv7 stamped with the send time, as the SDK makes them (PreludeClient's EventID); IDS=counter
-- gives "<RUN_ID>-<thread>-<counter>", the shape before issue 16.
--
-- INSTALLS_PER_BATCH (default 1) is how many installs share one batch. 1 is what the mobile SDK sends: one
-- device's own events, under a random install id per batch (RUN_ID, "-", 16 hex digits) (so each batch lands at a random place
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
    ids = os.getenv("IDS") or "uuid7"
    math.randomseed(os.time() * 100 + thread_id)
end

local function random_install()
    return string.format("%s-%08x%08x", run, math.random(0, 0x7fffffff), math.random(0, 0x7fffffff))
end

-- A UUIDv7 (RFC 9562) for the current time: 48 bits of Unix milliseconds, version 7, variant 10, random bits.
-- wrk's Lua has no clock finer than os.time(), so the milliseconds advance with a per-thread counter within the
-- second (ids stay unique and time-ordered; the exact millisecond does not matter to the server).
local last_second, tick = 0, 0
local function uuid7()
    local second = os.time()
    if second ~= last_second then last_second, tick = second, 0 end
    tick = tick + 1
    local ms = second * 1000 + math.floor(tick / 100) % 1000
    return string.format("%08x-%04x-7%03x-%04x-%04x%08x", math.floor(ms / 0x10000), ms % 0x10000, math.random(0, 0xfff),
        0x8000 + math.random(0, 0x3fff), math.random(0, 0xffff), math.random(0, 0x7fffffff))
end

request = function()
    local parts = {}
    local own = random_install()
    for i = 1, batch do
        generated = generated + 1
        local install = own
        if installs_per_batch > 1 then install = string.format("%s-install-%d", run, generated % 1000) end
        local id
        if ids == "counter" then id = string.format("%s-%d-%d", run, thread_id, generated) else id = uuid7() end
        parts[i] = string.format(
            '{"id":"%s","installId":"%s","type":"%s","feature":"camera",'
                .. '"occurredAt":"2026-11-22T12:30:00Z"}',
            id, install, types[(generated % #types) + 1])
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
