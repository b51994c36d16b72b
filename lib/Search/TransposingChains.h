//===- TransposingChains.h - relayout copies as register squares -*- C++
//-*-===//
//
// Private to lib/Search: a rule of the CPU expert pass, applied to every
// finished candidate. A vectorized copy whose lanes transpose (a relayout,
// Analysis/TransposingCopy.h) gathers each vector lane by lane; the rule
// gives it a chain of `:u` scopes whose variables read one run of
// consecutive source elements, a whole number of the target's squares, so
// that the lowering moves it through registers. Two ways, through legal
// moves only:
//   - the scopes right above the lanes already read such a run (a
//     convolution's weights, `w_s[ci, kh, kw, co] = w[co, ci, kh, kw]`:
//     kw, kh and ci read 3, 9, then 144 consecutive elements): they are
//     unrolled up to the first run of whole squares;
//   - else the scope whose variable reads consecutive source elements (an
//     output relayout `y[c, h, w] = y_s[h, w, c]`: c) is split by the square
//     side, its inner part moved down to right above the lanes
//     (swap_nested_scopes; split_off where the lanes have siblings: the
//     remainder's narrower vectors) and unrolled; a parallel scope split so
//     keeps its outer part parallel.
// Measured on Zen 4 (docs/performance.md): ResNet-50's 14x14x256 output
// relayout 8-11 us against 50-66 us lane by lane, its 3x3x256x256 weights
// 138-156 us against 148-202 us.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_LIB_SEARCH_TRANSPOSINGCHAINS_H
#define PERFDOJO_LIB_SEARCH_TRANSPOSINGCHAINS_H

#include "perfdojo/Moves/Game.h"

namespace perfdojo {
namespace heuristic {

/// The most unrolled rows (source elements per lane) one chain moves: the
/// chain's code grows with them.
constexpr int64_t kMaxChainRun = 256;

/// Chains every transposing vector copy of the program in `game` that one
/// of the two ways above can chain; false if none changed.
bool chainTransposingCopies(Game &game, const TargetDescription &target);

} // namespace heuristic
} // namespace perfdojo

#endif // PERFDOJO_LIB_SEARCH_TRANSPOSINGCHAINS_H
