#!/usr/bin/python3
"""Runs perfdojo-search over kernels x strategies and tabulates the results.

For every kernel (a .dojo file) and strategy it runs

  perfdojo-search KERNEL --strategy=S --budget-evals=N --threads=T ...

into OUT/<kernel>/<strategy>/ (one evaluation cache per kernel, shared by
the strategies, so a program two strategies reach is timed once and ranked
the same). libtorch is timed once per kernel, by the first strategy's run.
Then it writes

  OUT/table.md          speedup of each strategy's best program over the
                        original (naive) kernel and over libtorch, the best
                        program's GFLOP/s and compulsory GB/s, geometric means
  OUT/summary.json      the same numbers
  OUT/convergence.png   best run time so far over evaluations, per kernel
                        and strategy (the paper's Figure 13 comparison)
  OUT/retimed.md        with --retime-threads: original, best program and
                        libtorch timed again back to back per thread count,
                        with the kernel's stream probe: a generated kernel
                        that only reads every input and writes every output
                        once, vectorized and parallel (its time is the
                        memory roofline; "of stream" = probe / best time)

Runs already in OUT are reused (delete a run's directory to redo it), so an
interrupted sweep resumes.

Usage: search-table.py [--build DIR] [--kernels DIR | FILE ...]
                       [--strategies heuristic,random,anneal]
                       [--budget-evals N] [--budget-seconds S] [--reps R]
                       [--threads T] [--jobs J] [--out DIR]
                       [--retime-threads 1,2] [--retime-reps R]
"""
import argparse
import glob
import json
import math
import os
import subprocess
import sys
import time


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("files", nargs="*", help="kernel files (default: --kernels)")
    p.add_argument("--build", default="build")
    p.add_argument("--kernels", default="kernels/bench")
    p.add_argument("--strategies", default="heuristic,random,anneal")
    p.add_argument("--budget-evals", type=int, default=300)
    p.add_argument("--budget-seconds", type=float, default=0,
                   help="also stop random/anneal runs after this long")
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="search-table")
    p.add_argument("--retime-threads", default="",
                   help="after the sweep, time each kernel's original, its "
                        "best program and libtorch again, one after the "
                        "other, on these thread counts (e.g. 1,2): "
                        "retimed.md")
    p.add_argument("--retime-reps", type=int, default=20)
    return p.parse_args()


def run_search(args, kernel_path, strategy, out_dir, cache_dir, torch):
    report = os.path.join(out_dir, "report.json")
    if os.path.exists(report):
        with open(report) as f:
            return json.load(f)
    command = [
        os.path.join(args.build, "bin", "perfdojo-search"), kernel_path,
        f"--strategy={strategy}", f"--threads={args.threads}",
        f"--jobs={args.jobs}", f"--seed={args.seed}", f"--out={out_dir}",
        f"--cache={cache_dir}", "--plot=false", "--best-path=false", "--quiet",
        f"--torch={'true' if torch else 'false'}"]
    command.append(f"--reps={args.reps}")
    if strategy in ("random", "anneal"):
        command.append(f"--budget-evals={args.budget_evals}")
        if args.budget_seconds:
            command.append(f"--budget-seconds={args.budget_seconds}")
    start = time.time()
    result = subprocess.run(command, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    print(f"  {strategy}: {time.time() - start:.0f} s, exit {result.returncode}",
          flush=True)
    if not os.path.exists(report):
        print(result.stdout, file=sys.stderr)
        return None
    with open(report) as f:
        return json.load(f)


def fmt_time(seconds):
    if not seconds:
        return "-"
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds * 1e9:.3g} ns"


def run_json(command):
    result = subprocess.run(command, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        print(f"  {' '.join(command)}: exit {result.returncode}: "
              f"{result.stderr.strip()[:200]}", file=sys.stderr)
        return None
    return json.loads(result.stdout)


def read_arguments(path):
    """The kernel's argument buffers: (name, type, element count, role)."""
    arguments = []
    with open(path) as f:
        for line in f:
            words = line.split()
            if (len(words) < 5 or not line[0].isalpha() or "[" not in line
                    or words[-1] not in ("in", "out", "inout")):
                continue
            dims = line[line.index("[") + 1:line.index("]")].split(",")
            count = 1
            for d in dims:
                count *= int(d.split(":")[0].split("+")[0])
            arguments.append((words[0], words[1], count, words[-1]))
    return arguments


def stream_probe(path, threads):
    """A kernel that only moves `path`'s compulsory bytes, as fast as a
    stream can: every input read once (summed into vector accumulators in
    registers), every output written once (a constant), inouts read and
    written, in one pass that interleaves all arguments, vectorized and
    split into rows that run in parallel. Its time is the memory roofline
    of the kernel on this machine and thread count."""
    arguments = read_arguments(path)
    lanes_of = {name: 64 // (8 if type_ == "f64" else 4)
                for name, type_, _, _ in arguments}
    # One row count for all arguments; arguments whose size is not a
    # multiple of rows x lanes get their own scalar pass.
    rows = next((r for r in (64, 32, 16, 8, 4, 2, 1)
                 if all(count % (r * lanes_of[n]) == 0
                        for n, _, count, _ in arguments)), 1)
    vector = [a for a in arguments if a[2] % (rows * lanes_of[a[0]]) == 0]
    # Steps of the interleaved pass: each step moves a contiguous run of
    # vectors of every argument, proportional to its size.
    steps = 0
    for name, _, count, _ in vector:
        steps = math.gcd(steps, count // (rows * lanes_of[name]))
    mode = ":p" if threads > 1 and rows > 1 else ""
    decls, init, loop, final, rest = [], [], [], [], []
    for name, type_, count, role in arguments:
        is_vector = (name, type_, count, role) in vector
        lanes = lanes_of[name] if is_vector else 1
        r = rows if is_vector else 1
        decls.append(f"{name} {type_} [{r}, {count // r}] heap {role}")
        if role == "in":
            decls.append(f"{name}_acc {type_} [{r}:N, {lanes}] reg")
            decls.append(f"{name}_sum {type_} [{r}, {lanes}] heap out")
        if not is_vector:
            # count x 1: a plain scalar pass of its own.
            at = f"{name}[{{0}}, {{1}}]"
            if role == "in":
                rest.append(f"1 {name}_acc[{{0}}, 0] = 0")
                rest.append(f"| {count} {name}_acc[{{0}}, 0] += {at}")
                rest.append(f"| {name}_sum[{{0}}, 0] = {name}_acc[{{0}}, 0]")
            else:
                value = "1" if role == "out" else f"{at} + 1"
                rest.append(f"1 {count} {at} = {value}")
            continue
        run = count // (rows * lanes) // steps
        at = f"{name}[{{0}}, {{1}}*{run * lanes}+{{2}}*{lanes}+{{3}}]"
        lane = f"{lanes}:v"
        if role == "in":
            init.append(f"{lane} {name}_acc[{{0}}, {{1}}] = 0")
            loop.append((run, f"{lane} {name}_acc[{{0}}, {{3}}] += {at}"))
            final.append(f"{lane} {name}_sum[{{0}}, {{1}}] = "
                         f"{name}_acc[{{0}}, {{1}}]")
        else:
            value = "1" if role == "out" else f"{at} + 1"
            loop.append((run, f"{lane} {at} = {value}"))
    # The row scope's statements; its first opens the row scope, the first
    # run opens the steps scope.
    body = [f"| {x}" for x in init]
    body += [f"| {steps} {run} {leaf}" if k == 0 else f"| | {run} {leaf}"
             for k, (run, leaf) in enumerate(loop)]
    body += [f"| {x}" for x in final]
    if body:
        body[0] = f"{rows}{mode} " + body[0][2:]
    return "\n".join(decls + body + rest) + "\n"


def retime(args, files, summary):
    """Times original, best program and libtorch of every kernel anew.

    The sweep's own times come from evaluations spread over an hour; here
    the programs of a kernel run back to back with more repetitions, on
    each thread count of --retime-threads: the original, every strategy's
    best program (found on the sweep's thread count; the fastest of them
    here is the row's best), libtorch and the stream probe.
    """
    rows = []
    for path in files:
        kernel = os.path.splitext(os.path.basename(path))[0]
        e = summary.get(kernel)
        if not e or not e["reports"]:
            continue
        # One candidate per distinct program (strategies often agree).
        candidates = {}
        for strategy, report in e["reports"].items():
            best_path = os.path.join(args.out, kernel, strategy, "best.dojo")
            if "best_time_s" not in report or not os.path.exists(best_path):
                continue
            with open(best_path) as f:
                candidates.setdefault(f.read(), (strategy, best_path))
        if not candidates:
            continue
        for threads in args.retime_threads.split(","):
            run = [os.path.join(args.build, "bin", "perfdojo-run"),
                   f"--threads={threads}", f"--reps={args.retime_reps}",
                   "--json"]
            original = run_json(run + [path, "--validate=false"])
            best, best_strategy = None, None
            for strategy, best_path in candidates.values():
                timed = run_json(run + [best_path, f"--baseline={path}",
                                        "--reference-engine=compiled"])
                if timed and (not best or timed["time_median_s"]
                              < best["time_median_s"]):
                    best, best_strategy = timed, strategy
            torch = run_json([os.path.join(args.build, "bin",
                                           "perfdojo-run-torch"), path,
                              f"--threads={threads}",
                              f"--reps={args.retime_reps}", "--json"])
            probe_path = os.path.join(args.out, kernel,
                                      f"roofline-{threads}t.dojo")
            with open(probe_path, "w") as f:
                f.write(stream_probe(path, int(threads)))
            probe = run_json(run + [probe_path, "--validate=false"])
            row = {"kernel": kernel, "threads": int(threads),
                   "strategy": best_strategy,
                   "original_s": original and original["time_median_s"],
                   "best_s": best and best["time_median_s"],
                   "libtorch_s": torch and torch["time_median_s"],
                   "roofline_s": probe and probe["time_median_s"],
                   "gflops": best and best["gflops"],
                   "gbps": best and best["gbps"]}
            rows.append(row)
            print(f"  retimed {kernel} on {threads} thread(s)", flush=True)
    lines = ["| kernel | threads | found by | original | best | libtorch "
             "| x original | x libtorch | GFLOP/s | GB/s | stream "
             "| of stream |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for threads in sorted({r["threads"] for r in rows}):
        vs_orig, vs_torch = [], []
        for r in (r for r in rows if r["threads"] == threads):
            o, b, t = r["original_s"], r["best_s"], r["libtorch_s"]
            m = r.get("roofline_s")
            xo = o / b if o and b else None
            xt = t / b if t and b else None
            xm = m / b if m and b else None
            vs_orig.append(xo)
            vs_torch.append(xt)
            lines.append(
                f"| {r['kernel']} | {threads} | {r['strategy']} | "
                f"{fmt_time(o)} | {fmt_time(b)} | {fmt_time(t)} | "
                + (f"{xo:.2f}" if xo else "-") + " | "
                + (f"{xt:.2f}" if xt else "-") + " | "
                + (f"{r['gflops']:.2f}" if r["gflops"] else "-") + " | "
                + (f"{r['gbps']:.2f}" if r["gbps"] else "-") + " | "
                + f"{fmt_time(m)} | "
                + (f"{100 * xm:.0f}%" if xm else "-") + " |")
        go, gt = geomean(vs_orig), geomean(vs_torch)
        lines.append(f"| geomean | {threads} | | | | | "
                     + (f"{go:.2f}" if go else "-") + " | "
                     + (f"{gt:.2f}" if gt else "-") + " | | | | |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "retimed.md"), "w") as f:
        f.write(f"median of {args.retime_reps} runs each\n\n" + text)
    with open(os.path.join(args.out, "retimed.json"), "w") as f:
        json.dump(rows, f, indent=2)
    print(text)


def geomean(values):
    values = [v for v in values if v and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def best_so_far(report):
    xs, ys, best = [], [], None
    for i, r in enumerate(x for x in report["records"]
                          if x["status"] != "pruned"):
        if r["status"] == "ok":
            best = r["time_s"] if best is None else min(best, r["time_s"])
        if best is not None:
            xs.append(i + 1)
            ys.append(best)
    return xs, ys


def plot(summary, strategies, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    kernels = [k for k in summary if summary[k]["reports"]]
    if not kernels:
        return
    cols = 4
    rows = (len(kernels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3 * rows),
                             squeeze=False)
    for ax, kernel in zip(axes.flat, kernels):
        naive = summary[kernel].get("naive_s")
        for strategy in strategies:
            report = summary[kernel]["reports"].get(strategy)
            if not report:
                continue
            xs, ys = best_so_far(report)
            if naive:
                ys = [naive / y for y in ys]
            if strategy == "heuristic" and ys:
                # A handful of evaluations: its result as a level.
                ax.axhline(ys[-1], color="gray", linestyle="--",
                           label="heuristic")
                continue
            ax.step(xs, ys, where="post", label=strategy)
        ax.set_title(kernel, fontsize=9)
        ax.set_xlabel("evaluations", fontsize=8)
        ax.set_ylabel("best speedup over original", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[len(kernels):]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    args = parse_args()
    strategies = args.strategies.split(",")
    files = args.files or sorted(glob.glob(os.path.join(args.kernels, "*.dojo")))
    os.makedirs(args.out, exist_ok=True)
    summary = {}
    for path in files:
        kernel = os.path.splitext(os.path.basename(path))[0]
        print(f"{kernel}:", flush=True)
        entry = {"reports": {}}
        cache = os.path.join(args.out, kernel, "cache")
        for i, strategy in enumerate(strategies):
            report = run_search(args, path, strategy,
                                os.path.join(args.out, kernel, strategy),
                                cache, torch=(i == 0))
            if report:
                entry["reports"][strategy] = report
        reports = list(entry["reports"].values())
        naive = [r["naive_time_s"] for r in reports if "naive_time_s" in r]
        entry["naive_s"] = min(naive) if naive else None
        torch = [r["libtorch"]["time_s"] for r in reports
                 if "time_s" in r.get("libtorch", {})]
        entry["libtorch_s"] = torch[0] if torch else None
        if reports:
            entry["flops"] = reports[0].get("flops")
            entry["bytes"] = reports[0].get("compulsory_bytes")
        summary[kernel] = entry

    head = ["kernel", "original", "libtorch"] + \
        [f"{s} (x orig)" for s in strategies] + \
        ["best (x orig)", "best (x libtorch)", "best GFLOP/s", "best GB/s"]
    lines = ["| " + " | ".join(head) + " |",
             "|" + "---|" * len(head)]
    vs_naive, vs_torch = [], []
    per_strategy = {s: [] for s in strategies}
    for kernel, e in summary.items():
        naive, torch = e["naive_s"], e["libtorch_s"]
        bests = {}
        for s in strategies:
            r = e["reports"].get(s)
            if r and "best_time_s" in r:
                bests[s] = r["best_time_s"]
        best = min(bests.values()) if bests else None
        row = [kernel, fmt_time(naive), fmt_time(torch)]
        for s in strategies:
            if s in bests and naive:
                row.append(f"{naive / bests[s]:.2f}")
                per_strategy[s].append(naive / bests[s])
            else:
                row.append("-")
        if best and naive:
            row.append(f"{naive / best:.2f}")
            vs_naive.append(naive / best)
        else:
            row.append("-")
        if best and torch:
            row.append(f"{torch / best:.2f}")
            vs_torch.append(torch / best)
        else:
            row.append("-")
        row.append(f"{e['flops'] / best / 1e9:.2f}" if best and e.get("flops")
                   else "-")
        row.append(f"{e['bytes'] / best / 1e9:.2f}" if best and e.get("bytes")
                   else "-")
        e["best_s"] = best
        lines.append("| " + " | ".join(row) + " |")
    geo = ["geomean", "", ""]
    for s in strategies:
        g = geomean(per_strategy[s])
        geo.append(f"{g:.2f}" if g else "-")
    for values in (vs_naive, vs_torch):
        g = geomean(values)
        geo.append(f"{g:.2f}" if g else "-")
    lines.append("| " + " | ".join(geo + ["", ""]) + " |")
    table = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write(f"threads={args.threads} jobs={args.jobs} reps={args.reps} "
                f"budget={args.budget_evals} evaluations"
                + (f" or {args.budget_seconds:g} s" if args.budget_seconds
                   else "") + " (random, anneal)\n\n")
        f.write(table)
    for e in summary.values():
        e["strategies"] = {s: {k: r.get(k) for k in (
            "best_time_s", "evaluations", "worker_runs", "cache_hits",
            "pruned", "elapsed_s", "evaluations_per_minute")}
            for s, r in e["reports"].items()}
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump({k: {x: y for x, y in e.items() if x != "reports"}
                   for k, e in summary.items()}, f, indent=2)
    try:
        plot(summary, strategies, os.path.join(args.out, "convergence.png"))
    except ImportError:
        print("matplotlib is missing: no convergence.png", file=sys.stderr)
    print(table)
    if args.retime_threads:
        retime(args, files, summary)


if __name__ == "__main__":
    main()
