#!/usr/bin/env python3
"""Checks of perfdojo-tune's outputs for the lit tests in test/Tune.

  check_tune.py report DIR...          the reports list the same units, each
                                       validated, with its object present
  check_tune.py fresh-keys OLD NEW     the evaluations NEW appended after the
                                       records OLD held are all new programs
  check_tune.py cut FILE FRACTION      cuts FILE at FRACTION of its bytes, in
                                       the middle of a line, as a kill would
  check_tune.py kill-after FILE N CMD...  runs CMD and kills it (SIGKILL) once
                                       FILE holds N lines
"""
import json
import os
import signal
import subprocess
import sys
import time


def units(directory):
    with open(os.path.join(directory, "report.json")) as f:
        report = json.load(f)
    found = []
    for entry in report["entries"]:
        if not entry.get("validated"):
            sys.exit(f"{directory}: {entry['function']} is not validated")
        if not os.path.exists(os.path.join(directory, entry["object"])):
            sys.exit(f"{directory}: {entry['object']} is missing")
        if entry["speedup"] <= 0 or entry["best_time_s"] <= 0:
            sys.exit(f"{directory}: {entry['function']} has no time")
        found.append((entry["kernel"], entry["function"], entry["threads"]))
    return report, found


def report(directories):
    first, expected = units(directories[0])
    for directory in directories[1:]:
        _, found = units(directory)
        if found != expected:
            sys.exit(f"{directory} lists {found}, {directories[0]} {expected}")
    names = ", ".join(f for _, f, _ in expected)
    print(f"{len(directories)} report(s) list the same {len(expected)} "
          f"validated units: {names}")


def evaluation_keys(path):
    keys = []
    with open(path) as f:
        for line in f:
            if not line.endswith("\n"):
                break  # a torn last line
            record = json.loads(line)
            if record["kind"] == "evaluation":
                keys.append(record["evaluation"]["key"])
    return keys


def fresh_keys(old, new):
    before = evaluation_keys(old)
    after = evaluation_keys(new)
    appended = after[len(before):]
    if after[:len(before)] != before:
        sys.exit(f"{new} does not start with the records of {old}")
    again = sorted(set(appended) & set(before))
    if again:
        sys.exit(f"evaluated again: {again}")
    if len(set(appended)) != len(appended):
        sys.exit("a program was evaluated twice in the resumed run")
    print(f"{len(before)} recorded evaluations kept, {len(appended)} new "
          f"ones, none evaluated again")


def cut(path, fraction):
    with open(path, "rb") as f:
        data = f.read()
    at = int(len(data) * float(fraction))
    # Into the middle of a line: a kill rarely lands on a newline.
    while at < len(data) and data[at - 1:at] == b"\n":
        at += 1
    with open(path, "wb") as f:
        f.write(data[:at])
    print(f"cut {path} to {at} of {len(data)} bytes")


def kill_after(path, lines, command):
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL,
                               start_new_session=True)
    deadline = time.time() + 300
    while time.time() < deadline and process.poll() is None:
        try:
            with open(path) as f:
                if sum(1 for _ in f) >= lines:
                    break
        except FileNotFoundError:
            pass
        time.sleep(0.05)
    if process.poll() is not None:
        sys.exit(f"the run ended (status {process.returncode}) before "
                 f"{path} held {lines} lines")
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    print(f"killed the run once {path} held {lines} lines")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    command, args = sys.argv[1], sys.argv[2:]
    if command == "report":
        report(args)
    elif command == "fresh-keys" and len(args) == 2:
        fresh_keys(*args)
    elif command == "cut" and len(args) == 2:
        cut(*args)
    elif command == "kill-after" and len(args) >= 3:
        kill_after(args[0], int(args[1]), args[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
