//===- RegisterBlocking.h - register tiles for the heuristic pass -*- C++ -*-===//
//
// Private to lib/Search: the register-blocking rule of the x86 expert pass
// (HeuristicStrategy.cpp). A reduction leaf whose output index misses the
// reduction variables (`c[i,j] += a[i,k] * b[k,j]`, a convolution) becomes
// a tile of unrolled accumulators: lanes along the output's contiguous
// dimension, a few rows along another output dimension, the reduction
// scopes outside the tile, the initialization in its own copy of the tile
// before them and an elementwise epilogue (`c = relu(c)`) in one after them.
// Every step is a legal move; an illegal one abandons the site.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_LIB_SEARCH_REGISTERBLOCKING_H
#define PERFDOJO_LIB_SEARCH_REGISTERBLOCKING_H

#include "LeafRef.h"

#include "perfdojo/Moves/Game.h"

#include <optional>
#include <string>
#include <vector>

namespace perfdojo {
namespace heuristic {

/// A reduction leaf `c[out] op= f(...)` whose output index misses the
/// reduction variables and has a contiguous dimension usable as vector
/// lanes: the candidate of a register-blocked tile.
struct BlockSite {
  LeafRef leaf;
  llvm::SmallVector<int64_t> sizes; ///< of the enclosing scopes
  llvm::SmallVector<unsigned> outer; ///< output depths other than row, lane
  /// For each output depth, the first output dimension its variable
  /// indexes.
  llvm::SmallDenseMap<unsigned, unsigned> outputDimension;
  /// The depths of `outer` that no contiguous operand uses: its panel (a
  /// convolution's weights across the image rows) is the same in each of
  /// their iterations, so a cache tile of the reduction goes above them.
  llvm::SmallVector<unsigned> panelInvariant;
  llvm::SmallVector<unsigned> reductions; ///< innermost, in order
  unsigned lane = 0;
  int64_t laneMain = 0; ///< the lane scope's size rounded down to W
  int64_t width = 0;
  std::optional<unsigned> row;
  int64_t elementBytes = 4;
  /// (rows, vectors) register tiles, best first.
  llvm::SmallVector<std::pair<int64_t, int64_t>> tiles;
  int64_t kTile = 0; ///< a cache tile of the first reduction scope (0: none)
  /// Lanes of the cache tile's panel: all of laneMain (0), or, where even
  /// the shortest cache tile of the reduction is too wide for the budget
  /// (an MLP projection of thousands of columns), a column tile of them
  /// above the reduction's cache tile, each panel row a long contiguous run.
  int64_t panelLanes = 0;
  /// The most lanes whose panel of the contiguous operand holds the whole
  /// reduction within the budget (k x lanes), where all of laneMain does
  /// not fit (0 where it does): the limit of a panel of whole reductions.
  int64_t wholePanelLanes = 0;
  /// The leaf right before the reduction scopes initializes the same
  /// element (`c[i,j] = 0`): it stays in the tile, before the reduction.
  bool hasInit = false;
  /// That initialization: the writer of the array right before the leaf
  /// (meaningful with hasInit).
  LeafRef getInit() const { return {leaf.array, leaf.ordinal - 1}; }
  /// An elementwise epilogue of the reduction: a plain write of the same
  /// element (`c[i,j] = relu(c[i,j])`) that finishes it. `Fusable`: the
  /// only leaf of a perfect nest of the output scopes right after the
  /// leaf's outermost scope, fused into the tile by join_scopes; `Fused`:
  /// already the sibling right after the reduction scopes (a remainder's
  /// copy). Either way it is the next writer of the array.
  enum class Epilogue { None, Fusable, Fused };
  Epilogue epilogue = Epilogue::None;
  LeafRef getEpilogue() const { return {leaf.array, leaf.ordinal + 1}; }
};

/// One variant of the blocking rule: which ranked tile, the order of the
/// row and column tile loops, and whether to cache-tile the reduction.
struct BlockVariant {
  unsigned tile = 0;
  bool columnsOuter = false;
  bool cacheTile = false;
  /// Rank `tile` among the tiles whose rows divide the row scope only (no
  /// tile of remainder rows).
  bool dividingRows = false;
  /// Column tiles above the other output scopes too (the stride-1
  /// operand's slab of one column tile reused across all of them).
  bool columnsOutermost = false;
  /// Rank `tile` among the tiles whose accumulators, vectors and row
  /// broadcasts all fit the vector registers at once (r*u + u + r): where
  /// the compiler keeps broadcasts live across reduction steps (a
  /// convolution's overlapping input windows), a fuller tile spills an
  /// accumulator.
  bool operandsInRegisters = false;
  /// The row tiles among the outer output scopes in the order of the
  /// output's dimensions, outermost the scope of its most major one: an
  /// NCHW convolution's channel tiles above its image rows, so that each
  /// tile writes a few output planes front to back instead of a short run
  /// of every plane per image row (streams the prefetchers can follow
  /// when the output is not in cache).
  bool outputOrder = false;
  /// The column tiles split into panels of the contiguous operand that
  /// hold the whole reduction (BlockSite::wholePanelLanes), the panels
  /// above the row tiles and the panel's column tiles below them: each
  /// panel is read from memory once and reused from cache by every row
  /// tile, and the accumulators still live across all of the reduction
  /// (a 1x1 convolution's 64 input channels over 12544 pixels, where a
  /// cache tile of the reduction loads and stores them every 16 steps).
  bool wholePanel = false;
};

/// Every register-blocking site of `kernel`, in text order.
std::vector<BlockSite> findBlockSites(dojo::KernelOp kernel,
                                      const MoveOptions &options);

/// Applies the register-blocking rule to `site` (and to the scalar
/// remainder it cuts off); false, with the game restored, when a step that
/// the tile needs is illegal.
bool blockSite(Game &game, const BlockSite &site, const BlockVariant &variant,
               const MoveOptions &options);

/// Prepares vector lanes for sites whose lanes are narrower than a vector
/// or leave a scalar remainder (a convolution's 14- or 28-wide output
/// rows): where another output variable
/// is a multiple of the vector and indexes one dimension alone of the
/// output and of every operand it reaches (the output channels of NCHW
/// and of the weights), the output and those operands are staged around
/// the site's nest (`stage_region`; the output's initialization stays in
/// the nest, so its copy needs no copy-in and is initialized in place) and
/// their copies' dimensions swapped so that variable's is the last
/// (`swap_dims`); the copy nests and initializations write consecutive
/// elements (`swap_nested_scopes`), and a copy that reads across its source's rows
/// (the weights' transposition) is blocked by the vector width (its lane
/// scope split and the outer part moved outermost). Register blocking then
/// finds the new lanes.
/// False, with the game as it was for that site, where no site qualifies.
bool relayoutForLanes(Game &game, const MoveOptions &options);

/// Whether `join` (a join_scopes request) fuses two reduction loops of
/// register tiles: the accumulators of both would be live at once and spill.
bool joinsRegisterTiles(Game &game, const MoveRequest &join);

/// Whether `swap` (a swap_nested_scopes request) moves a reduction loop of
/// a register tile (isTileReduction) or trades the places of two scopes
/// above a register tile: fusion must not undo the loop order blockSite
/// chose, its cache tile of the reduction above the output scopes and its
/// panels above the row tiles included.
bool swapsRegisterTileReduction(Game &game, const MoveRequest &swap);

} // namespace heuristic
} // namespace perfdojo

#endif // PERFDOJO_LIB_SEARCH_REGISTERBLOCKING_H
