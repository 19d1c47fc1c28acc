#!/usr/bin/env python3
"""Opens N keep-alive connections to 127.0.0.1:PORT, makes one GET on each, keeps them all open and prints
"<summed VmRSS kB of PIDS>\t<connections still open>". Used by scripts/bench.sh's memory action.

Usage: hold-connections.py PORT PATH N PID [PID...]
Bounded: loopback only, N connections, 10 s socket timeouts; everything is closed before exit.
"""
import re
import socket
import sys


def rss_kb(pids):
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                m = re.search(r"^VmRSS:\s+(\d+)", f.read(), re.M)
                total += int(m.group(1)) if m else 0
        except OSError:
            pass
    return total


def read_response(sock):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed before the head")
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    m = re.search(rb"(?im)^content-length:\s*(\d+)", head)
    length = int(m.group(1)) if m else 0
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed in the body")
        rest += chunk


def main():
    port, path, n = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    pids = sys.argv[4:]
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    socks = []
    try:
        for _ in range(n):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(request)
            socks.append(s)
        for s in socks:
            read_response(s)
        rss = rss_kb(pids)
        still_open = 0
        for s in socks:
            s.setblocking(False)
            try:
                still_open += 0 if s.recv(1) == b"" else 1
            except BlockingIOError:
                still_open += 1
        print(f"{rss}\t{still_open}")
    finally:
        for s in socks:
            s.close()


if __name__ == "__main__":
    main()
