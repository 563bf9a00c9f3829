#!/usr/bin/env python3
"""Tapes and recordings: how long `storefront play` takes for a 100-step tape without sleeps,
and what `--record` adds to a keystroke and to the first frame, measured side by side.

  play:      a generated tape of 100 steps (moves, a filter typed, sheets opened and closed, a
             purchase, each group followed by a Wait), played ROUNDS times; median and max seconds.
  keystroke: on a pseudo-terminal, the time from writing `j` (or `k`) to the first byte of the
             answer, 40 keys, alternating rounds with and without --record; p50 of each.
  first frame: spawn to the first painted byte, with and without --record, alternating.

Usage: tape_bench.py --bin DIR --catalog FILE --out FILE [--quick]
"""
import fcntl
import json
import os
import select
import shutil
import statistics
import struct
import subprocess
import tempfile
import termios
import time

from pty_bytes import read_until_quiet  # the same settle-then-count read as the bytes benchmark
from server_bench import arguments  # the options every benchmark script takes


def tape_of_100_steps(directory):
    lines = ["Set Width 100", "Set Height 30", "Wait /Products 1\\/12/"]
    body = []
    for round_number in range(6):
        body += ["Down 3", "Wait /> Energy Refill/", "Up 3", "Wait /> 100 Gems/",
                 "Type \"i\"", "Wait /Product details/", "Escape", "Wait+Line /all keys/",
                 "Type \"?\"", "Wait /Main screen/", "Escape",
                 "Type \"/\"", "Type \"dark\"", "Wait /> Dark Theme/", "Escape", "Type \"g\"", "Wait /> 100 Gems/"]
    body = body[:87]
    body += ["Enter", "Wait /Confirm your in-app purchase/", "Enter", "Wait@10s /verified ✓ finished/",
             "Type \"t\"", "Wait /Test controls/", "Escape", "Wait+Line /all keys/", "Down", "Up"]
    lines += body
    path = os.path.join(directory, "hundred.tape")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    return path, len(lines)


def measure_play(binary, catalog, rounds, work):
    tape, steps = tape_of_100_steps(work)
    times = []
    for _ in range(rounds):
        start = time.monotonic()
        result = subprocess.run([binary, "play", tape, "--catalog", catalog], cwd=work, capture_output=True, text=True)
        times.append(time.monotonic() - start)
        if result.returncode != 0:
            raise SystemExit(f"the 100-step tape failed:\n{result.stderr}")
    return {"steps": steps, "rounds": rounds, "median_s": statistics.median(times), "max_s": max(times)}


def spawn(binary, catalog, state, record):
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8")
    arguments = [binary, "--catalog", catalog, "--state", state]
    if record:
        arguments += ["--record", os.path.join(state, "session.cast")]
    start = time.monotonic()
    process = subprocess.Popen(arguments, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True,
                               preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
    os.close(slave)
    return master, process, start


def session(binary, catalog, record, keys):
    state = tempfile.mkdtemp(prefix="storefront-tape-bench-")
    try:
        master, process, start = spawn(binary, catalog, state, record)
        select.select([master], [], [], 20)
        first_frame = time.monotonic() - start
        read_until_quiet(master, 0.5, 20)
        latencies = []
        for index in range(keys):
            os.write(master, b"j" if index % 2 == 0 else b"k")
            sent = time.monotonic()
            ready, _, _ = select.select([master], [], [], 5)
            if ready:
                latencies.append(time.monotonic() - sent)
            read_until_quiet(master, 0.05, 20)
        os.write(master, b"q")
        read_until_quiet(master, 0.3, 20)
        process.wait(timeout=20)
        os.close(master)
        return first_frame, latencies
    finally:
        shutil.rmtree(state, ignore_errors=True)


def main():
    args = arguments()
    binary = os.path.abspath(os.path.join(args.bin, "storefront"))
    catalog = os.path.abspath(args.catalog)
    rounds = 2 if args.quick else 5
    work = tempfile.mkdtemp(prefix="storefront-tape-bench-")
    try:
        play = measure_play(binary, catalog, rounds, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    frames = {"plain": [], "recorded": []}
    keys = {"plain": [], "recorded": []}
    for _ in range(rounds):
        for name, record in (("plain", False), ("recorded", True)):
            frame, latencies = session(binary, catalog, record, 10 if args.quick else 40)
            frames[name].append(frame)
            keys[name] += latencies
    result = {
        "play": play,
        "firstFrame": {name: {"p50_ms": statistics.median(values) * 1000} for name, values in frames.items()},
        "keystroke": {name: {"p50_ms": statistics.median(values) * 1000, "count": len(values)} for name, values in keys.items()},
    }
    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump(result, handle, indent=2)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
