#!/usr/bin/env python3
"""Resident memory and shutdown time of `storefront serve` under slow clients.

Starts the server on a free loopback port with a fresh --db, reads its resident memory (VmRSS), then:

  1. opens CONNECTIONS connections that each send a /verifyReceipt head declaring a body just under
     the 5 MiB receipt limit and all of that body but its last byte, then stall. Memory is read once
     every connection has sent what the server would take, and again SETTLE seconds after they all
     closed. Each connection reports what the server did with it: answered (and with what status),
     closed it, or kept it open.
  2. opens 10 such connections, leaves them stalled, sends SIGTERM and times the exit.

Extra arguments after `--` go to `storefront serve` (for example `-- --max-buffered-body 64MiB`).
Prints one JSON object. Linux only (reads /proc).

Usage: Benchmarks/slow_clients.py [--bin FILE] [--connections N] [--settle SECONDS] [-- SERVE ARGS...]
"""
import argparse
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BODY = 5 * 1024 * 1024 - 1024


def default_binary():
    candidates = [os.path.join(ROOT, ".build", kind, "storefront") for kind in ("release", "debug")]
    existing = [path for path in candidates if os.access(path, os.X_OK)]
    if not existing:
        raise SystemExit("slow_clients.py: no storefront executable; run `swift build` first or pass --bin")
    return max(existing, key=os.path.getmtime)


def start_server(binary, db, log, extra):
    process = subprocess.Popen(
        [binary, "serve", "--port", "0", "--db", db, "--catalog", os.path.join(ROOT, "products.json"),
         "--admin-token", "slow-clients-token"] + extra,
        stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with open(log.name) as handle:
            match = re.search(r"listening on http://[0-9.]+:([0-9]+)", handle.read())
        if match:
            return process, int(match.group(1))
        if process.poll() is not None:
            raise SystemExit(f"storefront serve exited with {process.returncode}; see {log.name}")
        time.sleep(0.1)
    process.kill()
    raise SystemExit(f"storefront serve did not start in 60 s; see {log.name}")


def resident_mib(pid):
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    return None


def stalled_client(port, results, index, ready):
    """Sends all of a 5 MiB body but its last byte, then waits; records what the server did."""
    connection = socket.create_connection(("127.0.0.1", port))
    connection.settimeout(5)
    head = (f"POST /verifyReceipt HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {BODY}\r\n\r\n").encode()
    sent = 0
    try:
        connection.sendall(head)
        chunk = b"a" * 65536
        while sent < BODY - 1:
            piece = chunk[:min(len(chunk), BODY - 1 - sent)]
            connection.sendall(piece)
            sent += len(piece)
    except (socket.timeout, OSError):
        pass  # the server stopped reading (or closed): what it took is what it holds
    results[index] = {"socket": connection, "sent": sent}
    ready.release()


def outcome(connection):
    """The status the server answered, "closed" without an answer, or "open"."""
    readable, _, _ = select.select([connection], [], [], 0)
    if not readable:
        return "open"
    try:
        data = connection.recv(256)
    except OSError:
        return "closed"
    match = re.match(rb"HTTP/1\.[01] (\d{3})", data)
    return match.group(1).decode() if match else "closed"


def open_stalled(port, count):
    results = [None] * count
    ready = threading.Semaphore(0)
    threads = [threading.Thread(target=stalled_client, args=(port, results, i, ready), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    for _ in threads:
        ready.acquire()
    return results


def memory_run(binary, connections, settle, extra):
    with tempfile.TemporaryDirectory() as work, open(os.path.join(work, "serve.log"), "w") as log:
        process, port = start_server(binary, os.path.join(work, "db"), log, extra)
        try:
            time.sleep(1)
            before = resident_mib(process.pid)
            clients = open_stalled(port, connections)
            time.sleep(1)
            during = resident_mib(process.pid)
            outcomes = {}
            for client in clients:
                key = outcome(client["socket"])
                outcomes[key] = outcomes.get(key, 0) + 1
            for client in clients:
                client["socket"].close()
            time.sleep(settle)
            after = resident_mib(process.pid)
            return {"connections": connections, "rssMiB": {"before": before, "during": during, "after": after},
                    "outcomes": outcomes, "sentMiB": round(sum(c["sent"] for c in clients) / 1048576, 1)}
        finally:
            process.kill()
            process.wait()


def shutdown_run(binary, extra):
    with tempfile.TemporaryDirectory() as work, open(os.path.join(work, "serve.log"), "w") as log:
        process, port = start_server(binary, os.path.join(work, "db"), log, extra)
        clients = open_stalled(port, 10)
        time.sleep(0.5)
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        try:
            status = process.wait(timeout=60)
            seconds = round(time.monotonic() - started, 2)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            status, seconds = "killed after 60 s", None
        for client in clients:
            client["socket"].close()
        return {"stalledClients": 10, "exitStatus": status, "seconds": seconds}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=None)
    parser.add_argument("--connections", type=int, default=100)
    parser.add_argument("--settle", type=float, default=5)
    args, extra = parser.parse_known_args()
    extra = [arg for arg in extra if arg != "--"]
    binary = args.bin or default_binary()
    result = {"binary": binary, "serveArguments": extra,
              "memory": memory_run(binary, args.connections, args.settle, extra),
              "shutdown": shutdown_run(binary, extra)}
    json.dump(result, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
