//===- MaxQ.h - the Bellman targets of the Q-learning agent -----*- C++ -*-===//
//
// PerfDojo's agent maximizes the best speedup it visits, not the sum of its
// rewards: the program kept is the fastest one seen on the way. The paper
// therefore trains on the max-Bellman target
//
//   Q(s, a) = max(r, gamma * Q(s', a*))
//
// (r alone at a terminal state), where the ordinary target is
// r + gamma * Q(s', a*). With double DQN, a* is the online network's choice
// and Q(s', a*) the target network's value of it.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_AGENT_MAXQ_H
#define PERFDOJO_AGENT_MAXQ_H

namespace perfdojo::agent {

enum class BellmanTarget {
  Max,      ///< max(r, gamma * Q(s', a*)): the best reward ahead
  Ordinary, ///< r + gamma * Q(s', a*): the discounted sum of rewards
};

/// The target of a transition with reward `reward` into a state whose
/// chosen action's value is `bootstrap` (ignored when `terminal`).
inline double computeTarget(BellmanTarget kind, double reward, bool terminal,
                            double bootstrap, double gamma) {
  if (terminal)
    return reward;
  double future = gamma * bootstrap;
  if (kind == BellmanTarget::Ordinary)
    return reward + future;
  return reward > future ? reward : future;
}

} // namespace perfdojo::agent

#endif // PERFDOJO_AGENT_MAXQ_H
