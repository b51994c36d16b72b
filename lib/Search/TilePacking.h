//===- TilePacking.h - staged copies packed per cache tile -----*- C++ -*-===//
//
// Private to lib/Search: a rule of the x86 expert pass (HeuristicStrategy).
// The relayout (RegisterBlocking.h) copies an operand into a new layout
// before the nest that reads it: a convolution's weights, 2.36 MB for
// ResNet-50's stage 4, written to memory and read back. Where the reading
// nest's outer scope walks that copy in slabs (a cache tile of the
// reduction reads `w_s[16*{0}+{k}, ...]`), each slab can be copied right
// before the tile that reads it, into one slab's storage that stays in
// cache.
//
//===----------------------------------------------------------------------===//

#ifndef PERFDOJO_LIB_SEARCH_TILEPACKING_H
#define PERFDOJO_LIB_SEARCH_TILEPACKING_H

#include "perfdojo/Moves/Game.h"

namespace perfdojo {
namespace heuristic {

/// For every top-level nest that only copies into an internal buffer `b`
/// (`b[...] = a[...]`), when the next top-level nest that reads `b` is the
/// last to touch it and its outer scope (of size T) reads slabs of f
/// elements along one dimension of `b` (`f*{0} + ...` in every read) that
/// the copy writes with one scope of size T*f: that scope is split by f
/// (`split_scope`), its outer part moved outermost
/// (`swap_nested_scopes`), the copy moved next to the reading nest
/// (`swap_siblings`) and joined with its outer scope (`join_scopes`), and
/// `b`'s dimension split into [T, f] (`split_dim`) with the T part folded
/// (`reuse_dims`): each iteration of the tile copies its slab into the
/// same storage and reads it. Every step is a legal move; a copy where one
/// is illegal stays as it was. Returns whether any copy moved.
bool packCopiesInTiles(Game &game);

} // namespace heuristic
} // namespace perfdojo

#endif // PERFDOJO_LIB_SEARCH_TILEPACKING_H
