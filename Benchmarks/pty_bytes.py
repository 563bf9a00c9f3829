#!/usr/bin/env python3
"""Bytes the real storefront writes to its terminal: runs the binary on a pseudo-terminal of a
given size, waits until the screen is settled (products loaded, nothing more written), then
sends keys and counts what comes back until the output is quiet again:

  Ctrl-L  a full repaint (the driver invalidates; ncurses clears and redraws every cell)
  j       the cursor moves one row down (ncurses diffing sends only what changed)
  k       and back up

Usage: pty_bytes.py --bin DIR --catalog FILE --state DIR --columns C --rows R [--moves N]
Prints one JSON object.
"""
import argparse
import fcntl
import json
import os
import select
import struct
import subprocess
import sys
import termios
import time


def read_until_quiet(master, quiet, limit, first_timeout=None):
    """Reads until no byte arrives for `quiet` seconds (or `limit` passes); returns the bytes."""
    data = bytearray()
    deadline = time.monotonic() + limit
    waiting = first_timeout if first_timeout is not None else quiet
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], waiting)
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
        waiting = quiet
    return bytes(data)


def main():
    parser = argparse.ArgumentParser()
    for name in ["bin", "catalog", "state"]:
        parser.add_argument("--" + name, required=True)
    parser.add_argument("--columns", type=int, default=200)
    parser.add_argument("--rows", type=int, default=60)
    parser.add_argument("--moves", type=int, default=5)
    parser.add_argument("--quiet", type=float, default=0.6, help="seconds of silence that end a frame")
    args = parser.parse_args()

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", args.rows, args.columns, 0, 0))
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8")
    env.pop("LC_ALL", None)
    env.pop("NO_COLOR", None)
    process = subprocess.Popen([os.path.join(args.bin, "storefront"), "--catalog", args.catalog, "--state", args.state],
                               stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    try:
        # Start-up: the first frame, then the loaded catalog; wait for a long silence.
        initial = read_until_quiet(master, quiet=max(args.quiet, 1.5), limit=120, first_timeout=60)

        def send(key, label):
            os.write(master, key)
            out = read_until_quiet(master, quiet=args.quiet, limit=30, first_timeout=10)
            if not out:
                raise RuntimeError(f"no output after {label}")
            return len(out)

        full = [send(b"\x0c", "Ctrl-L") for _ in range(3)]
        moves = []
        for _ in range(args.moves):
            moves.append(send(b"j", "j"))
            moves.append(send(b"k", "k"))
        os.write(master, b"q")
        read_until_quiet(master, quiet=0.3, limit=10)
        process.wait(timeout=20)
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=10)
        os.close(master)

    moves.sort()
    full.sort()
    median = lambda values: values[len(values) // 2] if len(values) % 2 else (values[len(values) // 2 - 1] + values[len(values) // 2]) / 2
    result = {
        "columns": args.columns, "rows": args.rows, "catalog": args.catalog,
        "initialBytes": len(initial), "fullRepaintBytes": median(full), "fullRepaintSamples": full,
        "moveBytes": median(moves), "moveSamples": moves,
        "ratio": median(moves) / median(full) if median(full) else None,
        "exitStatus": process.returncode,
    }
    json.dump(result, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
