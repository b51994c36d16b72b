//===- GpuExpertRules.h - the GPU expert pass -------------------*- C++ -*-===//
//
// The rules an expert applies to map a kernel onto a
// GPU, each through legal moves only (an illegal application is skipped or
// undone), so the result is valid by construction (docs/gpu.md, "The GPU
// expert pass").
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SEARCH_GPUEXPERTRULES_H
#define PERFDOJO_SEARCH_GPUEXPERTRULES_H

#include "perfdojo/Moves/Game.h"

#include <vector>

namespace perfdojo {

/// Rule 1s's tile (GpuSharedTiles.h): blocks of threadsY x threadsX
/// threads computing rows x cols outputs, each thread (rows / threadsY) x
/// (cols / threadsX) of them in registers, the operands' tiles of `k`
/// reduction steps staged in block-shared memory. All zero: no rule 1s.
struct SharedTileShape {
  int64_t threadsY = 0, threadsX = 0;
  int64_t rows = 0, cols = 0, k = 0;
  bool isSet() const { return threadsY > 0 && threadsX > 0; }
};

/// The choices of the expert pass that depend on the GPU more than on the
/// kernel: the search times the variants' programs and keeps the fastest.
struct GpuExpertVariant {
  /// Rule 1s, right after rule 1a's split reductions: GEMM-like nests
  /// tiled in block-shared memory; none by default.
  SharedTileShape sharedTile;
  /// Register tiles (rule 1): rows x tileVectors 128-bit vectors per
  /// thread; 0 for none.
  int64_t tileRows = 4;
  int64_t tileVectors = 1;
  /// No tiles where fewer tiles than this would be left to be threads:
  /// about a quarter of what a GPU of 132 multiprocessors of 2,048
  /// threads holds at once.
  int64_t minTileThreads = 32768;
  /// Rule e: blocks with fewer threads take a second thread dimension.
  int64_t minBlockThreads = 128;
  /// Rule 0: a row's phases become one launch.
  bool fuseLaunches = true;
  /// Rule 1a: reductions with fewer outputs than this are split across
  /// blocks (about what a GPU of 132 multiprocessors of 2,048 threads
  /// holds at once); 0 for never.
  int64_t splitThreads = 1 << 18;
  /// Rule 5: the threads of a reduction, near sqrt(terms) times this.
  int64_t reductionThreadsFactor = 1;
  /// Rule 5: consecutive terms each thread takes per step of a reduction
  /// (an unrolled scope whose loads the back end may merge); 1 for none.
  int64_t reductionLanes = 1;
  /// Rule 5: the threads of a block combine the partials of a reduction by
  /// warp shuffles (a block reduction, Analysis/Concurrency.h) instead of
  /// thread 0 combining them one by one.
  bool blockCombine = true;
};

/// The variants the heuristic strategy evaluates, the default first.
std::vector<GpuExpertVariant> getGpuExpertVariants();

/// Maps `game`'s kernel for the GPU `target`. After rule 1a's split
/// reductions, with the variant's shared tile (rule 1s), every GEMM-like
/// nest it divides is mapped whole: grid of output tiles, block-shared
/// operand tiles, per-thread register accumulators (GpuSharedTiles.h); the
/// other rules leave those nests alone. Then register tiles for
/// GEMM-like reductions (rule 1, the CPU pass's register blocking with the
/// variant's tile: rows x vectors of 4 lanes per thread). Then for every
/// top-level scope that can be a grid (`set_gpu_grid`):
///   a. merge: perfect pairs of plain scopes below it collapse into one
///      (`merge_scopes`) where the indices allow, so threads get the
///      longest dimension;
///   b. vectorize: a single-leaf innermost scope without reduction whose
///      size is a multiple of the vector width W (16 bytes) and leaves at
///      least 32 W-groups is split by W and its lanes made `:v` (one
///      128-bit load or store per operand);
///   c. threads, innermost scopes first: a plain scope with no `:b` in or
///      around it becomes `:b` if it has at most the threads of a block,
///      else it is split by 256 (or the largest multiple of 32 dividing it,
///      up to 1024) and the inner scope becomes `:b`; then a reduction
///      scope left over is split into T threads near the square root of
///      the terms a block accumulates (a multiple of the warp where one
///      divides), each accumulating into a partial of its own
///      (`privatize_reduction`) in block-shared memory (through
///      `gpu_local`, which lets the grid's dimensions of the partials be
///      reused), combined after it by thread 0; scopes whose iterations
///      still conflict stay sequential, run by thread 0;
///   e. a block of fewer than the variant's minimum threads takes the
///      plain scope around it as a second thread dimension, within the
///      target's threads per block and leaves at least 256 blocks to the
///      grid;
///   d. grid: the top-level scope's only child, and its only child, and
///      so on, become `:g` while legal (the grid's perfect nest).
/// Then internal buffers private to the blocks of one grid move to
/// block-shared memory where they fit, and buffer dimensions are reused
/// until exhaustion. Scopes that cannot be a grid run as one-thread
/// launches. There is no fusion: a fused scope holding a reduction could
/// not be `:b`.
void applyGpuExpertRules(Game &game, const TargetDescription &target,
                         const GpuExpertVariant &variant = {});

} // namespace perfdojo

#endif // PERFDOJO_SEARCH_GPUEXPERTRULES_H
