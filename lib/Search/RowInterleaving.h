//===- RowInterleaving.h - rows of a row reduction at once ------*- C++ -*-===//
//
// Private to lib/Search: a rule of the x86 expert pass. After the vector
// rule, a row reduction whose lanes run along the row (`y[i] += x[i, j]`
// becomes lane accumulators `y_p[i, l] += x[i, 16*k + l]`) reads one row
// at a time: a single stream for the prefetchers and one chain of vector
// additions. Interleaving R rows keeps R streams and R chains in flight:
// the row scope is split by R, the R scope fissioned into one copy per
// child, the copies that hold a lane reduction moved inside its reduction
// scopes, every copy whose body is straight-line code unrolled, and the
// internal buffers indexed by the row get a dimension of R (so that the
// memory rule can still reuse the row's storage). A row the scope reads
// again after its reduction (softmax, the norms) keeps its rows one at a
// time: R rows between the two reads would push the reuse out of the
// nearest cache (measured: 1.2-1.8x slower at the paper's shapes). Every
// step is a legal move; a row scope where one is refused keeps its rows
// one at a time.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_LIB_SEARCH_ROWINTERLEAVING_H
#define PERFDOJO_LIB_SEARCH_ROWINTERLEAVING_H

#include "perfdojo/Moves/Game.h"

namespace perfdojo {
namespace heuristic {

/// The most rows the rule interleaves: four streams already hide the
/// latency of a DRAM stream on 4 KiB pages, and R accumulators per lane
/// reduction must stay in the vector registers.
constexpr int64_t kMaxInterleavedRows = 4;

/// Interleaves the rows of every row reduction of the vectorized program in
/// `game` (the largest power of two up to kMaxInterleavedRows that divides
/// the row scope and is smaller than it). False if no row scope changed.
bool interleaveRows(Game &game);

} // namespace heuristic
} // namespace perfdojo

#endif // PERFDOJO_LIB_SEARCH_ROWINTERLEAVING_H
