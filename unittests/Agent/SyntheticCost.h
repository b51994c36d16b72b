//===- SyntheticCost.h - a cost for agent tests, not a model ----*- C++ -*-===//
//
// The agent's tests reward programs with this synthetic cost, not a
// performance model: vector scopes make a program cheaper, parallel ones
// a little, and every scope costs a bit.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_UNITTESTS_AGENT_SYNTHETICCOST_H
#define PERFDOJO_UNITTESTS_AGENT_SYNTHETICCOST_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"

namespace perfdojo::agent {

inline double syntheticKernelSeconds(dojo::KernelOp kernel) {
  double vector = 0, parallel = 0, scopes = 0;
  kernel.walk([&](dojo::ScopeOp scope) {
    ++scopes;
    vector += scope.getMode() == dojo::Mode::vector;
    parallel += scope.getMode() == dojo::Mode::parallel;
  });
  return 1.0 / (1 + vector + 0.5 * parallel) + 0.01 * scopes;
}

} // namespace perfdojo::agent

#endif // PERFDOJO_UNITTESTS_AGENT_SYNTHETICCOST_H
