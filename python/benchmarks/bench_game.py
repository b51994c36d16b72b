#!/usr/bin/env python3
"""The game's overhead from Python against the C++ move-engine benchmark.

For every kernel of kernels/ (the paper shapes) it measures, from Python, what
perfdojo-moves-bench measures in C++ (docs/performance.md, "Move engine"):
listing every legal move, and apply + undo averaged over every legal move.
Both are run in this process's run, back to back, kernel by kernel; the
table gives the ratios and their median.

    PYTHONPATH=build/python_packages /usr/bin/python3 \
        python/benchmarks/bench_game.py [--build build] [--min-time 0.2]
"""

import argparse
import json
import pathlib
import statistics
import subprocess
import time

import perfdojo


def timed(function, min_time):
    """Seconds per call of `function`: calls repeated for min_time, best of
    three such rounds."""
    best = float("inf")
    for _ in range(3):
        calls, start = 0, time.perf_counter()
        while True:
            function()
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= min_time:
                break
        best = min(best, elapsed / calls)
    return best


def python_numbers(path, min_time):
    # The benchmark's target: everything the IR allows.
    game = perfdojo.Game(perfdojo.Kernel.from_file(str(path)), target="default")
    moves = game.legal_moves()

    def apply_undo_all():
        for move in moves:
            game.apply(move)
            game.undo()

    listing = timed(game.legal_moves, min_time)
    apply_undo = timed(apply_undo_all, min_time) / len(moves)
    return len(moves), listing, apply_undo


def cpp_numbers(build, name, min_time):
    out = subprocess.run(
        [str(build / "bin" / "perfdojo-moves-bench"),
         f"--benchmark_filter=/{name}$", f"--benchmark_min_time={min_time}",
         "--benchmark_format=json"],
        capture_output=True, text=True, check=True).stdout
    benchmarks = {b["name"].split("/")[0]: b
                  for b in json.loads(out)["benchmarks"]}
    seconds = {name: b["cpu_time"] * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3}[
        b["time_unit"]] for name, b in benchmarks.items()}
    return (int(benchmarks["list_moves"]["legal_moves"]),
            seconds["list_moves"], seconds["apply_undo"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--min-time", type=float, default=0.2)
    args = parser.parse_args()
    build = pathlib.Path(args.build)
    print("| kernel | legal moves | list, C++ (ms) | list, Python (ms) | "
          "ratio | apply + undo, C++ (us) | apply + undo, Python (us) | "
          "ratio |")
    print("|---|---|---|---|---|---|---|---|")
    list_ratios, apply_ratios = [], []
    for path in sorted(pathlib.Path("kernels").glob("*.dojo")):
        n, py_list, py_apply = python_numbers(path, args.min_time)
        cpp_n, cpp_list, cpp_apply = cpp_numbers(build, path.stem,
                                                 args.min_time)
        if cpp_n != n:
            raise SystemExit(f"{path.stem}: {n} legal moves from Python, "
                             f"{cpp_n} from C++: not the same game")
        list_ratios.append(py_list / cpp_list)
        apply_ratios.append(py_apply / cpp_apply)
        print(f"| {path.stem} | {n} | {cpp_list * 1e3:.3g} | "
              f"{py_list * 1e3:.3g} | {list_ratios[-1]:.2f} | "
              f"{cpp_apply * 1e6:.3g} | {py_apply * 1e6:.3g} | "
              f"{apply_ratios[-1]:.2f} |", flush=True)
    print(f"\nmedian Python / C++: listing {statistics.median(list_ratios):.2f}x"
          f", apply + undo {statistics.median(apply_ratios):.2f}x "
          f"(worst {max(list_ratios):.2f}x and {max(apply_ratios):.2f}x)")


if __name__ == "__main__":
    main()
