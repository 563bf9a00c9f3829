#!/usr/bin/env python3
"""Whole-process figures for Benchmarks/run: storefront and its peers (jq, python's json, fzf)
run alternately in one invocation, round after round, so drift on a busy machine falls on all
of them alike and cancels in the ratios. Each run's wall time comes from a monotonic clock around
spawn and wait4(), and its peak RSS from the same wait4() (ru_maxrss), so no wrapper process is
measured. Commands that need a terminal run on a fresh pseudo-terminal.

Usage: peers.py --bin DIR --large FILE --medium FILE --titles FILE --query TEXT --state DIR
                --out FILE [--rounds N] [--quick]
"""
import argparse
import fcntl
import json
import os
import pty
import struct
import subprocess
import sys
import termios
import threading
import time


def percentile(values, fraction):
    ordered = sorted(values)
    if not ordered:
        return 0.0
    if fraction == 0.5 and len(ordered) % 2 == 0:
        return (ordered[len(ordered) // 2 - 1] + ordered[len(ordered) // 2]) / 2
    rank = max(0, min(len(ordered) - 1, int(-(-fraction * len(ordered) // 1)) - 1))
    return ordered[rank]


def stats(values):
    return {"median": percentile(values, 0.5), "p90": percentile(values, 0.9),
            "min": min(values), "max": max(values), "count": len(values)}


def set_size(fd, columns, rows):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def run_once(command, stdin_path=None, use_pty=False, env=None):
    """One run: (milliseconds, peak RSS in KiB). Output is discarded (or drained from the pty)."""
    master = slave = None
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    drain = None
    try:
        if use_pty:
            master, slave = os.openpty()
            set_size(slave, 80, 24)
            stdio = dict(stdin=slave, stdout=slave, stderr=slave)
        else:
            stdio = dict(stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        start = time.perf_counter()
        process = subprocess.Popen(command, env=env, start_new_session=use_pty, **stdio)
        if use_pty:
            os.close(slave)
            slave = None

            def read_all():
                while True:
                    try:
                        if not os.read(master, 65536):
                            return
                    except OSError:
                        return
            drain = threading.Thread(target=read_all, daemon=True)
            drain.start()
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = (time.perf_counter() - start) * 1000
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            detail = process.stderr.read().decode(errors="replace")[-400:] if process.stderr else ""
            raise RuntimeError(f"{' '.join(command)} exited with {process.returncode}: {detail}")
        if process.stderr:
            process.stderr.close()
        return elapsed, usage.ru_maxrss
    finally:
        if slave is not None:
            os.close(slave)
        if drain is not None:
            drain.join(timeout=2)
        if master is not None:
            os.close(master)
        if stdin_path:
            stdin.close()


def rotate(commands, rounds, warmup, label):
    """commands: list of (name, argv, options). Runs them round-robin, after `warmup` rounds left
    uncounted; returns (name -> each round's ms, name -> each round's peak RSS in KiB)."""
    times = {name: [] for name, _, _ in commands}
    rss = {name: [] for name, _, _ in commands}
    for round_number in range(warmup + rounds):
        # Rotate the starting command each round so none always runs right after another.
        shift = round_number % len(commands)
        for name, argv, options in commands[shift:] + commands[:shift]:
            elapsed, peak = run_once(argv, **options)
            if round_number >= warmup:
                times[name].append(elapsed)
                rss[name].append(peak)
        print(f"  {label}: round {round_number + 1}/{warmup + rounds}", file=sys.stderr, end="\r")
    print(file=sys.stderr)
    return times, rss


def alternate(commands, rounds, warmup, label):
    """commands: list of (name, argv, options). Runs them round-robin; returns name -> figures."""
    times, rss = rotate(commands, rounds, warmup, label)
    return {name: {"ms": stats(times[name]), "rssKiB": stats(rss[name]),
                   "command": " ".join(argv) + (f" < {options['stdin_path']}" if options.get("stdin_path") else "")}
            for name, argv, options in commands}


def main():
    parser = argparse.ArgumentParser()
    for name in ["bin", "large", "medium", "titles", "query", "state", "out"]:
        parser.add_argument("--" + name, required=True)
    parser.add_argument("--rounds", type=int, default=0)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    storefront = os.path.join(args.bin, "storefront")
    python_load = [sys.executable, "-c", "import json,sys; json.load(open(sys.argv[1]))"]
    quick = args.quick
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8")
    env.pop("LC_ALL", None)

    def load_suite(catalog, rounds):
        return alternate([
            ("storefront products --json", [storefront, "products", "--catalog", catalog, "--json"], {}),
            ("storefront products --count-only", [storefront, "products", "--catalog", catalog, "--count-only"], {}),
            ("jq -c .", ["jq", "-c", ".", catalog], {}),
            ("python3 json.load", python_load + [catalog], {}),
        ], rounds, 1, os.path.basename(catalog))

    results = {}
    results["load100k"] = load_suite(args.large, args.rounds or (3 if quick else 9))
    results["load10k"] = load_suite(args.medium, args.rounds or (5 if quick else 21))
    results["fzf"] = alternate([
        ("fzf --filter", ["fzf", "--filter", args.query], {"stdin_path": args.titles}),
    ], args.rounds or (5 if quick else 21), 2, "fzf")
    results["startup"] = alternate([
        ("storefront --exit-after-first-frame", [storefront, "--exit-after-first-frame", "--state", args.state],
         {"use_pty": True, "env": env}),
        ("storefront --help", [storefront, "--help"], {"use_pty": True, "env": env}),
    ], args.rounds or (5 if quick else 21), 2, "startup")
    with open(args.out, "w") as handle:
        json.dump(results, handle, indent=2, sort_keys=True)


if __name__ == "__main__":
    main()
