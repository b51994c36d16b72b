//===- Strategies.h - the built-in search strategies ------------*- C++ -*-===//
#ifndef PERFDOJO_SEARCH_STRATEGIES_H
#define PERFDOJO_SEARCH_STRATEGIES_H

#include "perfdojo/Search/Strategy.h"

namespace perfdojo {

/// Fuse scopes and reuse buffer dimensions until exhaustion (paper 4.1).
std::unique_ptr<Strategy> createNaiveStrategy();
/// The x86 expert pass: fuse, vectorize by the vector width (with lane
/// accumulators for reductions), shrink and place temporaries, parallelize.
std::unique_ptr<Strategy> createHeuristicStrategy();
/// Global random sampling over the programs seen so far (paper 4.2.2).
std::unique_ptr<Strategy> createRandomStrategy();
/// The naive pass, then the CPU target moves wherever they are legal.
std::unique_ptr<Strategy> createGreedyStrategy();
/// Simulated annealing over whole move sequences from the heuristic's
/// result (paper 4.2.1).
std::unique_ptr<Strategy> createAnnealStrategy();

} // namespace perfdojo

#endif // PERFDOJO_SEARCH_STRATEGIES_H
