#!/usr/bin/env python3
"""A Standard Webhooks receiver that verifies every delivery (docs/webhooks.md, "Verifying a delivery").

It checks the signature with Python's own hmac and hashlib (an implementation independent of Prelude's), refuses a
bad or missing one with 401, acknowledges with 204 and keeps each webhook-id it acknowledged, so a delivery sent
again (a retry after a lost answer, a manual redelivery) is recognised as a duplicate: processed once per id.
Each request is appended to --log as one JSON line: path, id, timestamp, whether the signature verified, whether
the id was already acknowledged, the answer's status and the body.

    scripts/webhook-receiver.py --secret whsec_... [--port 0] [--cert server.pem --key server.key] [--log file]

--port-file receives the bound port. A file --log + ".status", when present, holds a status to answer instead
(e.g. 500 or 410) to every request, signed or not, until it is removed; --fail N answers 500 to the first N deliveries. A request to /redirect is
answered 302 to /hook (a sender must not follow it). --tolerance S refuses timestamps more than S seconds from
this machine's clock (0: not checked, for tests that run the sender on an injected clock).
"""
import argparse
import base64
import hashlib
import hmac
import http.server
import json
import os
import signal
import ssl
import sys
import threading
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--secret", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file")
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--log", default="/dev/stdout")
    parser.add_argument("--fail", type=int, default=0)
    parser.add_argument("--tolerance", type=float, default=300)
    options = parser.parse_args()
    # A parent may have started this process with signals blocked (the mask is inherited): let SIGTERM and SIGINT
    # end it as they should.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    if not options.secret.startswith("whsec_"):
        sys.exit("the secret must start with whsec_")
    key = base64.b64decode(options.secret[len("whsec_"):])
    lock = threading.Lock()
    acknowledged = set()
    failures_left = [options.fail]

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            if self.path == "/redirect":
                self.answer(302, body, {"Location": "/hook"}, verified=None, duplicate=None)
                return
            webhook_id = self.headers.get("webhook-id", "")
            timestamp = self.headers.get("webhook-timestamp", "")
            signatures = self.headers.get("webhook-signature", "").split(" ")
            signed = webhook_id.encode() + b"." + timestamp.encode() + b"." + body
            expected = "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
            verified = any(hmac.compare_digest(expected, s) for s in signatures)
            if verified and options.tolerance > 0:
                verified = timestamp.isdigit() and abs(time.time() - int(timestamp)) <= options.tolerance
            with lock:
                duplicate = webhook_id in acknowledged
                status = 204 if verified else 401
                forced = self.forced_status()
                if forced is not None:
                    status = forced
                elif verified and failures_left[0] > 0:
                    failures_left[0] -= 1
                    status = 500
                if 200 <= status < 300:
                    acknowledged.add(webhook_id)
            self.answer(status, body, {}, verified=verified, duplicate=duplicate, webhook_id=webhook_id,
                        timestamp=timestamp)

        def forced_status(self):
            try:
                with open(options.log + ".status") as handle:
                    return int(handle.read().strip())
            except (OSError, ValueError):
                return None

        def answer(self, status, body, headers, verified, duplicate, webhook_id=None, timestamp=None):
            record = {"path": self.path, "id": webhook_id, "timestamp": timestamp, "verified": verified,
                      "duplicate": duplicate, "status": status, "body": body.decode("utf-8", "replace")}
            with lock, open(options.log, "a") as handle:
                handle.write(json.dumps(record) + "\n")
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", "0")
            self.end_headers()

    server = http.server.ThreadingHTTPServer(("127.0.0.1", options.port), Handler)
    if options.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(options.cert, options.key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    if options.port_file:
        with open(options.port_file + ".tmp", "w") as handle:
            handle.write(str(server.server_address[1]))
        os.rename(options.port_file + ".tmp", options.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
