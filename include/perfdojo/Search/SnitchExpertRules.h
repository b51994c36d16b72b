//===- SnitchExpertRules.h - the Snitch greedy and expert passes -*- C++ -*-===//
//
// The paper's passes for Snitch (its section 4.1), each through legal moves
// only (an illegal application is skipped), so every result is valid by
// construction (docs/snitch.md, "Search on Snitch"):
//
//   greedy      after the naive pass (fuse and reuse), SSR and FREP
//               wherever legal: a reduction's accumulator is promoted
//               around its loops into a register (`promote` around the
//               outermost loop that keeps the element, `reuse_dims` on the
//               copy, `set_location reg`), every operand that can stream streams from the
//               outermost depth the stream rule allows (`set_ssr`), and
//               every scope that can be repeated by the sequencer is
//               (`set_frep`), innermost first;
//   heuristic   before the greedy rules, every reduction scope whose size
//               is a multiple of the FPU latency L (of the output's type,
//               SnitchCore.h) is split by L, the reduction privatized over
//               the L-scope (`privatize_reduction`: L independent
//               accumulators hide the latency), and the L-scopes unrolled;
//               the heuristic strategy also times the greedy program and
//               keeps the faster.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SEARCH_SNITCHEXPERTRULES_H
#define PERFDOJO_SEARCH_SNITCHEXPERTRULES_H

#include "perfdojo/Moves/Game.h"

namespace perfdojo {

/// Whether `target` is a Snitch core: it has stream data movers and FREP.
bool isSnitchTarget(const TargetDescription &target);

/// The greedy pass's target moves, on a kernel the naive rules have run on.
void applySnitchGreedyRules(Game &game);

/// The expert pass's interleaving of reductions by the FPU latency, then
/// the greedy rules.
void applySnitchExpertRules(Game &game);

} // namespace perfdojo

#endif // PERFDOJO_SEARCH_SNITCHEXPERTRULES_H
