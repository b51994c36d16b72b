#!/usr/bin/env python3
"""The Snitch pass table: every kernel of a directory (kernels/snitch by
default) through perfdojo-search --target=snitch with the naive, greedy and
heuristic strategies, each result run again on the model for its FPU
utilization. Prints a Markdown table of cycles, FPU utilization, share of
the compute peak and speedups over the naive pass, with geomeans.

usage: snitch-suite.py BUILD [KERNEL_DIR] [--out DIR]
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

STRATEGIES = ["naive", "greedy", "heuristic"]


def run_search(build, kernel, strategy, out):
    subprocess.run(
        [os.path.join(build, "bin", "perfdojo-search"), kernel,
         "--target=snitch", "--strategy=" + strategy, "--torch=false",
         "--quiet", "--plot=false", "--best-path=false", "--out=" + out],
        check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "report.json")) as f:
        report = json.load(f)
    return report


def run_model(build, program):
    result = subprocess.run(
        [os.path.join(build, "bin", "perfdojo-run"), program,
         "--engine=snitch", "--json"],
        check=True, capture_output=True, text=True)
    return json.loads(result.stdout)["snitch"]


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build")
    parser.add_argument("kernels", nargs="?", default="kernels/snitch")
    parser.add_argument("--out", default=None,
                        help="where the search outputs go (default: a "
                             "temporary directory)")
    args = parser.parse_args()
    out_root = args.out or tempfile.mkdtemp(prefix="snitch-suite-")
    rows = []
    for name in sorted(os.listdir(args.kernels)):
        if not name.endswith(".dojo"):
            continue
        kernel = os.path.join(args.kernels, name)
        row = {"kernel": name[:-len(".dojo")]}
        for strategy in STRATEGIES:
            out = os.path.join(out_root, row["kernel"] + "-" + strategy)
            print(f"{row['kernel']}: {strategy}", file=sys.stderr)
            report = run_search(args.build, kernel, strategy, out)
            model = run_model(args.build, os.path.join(out, "best.dojo"))
            row[strategy] = {
                "cycles": report["best_cycles"],
                "moves": len(report.get("best_moves", [])),
                "fpu": model["fpu_utilization"],
                "peak": model["peak_share"],
            }
        rows.append(row)

    print("| kernel | naive cycles | greedy cycles | heuristic cycles | "
          "greedy / naive | heuristic / naive | heuristic FPU util. | "
          "heuristic share of peak | heuristic moves |")
    print("|---|---|---|---|---|---|---|---|---|")
    greedy, heuristic = [], []
    for row in rows:
        n, g, h = (row[s] for s in STRATEGIES)
        greedy.append(n["cycles"] / g["cycles"])
        heuristic.append(n["cycles"] / h["cycles"])
        print(f"| {row['kernel']} | {n['cycles']} | {g['cycles']} | "
              f"{h['cycles']} | {greedy[-1]:.2f}x | {heuristic[-1]:.2f}x | "
              f"{h['fpu']:.2f} | {100 * h['peak']:.0f}% | {h['moves']} |")
    print(f"| geomean | | | | {geomean(greedy):.2f}x | "
          f"{geomean(heuristic):.2f}x | | | |")


if __name__ == "__main__":
    main()
