#!/usr/bin/env python3
"""Payments per second against `storefront serve`, side by side with the same server's health route.

Starts the server on a free loopback port with a fresh --db, then for 1, 16 and 64 connections runs
wrk on POST /v1/payments (a new Idempotency-Key per request, so every request is a durable commit)
and on GET /v1/health, alternating the two round by round so machine drift falls on both. Writes the
medians over rounds (requests/s, p50 and p99 latency) as JSON, and the ratio as the median of the
rounds' own ratios (each round's payments against the health run next to it).

Usage: server_bench.py --bin DIR --catalog FILE --out FILE [--quick]
"""
import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def start_server(binary, catalog, db, log, extra=()):
    process = subprocess.Popen(
        [binary, "serve", "--port", "0", "--db", db, "--catalog", catalog, "--admin-token", "bench-admin-token", *extra],
        stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with open(log.name) as handle:
            match = re.search(r"listening on (http://[0-9.]+:[0-9]+)", handle.read())
        if match:
            return process, match.group(1)
        if process.poll() is not None:
            raise SystemExit(f"storefront serve exited with {process.returncode}; see {log.name}")
        time.sleep(0.1)
    process.kill()
    raise SystemExit(f"storefront serve did not start in 60 s; see {log.name}")


def stop_server(process, log):
    """SIGTERM, as a user stops it; SIGKILL only if it has not ended within 30 s."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
    log.close()


def wrk(url, path, script, connections, seconds):
    threads = 1 if connections == 1 else 2
    output = subprocess.run(
        ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s", "-s", script, url + path],
        capture_output=True, text=True, check=True).stdout
    match = re.search(r"^WRKJSON (\{.*\})$", output, re.M)
    if not match:
        raise SystemExit(f"wrk printed no summary:\n{output}")
    result = json.loads(match.group(1))
    result["rps"] = result["requests"] / result["seconds"] if result["seconds"] else 0
    return result


def summarize(samples):
    return {
        "rps": statistics.median(s["rps"] for s in samples),
        "p50_ms": statistics.median(s["p50_us"] for s in samples) / 1000,
        "p99_ms": statistics.median(s["p99_us"] for s in samples) / 1000,
        "errors": sum(s["errors"] for s in samples),
        "unexpectedStatus": sum(s["non201"] for s in samples),
        "requests": sum(s["requests"] for s in samples),
        "rounds": len(samples),
    }


def parser():
    """The options every benchmark script takes from Benchmarks/run."""
    options = argparse.ArgumentParser()
    options.add_argument("--bin", required=True)
    options.add_argument("--catalog", required=True)
    options.add_argument("--out", required=True)
    options.add_argument("--quick", action="store_true")
    return options


def arguments():
    return parser().parse_args()


def main():
    args = arguments()
    # Short rounds, many of them: the ratio is the median of each round's payments/health pair,
    # measured back to back, so a burst of load on this shared machine spoils a round, not the figure.
    seconds, rounds = (3, 1) if args.quick else (3, 8)
    routes = {
        "payments": ("/v1/payments", os.path.join(HERE, "payments.lua")),
        "health": ("/v1/health", os.path.join(HERE, "health.lua")),
    }
    with tempfile.TemporaryDirectory(prefix="storefront-serve-bench.") as work:
        log = open(os.path.join(work, "serve.log"), "w")
        server, url = start_server(os.path.join(args.bin, "storefront"), args.catalog, os.path.join(work, "db"), log)
        try:
            results = {}
            for connections in (1, 16, 64):
                samples = {name: [] for name in routes}
                for round_number in range(rounds):
                    order = list(routes) if round_number % 2 == 0 else list(reversed(list(routes)))
                    for name in order:
                        path, script = routes[name]
                        samples[name].append(wrk(url, path, script, connections, seconds))
                row = {name: summarize(values) for name, values in samples.items()}
                pairs = [p["rps"] / h["rps"] for p, h in zip(samples["payments"], samples["health"]) if h["rps"]]
                row["roundRatios"] = pairs
                row["ratio"] = statistics.median(pairs) if pairs else None
                results[str(connections)] = row
                print(f"  {connections:>2} connections: payments {row['payments']['rps']:8.0f}/s "
                      f"(p50 {row['payments']['p50_ms']:.2f} ms, p99 {row['payments']['p99_ms']:.2f} ms) · "
                      f"health {row['health']['rps']:8.0f}/s (p50 {row['health']['p50_ms']:.2f} ms, "
                      f"p99 {row['health']['p99_ms']:.2f} ms) · ratio {row['ratio']:.2f}×", flush=True)
        finally:
            stop_server(server, log)
        if server.returncode not in (0, -signal.SIGTERM):
            raise SystemExit(f"storefront serve ended with {server.returncode}")
    with open(args.out, "w") as handle:
        json.dump({"seconds": seconds, "rounds": rounds, "connections": results}, handle, indent=2)


if __name__ == "__main__":
    main()
