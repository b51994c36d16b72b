"""perfdojo.search and perfdojo.Evaluator: worker-process evaluations."""

import os

import pytest

import perfdojo


def test_find_tool():
    assert os.access(perfdojo.find_tool("perfdojo-run"), os.X_OK)
    with pytest.raises(FileNotFoundError, match="PERFDOJO_BIN_DIR"):
        perfdojo.find_tool("perfdojo-no-such-tool")


def test_heuristic_search(softmax, tmp_path):
    events = []
    result = perfdojo.search(softmax, "heuristic", final_repetitions=3,
                             repetitions=3, progress=events.append,
                             out=str(tmp_path))
    assert result.best is not None and result.best.name == "softmax"
    # The heuristic's program was evaluated (on this tiny shape it may lose
    # to the original, which is then the result).
    records = result.report["records"]
    assert len(records) == 2 and records[1]["moves"]
    # The best program is the original after its moves.
    game = perfdojo.Game(softmax)
    for move in result.moves:
        game.apply(move)
    assert game.text == result.best.text
    assert result.speedup == pytest.approx(result.original_seconds /
                                           result.seconds)
    report = result.report
    assert report["kernel"] == "softmax" and report["strategy"] == "heuristic"
    assert report["records"][0]["moves"] == []
    assert events and events[-1]["evaluations"] >= 1
    assert {"status", "seconds", "moves", "best_seconds"} <= set(events[-1])
    assert "perfdojo-search heuristic on softmax" in result.summary
    assert (tmp_path / "best.dojo").read_text() == result.best.text
    assert (tmp_path / "report.json").exists()


def test_search_of_text_and_a_budget(fig6):
    result = perfdojo.search(fig6, "random", budget_evals=4, seed=1,
                             final_candidates=0, repetitions=1)
    assert result.report["evaluations"] <= 4
    assert result.best is not None


def test_progress_exception_stops_the_search(fig6):
    def stop(event):
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        perfdojo.search(fig6, "random", budget_evals=50, repetitions=1,
                        progress=stop)


def test_search_argument_errors(fig6):
    with pytest.raises(ValueError, match="unknown strategy 'best'"):
        perfdojo.search(fig6, "best")
    with pytest.raises(ValueError, match="needs a budget"):
        perfdojo.search(fig6, "random")
    with pytest.raises(ValueError, match="unknown target 'tpu'"):
        perfdojo.search(fig6, target="tpu")
    with pytest.raises(perfdojo.RunError, match="cannot execute the worker"):
        perfdojo.search(fig6, runner="/nonexistent/perfdojo-run")
    with pytest.raises(ValueError, match="cache_state must be 'cold' or 'warm'"):
        perfdojo.search(fig6, cache_state="hot")
    with pytest.raises(ValueError, match="pages must be 'huge' or 'small'"):
        perfdojo.search(fig6, pages="tiny")
    assert "heuristic" in perfdojo.strategies()


def test_evaluator_caches_by_program(fig6, tmp_path):
    evaluator = perfdojo.Evaluator(fig6, repetitions=1, cache=str(tmp_path))
    original = evaluator.evaluate()
    assert original["ok"] and original["status"] == "ok"
    assert original["seconds"] > 0 and not original["cached"]
    fused = evaluator.evaluate(["join_scopes t@0"])
    assert fused["ok"] and fused["key"] != original["key"]
    again = evaluator.evaluate([perfdojo.Move("join_scopes t@0")])
    assert again["cached"] and again["key"] == fused["key"]
    assert evaluator.cache_hits >= 1 and evaluator.worker_runs == 2
    illegal = evaluator.evaluate(["reuse_dims t.0"])
    assert illegal["status"] == "illegal-move" and "NM4" in illegal["message"]
    # A second evaluator on the same cache directory runs nothing.
    other = perfdojo.Evaluator(fig6, repetitions=1, cache=str(tmp_path))
    assert other.evaluate(["join_scopes t@0"])["cached"]
    assert other.worker_runs == 0


def test_warm_cache_state_is_its_own_measurement(fig6, tmp_path):
    cold = perfdojo.Evaluator(fig6, repetitions=1, cache=str(tmp_path))
    assert cold.evaluate()["ok"]
    # The same program timed warm: another key, so a worker runs again.
    warm = perfdojo.Evaluator(fig6, repetitions=1, cache=str(tmp_path),
                              cache_state="warm")
    result = warm.evaluate()
    assert result["ok"] and not result["cached"]
    assert result["key"].endswith("-warm") and warm.worker_runs == 1
    # Small pages: another measurement too.
    small = perfdojo.Evaluator(fig6, repetitions=1, cache=str(tmp_path),
                               pages="small")
    result = small.evaluate()
    assert result["ok"] and not result["cached"]
    assert result["key"].endswith("-small") and small.worker_runs == 1
