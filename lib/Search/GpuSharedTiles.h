//===- GpuSharedTiles.h - block-shared tiles of the GPU expert pass -*- C++ -*-===//
//
// Private to lib/Search: the GPU expert pass's rule for GEMM-like nests
// (GpuExpertRules.h, rule 1s), the classic shared-memory SGEMM reached by
// legal moves alone: each block computes a rows x cols tile of the output,
// each of its threadsY x threadsX threads a (rows/threadsY) x
// (cols/threadsX) sub-tile accumulated in registers across the reduction,
// whose k tiles of the operands (with a convolution's halo) every thread
// of the block stages into block-shared memory first. docs/gpu.md, "The
// GPU expert pass", rule 1s.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_LIB_SEARCH_GPUSHAREDTILES_H
#define PERFDOJO_LIB_SEARCH_GPUSHAREDTILES_H

#include "perfdojo/Moves/Game.h"
#include "perfdojo/Search/GpuExpertRules.h"

namespace perfdojo {
namespace gpu_rules {

/// Maps every GEMM-like nest of `game`'s kernel that `shape` fits (a
/// top-level perfect nest of output scopes, each indexing the output once,
/// holding the initialization `c[...] = v` and then the reduction scopes
/// of `c[...] += ...`: GEMMs, batched GEMMs, convolutions), each with the
/// tile's moves; a nest where any move is illegal is left as it was.
/// Returns the number of nests mapped.
unsigned tileInSharedMemory(Game &game, const TargetDescription &target,
                            const SharedTileShape &shape);

} // namespace gpu_rules
} // namespace perfdojo

#endif // PERFDOJO_LIB_SEARCH_GPUSHAREDTILES_H
