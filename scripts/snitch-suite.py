#!/usr/bin/env python3
"""The Snitch pass table: every kernel of a directory (kernels/snitch by
default) through perfdojo-search --target=snitch with the naive, greedy and
heuristic strategies (and, with --anneal N, simulated annealing from the
heuristic's program within N evaluations), each result run again on the
model for its FPU utilization. Prints a Markdown table of cycles, FPU
utilization, share of the compute peak and speedups over the naive pass,
with geomeans. Exits non-zero when any candidate of any search failed
validation (a mismatch against the f64 reference) or any search failed.

usage: snitch-suite.py BUILD [KERNEL_DIR] [--out DIR] [--anneal N]
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


def run_search(build, kernel, strategy, out, budget=0):
    command = [os.path.join(build, "bin", "perfdojo-search"), kernel,
               "--target=snitch", "--strategy=" + strategy, "--torch=false",
               "--quiet", "--plot=false", "--best-path=false", "--seed=1",
               "--out=" + out]
    if budget:
        command.append(f"--budget-evals={budget}")
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "report.json")) as f:
        report = json.load(f)
    bad = [r for r in report["records"] if r["status"] == "mismatch"]
    if bad:
        sys.exit(f"{kernel} ({strategy}): {len(bad)} candidate(s) do not "
                 f"match the reference: {bad[0].get('message', '')}")
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
    parser.add_argument("--anneal", type=int, default=0, metavar="N",
                        help="also anneal from the heuristic's program "
                             "within N evaluations (the 'search' column)")
    args = parser.parse_args()
    strategies = STRATEGIES + (["anneal"] if args.anneal else [])
    out_root = args.out or tempfile.mkdtemp(prefix="snitch-suite-")
    rows = []
    for name in sorted(os.listdir(args.kernels)):
        if not name.endswith(".dojo"):
            continue
        kernel = os.path.join(args.kernels, name)
        row = {"kernel": name[:-len(".dojo")]}
        for strategy in strategies:
            out = os.path.join(out_root, row["kernel"] + "-" + strategy)
            print(f"{row['kernel']}: {strategy}", file=sys.stderr)
            report = run_search(args.build, kernel, strategy, out,
                                args.anneal if strategy == "anneal" else 0)
            model = run_model(args.build, os.path.join(out, "best.dojo"))
            row[strategy] = {
                "cycles": report["best_cycles"],
                "moves": len(report.get("best_moves", [])),
                "fpu": model["fpu_utilization"],
                "peak": model["peak_share"],
            }
        rows.append(row)

    # The best program of the run: the fastest of the passes (and the
    # search), as a search that may start from any of them would report.
    def best(row):
        return min((row[s] for s in strategies), key=lambda r: r["cycles"])

    search = " search cycles | search / naive |" if args.anneal else ""
    print("| kernel | naive cycles | greedy cycles | heuristic cycles |"
          + search + " greedy / naive | heuristic / naive | best FPU util. |"
          " best share of peak |")
    print("|---|---|---|---|" + ("---|---|" if args.anneal else "")
          + "---|---|---|---|")
    greedy, heuristic, searched = [], [], []
    for row in rows:
        n, g, h = (row[s] for s in STRATEGIES)
        greedy.append(n["cycles"] / g["cycles"])
        heuristic.append(n["cycles"] / h["cycles"])
        cells = f"| {row['kernel']} | {n['cycles']} | {g['cycles']} | {h['cycles']} |"
        if args.anneal:
            a = row["anneal"]
            searched.append(n["cycles"] / a["cycles"])
            cells += f" {a['cycles']} | {searched[-1]:.2f}x |"
        b = best(row)
        cells += (f" {greedy[-1]:.2f}x | {heuristic[-1]:.2f}x | "
                  f"{b['fpu']:.2f} | {100 * b['peak']:.0f}% |")
        print(cells)
    tail = f" | {geomean(searched):.2f}x |" if args.anneal else ""
    print(f"| geomean | | | |{tail} {geomean(greedy):.2f}x | "
          f"{geomean(heuristic):.2f}x | | |")


if __name__ == "__main__":
    main()
