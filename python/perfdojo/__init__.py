"""PerfDojo: ML kernel optimization as a game of small, checked moves.

A kernel is a scope tree (`Kernel`); the `Game` offers the moves that keep
its meaning; `run`, `interpret` and `compile` execute it on NumPy arrays;
`search` optimizes it automatically; `perfdojo.env.DojoEnv` is the game as
a gym environment. docs/python.md has a walk-through.
"""

import os
import shutil

from . import _config
from ._perfdojo import (
    CompiledKernel,
    DojoError,
    Evaluator as _Evaluator,
    FEATURE_VERSION,
    Game,
    IllegalMoveError,
    Kernel,
    Move,
    MoveCheck,
    ParseError,
    RunError,
    RunResult,
    SearchResult,
    VerifyError,
    compile,
    emit,
    feature_names,
    generate_inputs,
    interpret,
    run,
    search as _search,
    strategies,
    targets,
)

__all__ = [
    "CompiledKernel", "DojoError", "Evaluator", "FEATURE_VERSION", "Game",
    "IllegalMoveError", "Kernel", "Move", "MoveCheck", "ParseError",
    "RunError", "RunResult", "SearchResult", "VerifyError", "compile", "emit",
    "feature_names", "find_tool", "generate_inputs", "interpret", "run",
    "search", "strategies", "targets",
]


def find_tool(name):
    """The path of the PerfDojo tool `name` (e.g. 'perfdojo-run').

    Looked up in $PERFDOJO_BIN_DIR, then where the package was built or
    installed with it, then on PATH. Raises FileNotFoundError otherwise.
    """
    for directory in (os.environ.get("PERFDOJO_BIN_DIR"), _config.TOOLS_DIR):
        if directory:
            path = os.path.join(directory, name)
            if os.access(path, os.X_OK):
                return path
    path = shutil.which(name)
    if path:
        return path
    raise FileNotFoundError(
        f"cannot find the PerfDojo tool '{name}': set PERFDOJO_BIN_DIR to "
        "the directory of the PerfDojo tools")


def Evaluator(kernel, *, runner=None, target="cpu", threads=1, repetitions=5,
              timeout=60, jobs=1, max_work_ratio=4.0, cache="",
              cache_state="cold", pages="huge"):
    """Evaluates candidates of `kernel` as the search does.

    `evaluate(moves)` applies the moves to the original kernel, compiles,
    validates and times the result in a perfdojo-run worker process, and
    returns a dict (status, ok, seconds, message, cached, key, ...).
    Results are cached by program; `cache` (a directory) keeps them across
    processes. `cache_state` is the cache the timed repetitions start
    from: 'cold' (rotating argument copies, the default) or 'warm' (one
    copy, as a loop calling the kernel finds it). `pages` is what the
    arguments live on: 'huge' (transparent huge pages for large buffers,
    the default) or 'small' (4 KiB pages, as malloc'd memory and PyTorch's
    tensors are). `runner` is the
    perfdojo-run executable (default: find_tool('perfdojo-run')).
    """
    return _Evaluator(kernel, runner=runner or find_tool("perfdojo-run"),
                      target=target, threads=threads, repetitions=repetitions,
                      timeout=timeout, jobs=jobs,
                      max_work_ratio=max_work_ratio, cache=cache,
                      cache_state=cache_state, pages=pages)


def search(kernel, strategy="heuristic", *, budget_evals=0, budget_seconds=0.0,
           seed=0, target="cpu", threads=1, jobs=1, repetitions=5, timeout=60,
           max_work_ratio=4.0, cache="", cache_state="cold", pages="huge",
           final_candidates=3,
           final_repetitions=20, time_best_path=False, out="", progress=None,
           runner=None):
    """Optimizes `kernel` (a Kernel or a kernel file) with a search strategy.

    This is perfdojo-search as a function: strategy is one of
    strategies() ('naive', 'greedy', 'heuristic', 'random', 'anneal');
    random and anneal need budget_evals and/or budget_seconds. Every
    candidate is compiled, validated against the original and timed in a
    worker process. `progress`, if given, is called with a dict after each
    evaluation (status, seconds, moves, evaluations, best_seconds, ...);
    an exception it raises (or Ctrl-C) stops the search. `out` writes
    best.dojo, best.moves and report.json there. `cache_state` and `pages`
    are the Evaluator's. Returns a SearchResult:
    best (a Kernel), moves, seconds, original_seconds, speedup, report.
    """
    return _search(kernel, strategy, budget_evals=budget_evals,
                   budget_seconds=budget_seconds, seed=seed,
                   final_candidates=final_candidates,
                   final_repetitions=final_repetitions,
                   time_best_path=time_best_path, out=out, progress=progress,
                   runner=runner or find_tool("perfdojo-run"), target=target,
                   threads=threads, repetitions=repetitions, timeout=timeout,
                   jobs=jobs, max_work_ratio=max_work_ratio, cache=cache,
                   cache_state=cache_state, pages=pages)
