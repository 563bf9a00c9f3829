#!/usr/bin/env python3
"""Reads what Benchmarks/run measured, prints the table of figures against their targets and
peers, and writes Benchmarks/results.json.

Usage: report.py --work DIR --bin DIR --out FILE
"""
import argparse
import datetime
import json
import os
import platform
import subprocess


def load(path):
    try:
        with open(path) as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return None


def command_output(argv):
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def machine():
    model = ""
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    memory = ""
    try:
        with open("/proc/meminfo") as handle:
            for line in handle:
                if line.startswith("MemTotal"):
                    memory = f"{int(line.split()[1]) / 1048576:.1f} GiB"
                    break
    except OSError:
        pass
    load_average = ""
    try:
        load_average = " ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        pass
    return {
        "nproc": os.cpu_count(), "cpu": model, "memory": memory, "kernel": platform.release(),
        "os": command_output(["sh", "-c", ". /etc/os-release && echo $PRETTY_NAME"]),
        "loadAverageAtEnd": load_average,
        "swift": command_output(["swift", "--version"]).splitlines()[0] if command_output(["swift", "--version"]) else "",
        "jq": command_output(["jq", "--version"]), "fzf": command_output(["fzf", "--version"]),
        "hyperfine": command_output(["hyperfine", "--version"]), "python3": platform.python_version(),
    }


def ms(value):
    if value is None:
        return "—"
    if value >= 100:
        return f"{value:.0f} ms"
    if value >= 1:
        return f"{value:.2f} ms"
    return f"{value * 1000:.1f} µs"


def ratio(a, b):
    return a / b if a is not None and b else None


# Payments' share of the health route's rate that BENCHMARKS.md targets, by connections: one
# connection waits for each fsync, more share it.
PAYMENT_SHARE_OF_HEALTH = {"1": 0.5, "16": 0.8, "64": 0.9}
NOTIFY_SHARE = 0.85


def add_notifications(add, notify):
    if not notify:
        add("payments/s with --notify vs without", "not measured", f"≥ {NOTIFY_SHARE}×")
        return
    pay = notify["payments"]
    add("server payments/s with --notify vs without, 16 connections (wrk)", f"{pay['with']['rps']:.0f}/s, p50 {ms(pay['with']['p50_ms'])}",
        f"≥ {NOTIFY_SHARE}× without", f"without {pay['without']['rps']:.0f}/s, p50 {ms(pay['without']['p50_ms'])}", f"{pay['ratio']:.2f}×",
        pay["ratio"] >= NOTIFY_SHARE and pay["with"]["errors"] == 0)
    post = notify["postLatency"]
    add(f"notification POST after its commit, idle server ({post['count']} purchases)", f"p50 {ms(post['p50_ms'])}, p99 {ms(post['p99_ms'])}",
        "p50 ≤ 50 ms", met=post["p50_ms"] <= 50)
    failing = notify["failingReceiver"]
    add(f"{failing['purchases']:,} purchases, receiver refusing 30 % of attempts",
        f"{failing['accepted']:,} accepted, {failing['duplicates']} duplicate UUIDs", "all accepted, none twice",
        f"{failing['refusedAttempts']:,} refused attempts", f"{failing['recoveredFromHistory']} from history after Apple's last retry",
        failing["accepted"] == failing["purchases"] and failing["duplicates"] == 0)
    history = notify["history"]
    add(f"Get Transaction History page of 20, {history['transactions']:,} transactions", f"p50 {ms(history['p50_ms'])}, p99 {ms(history['p99_ms'])}",
        "p50 < 20 ms", met=history["p50_ms"] < 20)


def add_postgres(add, postgres):
    """Payments on a shared PostgreSQL store, one and two servers through nginx, against SQLite."""
    if not postgres:
        add("payments/s on PostgreSQL, 1 and 2 servers vs SQLite (nginx)", "not measured", "report")
        return
    for connections, row in postgres["connections"].items():
        sqlite = row["head: sqlite, 1 server"]
        for name in ("postgresql, 1 server", "postgresql, 2 servers"):
            figure = row[f"head: {name}"]
            add(f"payments/s, {name}, {connections} connection{'s' if connections != '1' else ''} (nginx)",
                f"{figure['rps']:.0f}/s, p50 {ms(figure['p50_ms'])}", "report",
                f"sqlite, 1 server {sqlite['rps']:.0f}/s", f"{figure['ratioToSQLite']:.2f}× SQLite")


def add_tapes(add, tapes):
    if not tapes:
        add("storefront play, 100-step tape without sleeps", "not measured", "< 10 s")
        return
    play = tapes["play"]
    add(f"storefront play, {play['steps']}-step tape without sleeps ({play['rounds']} rounds)",
        f"median {play['median_s']:.2f} s, max {play['max_s']:.2f} s", "< 10 s", met=play["max_s"] < 10)
    keys, frames = tapes["keystroke"], tapes["firstFrame"]
    add(f"keystroke to answer on a pty, with --record vs without ({keys['recorded']['count']} keys each)",
        f"p50 {ms(keys['recorded']['p50_ms'])}", "no visible latency", f"without p50 {ms(keys['plain']['p50_ms'])}",
        f"+{ms(keys['recorded']['p50_ms'] - keys['plain']['p50_ms'])}", keys["recorded"]["p50_ms"] < 16)
    add("start to first painted byte, with --record vs without", f"p50 {ms(frames['recorded']['p50_ms'])}", "(report)",
        f"without p50 {ms(frames['plain']['p50_ms'])}", f"+{ms(frames['recorded']['p50_ms'] - frames['plain']['p50_ms'])}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", required=True)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    inprocess = load(os.path.join(args.work, "inprocess.json")) or {}
    peers = load(os.path.join(args.work, "peers.json")) or {}
    pty = {name: load(os.path.join(args.work, f"pty-{name}.json")) for name in ["small-80x24", "small-200x60", "large-200x60"]}
    hyperfine = load(os.path.join(args.work, "hyperfine.json"))
    server = load(os.path.join(args.work, "server.json"))
    notify = load(os.path.join(args.work, "notify.json"))
    tapes = load(os.path.join(args.work, "tapes.json"))
    postgres = load(os.path.join(args.work, "postgres.json"))

    rows = []  # (figure, measured, target, peer, ratio text, met)

    def add(figure, measured, target, peer="", ratio_text="", met=None):
        rows.append({"figure": figure, "measured": measured, "target": target, "peer": peer, "ratio": ratio_text,
                     "met": met})

    large = peers.get("load100k", {})
    medium = peers.get("load10k", {})
    med = lambda suite, name: suite.get(name, {}).get("ms", {}).get("median")
    rss = lambda suite, name: suite.get(name, {}).get("rssKiB", {}).get("median")
    quiet, full, jq, py = (med(large, "storefront products --count-only"), med(large, "storefront products --json"),
                           med(large, "jq -c ."), med(large, "python3 json.load"))
    if quiet is not None:
        r_jq, r_py = ratio(quiet, jq), ratio(quiet, py)
        add("load+validate+index 100k, whole process (products --count-only)", ms(quiet), "≤ 0.5× jq, ≤ 1.0× python",
            f"jq {ms(jq)} · python {ms(py)}", f"{r_jq:.2f}× jq · {r_py:.2f}× python", r_jq <= 0.5 and r_py <= 1.0)
        r_jq, r_py = ratio(full, jq), ratio(full, py)
        add("the same with the JSON printed (products --json > /dev/null)", ms(full), "(report)",
            f"jq {ms(jq)} · python {ms(py)}", f"{r_jq:.2f}× jq · {r_py:.2f}× python")
    quiet10, full10 = med(medium, "storefront products --count-only"), med(medium, "storefront products --json")
    if quiet10 is not None:
        add("load+validate+index 10k, whole process (--count-only)", ms(quiet10), "≤ 100 ms",
            f"jq {ms(med(medium, 'jq -c .'))} · python {ms(med(medium, 'python3 json.load'))}",
            f"{ratio(quiet10, med(medium, 'jq -c .')):.2f}× jq · {ratio(quiet10, med(medium, 'python3 json.load')):.2f}× python",
            quiet10 <= 100)
        add("the same with the JSON printed (--json)", ms(full10), "≤ 100 ms", "", "", full10 <= 100)
    ours, theirs = rss(large, "storefront products --count-only"), rss(large, "jq -c .")
    if ours is not None:
        add("peak RSS loading the 100k catalog (--count-only)", f"{ours / 1024:.0f} MiB", "≤ 0.5× jq",
            f"jq {theirs / 1024:.0f} MiB · python {rss(large, 'python3 json.load') / 1024:.0f} MiB",
            f"{ratio(ours, theirs):.2f}× jq", ratio(ours, theirs) <= 0.5)
        add("peak RSS with --json", f"{rss(large, 'storefront products --json') / 1024:.0f} MiB", "(report)", "",
            f"{ratio(rss(large, 'storefront products --json'), theirs):.2f}× jq")
    filter_ = inprocess.get("filter")
    fzf = peers.get("fzf", {}).get("fzf --filter", {}).get("ms", {}).get("median")
    if filter_:
        worst = max(position["median"] for position in filter_["perKeystroke"])
        first = filter_["perKeystroke"][0]
        add(f"filter per keystroke, {filter_['products']} products, in process (\"{filter_['query']}\")",
            f"{ms(filter_['keystroke']['median'])} median, p90 {ms(filter_['keystroke']['p90'])}, slowest key {ms(worst)}",
            "≤ 16 ms (slowest key's median)", f"fzf --filter {ms(fzf)} (whole process)",
            f"slowest key {ratio(worst, fzf):.3f}× fzf · median {ratio(filter_['keystroke']['median'], fzf):.4f}× fzf" if fzf else "",
            worst <= 16)
        add(f"  first letter \"{first['query']}\" ({first['matches']} matches) · backspace median/max",
            ms(first["median"]), "", "", f"backspace {ms(filter_['backspace']['median'])} / {ms(filter_['backspace']['max'])}",
            max(first["median"], filter_["backspace"]["max"]) <= 16)
        add("  keystroke + render of the next frame, median / p90",
            f"{ms(filter_['keystrokeToFrame']['median'])} / {ms(filter_['keystrokeToFrame']['p90'])}", "≤ 16 ms",
            "", "", filter_["keystrokeToFrame"]["p90"] <= 16)
    render = inprocess.get("render")
    if render:
        add(f"View.render 200×60, {render['largeProducts']} products, in process", ms(render["large"]["median"]),
            "≤ 2 ms and ≤ 1.5× small", f"{render['smallProducts']} products: {ms(render['small']['median'])}",
            f"{render['ratio']:.2f}× small", render["large"]["median"] <= 2 and render["ratio"] <= 1.5)
    if render and render.get("fullList"):
        full = render["fullList"]["median"]
        add("  the same frame, 50-product catalog (list full, as with 100k)", ms(full), "(report)", "",
            f"100k is {render['large']['median'] / full:.2f}× this")
    moves = {(move["catalog"], move["columns"], move["rows"]): move for move in inprocess.get("moves", [])}
    for name, label, key in [("large-200x60", "100k catalog, 200×60", ("large", 200, 60)),
                             ("small-200x60", "products.json, 200×60", ("small", 200, 60)),
                             ("small-80x24", "products.json, 80×24", ("small", 80, 24))]:
        figure = pty.get(name)
        if figure:
            move = moves.get(key)
            cells = f" ({move['cellsChanged']} of {move['cellsNotBlank']} drawn cells change)" if move else ""
            add(f"bytes to the terminal, cursor one row down ({label})", f"{figure['moveBytes']:.0f} B{cells}",
                "≤ 1% of a full repaint", f"full repaint {figure['fullRepaintBytes']:.0f} B",
                f"{figure['ratio'] * 100:.2f}%", figure["ratio"] <= 0.01)
    startup = peers.get("startup", {})
    frame, help_ = (startup.get("storefront --exit-after-first-frame", {}).get("ms", {}).get("median"),
                    startup.get("storefront --help", {}).get("ms", {}).get("median"))
    if frame is not None:
        add("start to first painted frame, products.json (pty)", ms(frame), "≤ 2× storefront --help",
            f"--help {ms(help_)}", f"{ratio(frame, help_):.2f}× --help", ratio(frame, help_) <= 2)
    for label, key in [("100k", "large"), ("10k", "medium"), ("products.json", "small")]:
        figures = inprocess.get(key)
        if figures:
            add(f"decode+validate+index {label}, in process", ms(figures["decode"]["median"]), "(report)",
                f"parse only {ms(figures['parse']['median'])}", f"then request + list keys {ms(figures['index']['median'])}")
    purchase = inprocess.get("purchase")
    if purchase:
        add(f"simulated purchase end to end, in process ({purchase['purchases']} consumables)",
            f"{ms(purchase['perPurchase']['median'])} per purchase (p90 {ms(purchase['perPurchase']['p90'])})", "(report)", "",
            f"{purchase['purchasesPerSecond']:.0f} purchases/s")
    renewals = inprocess.get("renewals")
    if renewals:
        sweeps = renewals["renewalSweeps"]
        add(f"renewal sweeps at the fastest time rate, {renewals['subscriptions']:,} subscriptions, in process",
            f"median {ms(sweeps['median'])}, max {ms(sweeps['max'])}", "every sweep < 1 period",
            f"period {renewals['periodSeconds']:.0f} s",
            f"worst {renewals['worstShareOfPeriod'] * 100:.0f} % of a period", renewals["worstShareOfPeriod"] < 1)
    for connections, row in ((server or {}).get("connections") or {}).items():
        pay, health = row["payments"], row["health"]
        target = PAYMENT_SHARE_OF_HEALTH.get(connections, 0.5)
        add(f"server payments/s vs health route, {connections} connection{'s' if connections != '1' else ''} (wrk)",
            f"{pay['rps']:.0f}/s, p50 {ms(pay['p50_ms'])}, p99 {ms(pay['p99_ms'])}", f"≥ {target}× health",
            f"health {health['rps']:.0f}/s, p50 {ms(health['p50_ms'])}, p99 {ms(health['p99_ms'])}",
            f"{row['ratio']:.2f}× health", row["ratio"] >= target and pay["errors"] == 0 and pay["unexpectedStatus"] == 0)
    if not server:
        add("server payments/s with wrk vs its health route", "not measured", "≥ 0.5×", "", "see server.log")
    add_notifications(add, notify)
    add_postgres(add, postgres)
    add_tapes(add, tapes)

    width = max(len(row["figure"]) for row in rows)
    print()
    print(f"{'figure'.ljust(width)}  {'measured':<40} {'target':<30} {'peer':<40} {'ratio':<36} met")
    for row in rows:
        met = "—" if row["met"] is None else ("yes" if row["met"] else "NO")
        print(f"{row['figure'].ljust(width)}  {row['measured']:<40} {row['target']:<30} {row['peer']:<40} {row['ratio']:<36} {met}")

    results = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": command_output(["git", "rev-parse", "--short", "HEAD"]),
        "machine": machine(),
        "table": rows,
        "inProcess": inprocess,
        "wholeProcess": peers,
        "terminalBytes": pty,
        "hyperfine": [{"command": result["command"], "median": result["median"] * 1000, "mean": result["mean"] * 1000,
                       "stddev": (result.get("stddev") or 0) * 1000}
                      for result in (hyperfine or {}).get("results", [])],
        "server": server or {"status": "not measured"},
        "notifications": notify or {"status": "not measured"},
        "tapes": tapes or {"status": "not measured"},
    }
    with open(args.out, "w") as handle:
        json.dump(results, handle, indent=2, ensure_ascii=False)
        handle.write("\n")
    print(f"\nwrote {args.out}")


if __name__ == "__main__":
    main()
