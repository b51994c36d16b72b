//===- RuleCandidates.h - the rule-based strategies' programs ----*- C++ -*-===//
//
// The naive, greedy and heuristic strategies derive their programs from
// rules alone and only then time them. Their proposals live here, apart
// from the timing, so that the search strategies (which evaluate every
// candidate) and the optimizing passes (`dojo-naive`, `dojo-greedy`,
// `dojo-heuristic`, which take the rules' first choice without running
// anything) share one copy of the rules.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SEARCH_RULECANDIDATES_H
#define PERFDOJO_SEARCH_RULECANDIDATES_H

#include "perfdojo/Moves/Game.h"

#include <optional>
#include <vector>

namespace perfdojo {

enum class RuleSet {
  /// Fuse and reuse until exhaustion (the paper's naive pass, 4.1).
  Naive,
  /// The naive pass, then the target's moves wherever legal.
  Greedy,
  /// The expert pass of the target (CPU, GPU or Snitch).
  Heuristic,
};

/// The rule set called `name` ("naive", "greedy" or "heuristic").
std::optional<RuleSet> parseRuleSet(llvm::StringRef name);

using MoveSequence = llvm::SmallVector<MoveRequest>;

/// The distinct programs `rules` propose for `kernel` under `options`, as
/// move sequences from `kernel`, most preferred first: the first is the
/// rules' choice when nothing is timed. Sequences that change nothing are
/// left out, so the list is empty when no rule applies. With
/// `maxCandidates`, at most that many (the passes ask for 1 and are spared
/// deriving the others); 0: all.
std::vector<MoveSequence> proposeRuleCandidates(RuleSet rules,
                                                dojo::KernelOp kernel,
                                                const MoveOptions &options,
                                                unsigned maxCandidates = 0);

/// The heuristic rule set's candidates (proposeRuleCandidates).
std::vector<MoveSequence>
proposeHeuristicCandidates(dojo::KernelOp kernel, const MoveOptions &options,
                           unsigned maxCandidates = 0);
/// The greedy rule set's candidates: its full program, then the naive
/// pass's (proposeRuleCandidates).
std::vector<MoveSequence>
proposeGreedyCandidates(dojo::KernelOp kernel, const MoveOptions &options,
                        unsigned maxCandidates = 0);

} // namespace perfdojo

#endif // PERFDOJO_SEARCH_RULECANDIDATES_H
