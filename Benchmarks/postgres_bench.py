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
       [--ref-bin DIR --ref-catalog FILE --ref-name NAME]

With --ref-bin, another build's three setups (on a database of their own) are measured in the same
rounds, the six rotating, and each setup's head/ref ratio is the median of the rounds' own ratios.
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

from server_bench import HERE, start_server, stop_server, summarize, wrk
from server_bench import parser as server_bench_parser

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


def options():
    """server_bench's options, and a second build to measure beside the first."""
    parser = server_bench_parser()
    parser.add_argument("--ref-bin", help="another build's bin directory, measured in the same rounds")
    parser.add_argument("--ref-catalog", help="the catalog the other build serves (its own tree's)")
    parser.add_argument("--ref-name", default="ref")
    return parser.parse_args()


def setups_of(build):
    return [f"{build}: {setup}" for setup in SETUPS]


def report(row, builds):
    lines = []
    for build in builds:
        names = setups_of(build)
        lines.append(f"    {build}: " + " · ".join(
            f"{name.split(': ', 1)[1]} {row[name]['rps']:.0f}/s (p50 {row[name]['p50_ms']:.2f} ms)"
            + (f" {row[name]['ratioToSQLite']:.2f}×" if "ratioToSQLite" in row[name] else "")
            + (f" {row[name]['ratioToOne']:.2f}× one" if "ratioToOne" in row[name] else "")
            for name in names))
    if len(builds) == 2:
        lines.append("    head/" + builds[1] + ": " + " · ".join(
            f"{setup} {row['head/' + builds[1]][setup]:.2f}×" for setup in SETUPS))
    return "\n".join(lines)


def ratios(numerator, denominator):
    values = [n["rps"] / d["rps"] for n, d in zip(numerator, denominator) if d["rps"]]
    return statistics.median(values) if values else None


def main():
    args = options()
    if not shutil.which("nginx"):
        raise SystemExit("postgres_bench.py needs nginx (apt-get install nginx)")
    seconds, rounds = (3, 1) if args.quick else (3, 6)
    builds = {"head": (os.path.join(args.bin, "storefront"), args.catalog)}
    if args.ref_bin:
        builds[args.ref_name] = (os.path.join(args.ref_bin, "storefront"), args.ref_catalog or args.catalog)
    payments = os.path.join(HERE, "payments.lua")
    cluster = tempfile.mkdtemp(prefix="storefront-bench-postgres-")
    started = subprocess.run([os.path.join(ROOT, ".ci", "postgres"), "start", cluster], capture_output=True, text=True)
    if started.returncode != 0:
        raise SystemExit(f"no PostgreSQL: {started.stderr}")
    base = started.stdout.strip()
    servers, logs = [], []
    nginx = None
    counted = {}
    with tempfile.TemporaryDirectory(prefix="storefront-postgres-bench.") as work:
        try:
            upstreams, databases = {}, {}
            for index, (build, (binary, catalog)) in enumerate(builds.items()):
                subprocess.run(["psql", base, "-qc", f"CREATE DATABASE bench{index}"], check=True, capture_output=True)
                database = base.rsplit("/", 1)[0] + f"/bench{index}"
                databases[build] = database

                def serve(name, db):
                    log = open(os.path.join(work, f"{build}-{name}.log"), "w")
                    process, url = start_server(binary, catalog, db, log)
                    servers.append(process)
                    logs.append(log)
                    return url

                sqlite = serve("sqlite", os.path.join(work, f"db-{index}"))
                first = serve("postgres-a", database)
                second = serve("postgres-b", database)
                names = setups_of(build)
                upstreams.update({names[0]: [sqlite], names[1]: [first], names[2]: [first, second]})
            nginx, urls = start_nginx(work, upstreams)
            everything = list(upstreams)
            results = {}
            for connections in (1, 16, 64):
                samples = {name: [] for name in everything}
                for round_number in range(rounds):
                    shift = round_number % len(everything)
                    for name in everything[shift:] + everything[:shift]:
                        samples[name].append(wrk(urls[name], "/v1/payments", payments, connections, seconds))
                row = {name: summarize(values) for name, values in samples.items()}
                for build in builds:
                    names = setups_of(build)
                    for name in names[1:]:
                        row[name]["ratioToSQLite"] = ratios(samples[name], samples[names[0]])
                    row[names[2]]["ratioToOne"] = ratios(samples[names[2]], samples[names[1]])
                if len(builds) == 2:
                    head, ref = setups_of("head"), setups_of(args.ref_name)
                    row["head/" + args.ref_name] = {
                        setup: ratios(samples[h], samples[r]) for setup, h, r in zip(SETUPS, head, ref)}
                results[str(connections)] = row
                print(f"  {connections:>2} connections:\n" + report(row, list(builds)), flush=True)
            for build, database in databases.items():
                counted[build] = subprocess.run(
                    ["psql", database, "-At", "-c", "SELECT count(*), count(DISTINCT id) FROM transactions"],
                    capture_output=True, text=True).stdout.strip()
        finally:
            if nginx is not None:
                nginx.send_signal(signal.SIGQUIT)
                nginx.wait(timeout=10)
            for process, log in zip(servers, logs):
                stop_server(process, log)
            subprocess.run([os.path.join(ROOT, ".ci", "postgres"), "stop", cluster], capture_output=True)
    with open(args.out, "w") as handle:
        json.dump({"seconds": seconds, "rounds": rounds, "builds": list(builds), "connections": results,
                   "postgresTransactions": counted}, handle, indent=2)
    print(f"  PostgreSQL stores afterwards: transactions, distinct ids = {counted}")


if __name__ == "__main__":
    main()
