#!/usr/bin/env python3
"""The learned agent against random and anneal at equal real-evaluation budgets.

Issue 14's evaluation (docs/agent.md): train the agent on one set of kernels
(perfdojo-train), then on held-out kernels run every strategy with every
seed at the largest budget, and read the best speedup over the original
after the first 25, 50, 100, ... evaluations from each run's records
(report.json). The heuristic pass's one-shot result is a reference line.
Writes results.json, table.md and (with matplotlib) evaluation.png to --out
and prints the table: per budget and strategy, the geometric mean over the
test kernels of the median over seeds, with the spread (min..max over
seeds of the geomean).

A strategy `perfllm-EMBEDDING` is the agent seeing programs through another
embedding (`perfllm-minilm`: the all-MiniLM-L6-v2 sentence embedding of
their lines), trained the same way with its own model, for the comparison
of embeddings. A suffix `+heuristic` (`perfllm+heuristic`) plays the same
model from the heuristic pass's programs (`--start=heuristic`), as anneal
starts from them.

Speedups at a budget prefix are the search's own times (a few repetitions
each, under whatever load there was); the full budget's best is also
re-timed back to back with the original in each search's final selection
(`final` in the results).

    scripts/agent-evaluation.py --build build --kernels kernels/bench \\
        --train-seconds 3600 --budgets 25,50,100,200 --seeds 5 --out eval/
"""

import argparse
import json
import math
import os
import pathlib
import statistics
import subprocess
import sys
import time

# The split: operations never trained, and new shapes of trained
# ones; a kernel and a shape variant of it never on opposite sides.
TRAIN = ["add", "relu", "matmul", "conv", "relu_ffn", "softmax", "layernorm",
         "batchnorm", "reducemean"]
TEST = ["bmm", "swiglu", "rmsnorm", "mul", "conv_large_c", "layernorm_wide",
        "batchnorm_large_c"]


def run(command, log):
    """Runs `command`, appending its output to `log`; fails loudly."""
    with open(log, "a") as out:
        out.write("$ " + " ".join(command) + "\n")
        out.flush()
        result = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT)
    if result.returncode not in (0,):
        sys.exit(f"agent-evaluation: '{' '.join(command)}' failed "
                 f"(exit {result.returncode}); see {log}")


def counts_against_budget(record):
    return record["status"] not in ("pruned", "illegal-move")


def best_at_budgets(report, budgets):
    """The best speedup over the original after the first b budgeted
    evaluations, for each budget b, from a search's records."""
    records = report["records"]
    original = records[0].get("time_s")
    best, spent, out = None, 0, {}
    pending = sorted(budgets)
    for record in records:
        if counts_against_budget(record):
            spent += 1
        if record["status"] == "ok":
            t = record["time_s"]
            best = t if best is None else min(best, t)
        while pending and spent >= pending[0]:
            out[pending.pop(0)] = original / best if best else 0.0
    for b in pending:  # the search stopped early: its best is final
        out[b] = original / best if best else 0.0
    return out


def geomean(values):
    values = [v for v in values if v > 0]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else 0


def embedding_of(strategy):
    """The embedding of a perfllm strategy label, None for the others."""
    strategy = strategy.partition("+")[0]
    if strategy == "perfllm":
        return "features"
    if strategy.startswith("perfllm-"):
        return strategy[len("perfllm-"):]
    return None


def start_of(strategy):
    """Where a perfllm strategy label starts: `perfllm+heuristic` from the
    heuristic pass's programs, plain `perfllm` from the original."""
    return strategy.partition("+")[2] or "original"


def model_label(strategy):
    """The label whose model a strategy plays: one model per embedding."""
    return strategy.partition("+")[0]


def search(tools, kernel, strategy, budget, seed, model, out, args, log):
    embedding = embedding_of(strategy)
    command = [str(tools / "perfdojo-search"), str(kernel),
               "--strategy=" + ("perfllm" if embedding else strategy),
               f"--seed={seed}",
               f"--threads={args.threads}", f"--reps={args.reps}",
               "--plot=false", "--torch=false", "--best-path=false",
               f"--out={out}"]
    if strategy != "heuristic":
        command.append(f"--budget-evals={budget}")
    if embedding:
        command.append(f"--episode-steps={args.episode_steps}")
        command.append(f"--start={start_of(strategy)}")
        if args.elite_starts is not None:
            command.append(f"--elite-starts={args.elite_starts}")
        if model:
            command.append(f"--model={model}")
        else:
            command.append(f"--embedding={embedding}")
    if args.cache:
        command.append(f"--cache={args.cache}")
    run(command, log)
    with open(out / "report.json") as f:
        return json.load(f)


def plot(results, budgets, strategies, heuristic, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(6, 4))
    for strategy in strategies:
        rows = results[strategy]
        medians = [rows[str(b)]["geomean_of_medians"] for b in budgets]
        low = [rows[str(b)]["spread"][0] for b in budgets]
        high = [rows[str(b)]["spread"][1] for b in budgets]
        ax.plot(budgets, medians, marker="o", label=strategy)
        ax.fill_between(budgets, low, high, alpha=0.2)
    if heuristic:
        ax.axhline(heuristic, color="gray", linestyle="--", label="heuristic")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("real evaluations")
    ax.set_ylabel("best speedup over the original (geomean)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--kernels", default="kernels/bench",
                        help="directory of the kernels named below")
    parser.add_argument("--train", default=",".join(TRAIN))
    parser.add_argument("--test", default=",".join(TEST))
    parser.add_argument("--model", default="",
                        help="a trained model for perfllm (skips its "
                        "training)")
    parser.add_argument("--online", action="store_true",
                        help="no training: perfllm strategies learn online "
                        "on each test kernel from scratch")
    parser.add_argument("--train-seconds", type=float, default=3600)
    parser.add_argument("--train-episodes", type=int, default=0)
    parser.add_argument("--budgets", default="25,50,100,200")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--strategies", default="perfllm,random,anneal",
                        help="perfllm-EMBEDDING (perfllm-minilm) plays a "
                        "model trained with that embedding; a suffix "
                        "+heuristic (perfllm+heuristic) starts from the "
                        "heuristic pass's programs (--start=heuristic)")
    parser.add_argument("--episode-steps", type=int, default=30)
    parser.add_argument("--elite-starts", type=float, default=None,
                        help="perfllm's --elite-starts (default: the "
                        "search's own)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--cache", default="",
                        help="evaluation cache shared by all runs")
    parser.add_argument("--out", default="agent-evaluation")
    parser.add_argument("--reuse-runs", action="store_true",
                        help="take the report of a search already in --out "
                        "instead of running it again (continues a stopped "
                        "evaluation; a model already in --out is kept "
                        "with --model)")
    args = parser.parse_args()

    tools = pathlib.Path(args.build) / "bin"
    kernels = pathlib.Path(args.kernels)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    log = out / "log.txt"
    budgets = sorted(int(b) for b in args.budgets.split(","))
    strategies = args.strategies.split(",")
    train = [kernels / f"{k}.dojo" for k in args.train.split(",") if k]
    test = [kernels / f"{k}.dojo" for k in args.test.split(",") if k]
    for path in train + test:
        if not path.exists():
            sys.exit(f"agent-evaluation: no kernel {path}")

    # One model per perfllm strategy, each trained with its embedding.
    models, training = {}, {}
    for strategy in dict.fromkeys(map(model_label, strategies)):
        embedding = embedding_of(strategy)
        if not embedding or args.online:
            continue
        if strategy == "perfllm" and args.model:
            models[strategy] = args.model
            continue
        model = str(out / ("agent.pt" if embedding == "features"
                           else f"agent-{embedding}.pt"))
        budget = []
        if args.train_seconds:
            budget.append(f"--budget-seconds={args.train_seconds}")
        if args.train_episodes:
            budget.append(f"--episodes={args.train_episodes}")
        start = time.monotonic()
        print(f"training {strategy} on {len(train)} kernel(s)...", flush=True)
        run([str(tools / "perfdojo-train"), *map(str, train), "-o", model,
             f"--embedding={embedding}",
             f"--episode-steps={args.episode_steps}",
             f"--threads={args.threads}", f"--reps={args.reps}", *budget]
            + ([f"--cache={args.cache}"] if args.cache else []), log)
        with open(model + ".state.json") as f:
            training[strategy] = json.load(f)
        training[strategy]["wall_seconds"] = time.monotonic() - start
        models[strategy] = model

    def search_once(kernel, strategy, seed, where):
        """A search's report: the one left in `where` with --reuse-runs,
        else a new run."""
        if args.reuse_runs and (where / "report.json").exists():
            with open(where / "report.json") as f:
                return json.load(f)
        return search(tools, kernel, strategy,
                      0 if strategy == "heuristic" else budgets[-1], seed,
                      models.get(model_label(strategy), ""), where, args,
                      log)

    runs, heuristic = [], {}
    for done, kernel in enumerate(test, 1):
        report = search_once(kernel, "heuristic", 0,
                             out / "runs" / kernel.stem / "heuristic")
        heuristic[kernel.stem] = (report["naive_time_s"] /
                                  report["best_time_s"]
                                  if report.get("best_time_s") else 0.0)
        for strategy in strategies:
            for seed in range(args.seeds):
                where = out / "runs" / kernel.stem / f"{strategy}-{seed}"
                print(f"{kernel.stem}: {strategy}, seed {seed}...",
                      flush=True)
                report = search_once(kernel, strategy, seed, where)
                final = (report["naive_time_s"] / report["best_time_s"]
                         if report.get("best_time_s") else 0.0)
                runs.append({"kernel": kernel.stem, "strategy": strategy,
                             "seed": seed,
                             "best": best_at_budgets(report, budgets),
                             "final": final,
                             "seconds": report["elapsed_s"]})
        # The kernels done so far, in case the run is stopped.
        summarize(runs, heuristic, budgets, strategies, train, training,
                  args.seeds, out, final_summary=done == len(test))


def summarize(runs, heuristic, budgets, strategies, train, training, seeds,
              out, final_summary):
    """Writes results.json, table.md and the plot for `runs`; prints the
    table at the end."""
    test = list(heuristic)
    results = {}
    for strategy in strategies:
        results[strategy] = {}
        for b in budgets:
            by_kernel = {}
            for r in runs:
                if r["strategy"] == strategy:
                    by_kernel.setdefault(r["kernel"], []).append(r["best"][b])
            medians = [statistics.median(v) for v in by_kernel.values()]
            per_seed = [geomean([r["best"][b] for r in runs
                                 if r["strategy"] == strategy and
                                 r["seed"] == s])
                        for s in range(seeds)]
            results[strategy][str(b)] = {
                "geomean_of_medians": geomean(medians),
                "spread": [min(per_seed), max(per_seed)]}
    heuristic_geomean = geomean(list(heuristic.values()))

    lines = ["| strategy | " + " | ".join(f"{b} evals" for b in budgets) +
             " |", "|---|" + "---|" * len(budgets)]
    for strategy in strategies:
        cells = []
        for b in budgets:
            row = results[strategy][str(b)]
            cells.append(f"{row['geomean_of_medians']:.2f}x "
                         f"({row['spread'][0]:.2f}..{row['spread'][1]:.2f})")
        lines.append(f"| {strategy} | " + " | ".join(cells) + " |")
    lines.append(f"| heuristic (one shot) | {heuristic_geomean:.2f}x |" +
                 " |" * (len(budgets) - 1))
    table = "\n".join(lines)
    (out / "table.md").write_text(table + "\n")
    with open(out / "results.json", "w") as f:
        json.dump({"budgets": budgets, "strategies": strategies,
                   "train": [p.stem for p in train],
                   "test": test, "training": training,
                   "heuristic": heuristic, "results": results, "runs": runs},
                  f, indent=2)
    plotted = plot(results, budgets, strategies, heuristic_geomean,
                   out / "evaluation.png")
    if not final_summary:
        print(f"kernels done: {', '.join(test)}; wrote {out}/table.md",
              flush=True)
        return
    print(table)
    if plotted:
        print(f"wrote {out}/results.json, table.md, evaluation.png")
    else:
        print(f"wrote {out}/results.json, table.md (no matplotlib: no plot)")


if __name__ == "__main__":
    main()
