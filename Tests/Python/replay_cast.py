#!/usr/bin/env python3
"""Replays an asciicast v2 file's output through pyte, a terminal emulator, and prints the screen.

    replay_cast.py FILE.cast [--before-input TEXT]

With --before-input, the replay stops at the first "i" event whose data is TEXT (the screen the
user saw when pressing that key); otherwise it plays every "o" event. "r" events resize the
emulated screen. Prints one line per row, trailing blanks removed. Exit 2 on a malformed file.
"""
import json
import sys

import pyte


def main(arguments):
    if not arguments:
        print(__doc__, file=sys.stderr)
        return 2
    stop = None
    if len(arguments) == 3 and arguments[1] == "--before-input":
        stop = arguments[2]
    with open(arguments[0], encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    header = json.loads(lines[0])
    if header.get("version") != 2:
        print(f"{arguments[0]}:1: not an asciicast v2 header", file=sys.stderr)
        return 2
    screen = pyte.Screen(header["width"], header["height"])
    stream = pyte.Stream(screen)
    last = -1.0
    for number, line in enumerate(lines[1:], start=2):
        time, code, data = json.loads(line)
        if time < last:
            print(f"{arguments[0]}:{number}: time goes backwards", file=sys.stderr)
            return 2
        last = time
        if code == "i" and stop is not None and data == stop:
            break
        if code == "o":
            stream.feed(data)
        elif code == "r":
            columns, rows = (int(part) for part in data.split("x"))
            screen.resize(rows, columns)
    for row in screen.display:
        print(row.rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
