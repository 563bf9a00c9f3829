#!/usr/bin/env python3
"""Payments per second on PostgreSQL with one and with two servers, against one server on SQLite,
side by side in one run.

Starts a throw-away PostgreSQL cluster (.ci/postgres), one `storefront serve` on a fresh SQLite --db,
two on one PostgreSQL database, and nginx in front of them as docs/operations.md describes it: one
upstream of the SQLite server, one of the first PostgreSQL server alone, one of both. Every figure
goes through nginx, so the three differ only in what is behind it. For 1, 16 and 64 connections wrk
runs POST /v1/payments (a new Idempotency-Key per request: a durable commit each) on each upstream,
rotating the order round by round; the figures are medians over rounds, and each ratio the median of
the rounds' own ratios to SQLite.

Usage: postgres_bench.py --bin DIR --catalog FILE --out FILE [--quick]
"""
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import tempfile
import time

from server_bench import HERE, arguments, start_server, stop_server, summarize, wrk

ROOT = os.path.dirname(HERE)
SETUPS = ("sqlite, 1 server", "postgresql, 1 server", "postgresql, 2 servers")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_nginx(work, upstreams):
    """nginx on free ports, one per upstream (a list of server URLs); returns (process, name -> URL)."""
    listen = {name: free_port() for name in upstreams}
    blocks = []
    for index, (name, servers) in enumerate(upstreams.items()):
        members = "\n".join(f"        server {url.split('//', 1)[1]};" for url in servers)
        blocks.append(f"""
    upstream u{index} {{
{members}
        keepalive 64;
    }}
    server {{
        listen 127.0.0.1:{listen[name]};
        access_log off;
        location / {{
            proxy_pass http://u{index};
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_next_upstream error timeout http_503 non_idempotent;
        }}
    }}""")
    user = "user root;\n" if os.geteuid() == 0 else ""
    config = os.path.join(work, "nginx.conf")
    with open(config, "w") as handle:
        handle.write(f"""{user}worker_processes 1;
pid {work}/nginx.pid;
error_log {work}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
    client_body_temp_path {work}/nginx-body;
    proxy_temp_path {work}/nginx-proxy;
{''.join(blocks)}
}}
""")
    process = subprocess.Popen(["nginx", "-c", config, "-p", work, "-g", "daemon off;"],
                               stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "nginx.out"), "w"))
    deadline = time.monotonic() + 10
    for port in listen.values():
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        else:
            process.kill()
            raise SystemExit(f"nginx did not listen on {port}; see {work}/nginx-error.log")
    return process, {name: f"http://127.0.0.1:{port}" for name, port in listen.items()}


def main():
    args = arguments()
    if not shutil.which("nginx"):
        raise SystemExit("postgres_bench.py needs nginx (apt-get install nginx)")
    seconds, rounds = (3, 1) if args.quick else (3, 6)
    binary = os.path.join(args.bin, "storefront")
    payments = os.path.join(HERE, "payments.lua")
    cluster = tempfile.mkdtemp(prefix="storefront-bench-postgres-")
    started = subprocess.run([os.path.join(ROOT, ".ci", "postgres"), "start", cluster], capture_output=True, text=True)
    if started.returncode != 0:
        raise SystemExit(f"no PostgreSQL: {started.stderr}")
    base = started.stdout.strip()
    subprocess.run(["psql", base, "-qc", "CREATE DATABASE bench"], check=True, capture_output=True)
    database = base.rsplit("/", 1)[0] + "/bench"
    servers, logs = [], []
    nginx = None
    with tempfile.TemporaryDirectory(prefix="storefront-postgres-bench.") as work:
        try:
            def serve(name, db):
                log = open(os.path.join(work, f"{name}.log"), "w")
                process, url = start_server(binary, args.catalog, db, log)
                servers.append(process)
                logs.append(log)
                return url

            sqlite = serve("sqlite", os.path.join(work, "db"))
            first = serve("postgres-a", database)
            second = serve("postgres-b", database)
            nginx, urls = start_nginx(work, {
                SETUPS[0]: [sqlite], SETUPS[1]: [first], SETUPS[2]: [first, second]})
            results = {}
            for connections in (1, 16, 64):
                samples = {name: [] for name in SETUPS}
                for round_number in range(rounds):
                    shift = round_number % len(SETUPS)
                    for name in SETUPS[shift:] + SETUPS[:shift]:
                        samples[name].append(wrk(urls[name], "/v1/payments", payments, connections, seconds))
                row = {name: summarize(values) for name, values in samples.items()}
                for name in SETUPS[1:]:
                    ratios = [p["rps"] / s["rps"] for p, s in zip(samples[name], samples[SETUPS[0]]) if s["rps"]]
                    row[name]["ratioToSQLite"] = statistics.median(ratios) if ratios else None
                results[str(connections)] = row
                print(f"  {connections:>2} connections: " + " · ".join(
                    f"{name} {row[name]['rps']:.0f}/s (p50 {row[name]['p50_ms']:.2f} ms)"
                    + (f" {row[name]['ratioToSQLite']:.2f}×" if "ratioToSQLite" in row[name] else "")
                    for name in SETUPS), flush=True)
            counted = subprocess.run(["psql", database, "-At", "-c", "SELECT count(*), count(DISTINCT id) FROM transactions"],
                                     capture_output=True, text=True).stdout.strip()
        finally:
            if nginx is not None:
                nginx.send_signal(signal.SIGQUIT)
                nginx.wait(timeout=10)
            for process, log in zip(servers, logs):
                stop_server(process, log)
            subprocess.run([os.path.join(ROOT, ".ci", "postgres"), "stop", cluster], capture_output=True)
    with open(args.out, "w") as handle:
        json.dump({"seconds": seconds, "rounds": rounds, "connections": results,
                   "postgresTransactions": counted}, handle, indent=2)
    print(f"  PostgreSQL store afterwards: transactions, distinct ids = {counted}")


if __name__ == "__main__":
    main()
