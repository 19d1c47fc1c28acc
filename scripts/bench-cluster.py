#!/usr/bin/env python3
"""Issue 37's throughput figures for BENCHMARKS.md, through nginx to three Prelude nodes against nginx to one node, in
the same run, on one PostgreSQL 15 database (a throwaway cluster on loopback):
  - the resolved-policy fetch (served from each node's memory);
  - event ingestion, tagged batches of 100 events (scripts/bench-events.sh's "tagged" mode and its wrk script): every
    node writes the same experiment's counter rows, so the three-node figure shows what their contention costs.

    scripts/bench-cluster.py PRELUDE_BINARY        (release build; not part of .ci/run)

Starts PostgreSQL (scripts/postgres/throwaway.sh), three `prelude serve` nodes on it (scripts/cluster-drill.py's
starter) and two nginx instances with deploy/nginx's includes (scripts/proxy-cache-test.py's): one sending to the first node only, one to all three.
Then wrk (PASSES interleaved passes of DURATION seconds, 2 threads, 32 connections) against each, and prints the
median requests per second of each and their ratio. nginx, the nodes and wrk share the machine's cores: on a
2-core machine three nodes cannot add CPU, so the ratio measures what the extra hop and processes cost there.
"""
import importlib.util
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PASSES = int(os.environ.get("PASSES", "5"))
DURATION = int(os.environ.get("DURATION", "5"))
PATH = "/v1/apps/demo/policy?platform=ios&os=17.4&locale=en&installId=bench-install"


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def wrk(port):
    output = subprocess.run(["wrk", "-t2", "-c32", f"-d{DURATION}s", f"http://127.0.0.1:{port}{PATH}"],
                            check=True, capture_output=True, text=True).stdout
    if "Non-2xx" in output:
        raise SystemExit(f"bench-cluster: non-2xx answers through :{port}\n{output}")
    return float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))


def events_script(work):
    """bench-events.sh's wrk script (the one copy of it), written to `work`."""
    text = open(os.path.join(ROOT, "scripts/bench-events.sh")).read()
    lua = re.search(r"<<'LUA'\n(.*?)\nLUA\n", text, re.S).group(1)
    path = os.path.join(work, "events.lua")
    with open(path, "w") as f:
        f.write(lua)
    return path


def wrk_events(port, script, run):
    finished = subprocess.run(["wrk", "-t2", "-c8", f"-d{DURATION}s", "-s", script, f"http://127.0.0.1:{port}",
                               "--", "tagged", run], check=True, capture_output=True, text=True)
    result = dict(pair.split("=") for pair in re.search(r"RESULT (.*)", finished.stdout).group(1).split())
    if int(result["failed"]):
        raise SystemExit(f"bench-cluster: {result['failed']} event batches refused through :{port}:\n"
                         + finished.stderr[-1500:])
    return int(result["accepted"]) / float(result["seconds"]), float(result["p99"])


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/prelude")
    drill = load("cluster_drill", "scripts/cluster-drill.py")
    work = tempfile.mkdtemp(prefix="prelude-bench-cluster-")
    os.chmod(work, 0o755)
    throwaway = os.path.join(ROOT, "scripts/postgres/throwaway.sh")
    processes = {}
    try:
        url = subprocess.run([throwaway, "start", os.path.join(work, "pg")], check=True, capture_output=True,
                             text=True).stdout.strip()
        nodes = [drill.start_node(binary, work, url, index, processes) for index in range(3)]
        proxy = load("proxy_cache_test", "scripts/proxy-cache-test.py")
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        one = proxy.start_nginx(nginx, work, nodes[:1], processes, name="nginx-one")
        three = proxy.start_nginx(nginx, work, nodes, processes, name="nginx-three")
        wrk(one)  # warm-up
        wrk(three)
        figures = {"one node": [], "three nodes": []}
        for _ in range(PASSES):
            figures["one node"].append(wrk(one))
            figures["three nodes"].append(wrk(three))
        medians = {name: statistics.median(values) for name, values in figures.items()}
        for name, values in figures.items():
            print(f"bench-cluster: policy fetch, nginx -> {name}: median {medians[name]:.0f} req/s "
                  f"(passes: {', '.join(f'{v:.0f}' for v in values)})")
        print(f"bench-cluster: policy fetch, three nodes / one node = "
              f"{medians['three nodes'] / medians['one node']:.2f}x "
              f"({os.cpu_count()} cores, wrk -t2 -c32 -d{DURATION}s, {PASSES} interleaved passes)")
        script = events_script(work)
        events = {"one node": [], "three nodes": []}
        for number in range(PASSES):
            events["one node"].append(wrk_events(one, script, f"one{number}"))
            events["three nodes"].append(wrk_events(three, script, f"three{number}"))
        rates = {name: statistics.median(rate for rate, _ in values) for name, values in events.items()}
        for name, values in events.items():
            print(f"bench-cluster: events (tagged), nginx -> {name}: median {rates[name]:.0f} events/s, "
                  f"p99 median {statistics.median(p99 for _, p99 in values):.1f} ms "
                  f"(passes: {', '.join(f'{rate:.0f}' for rate, _ in values)})")
        print(f"bench-cluster: events, three nodes / one node = {rates['three nodes'] / rates['one node']:.2f}x "
              f"(wrk -t2 -c8 -d{DURATION}s, batches of 100)")
    except SystemExit:
        for name in sorted(os.listdir(work)):
            if name.startswith("node-") and name.endswith(".log"):
                errors = [line for line in open(os.path.join(work, name), errors="replace") if '"level":"error"' in line or '"level":"warning"' in line]
                print(f"--- {name}: {len(errors)} errors; the first three:\n" + "".join(errors[:3]), file=sys.stderr)
        server_log = os.path.join(work, "pg", "server.log")
        if os.path.exists(server_log):
            print("--- PostgreSQL's log, its last errors:\n" + "".join(
                [line for line in open(server_log, errors="replace") if "ERROR" in line or "DETAIL" in line or "STATEMENT" in line or "Process " in line][-12:]),
                file=sys.stderr)
        raise
    finally:
        for name, process in processes.items():
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=10)
        subprocess.run([throwaway, "stop", os.path.join(work, "pg")], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
