#!/usr/bin/env python3
"""Checks GET /metrics of a running Prelude with the Prometheus client library's own text-format parser.

Usage: scripts/check-metrics.py BASE_URL        (e.g. http://127.0.0.1:8080; loopback only)

Runs itself inside the venv of scripts/ci-venv.sh when prometheus_client is not importable. It makes a few
requests first (so request and event counters have samples), then asserts that every documented family
exists with the right type, that histograms are well formed (cumulative buckets ending in +Inf equal to
_count), and that the requests it made were counted. Exits 1 listing every failed check.
"""

import os
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
TIMEOUT = 5

try:
    from prometheus_client.parser import text_string_to_metric_families
except ImportError:
    if os.environ.get("PRELUDE_CHECK_METRICS_REEXEC"):
        raise
    bin_dir = subprocess.run(
        [os.path.join(HERE, "ci-venv.sh")], check=True, stdout=subprocess.PIPE, text=True
    ).stdout.strip()
    os.environ["PRELUDE_CHECK_METRICS_REEXEC"] = "1"
    python = os.path.join(bin_dir, "python")
    os.execv(python, [python, os.path.abspath(__file__)] + sys.argv[1:])

# Family name as the parser reports it (counters lose their _total suffix) → type.
EXPECTED = {
    "prelude_build_info": "gauge",
    "prelude_http_requests": "counter",
    "prelude_http_request_duration_seconds": "histogram",
    "prelude_http_open_connections": "gauge",
    "prelude_policy_live_revision": "gauge",
    "prelude_events_ingested": "counter",
    "prelude_events_duplicates": "counter",
    "prelude_event_batches": "counter",
    "prelude_event_commits": "counter",
    "prelude_db_write_duration_seconds": "histogram",
    "process_resident_memory_bytes": "gauge",
    "process_virtual_memory_bytes": "gauge",
    "process_cpu_seconds": "counter",
    "process_open_fds": "gauge",
    "process_max_fds": "gauge",
    "process_start_time_seconds": "gauge",
}


def fetch(url, headers=None):
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return response.status, dict(response.headers), response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode("utf-8", "replace")


def check_histogram(family, failures):
    series = {}
    for sample in family.samples:
        key = tuple(sorted((k, v) for k, v in sample.labels.items() if k != "le"))
        entry = series.setdefault(key, {"buckets": [], "count": None, "sum": None})
        if sample.name.endswith("_bucket"):
            entry["buckets"].append((float(sample.labels["le"]), sample.value))
        elif sample.name.endswith("_count"):
            entry["count"] = sample.value
        elif sample.name.endswith("_sum"):
            entry["sum"] = sample.value
    for key, entry in series.items():
        label = f"{family.name}{dict(key)}"
        buckets = entry["buckets"]
        if not buckets or buckets[-1][0] != float("inf"):
            failures.append(f"{label}: no +Inf bucket")
            continue
        bounds = [b for b, _ in buckets]
        if bounds != sorted(bounds):
            failures.append(f"{label}: buckets out of order")
        counts = [c for _, c in buckets]
        if any(later < earlier for earlier, later in zip(counts, counts[1:])):
            failures.append(f"{label}: buckets are not cumulative: {counts}")
        if entry["count"] != buckets[-1][1]:
            failures.append(f"{label}: _count {entry['count']} != +Inf bucket {buckets[-1][1]}")
        if entry["sum"] is None or entry["sum"] < 0:
            failures.append(f"{label}: missing or negative _sum")
        if bounds[0] != 0.0005 or bounds[-2] != 5:
            failures.append(f"{label}: buckets should run from 0.0005 to 5 s, got {bounds[0]}..{bounds[-2]}")


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    base = sys.argv[1].rstrip("/")
    host = urllib.parse.urlsplit(base).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(f"check-metrics: refusing non-loopback host {host}", file=sys.stderr)
        return 2

    # Traffic the counters must reflect: a 200, an engine 404, and a metrics scrape.
    status, _, _ = fetch(base + "/healthz")
    if status != 200:
        print(f"check-metrics: GET /healthz answered {status}", file=sys.stderr)
        return 1
    fetch(base + "/no-such-path-for-metrics-check")

    status, headers, text = fetch(base + "/metrics")
    failures = []
    if status != 200:
        print(f"check-metrics: GET /metrics answered {status}: {text[:300]}", file=sys.stderr)
        return 1
    content_type = headers.get("Content-Type", "")
    if not content_type.startswith("text/plain") or "version=0.0.4" not in content_type:
        failures.append(f"Content-Type is {content_type!r}, expected text/plain; version=0.0.4")

    try:
        families = {family.name: family for family in text_string_to_metric_families(text)}
    except Exception as error:  # the parser raises ValueError and friends on malformed input
        print(f"check-metrics: the Prometheus parser rejected the exposition: {error}", file=sys.stderr)
        return 1

    for name, kind in EXPECTED.items():
        family = families.get(name)
        if family is None:
            failures.append(f"missing family {name}")
        elif family.type != kind:
            failures.append(f"{name}: type {family.type}, expected {kind}")
    for family in families.values():
        if family.type == "histogram":
            check_histogram(family, failures)

    requests = families.get("prelude_http_requests")
    if requests is not None:
        def count(route, method, status):
            return sum(
                s.value for s in requests.samples
                if s.name == "prelude_http_requests_total"
                and s.labels == {"route": route, "method": method, "status": status}
            )
        if count("/healthz", "GET", "200") < 1:
            failures.append('no prelude_http_requests_total{route="/healthz",method="GET",status="200"} sample')
        if count("unmatched", "GET", "404") < 1:
            failures.append('no prelude_http_requests_total{route="unmatched",method="GET",status="404"} sample')
    connections = families.get("prelude_http_open_connections")
    if connections is not None and (not connections.samples or connections.samples[0].value < 1):
        failures.append("prelude_http_open_connections should count at least the scraping connection")

    if failures:
        for failure in failures:
            print(f"FAIL {failure}", file=sys.stderr)
        print(f"check-metrics: {len(failures)} problem(s)", file=sys.stderr)
        return 1
    samples = sum(len(f.samples) for f in families.values())
    print(f"check-metrics: ok, {len(families)} families, {samples} samples parsed by prometheus_client")
    return 0


if __name__ == "__main__":
    sys.exit(main())
