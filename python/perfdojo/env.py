"""The move game as a gym environment.

`DojoEnv(kernel)` is a `gymnasium.Env` when gymnasium is installed and has
the same API without it:

    env = DojoEnv("kernels/small/softmax.dojo", max_steps=30)
    obs, info = env.reset(seed=0)
    while True:
        action = choose(obs, info["legal_moves"])   # an index, Move or text
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

The action space is dynamic: `info["legal_moves"]` lists the legal moves of
the current state and `action_space` is `Discrete(len(legal_moves) + 1)`,
whose last action, `DojoEnv.STOP` (or the text "stop"), ends the episode.
The reward after each step is the speedup of the current program over the
original (original seconds / current seconds; 0 for a program that fails to
run), read from an `EvaluationCache` that environments can share, so a
program is timed once however often it is reached.
"""

import warnings

import numpy as np

from . import _perfdojo as core
from . import Evaluator

try:  # gymnasium is optional: the same API works without it.
    import gymnasium
    from gymnasium import spaces
    _Base = gymnasium.Env
except ImportError:  # pragma: no cover - exercised where gymnasium is absent
    gymnasium = None
    spaces = None
    _Base = object


class _Discrete:
    """Discrete(n) for environments without gymnasium."""

    def __init__(self, n, rng):
        self.n = n
        self._rng = rng

    def sample(self):
        return int(self._rng.integers(self.n))

    def contains(self, x):
        return isinstance(x, (int, np.integer)) and 0 <= x < self.n

    def __repr__(self):
        return f"Discrete({self.n})"


class EvaluationCache:
    """Run times by program text, shared by environments.

    Programs are evaluated by `cost(text) -> seconds` when given (a cost
    model, or a synthetic cost for tests), else by a perfdojo.Evaluator
    (compiled, validated against the original and timed in a worker
    process; `evaluator_options` are its keyword arguments). A program
    that fails to run costs None.
    """

    def __init__(self, kernel, cost=None, evaluator=None, **evaluator_options):
        self.kernel = kernel if isinstance(kernel, core.Kernel) \
            else core.Kernel.from_file(kernel)
        self._cost = cost
        self._evaluator = evaluator
        self._evaluator_options = evaluator_options
        self._seconds = {}
        self.evaluations = 0
        self.hits = 0

    @property
    def evaluator(self):
        if self._evaluator is None:
            self._evaluator = Evaluator(self.kernel, **self._evaluator_options)
        return self._evaluator

    def seconds(self, game):
        """The run time of `game`'s current program (None if it fails)."""
        text = game.text
        if text in self._seconds:
            self.hits += 1
            return self._seconds[text]
        self.evaluations += 1
        if self._cost is not None:
            seconds = self._cost(text)
        else:
            result = self.evaluator.evaluate(game.history)
            seconds = result["seconds"] if result["ok"] else None
        self._seconds[text] = seconds
        return seconds

    def __len__(self):
        return len(self._seconds)


class DojoEnv(_Base):
    """The optimization game on one kernel, as a gym environment.

    kernel: a perfdojo.Kernel or a kernel file. target: the moves' target
    ('cpu' by default). max_steps: moves per episode before truncation.
    observation: 'features' (Kernel.features(), float32) or 'text' (the
    canonical .dojo text). cache: an EvaluationCache to share between
    environments (default: a new one with `cost`, or a worker-process
    evaluator configured by `evaluator_options`). end_on_failure: a move to
    a program that does not run (it fails, or does far more work than the
    original and is pruned) ends the episode with reward 0 instead of
    playing on from a dead end.
    """

    metadata = {"render_modes": ["ansi"]}
    STOP = "stop"

    def __init__(self, kernel, *, target="cpu", max_steps=50,
                 observation="features", cache=None, cost=None,
                 end_on_failure=True, render_mode=None, **evaluator_options):
        if observation not in ("features", "text"):
            raise ValueError("observation is 'features' or 'text'")
        self.kernel = kernel if isinstance(kernel, core.Kernel) \
            else core.Kernel.from_file(kernel)
        self.target = target
        self.max_steps = max_steps
        self.end_on_failure = end_on_failure
        self.observation = observation
        self.render_mode = render_mode
        self.cache = cache if cache is not None else EvaluationCache(
            self.kernel, cost=cost, target=target, **evaluator_options)
        self._rng = np.random.default_rng()
        if spaces is not None and observation == "features":
            size = len(core.feature_names())
            self.observation_space = spaces.Box(-np.inf, np.inf, (size,),
                                                np.float32)
        elif spaces is not None:
            self.observation_space = spaces.Text(max_length=1 << 20)
        self.game = None
        self._legal = []
        self.action_space = self._make_action_space(1)

    def _make_action_space(self, n):
        if spaces is not None:
            return spaces.Discrete(n, seed=int(self._rng.integers(1 << 31)))
        return _Discrete(n, self._rng)

    @property
    def legal_moves(self):
        """The legal moves of the current state (actions 0..n-1)."""
        return list(self._legal)

    def _observe(self):
        if self.observation == "features":
            return self.game.features()
        return self.game.text

    def _info(self, seconds):
        original = self._original_seconds
        speedup = original / seconds if seconds else 0.0
        return {
            "legal_moves": list(self._legal),
            "text": self.game.text,
            "moves": self.game.script,
            "steps": self._steps,
            "seconds": seconds,
            "original_seconds": original,
            "speedup": speedup,
            "best_speedup": self._best_speedup,
            "best_moves": self._best_moves,
        }

    def _refresh(self):
        self._legal = self.game.legal_moves()
        self.action_space = self._make_action_space(len(self._legal) + 1)

    def reset(self, *, seed=None, options=None):
        """Starts an episode from the original kernel: (observation, info)."""
        if _Base is not object:
            super().reset(seed=seed)
            self._rng = self.np_random
        elif seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game = core.Game(self.kernel, target=self.target)
        self._steps = 0
        self._original_seconds = self.cache.seconds(self.game)
        if not self._original_seconds:
            raise core.RunError("the original kernel does not run, so "
                                "there is no speedup to reward")
        self._best_speedup = 1.0
        self._best_moves = ""
        self._refresh()
        return self._observe(), self._info(self._original_seconds)

    def _to_move(self, action):
        if isinstance(action, (int, np.integer)):
            if action == len(self._legal):
                return None
            if not 0 <= action < len(self._legal):
                raise IndexError(f"action {action} is not one of the "
                                 f"{len(self._legal) + 1} actions")
            return self._legal[action]
        if isinstance(action, str) and action == self.STOP:
            return None
        return action

    def step(self, action):
        """Plays `action`: (observation, reward, terminated, truncated, info).

        An illegal move raises IllegalMoveError and leaves the state as it
        was. The episode terminates on STOP, when no move is legal, or (with
        end_on_failure) at a program that does not run; it is truncated
        after max_steps moves.
        """
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        move = self._to_move(action)
        terminated = move is None
        if move is not None:
            self.game.apply(move)
            self._steps += 1
            self._refresh()
        seconds = self.cache.seconds(self.game)
        reward = self._original_seconds / seconds if seconds else 0.0
        if reward > self._best_speedup:
            self._best_speedup = reward
            self._best_moves = self.game.script
        terminated = terminated or not self._legal or \
            (self.end_on_failure and not seconds)
        truncated = not terminated and self._steps >= self.max_steps
        return (self._observe(), float(reward), terminated, truncated,
                self._info(seconds))

    def successor_features(self):
        """Feature rows of every action's result, STOP (the current state)
        last: what an agent that scores all moves needs in one call.

        A listed move that fails to apply (a move whose check passed where
        its rewrite broke the kernel: a bug to report) is dropped from the
        legal moves, with a warning, and play goes on."""
        try:
            rows = self.game.successors(self._legal, features=True)
        except core.IllegalMoveError:
            kept, rows = [], []
            for move in self._legal:
                try:
                    rows.append(self.game.successors([move], features=True)[0])
                    kept.append(move)
                except core.IllegalMoveError as error:
                    warnings.warn(f"a listed move failed to apply (please "
                                  f"report): {error}")
            self._legal = kept
            self.action_space = self._make_action_space(len(kept) + 1)
            rows = np.array(rows, dtype=np.float32).reshape(
                len(kept), len(self.game.features()))
        return np.vstack([rows, self.game.features()[None, :]])

    def render(self):
        return self.game.text if self.game is not None else ""

    def close(self):
        self.game = None
