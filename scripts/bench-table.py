#!/usr/bin/python3
"""Turns perfdojo-codegen-bench JSON output into the markdown table of
docs/performance.md.

Usage: perfdojo-codegen-bench --benchmark_format=json > bench.json
       scripts/bench-table.py bench.json
Times are the median of Google Benchmark's real time per iteration (ms, or
its repetitions' median when --benchmark_repetitions is given); the ratio
is libtorch time / moved time (above 1: the move script is faster).
"""
import json
import sys
from collections import defaultdict


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        data = json.load(f)
    times = defaultdict(dict)
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        variant, kernel, threads = b["run_name"].split("/")[:3]
        scale = {"ms": 1.0, "us": 1e-3, "ns": 1e-6}[b["time_unit"]]
        times[kernel][(variant, threads)] = b["real_time"] * scale
    print("| kernel | threads | naive (ms) | moves (ms) | libtorch (ms) | libtorch / moves | naive / moves |")
    print("|---|---|---|---|---|---|---|")
    for kernel in sorted(times):
        for threads in ("threads:1", "threads:2"):
            t = times[kernel]
            naive = t.get(("naive", threads))
            moved = t.get(("moves", threads))
            torch = t.get(("torch", threads))
            fmt = lambda v: f"{v:.3g}" if v is not None else "-"
            ratio = f"{torch / moved:.2f}" if moved and torch else "-"
            speedup = f"{naive / moved:.1f}" if moved and naive else "-"
            print(f"| {kernel} | {threads[-1]} | {fmt(naive)} | {fmt(moved)} | "
                  f"{fmt(torch)} | {ratio} | {speedup} |")


if __name__ == "__main__":
    main()
