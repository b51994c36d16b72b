//===- LaneBlocking.h - transposed copies written in blocks ------*- C++
//-*-===//
//
// Private to lib/Search: a rule of the CPU expert pass, applied to every
// finished candidate before its transposing copies are chained. A relayout
// that moves a vectorized dimension last (a convolution's weights,
// `w_s[ci, kh, kw, co] = w[co, ci, kh, kw]`) writes one vector of each
// destination row per step, the rows one whole row length apart: with 512
// output channels, 2 KiB apart, a stride at which the copy of 9.4 MB took
// 2-3 ms, where the same bytes written contiguously took 0.5 ms. The rule
// splits the destination's last dimension by the copy's lanes and moves the
// blocks outermost (`w_s[co/16, ci, kh, kw, 16]`, split_dim then swap_dims):
// each block of lanes is then one contiguous slab that the copy writes in
// order and the register tiles read as before (their lanes stay
// consecutive, which swap_dims checks). Measured on Zen 4
// (docs/performance.md): a 3x3 convolution of 512 channels on 9x9 inputs
// 3.5-3.8 ms against 5.0-5.2, ResNet-50's stage-4 one 2.19 against 2.38.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_LIB_SEARCH_LANEBLOCKING_H
#define PERFDOJO_LIB_SEARCH_LANEBLOCKING_H

#include "perfdojo/Moves/Game.h"

namespace perfdojo {
namespace heuristic {

/// Blocks the destination of every transposing vector copy
/// (Analysis/TransposingCopy.h) into an internal buffer whose last
/// dimension is a whole number (two or more) of the copy's lanes, through
/// legal moves only; a refused move leaves that buffer as it was. False if
/// none changed.
bool blockTransposedDestinations(Game &game, const TargetDescription &target);

} // namespace heuristic
} // namespace perfdojo

#endif // PERFDOJO_LIB_SEARCH_LANEBLOCKING_H
