#!/usr/bin/env python3
"""Trains a small Max-Q deep Q-learning agent on one kernel with PyTorch.

The paper's formulation (PerfDojo, section 3), small enough to train for a
few minutes on one kernel:

* an action is the pair (features before, features after the move), so one
  network scores any number of legal moves; STOP is the pair (s, s);
* the reward after each move is the speedup of the program over the
  original (DojoEnv: real evaluations, cached by program);
* the target is the max-Bellman one,
  Q(s, a) = max(r, gamma * Q_target(s', argmax_a' Q(s', a'))), r alone when
  the episode ends, with double DQN (the online network picks a', the
  target network scores it) and uniform experience replay;
* dueling heads: Q = V(s) + A(s, a) - mean of A over the state's own legal
  actions.

It prints progress every episode and, at the end, the fastest program it
visited with its speedup and move script.

    PYTHONPATH=build/python_packages /usr/bin/python3 \
        python/examples/maxq_agent.py kernels/bench/softmax.dojo --minutes 3

--synthetic replaces timing with a made-up cost of the program text (for
testing the training loop in seconds; its "speedups" mean nothing).
"""

import argparse
import random
import sys
import time

import numpy as np
import torch

import perfdojo
from perfdojo.env import DojoEnv, EvaluationCache


class DuelingQ(torch.nn.Module):
    """Q(s, a) for the actions of one state, from (before, after) pairs."""

    def __init__(self, features, hidden=128):
        super().__init__()
        self.value = torch.nn.Sequential(
            torch.nn.Linear(features, hidden), torch.nn.ReLU(),
            torch.nn.Linear(hidden, 1))
        self.advantage = torch.nn.Sequential(
            torch.nn.Linear(2 * features, hidden), torch.nn.ReLU(),
            torch.nn.Linear(hidden, hidden), torch.nn.ReLU(),
            torch.nn.Linear(hidden, 1))

    def forward(self, state, successors):
        """Q of every action: `state` [F], `successors` [n, F] -> [n]."""
        pairs = torch.cat([state.expand(len(successors), -1), successors], 1)
        advantage = self.advantage(pairs).squeeze(1)
        # The mean over this state's own legal actions only.
        return self.value(state).squeeze(0) + advantage - advantage.mean()


def synthetic_cost(text):
    """A made-up cost for tests: vector, parallel and unrolled scopes and
    fused nests make it cheaper. It is not a performance model."""
    lines = text.count("\n")
    return 1.0 / (1 + text.count(":v") + 0.5 * text.count(":p")
                  + 0.25 * text.count(":u")) + 0.01 * lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kernel", nargs="?",
                        default="kernels/bench/softmax.dojo")
    parser.add_argument("--minutes", type=float, default=3.0,
                        help="training time (default 3)")
    parser.add_argument("--episodes", type=int, default=0,
                        help="stop after this many episodes (0: no limit)")
    parser.add_argument("--max-steps", type=int, default=30,
                        help="moves per episode")
    parser.add_argument("--gamma", type=float, default=0.97)
    parser.add_argument("--epsilon", type=float, default=0.3,
                        help="exploration at the start, decaying to 0.05")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1,
                        help="threads the kernel runs on")
    parser.add_argument("--synthetic", action="store_true",
                        help="a synthetic cost instead of timing (tests)")
    parser.add_argument("--out", default="",
                        help="write the best program here (.dojo)")
    args = parser.parse_args(argv)

    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    kernel = perfdojo.Kernel.from_file(args.kernel)
    cache = EvaluationCache(kernel,
                            cost=synthetic_cost if args.synthetic else None,
                            threads=args.threads)
    env = DojoEnv(kernel, max_steps=args.max_steps, cache=cache)
    features = len(perfdojo.feature_names())
    online, target = DuelingQ(features), DuelingQ(features)
    target.load_state_dict(online.state_dict())
    optimizer = torch.optim.Adam(online.parameters(), lr=1e-3)
    replay, capacity, batch = [], 2000, 32
    # Successor sets kept per transition: STOP plus at most this many moves.
    max_successors = 32

    def sample_successors(rows, action=None):
        """Up to max_successors moves (`action` among them) and STOP (the
        last row), as float16; and `action`'s index in them."""
        moves = np.arange(len(rows) - 1)
        if len(moves) > max_successors:
            moves = np.random.choice(moves, max_successors, replace=False)
            if action is not None and action < len(rows) - 1 and \
                    action not in moves:
                moves[0] = action
        keep = np.append(moves, len(rows) - 1)
        index = None if action is None else int(np.nonzero(keep == action)[0][0])
        return rows[keep].astype(np.float16), index

    def train_step():
        if len(replay) < batch:
            return None
        losses = []
        for state, rows, action, reward, next_state, next_rows, done in \
                random.sample(replay, batch):
            y = torch.tensor(reward)
            if not done:
                s2 = torch.from_numpy(next_state)
                candidates = torch.from_numpy(next_rows.astype(np.float32))
                with torch.no_grad():
                    pick = online(s2, candidates).argmax()
                    bootstrap = args.gamma * target(s2, candidates)[pick]
                y = torch.maximum(y, bootstrap)
            q = online(torch.from_numpy(state),
                       torch.from_numpy(rows.astype(np.float32)))[action]
            losses.append(torch.nn.functional.smooth_l1_loss(q, y))
        loss = torch.stack(losses).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        return float(loss)

    start = time.monotonic()
    deadline = start + 60 * args.minutes
    best_speedup, best_moves, best_text = 1.0, "", kernel.text
    episode, updates = 0, 0
    while time.monotonic() < deadline and \
            (not args.episodes or episode < args.episodes):
        epsilon = max(0.05, args.epsilon * (1 - (time.monotonic() - start)
                                            / (60 * args.minutes)))
        state, info = env.reset(seed=args.seed + episode)
        rows = env.successor_features()
        loss = None
        while True:
            if random.random() < epsilon:
                action = random.randrange(len(rows))
            else:
                with torch.no_grad():
                    action = int(online(torch.from_numpy(state),
                                        torch.from_numpy(rows)).argmax())
            kept, index = sample_successors(rows, action)
            next_state, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
            # A truncated episode still has a future: bootstrap from it.
            next_rows = env.successor_features() if not terminated else None
            replay.append((state, kept, index, reward, next_state,
                           sample_successors(next_rows)[0]
                           if not terminated else None, terminated))
            if len(replay) > capacity:
                replay.pop(random.randrange(len(replay)))
            if reward > best_speedup:
                best_speedup, best_moves, best_text = \
                    reward, info["moves"], info["text"]
            loss = train_step() or loss
            updates += 1
            if updates % 50 == 0:
                target.load_state_dict(online.state_dict())
            if done or time.monotonic() >= deadline:
                break
            state, rows = next_state, next_rows
        episode += 1
        print(f"episode {episode}: {info['steps']} moves, speedup "
              f"{info['speedup']:.2f}x (best {best_speedup:.2f}x), "
              f"{cache.evaluations} programs evaluated, epsilon "
              f"{epsilon:.2f}" + (f", loss {loss:.4f}" if loss else ""),
              flush=True)

    print(f"best program: {best_speedup:.2f}x over the original after "
          f"{len(best_moves.split('; ')) if best_moves else 0} move(s)")
    print(f"moves: {best_moves}")
    if args.out:
        with open(args.out, "w") as out:
            out.write(best_text)
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
