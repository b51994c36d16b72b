#!/usr/bin/env python3
"""Compares two value dumps in the `perfdojo-run --dump-outputs` format.

Usage: compare_dumps.py ACTUAL EXPECTED [--rtol R]

Each dump is a sequence of sections: a `# name type [shape]` line, then one
value per line. The sections must have the same headers, in the same order,
and the same number of values. Values match when both are NaN, both are the
same infinity, or |actual - expected| <= rtol * (max |expected| over the
section, 1 if that is 0): the error is relative to the section's magnitude,
so elements that cancel to nearly zero do not fail on rounding noise. Exit status 0 when
everything matches, 1 otherwise (each mismatching section is reported).
"""
import argparse
import math
import sys


def read_dump(path):
    sections = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            if line.startswith("#"):
                sections.append((line, []))
                continue
            if not sections:
                sys.exit(f"{path}:{number}: value before the first '# name' line")
            try:
                sections[-1][1].append(float(line))
            except ValueError:
                sys.exit(f"{path}:{number}: not a number: {line!r}")
    return sections


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("actual")
    parser.add_argument("expected")
    parser.add_argument("--rtol", type=float, default=1e-5)
    args = parser.parse_args()
    actual, expected = read_dump(args.actual), read_dump(args.expected)
    if [h for h, _ in actual] != [h for h, _ in expected]:
        print(f"sections differ:\n  {args.actual}: {[h for h, _ in actual]}\n"
              f"  {args.expected}: {[h for h, _ in expected]}")
        return 1
    status = 0
    for (header, a), (_, e) in zip(actual, expected):
        if len(a) != len(e):
            print(f"{header}: {len(a)} values, expected {len(e)}")
            status = 1
            continue
        finite = [abs(v) for v in e if math.isfinite(v)]
        scale = max(finite, default=0.0) or 1.0
        worst, where = 0.0, None
        for i, (x, y) in enumerate(zip(a, e)):
            if math.isnan(x) or math.isnan(y) or math.isinf(x) or math.isinf(y):
                same = (math.isnan(x) and math.isnan(y)) or x == y
                error = 0.0 if same else math.inf
            else:
                error = abs(x - y) / scale
            if error > worst:
                worst, where = error, i
        if worst > args.rtol:
            print(f"{header}: MISMATCH at element {where}: {a[where]!r} vs "
                  f"{e[where]!r} (scaled error {worst:.3g} > {args.rtol:g})")
            status = 1
        else:
            print(f"{header}: {len(a)} values match (max scaled error "
                  f"{worst:.3g})")
    return status


if __name__ == "__main__":
    sys.exit(main())
