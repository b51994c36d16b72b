"""perfdojo.env.DojoEnv: episodes, rewards, the shared cache."""

import numpy as np
import pytest

import perfdojo
from perfdojo.env import DojoEnv, EvaluationCache


def cost(text):
    """A synthetic cost: vector scopes are cheap (tests only)."""
    return 1.0 / (1 + text.count(":v")) + 0.001 * len(text)


def play(env, seed, steps=8):
    """A random episode: the actions, rewards and texts it saw."""
    obs, info = env.reset(seed=seed)
    trace = [(None, 0.0, info["text"], obs.tobytes())]
    for _ in range(steps):
        action = env.action_space.sample()
        obs, reward, terminated, truncated, info = env.step(action)
        trace.append((action, reward, info["text"], obs.tobytes()))
        if terminated or truncated:
            break
    return trace


def test_reset_observes_the_original(softmax):
    env = DojoEnv(softmax, cost=cost)
    obs, info = env.reset(seed=0)
    assert obs.dtype == np.float32
    assert obs.shape == (len(perfdojo.feature_names()),)
    assert np.array_equal(obs, softmax.features())
    assert info["text"] == softmax.text and info["moves"] == ""
    assert info["speedup"] == 1.0 and info["steps"] == 0
    assert info["legal_moves"] == perfdojo.Game(softmax).legal_moves()
    assert env.action_space.n == len(info["legal_moves"]) + 1


def test_episodes_are_deterministic_with_a_seed(softmax):
    first = play(DojoEnv(softmax, cost=cost, max_steps=6), seed=11)
    again = play(DojoEnv(softmax, cost=cost, max_steps=6), seed=11)
    other = play(DojoEnv(softmax, cost=cost, max_steps=6), seed=12)
    assert first == again
    assert first != other


def test_reward_is_the_speedup_over_the_original(softmax):
    env = DojoEnv(softmax, cost=cost)
    _, info = env.reset(seed=0)
    vector = next(i for i, m in enumerate(info["legal_moves"])
                  if m.name == "set_vector")
    _, reward, terminated, truncated, info = env.step(vector)
    assert not terminated and not truncated
    assert reward == pytest.approx(cost(softmax.text) / cost(info["text"]))
    assert reward > 1 and info["speedup"] == reward
    assert info["best_speedup"] == reward
    assert info["moves"] == str(env.game.history[0])


def test_stop_terminates_and_max_steps_truncates(softmax):
    env = DojoEnv(softmax, cost=cost, max_steps=2)
    env.reset(seed=0)
    _, reward, terminated, truncated, _ = env.step(DojoEnv.STOP)
    assert terminated and not truncated and reward == 1.0
    env.reset(seed=0)
    _, _, terminated, truncated, _ = env.step(0)
    assert not terminated and not truncated
    _, _, terminated, truncated, info = env.step(0)
    assert truncated and not terminated and info["steps"] == 2
    # The last action is STOP too.
    env.reset(seed=0)
    _, _, terminated, _, _ = env.step(env.action_space.n - 1)
    assert terminated


def test_actions_by_move_or_text_and_illegal_ones(fig6):
    env = DojoEnv(fig6, cost=cost)
    env.reset()
    env.step("join_scopes t@0")
    env.step(perfdojo.Move("reuse_dims t.0"))
    assert env.game.script == "join_scopes t@0; reuse_dims t.0"
    text = env.game.text
    with pytest.raises(perfdojo.IllegalMoveError):
        env.step("reuse_dims x.0")
    with pytest.raises(IndexError):
        env.step(10_000)
    assert env.game.text == text
    with pytest.raises(RuntimeError, match="reset"):
        DojoEnv(fig6, cost=cost).step(0)


def test_shared_cache_evaluates_each_program_once(softmax):
    calls = []

    def counting(text):
        calls.append(text)
        return cost(text)

    cache = EvaluationCache(softmax, cost=counting)
    a, b = DojoEnv(softmax, cache=cache), DojoEnv(softmax, cache=cache)
    play(a, seed=5)
    n = len(calls)
    play(b, seed=5)
    assert len(calls) == n == len(cache) and cache.hits > 0
    assert len(set(calls)) == len(calls)


def test_text_observations(fig6):
    env = DojoEnv(fig6, cost=cost, observation="text")
    obs, _ = env.reset()
    assert obs == fig6.text
    with pytest.raises(ValueError):
        DojoEnv(fig6, cost=cost, observation="pixels")


def test_successor_features_end_with_stop(softmax):
    env = DojoEnv(softmax, cost=cost)
    obs, info = env.reset()
    rows = env.successor_features()
    assert rows.shape == (len(info["legal_moves"]) + 1, len(obs))
    assert np.array_equal(rows[-1], obs)
    assert np.array_equal(rows[:-1], env.game.successors(features=True))


def test_real_evaluations_reward_run_times(fig6):
    env = DojoEnv(fig6, max_steps=2, repetitions=1)
    _, info = env.reset()
    assert info["original_seconds"] > 0
    _, reward, _, _, info = env.step("join_scopes t@0")
    assert reward > 0 and info["seconds"] > 0


def test_is_a_gymnasium_env_when_installed(softmax):
    gymnasium = pytest.importorskip("gymnasium")
    env = DojoEnv(softmax, cost=cost)
    assert isinstance(env, gymnasium.Env)
    assert isinstance(env.observation_space, gymnasium.spaces.Box)
    obs, _ = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert isinstance(env.action_space, gymnasium.spaces.Discrete)


def test_a_program_that_does_not_run_ends_the_episode(fig6):
    def fails_when_fused(text):
        return None if "| |" in text else cost(text)

    env = DojoEnv(fig6, cost=fails_when_fused)
    env.reset()
    _, reward, terminated, _, _ = env.step("join_scopes t@0")
    assert not terminated and reward > 0
    _, reward, terminated, truncated, info = env.step("join_scopes t@1")
    assert terminated and not truncated and reward == 0.0
    assert info["seconds"] is None and info["speedup"] == 0.0
    # Or play on, where the caller asks to.
    env = DojoEnv(fig6, cost=fails_when_fused, end_on_failure=False)
    env.reset()
    env.step("join_scopes t@0")
    _, reward, terminated, _, _ = env.step("join_scopes t@1")
    assert not terminated and reward == 0.0


def test_a_listed_move_that_fails_to_apply_is_dropped(softmax):
    # In play such a move is a move-check bug (the post-apply verifier
    # refuses it); an illegal request among the listed moves stands in.
    env = DojoEnv(softmax, cost=cost)
    env.reset()
    listed = env.legal_moves
    env._legal = listed[:2] + [perfdojo.Move("reuse_dims x.0")] + listed[2:]
    with pytest.warns(UserWarning, match="reuse_dims x.0"):
        rows = env.successor_features()
    assert env.legal_moves == listed
    assert rows.shape == (len(listed) + 1, len(perfdojo.feature_names()))
    assert env.action_space.n == len(listed) + 1
