#!/usr/bin/env python3
"""Server Notifications and the App Store Server API under load, against release `storefront serve`.

Measures, in one run:
  - payments/s with wrk against two servers started alike, one with --notify to a local receiver and
    one without, alternating round by round (the ratio is the median of the rounds' own ratios);
  - on an idle server, how long after its commit a notification's POST reaches the receiver
    (the receiver's arrival time minus the notification's createdDate from /admin/notifications);
  - 1,000 purchases against a receiver that refuses 30 % of attempts (seeded), under the `2s` time
    rate so Apple's retries come in milliseconds: how many were accepted, and whether any UUID twice;
  - a page of Get Transaction History (20 of 10,000 transactions of one account), following revision;
  - the same POST delay to a healthy receiver on two servers started alike, one of them also notifying
    a receiver that accepts connections and never answers: a hung URL must not delay another URL.

Usage: notify_bench.py --bin DIR --catalog FILE --out FILE [--quick]
"""
import json
import os
import random
import socket
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from server_bench import arguments, start_server, stop_server as stop, summarize, wrk

HERE = os.path.dirname(os.path.abspath(__file__))
ADMIN = "bench-admin-token"


class Receiver:
    """Answers 200, or 500 to a seeded share of attempts, and keeps each accepted UUID with its arrival time."""

    def __init__(self, fail_rate=0.0, seed=1):
        self.lock = threading.Lock()
        self.random = random.Random(seed)
        self.fail_rate = fail_rate
        self.arrivals = {}
        self.duplicates = 0
        self.refused = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                arrived = time.time()
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                status = receiver.receive(body, arrived)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = "http://127.0.0.1:%d/notifications" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def receive(self, body, arrived):
        with self.lock:
            if self.random.random() < self.fail_rate:
                self.refused += 1
                return 500
        payload = json.loads(body)["signedPayload"].split(".")[1]
        decoded = json.loads(base64url(payload))
        with self.lock:
            if decoded["notificationUUID"] in self.arrivals:
                self.duplicates += 1
            else:
                self.arrivals[decoded["notificationUUID"]] = arrived
        return 200


def base64url(text):
    import base64
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def call(url, method="GET", body=None, headers=None):
    request = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request, timeout=30) as answer:
        text = answer.read()
        return json.loads(text) if text else None


def admin(base, method, path, body=None):
    return call(base + path, method, body, {"Authorization": "Bearer " + ADMIN})


def buy(base, product="gems.100", account="alice"):
    return call(base + "/v1/payments", "POST", {"account": account, "productId": "com.example.storefront." + product},
                {"Idempotency-Key": str(uuid.uuid4())})


def serve(binary, catalog, work, name, extra=()):
    log = open(os.path.join(work, name + ".log"), "w")
    process, url = start_server(binary, catalog, os.path.join(work, name), log, list(extra))
    return process, url, log


class Nginx:
    """nginx answering 204 to every POST and counting them in its access log: a receiver that costs
    the two cores it shares with the server little, unlike Python's http.server."""

    def __init__(self, work):
        self.root = os.path.join(work, "nginx")
        os.makedirs(self.root, exist_ok=True)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.log = os.path.join(self.root, "access.log")
        config = os.path.join(self.root, "nginx.conf")
        with open(config, "w") as handle:
            handle.write("""daemon off; worker_processes 1; pid %(root)s/nginx.pid; error_log %(root)s/error.log;
events { worker_connections 1024; }
http { access_log %(log)s; client_body_temp_path %(root)s; proxy_temp_path %(root)s; fastcgi_temp_path %(root)s;
       uwsgi_temp_path %(root)s; scgi_temp_path %(root)s;
       server { listen 127.0.0.1:%(port)d; location / { return 204; } } }
""" % {"root": self.root, "log": self.log, "port": self.port})
        self.process = subprocess.Popen(["nginx", "-c", config, "-p", self.root], stderr=subprocess.DEVNULL)
        self.url = "http://127.0.0.1:%d/notifications" % self.port
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("nginx did not start; see %s/error.log" % self.root)

    @property
    def count(self):
        with open(self.log) as handle:
            return sum(1 for _ in handle)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def payments_side_by_side(binary, catalog, work, seconds, rounds):
    receiver = Nginx(work)
    plain, plain_url, plain_log = serve(binary, catalog, work, "plain")
    notifying, notify_url, notify_log = serve(binary, catalog, work, "notifying", ["--notify", receiver.url])
    script = os.path.join(HERE, "payments.lua")
    samples = {"without": [], "with": []}
    try:
        for round_number in range(rounds):
            order = [("without", plain_url), ("with", notify_url)]
            for name, url in (order if round_number % 2 == 0 else reversed(order)):
                samples[name].append(wrk(url, "/v1/payments", script, 16, seconds))
        pending = sum(len(item["pending"]) for item in admin(notify_url, "GET", "/admin/notifications?limit=1000")["notifications"])
        time.sleep(1)
        delivered = receiver.count
    finally:
        stop(plain, plain_log)
        stop(notifying, notify_log)
        receiver.stop()
    ratios = [w["rps"] / p["rps"] for w, p in zip(samples["with"], samples["without"]) if p["rps"]]
    return {"without": summarize(samples["without"]), "with": summarize(samples["with"]), "roundRatios": ratios,
            "ratio": statistics.median(ratios) if ratios else None, "delivered": delivered,
            "pendingAtEnd": pending}


def post_latency(binary, catalog, work, count):
    receiver = Receiver()
    process, base, log = serve(binary, catalog, work, "latency", ["--notify", receiver.url])
    try:
        delays = delays_to(receiver, base, count)
    finally:
        stop(process, log)
    return {"count": len(delays), "p50_ms": statistics.median(delays), "p99_ms": delays[int(0.99 * (len(delays) - 1))]}


class HungReceiver:
    """Accepts every connection and reads the request, then never answers: a backend that hangs."""

    def __init__(self):
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(1024)
        self.url = "http://127.0.0.1:%d/notifications" % self.listener.getsockname()[1]
        self.held = []
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            self.held.append(connection)

    def stop(self):
        self.listener.close()
        for connection in self.held:
            connection.close()


def delays_to(receiver, base, count):
    """Buys `count` times, idle between them (each notification meets an idle deliverer), and gives
    each notification's POST delay at `receiver`, sorted."""
    for _ in range(count):
        buy(base)
        time.sleep(0.05)
    time.sleep(0.5)
    outbox = admin(base, "GET", "/admin/notifications?limit=1000")["notifications"]
    return sorted((receiver.arrivals[item["notificationUUID"]] * 1000 - item["createdDate"])
                  for item in outbox if item["notificationUUID"] in receiver.arrivals)


def hung_neighbour(binary, catalog, work, count):
    """The POST delay to a healthy URL, alone and beside a URL that hangs on every request (each attempt
    there waits out --notify-timeout, 2 s here), measured on two servers in one run."""
    hung = HungReceiver()
    results = {}
    try:
        for name, extra in (("alone", []), ("besideHung", ["--notify", hung.url])):
            receiver = Receiver()
            process, base, log = serve(
                binary, catalog, work, "neighbour-" + name, extra + ["--notify", receiver.url, "--notify-timeout", "2"])
            try:
                delays = delays_to(receiver, base, count)
            finally:
                stop(process, log)
            results[name] = {"delivered": len(delays), "p50_ms": statistics.median(delays),
                             "p99_ms": delays[int(0.99 * (len(delays) - 1))]}
    finally:
        hung.stop()
    results["hungConnections"] = len(hung.held)
    results["p50Ratio"] = results["besideHung"]["p50_ms"] / results["alone"]["p50_ms"]
    return results


def failing_receiver(binary, catalog, work, purchases):
    """Apple gives up on a notification after its fifth retry (0.3^6 of them here); a backend then
    finds it with Get Notification History's onlyFailures, as Apple advises. Both ways count."""
    receiver = Receiver(fail_rate=0.3, seed=7)
    key = APIKey(work)
    process, base, log = serve(binary, catalog, work, "failing", ["--notify", receiver.url, *key.flag])
    try:
        admin(base, "PUT", "/admin/controls", {"timeRate": "2s"})
        started = time.monotonic()
        with ThreadPoolExecutor(16) as pool:
            list(pool.map(lambda _: buy(base), range(purchases)))
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            outbox = admin(base, "GET", "/admin/notifications?limit=1000")["notifications"]
            if len(outbox) >= purchases and not any(item["pending"] for item in outbox):
                break
            time.sleep(0.05)
        elapsed = time.monotonic() - started
        recovered = recover_failures(base, key)
    finally:
        stop(process, log)
    accepted = set(receiver.arrivals) | recovered
    return {"purchases": purchases, "accepted": len(accepted), "deliveredFirstHand": len(receiver.arrivals),
            "recoveredFromHistory": len(recovered - set(receiver.arrivals)), "duplicates": receiver.duplicates,
            "refusedAttempts": receiver.refused, "seconds": elapsed}


def recover_failures(base, key):
    """The UUIDs Get Notification History lists as not delivered (onlyFailures), every page."""
    now = int(time.time() * 1000)
    body = {"startDate": now - 3_600_000, "endDate": now + 60_000, "onlyFailures": True}
    found, token = set(), None
    while True:
        page = call(base + "/inApps/v1/notifications/history" + ("?paginationToken=" + token if token else ""), "POST", body, key.headers)
        for item in page["notificationHistory"]:
            found.add(json.loads(base64url(item["signedPayload"].split(".")[1]))["notificationUUID"])
        token = page["paginationToken"]
        if not page["hasMore"]:
            return found


class APIKey:
    """An App Store Connect API key made for the run, and a bearer token for /inApps."""

    issuer, key_id = "57246542-96fe-1a63-e053-0824d011072a", "BENCHKEY01"

    def __init__(self, work):
        import jwt  # PyJWT, which app-store-server-library depends on
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        self.file = os.path.join(work, "AuthKey.p8")
        with open(self.file, "wb") as handle:
            handle.write(pem)
        token = jwt.encode({"iss": self.issuer, "aud": "appstoreconnect-v1", "bid": "com.example.storefront.demo",
                            "iat": int(time.time()), "exp": int(time.time()) + 3000}, pem, algorithm="ES256", headers={"kid": self.key_id})
        self.headers = {"Authorization": "Bearer " + token}
        self.flag = ["--api-key", "%s:%s:%s" % (self.issuer, self.key_id, self.file)]


def history_pages(binary, catalog, work, transactions, pages):
    key = APIKey(work)
    process, base, log = serve(binary, catalog, work, "history", key.flag)
    try:
        with ThreadPoolExecutor(16) as pool:
            first = list(pool.map(lambda _: buy(base), range(transactions)))[0]["transaction"]["transactionId"]
        headers = key.headers
        timings, revision = [], None
        for _ in range(pages):
            path = "/inApps/v2/history/%s" % first + ("?revision=" + revision if revision else "")
            started = time.perf_counter()
            page = call(base + path, headers=headers)
            timings.append((time.perf_counter() - started) * 1000)
            revision = page["revision"] if page["hasMore"] else None
            if len(page["signedTransactions"]) != 20 and page["hasMore"]:
                raise SystemExit("a history page held %d transactions" % len(page["signedTransactions"]))
    finally:
        stop(process, log)
    timings.sort()
    return {"transactions": transactions, "pages": len(timings), "p50_ms": statistics.median(timings),
            "p99_ms": timings[int(0.99 * (len(timings) - 1))]}


def main():
    args = arguments()
    binary = os.path.join(args.bin, "storefront")
    seconds, rounds = (3, 1) if args.quick else (3, 6)
    with tempfile.TemporaryDirectory(prefix="storefront-notify-bench.") as work:
        results = {"payments": payments_side_by_side(binary, args.catalog, work, seconds, rounds)}
        print("  payments/s, 16 connections: without --notify %.0f, with %.0f · ratio %.2f×"
              % (results["payments"]["without"]["rps"], results["payments"]["with"]["rps"], results["payments"]["ratio"]), flush=True)
        results["postLatency"] = post_latency(binary, args.catalog, work, 20 if args.quick else 100)
        print("  notification POST after its commit, idle: p50 %.1f ms, p99 %.1f ms" % (
            results["postLatency"]["p50_ms"], results["postLatency"]["p99_ms"]), flush=True)
        results["hungNeighbour"] = hung_neighbour(binary, args.catalog, work, 20 if args.quick else 100)
        neighbour = results["hungNeighbour"]
        print("  POST delay to a healthy URL: alone p50 %.1f ms (p99 %.1f), beside a hung URL p50 %.1f ms (p99 %.1f), %d/%d delivered, %d connections held by the hung URL"
              % (neighbour["alone"]["p50_ms"], neighbour["alone"]["p99_ms"], neighbour["besideHung"]["p50_ms"],
                 neighbour["besideHung"]["p99_ms"], neighbour["besideHung"]["delivered"], 20 if args.quick else 100,
                 neighbour["hungConnections"]), flush=True)
        results["failingReceiver"] = failing_receiver(binary, args.catalog, work, 200 if args.quick else 1000)
        failing = results["failingReceiver"]
        print("  %d purchases, receiver refusing 30 %%: %d accepted (%d recovered from history), %d duplicates, %d refused attempts, %.1f s"
              % (failing["purchases"], failing["accepted"], failing["recoveredFromHistory"], failing["duplicates"],
                 failing["refusedAttempts"], failing["seconds"]), flush=True)
        results["history"] = history_pages(binary, args.catalog, work, 1000 if args.quick else 10000, 50 if args.quick else 200)
        print("  history page of 20 from %d transactions: p50 %.1f ms, p99 %.1f ms" % (
            results["history"]["transactions"], results["history"]["p50_ms"], results["history"]["p99_ms"]), flush=True)
    with open(args.out, "w") as handle:
        json.dump(results, handle, indent=2)


if __name__ == "__main__":
    main()
