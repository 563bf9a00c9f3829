#!/usr/bin/env python3
"""Side by side: two release builds of storefront, every figure measured alternating between them
in one run, so drift on a shared machine falls on both and cancels in the ratios.

Whole process (peers.run_once: a monotonic clock around spawn and wait4()):
  - products --count-only on the 100k and 10k catalogs, with simdjson's parse of the same file in
    the same rounds (the parse ceiling);
  - products --json on the 10k catalog;
  - start to the first painted frame on a pseudo-terminal, and --help.
Server (wrk, as server_bench.py): POST /v1/payments and GET /v1/health at 1, 16 and 64 connections,
both servers up at once, the four runs of a round in a rotating order.

Each figure's ratio is head/REF, the median of the rounds' own ratios, with their spread (lowest and
highest). A figure whose cost (time, or 1/rate) is more than 10 % above REF's is flagged WORSE.

Usage: compare.py --head BIN --ref BIN --ref-name NAME --large FILE --medium FILE --catalog FILE
                  --ref-catalog FILE --simdjson EXE --work DIR [--only load,startup,server] [--rounds N] [--quick]
                  [--json FILE]
"""
import argparse
import json
import os
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from peers import rotate  # noqa: E402
from server_bench import start_server, stop_server, wrk  # noqa: E402

WORSE = 1.10


def ratio_row(figure, unit, head, ref, lower_is_better, context=None):
    """A figure's row: medians of both, and the median and spread of the rounds' head/REF ratios."""
    ratios = [h / r for h, r in zip(head, ref) if r]
    median = statistics.median(ratios)
    cost = median if lower_is_better else 1 / median
    return {
        "figure": figure, "unit": unit, "head": statistics.median(head), "ref": statistics.median(ref),
        "ratio": median, "spread": [min(ratios), max(ratios)], "roundRatios": ratios,
        "lowerIsBetter": lower_is_better, "worse": cost > WORSE, "context": context or {},
    }


def whole_process(args, head, ref, rounds):
    rows = []
    for label, catalog, count in (("100k", args.large, rounds(9)), ("10k", args.medium, rounds(21))):
        times, _ = rotate([
            ("head", [head, "products", "--catalog", catalog, "--count-only"], {}),
            ("ref", [ref, "products", "--catalog", catalog, "--count-only"], {}),
            ("simdjson", [args.simdjson, catalog], {}),
        ], count, 1, f"{label} --count-only")
        parse = statistics.median(times["simdjson"])
        rows.append(ratio_row(f"{label} catalog, products --count-only", "ms", times["head"], times["ref"], True, {
            "simdjson parse (ms)": parse,
            "head / simdjson": statistics.median(h / s for h, s in zip(times["head"], times["simdjson"])),
            "REF / simdjson": statistics.median(r / s for r, s in zip(times["ref"], times["simdjson"])),
        }))
    times, _ = rotate([
        ("head", [head, "products", "--catalog", args.medium, "--json"], {}),
        ("ref", [ref, "products", "--catalog", args.medium, "--json"], {}),
    ], rounds(21), 1, "10k --json")
    rows.append(ratio_row("10k catalog, products --json", "ms", times["head"], times["ref"], True))
    return rows


def startup(args, head, ref, rounds):
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8")
    env.pop("LC_ALL", None)
    # Each binary keeps its own state directory: the two may not share a schema version.
    states = {name: tempfile.mkdtemp(prefix=f"state-{name}.", dir=args.work) for name in ("head", "ref")}
    pty = {"use_pty": True, "env": env}
    times, _ = rotate([
        ("head", [head, "--exit-after-first-frame", "--catalog", args.catalog, "--state", states["head"]], pty),
        ("ref", [ref, "--exit-after-first-frame", "--catalog", args.ref_catalog, "--state", states["ref"]], pty),
        ("head --help", [head, "--help"], pty),
        ("ref --help", [ref, "--help"], pty),
    ], rounds(21), 2, "start-up")
    return [
        ratio_row("start to first painted frame (pty)", "ms", times["head"], times["ref"], True, {
            "head / its --help": statistics.median(times["head"]) / statistics.median(times["head --help"]),
            "REF / its --help": statistics.median(times["ref"]) / statistics.median(times["ref --help"]),
        }),
        ratio_row("storefront --help (pty)", "ms", times["head --help"], times["ref --help"], True),
    ]


def server(args, head, ref, rounds):
    """Both servers at once; each round runs the four (binary, route) pairs in a rotating order."""
    routes = {"payments": ("/v1/payments", os.path.join(HERE, "payments.lua")),
              "health": ("/v1/health", os.path.join(HERE, "health.lua"))}
    servers, logs, urls = {}, {}, {}
    try:
        # Each serves its own tree's products.json: an older binary may not read a newer catalog.
        for name, binary, catalog in (("head", head, args.catalog), ("ref", ref, args.ref_catalog)):
            logs[name] = open(os.path.join(args.work, f"serve-{name}.log"), "w")
            servers[name], urls[name] = start_server(
                binary, catalog, os.path.join(args.work, f"db-{name}"), logs[name])
        rows = []
        runs = [(name, route) for route in routes for name in ("head", "ref")]
        for connections in (1, 16, 64):
            rates = {run: [] for run in runs}
            for number in range(rounds(6)):
                shift = number % len(runs)
                for name, route in runs[shift:] + runs[:shift]:
                    path, script = routes[route]
                    rates[(name, route)].append(wrk(urls[name], path, script, connections, 2)["rps"])
                print(f"  server, {connections} connections: round {number + 1}", file=sys.stderr, end="\r")
            print(file=sys.stderr)

            def per_health(name):
                return statistics.median(p / h for p, h in zip(rates[(name, "payments")], rates[(name, "health")]))
            rows.append(ratio_row(f"payments/s, {connections} connection{'s' if connections > 1 else ''}", "/s",
                                  rates[("head", "payments")], rates[("ref", "payments")], False, {
                                      "head / its health": per_health("head"), "REF / its health": per_health("ref")}))
            rows.append(ratio_row(f"health/s, {connections} connection{'s' if connections > 1 else ''}", "/s",
                                  rates[("head", "health")], rates[("ref", "health")], False))
        return rows
    finally:
        for name, process in servers.items():
            stop_server(process, logs[name])


def number(value, unit):
    return f"{value:,.0f}{unit}" if unit == "/s" else f"{value:,.1f} {unit}"


def print_table(rows, ref_name):
    print(f"\n{'figure':<40} {'REF ' + ref_name:>14} {'head':>12} {'head/REF':>9} {'spread':>13}  verdict")
    for row in rows:
        spread = f"{row['spread'][0]:.2f}–{row['spread'][1]:.2f}"
        better = (row["ratio"] < 1) == row["lowerIsBetter"]
        verdict = "WORSE" if row["worse"] else ("better" if better and abs(row["ratio"] - 1) > 0.02 else "same")
        print(f"{row['figure']:<40} {number(row['ref'], row['unit']):>14} {number(row['head'], row['unit']):>12} "
              f"{row['ratio']:>9.3f} {spread:>13}  {verdict}")
        for key, value in row["context"].items():
            print(f"{'':<4}{key}: {value:.2f}" + (" ms" if key.endswith("(ms)") else "×"))
    flagged = [row["figure"] for row in rows if row["worse"]]
    print(f"\n{len(flagged)} figure(s) more than {round((WORSE - 1) * 100)} % worse than REF"
          + (": " + "; ".join(flagged) if flagged else "."))
    return flagged


def main():
    parser = argparse.ArgumentParser()
    for name in ["head", "ref", "ref-name", "large", "medium", "catalog", "ref-catalog", "simdjson", "work"]:
        parser.add_argument("--" + name, required=True)
    parser.add_argument("--only", default="load,startup,server")
    parser.add_argument("--rounds", type=int, default=0, help="rounds for every figure (default: per figure)")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json")
    args = parser.parse_args()

    def rounds(full):
        return args.rounds or (max(2, full // 4) if args.quick else full)
    head = os.path.join(args.head, "storefront")
    ref = os.path.join(args.ref, "storefront")
    parts = {"load": whole_process, "startup": startup, "server": server}
    unknown = set(args.only.split(",")) - set(parts)
    if unknown:
        raise SystemExit(f"--only: unknown part {', '.join(sorted(unknown))}; choose from load, startup, server")
    rows = []
    for name, part in parts.items():
        if name in args.only.split(","):
            print(f"== {name}", file=sys.stderr)
            rows += part(args, head, ref, rounds)
    flagged = print_table(rows, args.ref_name)
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({"ref": args.ref_name, "worseAbove": WORSE, "rows": rows}, handle, indent=2)
    sys.exit(4 if flagged else 0)


if __name__ == "__main__":
    main()
