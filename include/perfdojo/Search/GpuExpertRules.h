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

namespace perfdojo {

/// Maps `game`'s kernel for the GPU `target`. For every top-level scope
/// that can be a grid (`set_gpu_grid`):
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
///      scope left over gets one partial per thread (`privatize_reduction`,
///      combined after it by thread 0) and becomes `:b`; scopes whose
///      iterations still conflict stay sequential, run by thread 0;
///   d. grid: the top-level scope's only child, and its only child, and
///      so on, become `:g` while legal (the grid's perfect nest).
/// Then internal buffers private to the blocks of one grid move to
/// block-shared memory where they fit (partials of long rows do not yet:
/// they stay in global memory), and buffer dimensions are reused until
/// exhaustion. Scopes that cannot be a grid run as one-thread launches. There is no
/// fusion: a fused scope holding a reduction could not be `:b`.
void applyGpuExpertRules(Game &game, const TargetDescription &target);

} // namespace perfdojo

#endif // PERFDOJO_SEARCH_GPUEXPERTRULES_H
