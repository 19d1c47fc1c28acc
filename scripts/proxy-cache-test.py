#!/usr/bin/env python3
"""The caching proxy of deploy/nginx in front of the real `prelude` binary, checked with real requests.

Usage: scripts/proxy-cache-test.py PRELUDE_BINARY      (scripts/proxy-cache-test.sh installs nginx and calls it)

Starts the release binary on port 0 (a fresh database, the demo policy, max-age 2 s, no
stale-while-revalidate so an expired copy is revalidated in the foreground) and nginx on a free port, both on
127.0.0.1, with deploy/nginx/prelude-http.conf and prelude-locations.conf included by a generated top-level
file (the upstream address, cache directory and listen port are the test's own). Then checks, counting what
reaches the origin in its /metrics (prelude_http_requests_total by route, method and status):

  - the policy document: MISS then HIT (the origin asked once), same bytes and ETag as the origin's;
    gzip and identity kept apart (each its own entry, never the other's body); `gzip;q=0` is identity;
    HEAD from the cache; a query string does not bypass the cache;
  - a client's If-None-Match answered 304 from the cache;
  - after max-age, nginx revalidates: the origin sees a conditional GET and answers 304 (REVALIDATED);
  - a policy change on the origin is not served before max-age and is served once it has passed;
  - the resolved policy (`private`): never stored, every request reaches the origin; two clients with different
    inputs (query or Accept-Language) each get exactly what the origin gives them;
  - decide, events and admin pass through uncached (no X-Cache-Status value, counted by the origin);
  - the origin killed with SIGKILL: the expired document is still served (STALE, same ETag: the origin's
    stale-if-error), and the private resolved policy is not (502);
  - two origins behind one nginx (as a primary and a replica are): the same bytes and ETag from both; one killed
    with SIGKILL, the other revalidates nginx's copy (304) and answers the resolved policy; both killed, STALE.

Bounded: every request has a timeout, every wait is a poll with a deadline; both processes are stopped at the
end (and on failure). Exits 1 listing every failed check.
"""

import gzip
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MAX_AGE = 2
TIMEOUT = 5
TOKEN = "proxytest_" + os.urandom(16).hex()

failures = []


def check(name, condition, detail=""):
    if condition:
        print(f"ok   {name}")
    else:
        print(f"FAIL {name}{': ' + detail if detail else ''}")
        failures.append(name)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Response:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def header(self, name):
        return self.headers.get(name.lower())

    @property
    def cache(self):
        return self.header("X-Cache-Status") or ""


def request(port, method, path, headers=None, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
        return Response(response.status, {k.lower(): v for k, v in response.getheaders()}, data)
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


def origin_count(port, route, method="GET", status=None):
    """Sum of prelude_http_requests_total for a route (and method, and status if given) on the origin."""
    text = request(port, "GET", "/metrics").body.decode()
    total = 0
    for line in text.splitlines():
        sample = re.fullmatch(r"prelude_http_requests_total\{(.*)\} (\S+)", line)
        if not sample:
            continue
        labels = dict(re.findall(r'(\w+)="([^"]*)"', sample.group(1)))
        if labels.get("route") != route or labels.get("method") != method:
            continue
        if status is not None and labels.get("status") != str(status):
            continue
        total += int(float(sample.group(2)))
    return total


DOC = "/v1/apps/demo/policy/document"
DOC_ROUTE = "/v1/apps/{app}/policy/document"
RESOLVED = "/v1/apps/demo/policy"
RESOLVED_ROUTE = "/v1/apps/{app}/policy"


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else None
    if not binary or not os.access(binary, os.X_OK):
        raise SystemExit("usage: proxy-cache-test.py PRELUDE_BINARY")
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    work = tempfile.mkdtemp(prefix="prelude-proxy-")
    os.chmod(work, 0o755)  # nginx workers may run as nobody
    processes = {}
    try:
        run(binary, nginx, work, processes)
    finally:
        for name, process in processes.items():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM if name.startswith("nginx") else signal.SIGKILL)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
        if failures:
            for directory, _, files in os.walk(work):
                for log in sorted(f for f in files if f.endswith(".log") and f != "access.log"):
                    path = os.path.join(directory, log)
                    print(f"--- {os.path.relpath(path, work)} (last 30 lines)")
                    print("".join(open(path, errors="replace").readlines()[-30:]))
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"proxy-cache-test: {len(failures)} check(s) failed: {', '.join(failures)}")
        sys.exit(1)
    print("proxy-cache-test: all checks passed")


def start_origin(binary, work, processes, name="prelude"):
    log = open(os.path.join(work, f"{name}.log"), "w")
    env = dict(
        {k: v for k, v in os.environ.items() if not k.startswith("PRELUDE_")},
        PRELUDE_PORT="0",
        PRELUDE_DATABASE=os.path.join(work, f"{name}.sqlite"),
        PRELUDE_ADMIN_TOKEN=TOKEN,
        PRELUDE_POLICY_MAX_AGE=str(MAX_AGE),
        PRELUDE_POLICY_STALE_WHILE_REVALIDATE="0",
        PRELUDE_POLICY_STALE_IF_ERROR="86400",
        PRELUDE_TRUSTED_PROXIES="127.0.0.1",
        SWIFT_BACKTRACE="enable=no",
    )
    process = subprocess.Popen([binary, "serve"], cwd=ROOT, env=env, stdout=log, stderr=log)
    processes[name] = process

    def port():
        if process.poll() is not None:
            raise SystemExit(f"{name} exited during start-up:\n" + open(log.name).read())
        found = re.search(r'"msg":"listening".*?"port":(\d+)', open(log.name).read())
        return int(found.group(1)) if found else None

    origin = wait_for(port, 20, "prelude's listening line")
    wait_for(lambda: request(origin, "GET", "/readyz").status == 200, 20, "prelude /readyz")
    return origin


def start_nginx(nginx, work, origins, processes, name="nginx"):
    """nginx with the repository's include files in front of the origin ports `origins` (round robin)."""
    port = free_port()
    work = os.path.join(work, name)
    os.makedirs(work)
    os.chmod(work, 0o755)
    servers = " ".join(f"server 127.0.0.1:{origin};" for origin in origins)
    for folder in ("cache", "client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        os.makedirs(os.path.join(work, folder), exist_ok=True)
        os.chmod(os.path.join(work, folder), 0o777)
    config = os.path.join(work, "nginx.conf")
    with open(config, "w") as f:
        f.write(f"""daemon off;
worker_processes 1;
pid {work}/nginx.pid;
error_log {work}/error.log info;
events {{ worker_connections 256; }}
http {{
    access_log {work}/access.log;
    client_body_temp_path {work}/client_body;
    proxy_temp_path {work}/proxy;
    fastcgi_temp_path {work}/fastcgi;
    uwsgi_temp_path {work}/uwsgi;
    scgi_temp_path {work}/scgi;
    include {ROOT}/deploy/nginx/prelude-http.conf;
    upstream prelude_origin {{ {servers} keepalive 16; }}
    proxy_cache_path {work}/cache levels=1:2 keys_zone=prelude_policy:10m max_size=64m inactive=1d use_temp_path=off;
    server {{
        listen 127.0.0.1:{port};
        include {ROOT}/deploy/nginx/prelude-locations.conf;
    }}
}}
""")
    subprocess.run([nginx, "-t", "-p", work, "-c", config, "-e", f"{work}/error.log"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    process = subprocess.Popen([nginx, "-p", work, "-c", config, "-e", f"{work}/error.log"],
                               stdout=subprocess.DEVNULL, stderr=open(f"{work}/nginx.stderr", "w"))
    processes[name] = process

    def up():
        if process.poll() is not None:
            raise SystemExit("nginx exited during start-up:\n" + open(f"{work}/error.log").read())
        try:
            return request(port, "GET", "/healthz").status == 200
        except OSError:
            return False

    wait_for(up, 20, "nginx")
    return port


def run(binary, nginx, work, processes):
    origin = start_origin(binary, work, processes)
    proxy = start_nginx(nginx, work, [origin], processes)
    print(f"origin 127.0.0.1:{origin}, nginx 127.0.0.1:{proxy}, max-age {MAX_AGE} s")
    gz = {"Accept-Encoding": "gzip"}

    # --- The document: miss, then hit; variants apart.
    direct_gzip = request(origin, "GET", DOC, gz)
    direct_identity = request(origin, "GET", DOC)
    before = origin_count(origin, DOC_ROUTE)
    first = request(proxy, "GET", DOC, gz)
    stored_at = time.monotonic()
    second = request(proxy, "GET", DOC, gz)
    check("document gzip: MISS then HIT", (first.cache, second.cache) == ("MISS", "HIT"),
          f"{first.cache}, {second.cache}")
    check("document gzip: the origin asked once", origin_count(origin, DOC_ROUTE) - before == 1,
          f"{origin_count(origin, DOC_ROUTE) - before} origin requests")
    check("document gzip: the origin's bytes, ETag, Cache-Control and Vary",
          second.body == direct_gzip.body and second.header("ETag") == direct_gzip.header("ETag")
          and second.header("Cache-Control") == direct_gzip.header("Cache-Control")
          and second.header("Vary") == direct_gzip.header("Vary")
          and second.header("Content-Encoding") == "gzip",
          f"{second.header('ETag')} vs {direct_gzip.header('ETag')}")
    identity_first = request(proxy, "GET", DOC)
    identity_second = request(proxy, "GET", DOC)
    check("document identity: its own entry (MISS, then HIT)",
          (identity_first.cache, identity_second.cache) == ("MISS", "HIT"),
          f"{identity_first.cache}, {identity_second.cache}")
    refused = request(proxy, "GET", DOC, {"Accept-Encoding": "gzip;q=0, identity"})
    check("document identity: never the gzip body (also for gzip;q=0)",
          identity_first.body == direct_identity.body == identity_second.body == refused.body
          and identity_first.header("Content-Encoding") is None and refused.header("Content-Encoding") is None
          and identity_first.header("ETag") == direct_identity.header("ETag") != direct_gzip.header("ETag"))
    check("document: the gzip entry still gzip after the identity one",
          request(proxy, "GET", DOC, {"Accept-Encoding": "br, gzip"}).body == direct_gzip.body)
    check("document: gzip body decodes to the identity body", gzip.decompress(second.body) == direct_identity.body)
    head = request(proxy, "HEAD", DOC, gz)
    check("document: HEAD from the cache", head.status == 200 and head.cache == "HIT" and head.body == b"",
          f"{head.status} {head.cache}")
    before = origin_count(origin, DOC_ROUTE)
    busted = request(proxy, "GET", DOC + "?nocache=" + os.urandom(4).hex(), gz)
    check("document: a query string does not bypass the cache",
          busted.cache == "HIT" and origin_count(origin, DOC_ROUTE) == before, busted.cache)

    # --- A client's conditional request: 304 from the cache.
    before = origin_count(origin, DOC_ROUTE)
    conditional = request(proxy, "GET", DOC, dict(gz, **{"If-None-Match": direct_gzip.header("ETag")}))
    check("document: If-None-Match answered 304 from the cache",
          conditional.status == 304 and conditional.cache == "HIT" and origin_count(origin, DOC_ROUTE) == before,
          f"{conditional.status} {conditional.cache}")
    stale_tag = request(proxy, "GET", DOC, dict(gz, **{"If-None-Match": '"r0-0-0.gz"'}))
    check("document: a non-matching If-None-Match gets the 200", stale_tag.status == 200 and stale_tag.body == direct_gzip.body)

    # --- Revalidation after max-age: a conditional GET to the origin, answered 304.
    # nginx keeps whole seconds: a copy stored at t is fresh until the end of second floor(t) + max-age.
    time.sleep(max(0.0, stored_at + MAX_AGE + 1.1 - time.monotonic()))
    not_modified_before = origin_count(origin, DOC_ROUTE, status=304)
    revalidated = request(proxy, "GET", DOC, gz)
    check("document after max-age: REVALIDATED with the same bytes",
          revalidated.cache == "REVALIDATED" and revalidated.body == direct_gzip.body, revalidated.cache)
    check("document after max-age: the origin answered a conditional GET with 304",
          origin_count(origin, DOC_ROUTE, status=304) - not_modified_before == 1)
    refreshed_at = time.monotonic()
    check("document after revalidation: HIT again", request(proxy, "GET", DOC, gz).cache == "HIT")

    # --- A policy change: not before max-age, then served.
    admin = {"Authorization": f"Bearer {TOKEN}"}
    etag = request(origin, "GET", "/v1/admin/apps/demo/policy", admin).header("ETag")
    patch = request(origin, "PATCH", "/v1/admin/apps/demo/features/camera?message=proxy+test",
                    dict(admin, **{"If-Match": etag, "Content-Type": "application/merge-patch+json"}),
                    json.dumps({"cadence": {"prime": {"maxShows": 2}}}).encode())
    check("policy change on the origin", patch.status == 200, f"{patch.status} {patch.body[:200]!r}")
    new_gzip = request(origin, "GET", DOC, gz)
    check("the origin serves a new ETag", new_gzip.header("ETag") != direct_gzip.header("ETag"))
    early = request(proxy, "GET", DOC, gz)
    if time.monotonic() - refreshed_at < MAX_AGE - 0.2:
        check("policy change: the cached copy is served until max-age",
              early.cache == "HIT" and early.header("ETag") == direct_gzip.header("ETag"), early.cache)
    seen = wait_for(lambda: (lambda r: r if r.header("ETag") == new_gzip.header("ETag") else None)(
        request(proxy, "GET", DOC, gz)), MAX_AGE + 5, "the new policy through nginx")
    visible_after = time.monotonic() - refreshed_at
    check(f"policy change: served by nginx {visible_after:.2f} s after the copy was refreshed (max-age {MAX_AGE} s)",
          MAX_AGE - 0.2 <= visible_after <= MAX_AGE + 1.5 + 0.5 and seen.body == new_gzip.body, seen.cache)

    # --- The resolved policy: private, so never stored; each client its own.
    clients = [
        ("?platform=ios&os=17.4&locale=fr", {}),
        ("?platform=ios&os=17.4&locale=en", {}),
        ("?platform=ios&os=17.4", {"Accept-Language": "ja-JP, ja;q=0.9"}),
        ("?platform=ios&os=17.4", {"Accept-Language": "zh-Hant-TW"}),
        ("?platform=ios&os=17.4&installId=install-a", {}),
        ("?platform=ios&os=17.4&installId=install-b", {}),
    ]
    direct = {i: request(origin, "GET", RESOLVED + q, dict(h, **gz)) for i, (q, h) in enumerate(clients)}
    check("resolved: the origin marks it private", "private" in (direct[0].header("Cache-Control") or ""))
    check("resolved: the test's clients really differ",
          len({direct[i].body for i in range(4)}) == 4,
          "locales fr, en, ja (header), zh-Hant (header) must give four documents: " +
          ", ".join(direct[i].header("Content-Language") or "?" for i in range(4)))
    before = origin_count(origin, RESOLVED_ROUTE)
    rounds = 3
    mismatches = []
    statuses = set()
    for _ in range(rounds):
        for i, (query, headers) in enumerate(clients):
            got = request(proxy, "GET", RESOLVED + query, dict(headers, **gz))
            statuses.add(got.cache)
            if got.body != direct[i].body or got.header("ETag") != direct[i].header("ETag"):
                mismatches.append(f"client {i}")
    check("resolved: every client gets its own policy (same bytes and ETag as direct)", not mismatches,
          ", ".join(mismatches))
    reached = origin_count(origin, RESOLVED_ROUTE) - before
    check("resolved: private, so every request reached the origin (nothing served from the cache)",
          reached == rounds * len(clients) and statuses == {""}, f"{reached} of {rounds * len(clients)}, {statuses}")
    before = origin_count(origin, RESOLVED_ROUTE, status=304)
    conditional = request(proxy, "GET", RESOLVED + clients[0][0], dict(gz, **{"If-None-Match": direct[0].header("ETag")}))
    check("resolved: a client's If-None-Match reaches the origin and its 304 the client",
          conditional.status == 304 and origin_count(origin, RESOLVED_ROUTE, status=304) - before == 1,
          str(conditional.status))
    identity = request(proxy, "GET", RESOLVED + clients[0][0])
    check("resolved: identity client gets identity bytes",
          identity.header("Content-Encoding") is None and identity.body == gzip.decompress(direct[0].body))

    # --- Decide, events, admin: passed through, uncached.
    before = origin_count(origin, "/v1/apps/{app}/decide", "POST")
    body = json.dumps({"installId": "i-1", "platform": "ios", "os": "17.4",
                       "features": [{"feature": "camera", "status": "denied"}]}).encode()
    decides = [request(proxy, "POST", "/v1/apps/demo/decide", {"Content-Type": "application/json"}, body)
               for _ in range(2)]
    check("decide: passed through (200, no-store, not cached, both reach the origin)",
          all(d.status == 200 and d.header("Cache-Control") == "no-store" and d.cache == "" for d in decides)
          and origin_count(origin, "/v1/apps/{app}/decide", "POST") - before == 2)
    events = json.dumps({"events": [{"id": "proxy-e-1", "installId": "i-1", "type": "primeShown",
                                     "feature": "camera", "occurredAt": "2026-11-22T12:30:00Z"}]}).encode()
    posted = request(proxy, "POST", "/v1/apps/demo/events", {"Content-Type": "application/json"}, events)
    again = request(proxy, "POST", "/v1/apps/demo/events", {"Content-Type": "application/json"}, events)
    check("events: passed through (202, then the retry is a duplicate)",
          posted.status == 202 and json.loads(posted.body) == {"accepted": 1, "duplicates": 0}
          and again.status == 202 and json.loads(again.body) == {"accepted": 0, "duplicates": 1},
          f"{posted.status} {posted.body!r} {again.body!r}")
    before = origin_count(origin, "/v1/admin/apps/{app}/policy")
    admin_reads = [request(proxy, "GET", "/v1/admin/apps/demo/policy", admin) for _ in range(2)]
    check("admin: passed through with the Authorization header, never cached",
          all(a.status == 200 and a.cache == "" for a in admin_reads)
          and origin_count(origin, "/v1/admin/apps/{app}/policy") - before == 2
          and request(proxy, "GET", "/v1/admin/apps/demo/policy").status == 401)

    # --- The origin killed: the expired document is served stale.
    current = request(proxy, "GET", DOC, gz)
    fetched_at = time.monotonic()
    processes["prelude"].send_signal(signal.SIGKILL)
    processes["prelude"].wait(timeout=10)
    time.sleep(max(0.0, fetched_at + MAX_AGE + 1.1 - time.monotonic()))
    stale = request(proxy, "GET", DOC, gz)
    check("origin down: the expired document is served STALE with the last ETag",
          stale.status == 200 and stale.cache == "STALE" and stale.header("ETag") == current.header("ETag")
          and stale.body == current.body, f"{stale.status} {stale.cache}")
    stale_identity = request(proxy, "GET", DOC)
    check("origin down: the identity entry too", stale_identity.status == 200
          and stale_identity.header("Content-Encoding") is None, f"{stale_identity.status} {stale_identity.cache}")
    private = request(proxy, "GET", RESOLVED + clients[0][0], gz)
    check("origin down: the private resolved policy is not served from any cache (502)", private.status == 502,
          str(private.status))

    failover(binary, nginx, work, processes)


def failover(binary, nginx, work, processes):
    """Two origins behind one nginx (what a primary and a replica are to it): same bytes and ETags, since tags are
    content-derived. One killed: the other answers, revalidation included; both killed: stale."""
    first = start_origin(binary, work, processes, "origin-a")
    second = start_origin(binary, work, processes, "origin-b")
    proxy = start_nginx(nginx, work, [first, second], processes, "nginx-failover")
    gz = {"Accept-Encoding": "gzip"}
    a, b = request(first, "GET", DOC, gz), request(second, "GET", DOC, gz)
    check("two origins: the same document bytes and ETag", a.body == b.body and a.header("ETag") == b.header("ETag"))
    stored = request(proxy, "GET", DOC, gz)
    stored_at = time.monotonic()
    check("two origins: MISS, then HIT", stored.cache == "MISS" and request(proxy, "GET", DOC, gz).cache == "HIT")
    processes["origin-a"].send_signal(signal.SIGKILL)
    processes["origin-a"].wait(timeout=10)
    time.sleep(max(0.0, stored_at + MAX_AGE + 1.1 - time.monotonic()))
    before = origin_count(second, DOC_ROUTE, status=304)
    results = [request(proxy, "GET", DOC, gz) for _ in range(2)]
    check("one origin killed: the other revalidates the copy (304 to the stored ETag), never STALE",
          results[0].cache == "REVALIDATED" and results[1].cache == "HIT"
          and origin_count(second, DOC_ROUTE, status=304) - before == 1 and results[0].body == a.body,
          ", ".join(r.cache for r in results))
    resolved = request(proxy, "GET", RESOLVED + "?platform=ios&os=17.4&locale=fr", gz)
    check("one origin killed: the resolved policy still served (next upstream)", resolved.status == 200,
          str(resolved.status))
    refreshed_at = time.monotonic()
    processes["origin-b"].send_signal(signal.SIGKILL)
    processes["origin-b"].wait(timeout=10)
    time.sleep(max(0.0, refreshed_at + MAX_AGE + 1.1 - time.monotonic()))
    stale = request(proxy, "GET", DOC, gz)
    check("both origins killed: STALE", stale.status == 200 and stale.cache == "STALE" and stale.body == a.body,
          f"{stale.status} {stale.cache}")


if __name__ == "__main__":
    main()
