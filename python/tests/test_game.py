"""perfdojo.Game: legal moves, check, apply, undo, redo, fork, successors."""

import numpy as np
import pytest

import perfdojo
from conftest import FIG6


def test_legal_moves_describe_themselves(fig6):
    game = perfdojo.Game(fig6)
    moves = game.legal_moves()
    assert moves
    join = perfdojo.Move("join_scopes t@0")
    assert join in moves
    assert (join.name, join.kind, join.location, join.params) == \
        ("join_scopes", "join_scopes", "t@0", [])
    split = perfdojo.Move("split_scope y@0 4")
    assert (split.location, split.params, str(split)) == \
        ("y@0", [4], "split_scope y@0 4")
    assert repr(split) == "perfdojo.Move('split_scope y@0 4')"
    assert len({m for m in moves}) == len(moves)
    # Every listed move is legal and its text parses back to it.
    for move in moves:
        assert game.check(move)
        assert perfdojo.Move(move.text) == move


def test_check_says_why_and_changes_nothing(fig6):
    game = perfdojo.Game(fig6)
    check = game.check("reuse_dims t.0")
    assert not check and not check.legal
    assert "(NM4)" in check.reason
    assert game.check(perfdojo.Move("join_scopes t@0")).legal
    assert game.text == FIG6 and len(game) == 0


def test_illegal_and_malformed_moves_raise(fig6):
    game = perfdojo.Game(fig6)
    with pytest.raises(perfdojo.IllegalMoveError, match="NM4") as info:
        game.apply("reuse_dims t.0")
    assert str(info.value).startswith("'reuse_dims t.0': a read of 't'")
    assert info.value.line == 0 and info.value.file == ""
    with pytest.raises(perfdojo.IllegalMoveError, match="unknown move 'fuse'"):
        game.apply("fuse t@0")
    with pytest.raises(perfdojo.IllegalMoveError):
        perfdojo.Move("split_scope y@0 many")
    with pytest.raises(TypeError):
        game.apply(42)
    assert game.text == FIG6 and game.history == []


def test_figure_6(fig6):
    game = perfdojo.Game(fig6)
    game.apply_script("join_scopes t@0; join_scopes t@1; reuse_dims t.0; "
                      "reuse_dims t.1")
    assert game.text == ("x f32 [8, 16] heap in\n"
                         "t f32 [8:N, 16:N] heap\n"
                         "y f32 [8, 16] heap out\n"
                         "8 16 t[{0}, {1}] = exp(x[{0}, {1}])\n"
                         "| | y[{0}, {1}] = t[{0}, {1}] * 2\n")
    assert game.script == ("join_scopes t@0; join_scopes t@1; "
                           "reuse_dims t.0; reuse_dims t.1")


def test_apply_script_is_all_or_nothing(fig6):
    game = perfdojo.Game(fig6)
    with pytest.raises(perfdojo.IllegalMoveError, match="move 2"):
        game.apply_script("join_scopes t@0; reuse_dims x.0")
    assert game.text == FIG6 and game.history == []


def test_undo_redo(fig6):
    game = perfdojo.Game(fig6)
    assert not game.undo() and not game.redo()
    game.apply("join_scopes t@0")
    game.apply("reuse_dims t.0")
    end = game.text
    assert game.undo() and game.undo() and not game.undo()
    assert game.text == FIG6
    assert [str(m) for m in game.undone] == ["reuse_dims t.0",
                                             "join_scopes t@0"]
    assert game.redo() and game.redo() and not game.redo()
    assert game.text == end and len(game.history) == 2
    game.undo()
    game.apply("join_scopes t@1")
    assert game.undone == [] and not game.redo()


def test_every_move_applies_and_undoes_exactly(softmax):
    game = perfdojo.Game(softmax)
    start = game.text
    for move in game.legal_moves():
        game.apply(move)
        assert game.text != start or move.name.startswith("set_")
        assert game.undo()
        assert game.text == start


def test_fork_is_deterministic_and_independent(softmax):
    game = perfdojo.Game(softmax)
    rng = np.random.default_rng(7)
    for _ in range(5):
        moves = game.legal_moves()
        game.apply(moves[rng.integers(len(moves))])
    fork = game.fork()
    assert fork.text == game.text and fork.history == game.history
    # The same moves give the same text on both.
    for _ in range(5):
        moves = game.legal_moves()
        assert fork.legal_moves() == moves
        move = moves[rng.integers(len(moves))]
        game.apply(move)
        fork.apply(move)
        assert fork.text == game.text
    # Playing one leaves the other.
    fork.undo()
    assert fork.text != game.text and len(fork) + 1 == len(game)
    # Replaying the script from the start gives the same text again.
    replay = perfdojo.Game(softmax)
    replay.apply_script(game.script)
    assert replay.text == game.text


def test_successors_match_single_applies(softmax):
    game = perfdojo.Game(softmax)
    game.apply(game.legal_moves()[0])
    before = game.text
    moves = game.legal_moves()
    texts = game.successors()
    features = game.successors(features=True)
    assert len(texts) == len(moves) == features.shape[0]
    assert features.shape[1] == len(perfdojo.feature_names())
    for i, move in enumerate(moves):
        game.apply(move)
        assert texts[i] == game.text
        assert np.array_equal(features[i], game.features())
        assert np.array_equal(features[i], game.kernel.features())
        game.undo()
    assert game.text == before and len(game) == 1
    # A subset, given as texts.
    assert game.successors([str(moves[2])]) == [texts[2]]
    with pytest.raises(perfdojo.IllegalMoveError):
        game.successors(["reuse_dims x.0"])
    assert game.text == before


def test_cursor_follows_a_node(fig6):
    game = perfdojo.Game(fig6)
    leaf = game.track("y@2")
    game.apply("split_scope y@1 4")
    assert game.selector(leaf) == "y@3"
    game.undo()
    assert game.selector(leaf) == "y@2"
    with pytest.raises(perfdojo.IllegalMoveError):
        game.track("q@0")


def test_targets(fig6):
    assert {"cpu", "default", "snitch", "sm_90"} <= set(perfdojo.targets())
    gpu = perfdojo.Game(fig6, target="sm_90")
    assert any(m.name == "set_gpu_grid" for m in gpu.legal_moves())
    cpu = perfdojo.Game(fig6)
    assert not any(m.name == "set_gpu_grid" for m in cpu.legal_moves())
    assert "the target 'cpu' has no :g" in cpu.check("set_gpu_grid y@0").reason
    assert cpu.target == "cpu"
    with pytest.raises(ValueError, match="unknown target 'tpu'"):
        perfdojo.Game(fig6, target="tpu")


def test_game_plays_on_a_copy(fig6):
    game = perfdojo.Game(fig6)
    game.apply("join_scopes t@0")
    assert fig6.text == FIG6
    assert game.original.text == FIG6
    assert game.kernel.text == game.text
    assert repr(game) == "<perfdojo.Game on 'fig6', 1 move(s)>"


def test_game_from_a_path(kernels):
    game = perfdojo.Game(str(kernels / "small" / "softmax.dojo"))
    assert game.original.name == "softmax"
