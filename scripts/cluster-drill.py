#!/usr/bin/env python3
"""The cluster drill (docs/scaling.md, "PostgreSQL cluster"): lose a Prelude node, then the database primary.

    scripts/cluster-drill.py PRELUDE_BINARY      (scripts/cluster-test.sh installs what it needs and calls it)

Starts, all on 127.0.0.1 with free ports: a PostgreSQL 15 primary and a synchronous streaming standby
(`synchronous_standby_names = '*'`, so a commit returns only once the standby has it), three `prelude serve` nodes
with one libpq multi-host URL (`target_session_attrs=read-write`: a session goes to whichever server accepts writes),
and nginx in front of the nodes (deploy/nginx's includes; a refused connection tries the next node).

Under a steady load through nginx — resolved-policy fetches, event batches (a batch not answered 202 is sent again,
as the clients do) and admin writes to staging (PATCH with If-Match; production's scheduled change must not go
stale under them) — it schedules a change request a few seconds ahead, then
kills with SIGKILL the node that leads the scheduler, then crashes the database primary (`pg_ctl -m immediate`) and
promotes the standby. It checks, and exits 1 unless all hold:
  - every policy fetch through nginx answered 200, in every phase;
  - every event batch and admin write acknowledged (202 / 200) is in the promoted database afterwards;
  - admin writes succeed again within 10 s of the promotion;
  - another node took the leader roles, and the scheduled change was applied exactly once.
It prints the figures: requests and errors per phase, the takeover time, the write gap and the event gap.
"""
import importlib.util
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PG_BIN = os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin")
TOKEN = "drill_" + os.urandom(24).hex()
failures = []


def check(condition, message):
    print(("ok    " if condition else "FAIL  ") + message, flush=True)
    if not condition:
        failures.append(message)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def as_owner(arguments):
    """Runs a PostgreSQL program as the data directory's owner (the server refuses to run as root). Its output goes
    to a file, never a pipe: a server started by pg_ctl keeps the descriptors, and a pipe would never reach EOF."""
    if os.getuid() == 0:
        arguments = ["runuser", "-u", "postgres", "--"] + arguments
    with tempfile.TemporaryFile() as output:
        result = subprocess.run(arguments, stdout=output, stderr=output)
        if result.returncode != 0:
            output.seek(0)
            raise SystemExit(f"cluster-drill: {' '.join(arguments)} failed:\n{output.read().decode(errors='replace')}")


def wait_for(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except OSError:
            pass
        time.sleep(0.05)
    raise SystemExit(f"cluster-drill: {what} not within {seconds} s")


def http(port, method, path, body=None, headers=None, timeout=5):
    """(status, headers, parsed JSON or raw bytes); status 0 when the connection failed."""
    data = json.dumps(body).encode() if isinstance(body, (dict, list)) else body
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                     headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            raw, status, answer_headers = response.read(), response.status, dict(response.headers)
    except urllib.error.HTTPError as error:
        raw, status, answer_headers = error.read(), error.code, dict(error.headers)
    except (OSError, urllib.error.URLError) as error:
        return 0, {"error": repr(error)}, None
    try:
        return status, answer_headers, json.loads(raw)
    except ValueError:
        return status, answer_headers, raw


def admin(port, method, path, body=None, headers=None):
    headers = dict(headers or {}, Authorization=f"Bearer {TOKEN}")
    if body is not None:
        headers.setdefault("Content-Type", "application/json")
    return http(port, method, path, body, headers)


class Postgres:
    """A primary and a synchronous standby made from its base backup."""

    def __init__(self, work):
        self.work = work
        self.primary_port, self.standby_port = free_port(), free_port()
        self.primary = os.path.join(work, "primary")
        self.standby = os.path.join(work, "standby")

    def start(self):
        for directory in (self.primary, self.standby):
            os.makedirs(directory)
            if os.getuid() == 0:
                shutil.chown(directory, "postgres")
        as_owner([f"{PG_BIN}/initdb", "-D", f"{self.primary}/data", "-U", "prelude", "--auth=trust",
                  "--encoding=UTF8", "--locale=C.UTF-8"])
        self.pg_ctl(self.primary, self.primary_port, "start", "")
        as_owner([f"{PG_BIN}/createdb", "-h", "127.0.0.1", "-p", str(self.primary_port), "-U", "prelude", "prelude"])
        as_owner([f"{PG_BIN}/pg_basebackup", "-h", "127.0.0.1", "-p", str(self.primary_port), "-U", "prelude",
                  "-D", f"{self.standby}/data", "-R", "-X", "stream", "-c", "fast"])
        self.pg_ctl(self.standby, self.standby_port, "start", "")
        # Synchronous only now: with no standby yet, every commit (createdb's too) would wait for one forever.
        self.psql(self.primary_port, "ALTER SYSTEM SET synchronous_standby_names = '*'")
        self.psql(self.primary_port, "SELECT pg_reload_conf()")
        wait_for(lambda: self.psql(self.primary_port,
                                   "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'") == "1",
                 30, "the synchronous standby")

    def pg_ctl(self, directory, port, action, options):
        as_owner([f"{PG_BIN}/pg_ctl", "-D", f"{directory}/data", "-l", f"{directory}/server.log", "-w", "-t", "60",
                  "-o", f"-p {port} -k {directory} -c listen_addresses=127.0.0.1 -c max_connections=200 {options}",
                  action])

    def crash_primary(self):
        as_owner([f"{PG_BIN}/pg_ctl", "-D", f"{self.primary}/data", "-m", "immediate", "-w", "stop"])

    def promote_standby(self):
        as_owner([f"{PG_BIN}/pg_ctl", "-D", f"{self.standby}/data", "-w", "promote"])

    def stop(self):
        for directory in (self.primary, self.standby):
            if os.path.isdir(f"{directory}/data"):
                subprocess.run((["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else [])
                               + [f"{PG_BIN}/pg_ctl", "-D", f"{directory}/data", "-m", "immediate", "-w", "stop"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def psql(self, port, sql):
        result = subprocess.run(["psql", f"postgres://prelude@127.0.0.1:{port}/prelude", "-Atqc", sql],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        return result.stdout.strip() if result.returncode == 0 else None

    @property
    def url(self):
        return (f"postgres://prelude@127.0.0.1:{self.primary_port},127.0.0.1:{self.standby_port}/prelude"
                "?target_session_attrs=read-write&connect_timeout=2")


def start_node(binary, work, url, index, processes):
    log_path = os.path.join(work, f"node-{index}.log")
    log = open(log_path, "w")
    env = dict({k: v for k, v in os.environ.items() if not k.startswith("PRELUDE_")},
               PRELUDE_PORT="0", PRELUDE_DATABASE=url, PRELUDE_ADMIN_TOKEN=TOKEN,
               PRELUDE_EVENTS_PER_INSTALL_PER_SECOND="0", PRELUDE_TRUSTED_PROXIES="127.0.0.1",
               PRELUDE_DRAIN_SECONDS="0", SWIFT_BACKTRACE="enable=no")
    process = subprocess.Popen([binary, "serve", "--migrations-dir", os.path.join(ROOT, "migrations")],
                               cwd=ROOT, env=env, stdout=log, stderr=log)
    processes[f"node-{index}"] = process

    def port():
        if process.poll() is not None:
            raise SystemExit(f"node {index} exited during start-up:\n" + open(log_path).read()[-3000:])
        found = re.search(r'"msg":"listening".*?"port":(\d+)', open(log_path).read())
        return int(found.group(1)) if found else None

    found = []
    wait_for(lambda: found.append(port()) or found[-1], 30, f"node {index}'s listening line")
    node_port = found[-1]
    wait_for(lambda: http(node_port, "GET", "/readyz")[0] == 200, 30, f"node {index} /readyz")
    return node_port


def start_nginx(work, node_ports, processes):
    """nginx with deploy/nginx's includes in front of the nodes: proxy-cache-test.py's, not a second copy."""
    spec = importlib.util.spec_from_file_location("proxy_cache_test", os.path.join(ROOT, "scripts/proxy-cache-test.py"))
    proxy_cache_test = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(proxy_cache_test)
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    return proxy_cache_test.start_nginx(nginx, work, node_ports, processes)


class Load:
    """Fetches, event batches and admin writes through nginx, counted per phase, until stopped."""

    def __init__(self, proxy):
        self.proxy = proxy
        self.phase = "steady"
        self.stats = {}
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.acknowledged_events = set()
        self.acknowledged_revisions = {}  # revision number -> the camera title that write set
        self.write_successes = []   # monotonic instants of acknowledged admin writes
        self.event_successes = []
        self.last_refusal = None
        self.threads = [threading.Thread(target=t, daemon=True) for t in (self.fetch, self.fetch, self.events,
                                                                           self.writes)]

    def count(self, kind, ok, status):
        with self.lock:
            entry = self.stats.setdefault(self.phase, {}).setdefault(kind, [0, 0, {}])
            entry[0 if ok else 1] += 1
            if not ok:
                entry[2][status] = entry[2].get(status, 0) + 1

    def fetch(self):
        install = 0
        while not self.stopping.is_set():
            install += 1
            sent = time.monotonic()
            status, headers, _ = http(self.proxy, "GET", f"/v1/apps/demo/policy?platform=ios&os=17.4&locale=en"
                                                         f"&installId=drill-{install % 50}")
            self.count("fetch", status == 200, status)
            if status != 200:
                print(f"cluster-drill: a policy fetch failed after {time.monotonic() - sent:.2f} s: {status} "
                      f"{headers.get('error', '')}", flush=True)
            time.sleep(0.01)

    def events(self):
        batch = 0
        pending = []
        while not self.stopping.is_set():
            if not pending:
                batch += 1
                pending = [f"drill-{batch}-{i}" for i in range(5)]
            now = int(time.time() * 1000)
            body = {"events": [{"id": event, "installId": f"drill-install-{batch % 20}", "type": "primeShown",
                                "feature": "camera", "occurredAt": now} for event in pending]}
            status, _, answer = http(self.proxy, "POST", "/v1/apps/demo/events", body,
                                     {"Content-Type": "application/json"})
            self.count("events", status == 202, status)
            if status != 202:
                self.last_refusal = (status, answer)
            if status == 202:
                with self.lock:
                    self.acknowledged_events.update(pending)
                    self.event_successes.append(time.monotonic())
                pending = []
            time.sleep(0.05)

    def writes(self):
        round_number = 0
        while not self.stopping.is_set():
            round_number += 1
            answer = None
            # Staging: production's scheduled change request must not go stale under these writes.
            status, headers, _ = admin(self.proxy, "GET", "/v1/admin/apps/demo/environments/staging/policy")
            etag = headers.get("ETag") or headers.get("Etag")
            if status == 200 and etag:
                status, _, answer = admin(
                    self.proxy, "PATCH", "/v1/admin/apps/demo/environments/staging/features/camera",
                    {"copy": {"en": {"prime": {"title": f"Drill write {round_number}."}}}},
                    {"If-Match": etag, "Content-Type": "application/merge-patch+json"})
            self.count("writes", status == 200, status)
            if status == 200 and isinstance(answer, dict) and "revision" in answer:
                with self.lock:
                    self.acknowledged_revisions[answer["revision"]] = f"Drill write {round_number}."
                    self.write_successes.append(time.monotonic())
            time.sleep(0.2)

    def start(self):
        for thread in self.threads:
            thread.start()

    def stop(self):
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=15)


class StallWatch:
    """Asks every live node directly for the policy document every 0.1 s; a node that takes more than 2 s to answer
    is stalled: its threads' stacks go to `stall-<port>.log` in the work folder (gdb, when installed)."""

    def __init__(self, work, nodes, processes):
        self.work, self.nodes, self.processes = work, nodes, processes
        self.stopping = threading.Event()
        self.stalls = []
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        while not self.stopping.is_set():
            for index, port in enumerate(self.nodes):
                process = self.processes.get(f"node-{index}")
                if process is None or process.poll() is not None:
                    continue
                sent = time.monotonic()
                status, headers, _ = http(port, "GET", "/v1/apps/demo/policy/document", timeout=2)
                if status == 0 and "timed out" in headers.get("error", "") and process.poll() is None:
                    self.stalls.append((port, time.monotonic() - sent))
                    gdb = shutil.which("gdb")
                    if gdb:
                        with open(os.path.join(self.work, f"stall-{port}.log"), "a") as out:
                            subprocess.run([gdb, "-p", str(process.pid), "-batch", "-ex", "thread apply all bt 30"],
                                           stdout=out, stderr=subprocess.STDOUT, timeout=60)
            time.sleep(0.1)


def leader_of(ports, work="scheduler"):
    for port in ports:
        status, _, body = http(port, "GET", "/readyz")
        if status == 200 and isinstance(body, dict) and work in body.get("leader", "").split(","):
            return port
    return None


class GuardedRollout:
    """A guarded rollout of the microphone's copy in staging, and its traffic: first 40
    installs per arm that all grant the system alert (sent while the first leader guards it: no harm), then 80 per
    arm where the new arm's installs deny it and the control's grant it (sent after that leader died: the new
    leader's guard must roll back: its harm tests start at 100 installs per arm, docs/rollouts.md)."""

    key = "drill-guard"
    per_arm = 120
    healthy_per_arm = 40

    def __init__(self, proxy):
        self.proxy = proxy
        self.healthy, self.harmful = [], []

    def start(self):
        status, _, answer = admin(self.proxy, "POST", "/v1/admin/apps/demo/environments/staging/rollouts", {
            "feature": "microphone", "key": self.key,
            "set": {"copy": {"en": {"prime": {"title": "Rolled out by the drill."}}}},
            "steps": [{"percent": 50, "minimumHoldSeconds": 3600, "minimumExposed": 100000}, {"percent": 100}],
            "start": True})
        check(status == 201 and answer.get("status") == "running",
              f"guarded rollout started in staging ({status} {answer if status != 201 else ''})")
        # Each install's arm, as the served policy assigns it (the events must name the arm the install was given).
        arms = {"control": [], "rollout": []}
        candidate = 0
        while min(len(ids) for ids in arms.values()) < self.per_arm and candidate < 2000:
            candidate += 1
            install = f"drill-guard-{candidate}"
            status, _, policy = http(self.proxy, "GET", "/v1/apps/demo/environments/staging/policy"
                                                        f"?platform=ios&os=17.4&locale=en&installId={install}")
            variant = (policy.get("features", {}).get("microphone", {}).get("variant") or {}) if status == 200 else {}
            if variant.get("experiment") == self.key and variant.get("variant") in arms:
                arms[variant["variant"]].append(install)
        # The first installs of each arm all grant (traffic, no harm); in the rest, the new arm's installs deny.
        now = int(time.time() * 1000)
        self.healthy, self.harmful = [], []
        for arm, installs in arms.items():
            for position, install in enumerate(installs[:self.per_arm]):
                healthy = position < self.healthy_per_arm
                outcome = "systemGranted" if healthy or arm == "control" else "systemDenied"
                for number, kind in enumerate(("primeShown", "primeAccepted", outcome)):
                    (self.healthy if healthy else self.harmful).append({
                        "id": f"{install}-{number}", "installId": install, "type": kind, "feature": "microphone",
                        "occurredAt": now, "experiment": self.key, "variant": arm})
        # The arms interleaved, as real traffic is (the guard's sample-ratio test sees a fair split at every batch).
        for events in (self.healthy, self.harmful):
            events.sort(key=lambda event: (int(event["installId"].rsplit("-", 1)[1]), event["id"]))

    def send(self, events):
        """Sends `events` in batches of 60, each until answered 202, or 422 once the guard rolled back (the live
        policy no longer has the experiment)."""
        for start in range(0, len(events), 60):
            for _ in range(50):
                status, _, _ = http(self.proxy, "POST", "/v1/apps/demo/environments/staging/events",
                                    {"events": events[start:start + 60]}, {"Content-Type": "application/json"})
                if status in (202, 422):
                    break
                time.sleep(0.1)

    def state(self, port):
        status, _, answer = admin(port, "GET", "/v1/admin/apps/demo/environments/staging/rollouts")
        found = [r for r in answer.get("rollouts", []) if r.get("experimentKey") == self.key] if status == 200 else []
        return found[0] if found else {}


def run(binary, work, processes):
    postgres = Postgres(work)
    processes["postgres"] = postgres
    started = time.monotonic()
    postgres.start()
    print(f"cluster-drill: PostgreSQL primary and standby up in {time.monotonic() - started:.1f} s", flush=True)
    node_ports = [start_node(binary, work, postgres.url, index, processes) for index in range(3)]
    proxy = start_nginx(work, node_ports, processes)
    print(f"cluster-drill: primary :{postgres.primary_port}, synchronous standby :{postgres.standby_port}, "
          f"nodes {node_ports}, nginx :{proxy} (set up in {time.monotonic() - started:.1f} s)", flush=True)

    status, _, answer = admin(proxy, "POST", "/v1/admin/apps/demo/environments",
                              {"name": "staging", "copyFrom": "production"})
    check(status == 201, f"staging created ({status} {answer if status != 201 else ''})")
    load = Load(proxy)
    load.start()
    watch = StallWatch(work, node_ports, processes)
    watch.thread.start()
    rollout = GuardedRollout(proxy)
    rollout.start()
    rollout.send(rollout.healthy)
    time.sleep(1)

    # A change request due in 6 s, scheduled on the node that leads the scheduler.
    leader = leader_of(node_ports)
    check(leader is not None, "one node leads the scheduler")
    requests = "/v1/admin/apps/demo/environments/production/change-requests"
    status, _, proposed = admin(leader, "POST", requests, {
        "patch": {"features": {"camera": {"copy": {"en": {"prime": {"title": "Scheduled by the drill."}}}}}},
        "message": "drill"})
    check(status == 201, f"change request proposed ({status})")
    request_id = proposed["id"]
    due = time.time() + 6
    at = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(due)) + f".{int(due % 1 * 1000):03d}Z"
    status, _, answer = admin(leader, "POST", f"{requests}/{request_id}/schedule", {"at": at})
    check(status == 200, f"change request scheduled at {at} ({status} {answer if status != 200 else ''})")

    # Phase: the leader node dies, mid-rollout.
    load.phase = "leader node killed"
    check(leader_of(node_ports, "rollouts") == leader, "the scheduler's leader guards the rollouts too")
    state = rollout.state(leader)
    check(state.get("status") == "running", "the rollout runs, its first installs in (no harm yet) "
          f"({state.get('status')}, held by {state.get('heldBy')}, tripped by {state.get('trippedBy')}, "
          f"figures {state.get('figures')})")
    index = node_ports.index(leader)
    processes[f"node-{index}"].send_signal(signal.SIGKILL)
    processes[f"node-{index}"].wait()
    killed_at = time.monotonic()
    survivors = [p for p in node_ports if p != leader]
    wait_for(lambda: leader_of(survivors) is not None, 10, "a surviving node leading the scheduler")
    takeover = time.monotonic() - killed_at
    print(f"cluster-drill: leader node :{leader} killed; :{leader_of(survivors)} leads after {takeover:.2f} s",
          flush=True)
    check(takeover <= 5, f"leader roles taken over within 5 s ({takeover:.2f} s)")
    wait_for(lambda: (admin(survivors[0], "GET", f"{requests}/{request_id}")[2] or {}).get("state") == "applied", 15,
             "the scheduled change applied")
    # The rest of the harm reaches the surviving nodes: the new leader's guard must stop the rollout.
    harm_sent = time.monotonic()
    rollout.send(rollout.harmful)
    wait_for(lambda: rollout.state(survivors[0]).get("status") == "rolledBack", 15, "the guard's rollback")
    state = rollout.state(survivors[0])
    print(f"cluster-drill: the guard rolled back {time.monotonic() - harm_sent:.2f} s after the rest of the harm "
          f"was sent (tripped by {', '.join(state.get('trippedBy', []))})", flush=True)
    time.sleep(1)

    # Phase: the database primary crashes; the standby is promoted.
    load.phase = "database failover"
    crash_started = time.monotonic()
    postgres.crash_primary()
    time.sleep(1)
    postgres.promote_standby()
    promoted_at = time.monotonic()
    print(f"cluster-drill: primary crashed, standby promoted {promoted_at - crash_started:.2f} s later", flush=True)
    try:
        wait_for(lambda: any(t > promoted_at for t in load.write_successes), 30, "an admin write after the promotion")
    except SystemExit:
        print(f"cluster-drill: the last refused event batch: {load.last_refusal}", flush=True)
        raise
    write_gap = min(t for t in load.write_successes if t > promoted_at) - promoted_at
    wait_for(lambda: any(t > promoted_at for t in load.event_successes), 30, "an event batch after the promotion")
    event_gap = min(t for t in load.event_successes if t > promoted_at) - promoted_at
    check(write_gap <= 10, f"admin writes back {write_gap:.2f} s after the promotion (bound 10 s)")
    print(f"cluster-drill: event batches back {event_gap:.2f} s after the promotion", flush=True)

    load.phase = "after failover"
    time.sleep(3)
    load.stop()
    watch.stopping.set()
    check(not watch.stalls, f"no node stalled (asked directly, 2 s bound): {watch.stalls}")

    # What was acknowledged is in the promoted database.
    port = postgres.standby_port
    stored = postgres.psql(port, "SELECT string_agg(client_event_id, ',') FROM events "
                                 "WHERE client_event_id LIKE 'drill-%'") or ""
    stored_events = set(stored.split(",")) if stored else set()
    missing = load.acknowledged_events - stored_events
    check(not missing, f"{len(load.acknowledged_events)} acknowledged events all stored ({len(missing)} missing)")
    duplicates = postgres.psql(port, "SELECT count(*) - count(DISTINCT (install_id, client_event_id)) FROM events")
    check(duplicates == "0", f"no event stored twice ({duplicates})")
    revisions = postgres.psql(port, "SELECT string_agg(number || '=' || (CAST(document AS json) #>> "
                                    "'{features,camera,copy,en,prime,title}'), '|') FROM policy_revisions "
                                    "WHERE app_id = 'demo' AND environment = 'staging'") or ""
    stored_titles = dict(entry.split("=", 1) for entry in revisions.split("|") if "=" in entry)
    lost = [n for n, title in load.acknowledged_revisions.items() if stored_titles.get(str(n)) != title]
    check(not lost, f"{len(load.acknowledged_revisions)} acknowledged admin writes all stored with their titles "
                    f"({len(lost)} lost)")
    applied = postgres.psql(port, "SELECT count(*) FROM audit_log WHERE action = 'changeRequest.apply'")
    check(applied == "1", f"the scheduled change applied exactly once ({applied})")
    tripped = postgres.psql(port, "SELECT count(*) FROM audit_log WHERE action = 'rollout.guardTripped'")
    check(tripped == "1", f"the guard rolled the rollout back exactly once ({tripped})")

    print("cluster-drill: requests per phase (answered / failed, with the failures' statuses; 0 = no answer):",
          flush=True)
    for phase, kinds in load.stats.items():
        figures = ", ".join(f"{kind} {ok}/{failed}" + (f" {statuses}" if statuses else "")
                            for kind, (ok, failed, statuses) in kinds.items())
        print(f"  {phase}: {figures}", flush=True)
        fetch_failed = kinds.get("fetch", [0, 0, {}])[1]
        check(fetch_failed == 0, f"{phase}: every policy fetch through nginx answered 200 ({fetch_failed} not)")


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else None
    if not binary or not os.access(binary, os.X_OK):
        raise SystemExit("usage: cluster-drill.py PRELUDE_BINARY")
    work = tempfile.mkdtemp(prefix="prelude-cluster-")
    os.chmod(work, 0o755)
    processes = {}
    started = time.monotonic()
    try:
        run(binary, work, processes)
    except SystemExit as stop:
        failures.append(str(stop))
        print(stop, flush=True)
    finally:
        for name, process in processes.items():
            if name == "postgres":
                process.stop()
            elif process.poll() is None:
                process.send_signal(signal.SIGTERM if name == "nginx" else signal.SIGKILL)
                process.wait(timeout=10)
        if failures:
            for log in sorted(os.listdir(work)):
                if log.endswith(".log"):
                    lines = open(os.path.join(work, log), errors="replace").readlines()
                    problems = [line for line in lines if '"level":"error"' in line or '"level":"warning"' in line]
                    print(f"--- {log}: its first 10 errors and warnings, then its last 10 lines")
                    print("".join(problems[:10] + ["...\n"] + lines[-10:]))
        if os.environ.get("CLUSTER_DRILL_KEEP"):
            print(f"cluster-drill: logs kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print(f"cluster-drill: {time.monotonic() - started:.1f} s")
    if failures:
        print(f"cluster-drill: {len(failures)} check(s) failed")
        sys.exit(1)
    print("cluster-drill: all checks passed")


if __name__ == "__main__":
    main()
