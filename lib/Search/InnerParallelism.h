//===- InnerParallelism.h - parallel nests inside a short scope -*- C++ -*-===//
//
// Private to lib/Search: a rule of the x86 expert pass. The parallel rule
// parallelizes each top-level scope, which balances badly when it has few
// iterations (a batch norm of 3 channels on 2 cores: one core runs two
// channels, the other one). Instead, inside such a scope, each child nest
// is parallelized at its own outermost scope; a reduction across that
// scope (a channel's sum over the batch) first gets one partial result
// per iteration (`privatize_reduction` with the slots along that scope),
// combined after it. Every step is a legal move; a nest where one is
// refused stays sequential.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_LIB_SEARCH_INNERPARALLELISM_H
#define PERFDOJO_LIB_SEARCH_INNERPARALLELISM_H

#include "perfdojo/Moves/Game.h"

namespace perfdojo {
namespace heuristic {

/// A top-level scope with fewer iterations than this is a short scope:
/// even two cores split 3, 5 or 7 iterations unevenly, and many cores any
/// count close to theirs.
constexpr int64_t kShortScopeIterations = 16;

/// A nest with fewer leaf instances than this per iteration of its short
/// scope stays sequential: its work would not pay for a parallel region
/// (tens of microseconds at 2^16 element operations).
constexpr int64_t kMinInnerParallelWork = int64_t(1) << 16;

/// Parallelizes the child nests of every short top-level scope of the
/// program in `game` (before the vector rule: the partial results are
/// then vectorized like any reduction). False if no nest became parallel.
bool parallelizeInsideShortScopes(Game &game);

} // namespace heuristic
} // namespace perfdojo

#endif // PERFDOJO_LIB_SEARCH_INNERPARALLELISM_H
