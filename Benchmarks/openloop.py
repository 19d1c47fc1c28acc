#!/usr/bin/env python3
"""Open-loop load for POST /v1/apps/{app}/events: batches sent on a fixed timetable, whatever the answers do.

wrk is closed-loop: each connection sends its next request only after the previous answer, so a slow server is
offered less load and the latency it reports depends on the connection count (Little's law). "50,000 events/s
sustained, p99 under 50 ms" is an open-loop statement: offer exactly that rate and measure every batch's time
from the moment it was *due* to be sent until its answer is read. A batch that waits for a free connection, or
for this process, counts that wait too (no coordinated omission), so the figures are conservative.

Every event id is unique and each batch is one install's events under a random install id, as the mobile SDK
sends them; `--installs-per-batch 100` mixes 100 installs from a pool of 1,000 per batch instead (a relay). Event
ids are UUIDv7 stamped with the batch's due time, as the SDK makes them (`--ids counter`: "<run id>-<batch>-<index>",
the shape before issue 16). Install ids start with the run id, so the stored events of a run can be counted
(`install_id LIKE '<run id>-%'`). Prints one JSON object: offered and achieved rates, latency percentiles in ms, statuses, and the
sum of "accepted"/"duplicates" from the 202 answers (compare with the events table: scripts/bench.sh public).

Usage: openloop.py --port 8080 --rate 500 --duration 10 [--connections 64] [--batch 100] [--run-id X]
"""
import argparse
import asyncio
import http.client
import json
import os
import random
import re
import time

ACCEPTED = re.compile(rb'"accepted":(\d+),"duplicates":(\d+)')
TYPES = ["primeShown", "primeAccepted", "primeDismissed", "systemGranted", "systemDenied"]


def uuid7(milliseconds, rng):
    """A UUIDv7 (RFC 9562) for `milliseconds`, lowercase, as PreludeClient's EventID makes them."""
    value = (milliseconds & 0xFFFFFFFFFFFF) << 80 | 0x7 << 76 | rng.getrandbits(12) << 64 | 0b10 << 62
    value |= rng.getrandbits(62)
    text = "%032x" % value
    return "%s-%s-%s-%s-%s" % (text[:8], text[8:12], text[12:16], text[16:20], text[20:])


def fnv1a32(text, start=0x811C9DC5):
    """32-bit FNV-1a over ASCII text (docs/bucketing.md; Bucketing.fnv1a32)."""
    value = start
    for byte in text.encode("ascii"):
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return value


class Assignment:
    """One experiment's assignment of installs, as the server computes it (docs/bucketing.md, hashing version 2):
    what a client that fetched the live policy labels its events with, so the benchmark's tagged events count in
    their arms rather than as mislabelled (docs/results.md, "Assignment checks")."""

    def __init__(self, experiment):
        self.key = experiment["key"]
        self.feature = experiment["feature"]
        self.seed = experiment.get("seed") or self.key
        names = [variant["name"] for variant in experiment["variants"]]
        weights = [float(variant.get("weight", 1)) for variant in experiment["variants"]]
        total = sum(weights)
        if not 0.99 <= total <= 1.01:
            weights = [weight / total for weight in weights]
        coverage = min(max(float(experiment.get("coverage", 1)), 0.0), 1.0)
        self.ranges, cumulative = [], 0.0
        for name, weight in zip(names, weights):
            self.ranges.append((cumulative, cumulative + coverage * weight, name))
            cumulative += weight

    def variant(self, install):
        """The variant name `install` draws, or None outside the coverage."""
        n = (fnv1a32(str(fnv1a32(self.seed + install))) % 10000) / 10000
        return next((name for start, end, name in self.ranges if start <= n < end), None)

    @staticmethod
    def fetch(host, port, app, key):
        """The experiment `key` of the app's live policy document."""
        connection = http.client.HTTPConnection(host, port, timeout=10)
        connection.request("GET", "/v1/apps/%s/policy/document" % app)
        response = connection.getresponse()
        document = json.loads(response.read())
        assert response.status == 200, response.status
        found = [experiment for experiment in document.get("experiments", []) if experiment["key"] == key]
        if not found:
            raise SystemExit("the live policy has no experiment %r" % key)
        return Assignment(found[0])


def make_body(run_id, number, batch, installs_per_batch, rng, ids, milliseconds, features, assignment):
    own = "%s-%016x" % (run_id, rng.getrandbits(64))
    events = []
    feature = features[number % len(features)]
    for i in range(batch):
        install = own if installs_per_batch <= 1 else "%s-install-%d" % (run_id, rng.randrange(1000))
        event_id = uuid7(milliseconds, rng) if ids == "uuid7" else "%s-%d-%d" % (run_id, number, i)
        tag = ""
        if assignment and assignment.feature == feature:
            variant = assignment.variant(install)
            if variant is not None:
                tag = ',"experiment":"%s","variant":"%s"' % (assignment.key, variant)
        events.append(
            '{"id":"%s","installId":"%s","type":"%s","feature":"%s"%s,"occurredAt":"2026-11-22T12:30:00Z"}'
            % (event_id, install, TYPES[i % len(TYPES)], feature, tag)
        )
    return ('{"events":[' + ",".join(events) + "]}").encode()


async def read_response(reader):
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head[9:12])
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    body = await reader.readexactly(length) if length else b""
    return status, body


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--app", default="demo")
    parser.add_argument("--rate", type=float, required=True, help="batches per second")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of sending")
    parser.add_argument("--connections", type=int, default=64, help="keep-alive connections in the pool")
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--installs-per-batch", type=int, default=1)
    parser.add_argument("--ids", choices=["uuid7", "counter"], default="uuid7", help="event id shape")
    parser.add_argument("--run-id", default="open%d" % int(time.time()))
    parser.add_argument("--features", default="camera", help="comma-separated features; batch n uses the n-th")
    parser.add_argument(
        "--segments", action="store_true", help="send Prelude-OS-Major and Prelude-Locale, as PreludeClient does"
    )
    parser.add_argument(
        "--experiment",
        help="KEY: the events of that live experiment's feature carry KEY and the variant each install draws",
    )
    args = parser.parse_args()
    features = args.features.split(",")
    assignment = Assignment.fetch(args.host, args.port, args.app, args.experiment) if args.experiment else None

    rng = random.Random(os.getpid())
    total = int(args.rate * args.duration)
    segment = "Prelude-OS-Major: %s\r\nPrelude-Locale: %s\r\n"
    segments = [("17", "en-US"), ("18", "fr-CA"), ("26", "de-DE"), ("18", "ja-JP")]
    head = (
        "POST /v1/apps/%s/events HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n%%sContent-Length: %%d\r\n\r\n"
        % (args.app, args.host)
    )
    # Bodies are built before the clock starts, so building them never delays a send.
    requests = []
    begin = int(time.time() * 1000) + 200
    for n in range(total):
        due = begin + int(n * 1000 / args.rate)
        body = make_body(args.run_id, n, args.batch, args.installs_per_batch, rng, args.ids, due, features, assignment)
        extra = segment % segments[n % len(segments)] if args.segments else ""
        requests.append((head % (extra, len(body))).encode() + body)

    pool = asyncio.Queue()
    for _ in range(args.connections):
        pool.put_nowait(await asyncio.open_connection(args.host, args.port))

    latencies = []
    statuses = {}
    sums = {"accepted": 0, "duplicates": 0, "errors": 0}
    start = time.perf_counter() + 0.2

    async def send(n):
        due = start + n / args.rate
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        reader, writer = await pool.get()
        try:
            writer.write(requests[n])
            status, body = await read_response(reader)
        except (OSError, asyncio.IncompleteReadError):
            sums["errors"] += 1
            pool.put_nowait(await asyncio.open_connection(args.host, args.port))
            return
        latencies.append(time.perf_counter() - due)
        pool.put_nowait((reader, writer))
        statuses[status] = statuses.get(status, 0) + 1
        match = ACCEPTED.search(body)
        if status == 202 and match:
            sums["accepted"] += int(match.group(1))
            sums["duplicates"] += int(match.group(2))

    await asyncio.gather(*(send(n) for n in range(total)))
    elapsed = time.perf_counter() - start
    latencies.sort()

    def percentile(p):
        return round(latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))] * 1000, 2) if latencies else None

    print(
        json.dumps(
            {
                "run_id": args.run_id,
                "ids": args.ids,
                "batches": total,
                "events_sent": total * args.batch,
                "offered_events_per_s": round(args.rate * args.batch),
                "achieved_events_per_s": round(len(latencies) * args.batch / elapsed),
                "p50_ms": percentile(50),
                "p90_ms": percentile(90),
                "p99_ms": percentile(99),
                "max_ms": round(latencies[-1] * 1000, 2) if latencies else None,
                "statuses": statuses,
                **sums,
            }
        )
    )


if __name__ == "__main__":
    asyncio.run(main())
