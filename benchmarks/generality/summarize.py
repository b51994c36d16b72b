#!/usr/bin/python3
"""Print run.sh's results as a markdown table.

  /usr/bin/python3 summarize.py SHAPES_JSON RESULTS_DIR [ID,ID,...]

Reads RESULTS_DIR/<id>/t<threads>/report.json (perfdojo-search's report,
docs/search-report.md): libtorch.time_s and best_time_s. Prints one row per
shape and thread count (only the listed ids, when given), then per thread
count the geomean speedup (libtorch / PerfDojo) and how many shapes are
slower than libtorch.
"""
import json
import math
import os
import sys


def main(shapes_path, results, only=None):
    shapes = json.load(open(shapes_path))
    if only:
        shapes = [e for e in shapes if e["id"] in only.split(",")]
    threads = sorted({int(d[1:]) for e in shapes if os.path.isdir(os.path.join(results, e["id"]))
                      for d in os.listdir(os.path.join(results, e["id"])) if d.startswith("t")})
    ms = lambda s: "%.3f" % (s * 1e3) if s else "n/a"
    print("| id | operator | model | shape | threads | libtorch ms | PerfDojo ms | speedup |")
    print("|---|---|---|---|---|---|---|---|")
    summary = []
    for t in threads:
        speedups = []
        for e in shapes:
            path = os.path.join(results, e["id"], "t%d" % t, "report.json")
            if not os.path.exists(path):
                continue
            r = json.load(open(path))
            torch, best = r.get("libtorch", {}).get("time_s"), r.get("best_time_s")
            sp = torch / best if torch and best else None
            if sp:
                speedups.append(sp)
            shape = " ".join("%s=%d" % kv for kv in e["sizes"].items())
            print("| %s | %s | %s | %s | %d | %s | %s | %s |" % (
                e["id"], e["operator"], e["model"], shape, t, ms(torch), ms(best),
                "%.2fx" % sp if sp else "n/a (%s)" % r.get("libtorch", {}).get("reason", "no valid program")))
        if speedups:
            geo = math.exp(sum(map(math.log, speedups)) / len(speedups))
            summary.append((t, len(speedups), geo, sum(s < 1 for s in speedups)))
    print("\n| threads | shapes | geomean speedup | slower than libtorch |")
    print("|---|---|---|---|")
    for t, n, geo, slower in summary:
        print("| %d | %d | %.2fx | %d |" % (t, n, geo, slower))


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    main(*sys.argv[1:])
