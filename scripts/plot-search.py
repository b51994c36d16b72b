#!/usr/bin/python3
"""Plots a perfdojo-search report (report.json) as two PNG files.

convergence.png: the run time of every valid evaluation in order and the best
so far (the PerfDojo paper's Figure 13). best-path.png: the run time after
each move along the best program's move sequence (Figure 10), from the
report's `best_path` entries.

Usage: plot-search.py REPORT.json [OUTPUT_DIR]
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    report_path = sys.argv[1]
    out_dir = sys.argv[2] if len(sys.argv) == 3 else os.path.dirname(report_path)
    with open(report_path) as f:
        report = json.load(f)
    title = f"{report['kernel']} ({report['strategy']}, {report['threads']} thread(s))"

    xs, ys, best_x, best_y, best = [], [], [], [], None
    for i, record in enumerate(report["records"], 1):
        if record["status"] != "ok":
            continue
        t = record["time_s"] * 1e3
        xs.append(i)
        ys.append(t)
        best = t if best is None else min(best, t)
        best_x.append(i)
        best_y.append(best)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.scatter(xs, ys, s=10, alpha=0.5, label="evaluation")
    ax.step(best_x, best_y, where="post", color="C3", label="best so far")
    if "naive_time_s" in report:
        ax.axhline(report["naive_time_s"] * 1e3, color="gray", linestyle="--",
                   label="original kernel")
    ax.set_xlabel("evaluation")
    ax.set_ylabel("run time (ms)")
    ax.set_yscale("log")
    ax.set_title(f"Convergence: {title}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "convergence.png"), dpi=120)

    path = report.get("best_path", [])
    if path:
        fig, ax = plt.subplots(figsize=(7, 4))
        steps = [p["moves"] for p in path]
        times = [p["time_s"] * 1e3 if p["status"] == "ok" else float("nan")
                 for p in path]
        ax.plot(steps, times, marker="o")
        ax.set_xlabel("moves applied along the best sequence")
        ax.set_ylabel("run time (ms)")
        ax.set_yscale("log")
        ax.set_title(f"Best path: {title}")
        fig.tight_layout()
        fig.savefig(os.path.join(out_dir, "best-path.png"), dpi=120)


if __name__ == "__main__":
    main()
