//===- RegisterBlocking.cpp - register tiles for the heuristic pass ------===//
//
// The register-blocking rule (RegisterBlocking.h), step by step on a
// reduction leaf R at depth D (all steps legal moves):
//
//   site:    R reduces (`op=`), its enclosing scopes are plain, the scopes
//            whose variables miss R's output index (the reductions) are the
//            innermost ones; lanes: the output variable that is the last
//            output index with stride 1, and stride 0 or 1 in every operand;
//            rows: another output variable that the stride-1 operands do
//            not use (each vector load then serves every row), else the
//            innermost other output variable;
//   tiles:   rows r (<= 8) x u vectors (a divisor of the lane size / W,
//            <= 8), r*u within 3/4 of the vector registers (32 with 64-byte
//            vectors, else 16), ranked by FMAs per load over all the rows
//            (an r x u tile: r*u FMAs for r + u loads; the remainder rows'
//            tile counted too), tiles that divide the rows first on a tie;
//            lanes narrower than W: a scalar tile (W = 1);
//   moves:   split_off until R's scopes are a perfect nest (keeping the
//            initialization leaf `c = 0` right before the reduction scopes
//            with them); cut_scope the lane scope at a multiple of W (the
//            remainder becomes a tile of the widest narrow vector it
//            holds, cut again, down to a scalar tile) and the row scope at a
//            multiple of r (the remainder rows become a tile of their own,
//            of the same vectors); split_scope lanes by W and u,
//            rows by r, [the first reduction by a cache tile];
//            swap_nested_scopes to (outer output scopes, [k outer], row
//            tiles, column tiles, r, u, W) above the initialization,
//            split_off of the initialization's tile, swap_nested_scopes of
//            the reduction scopes outside (r, u, W); set_vector on W,
//            set_unroll on u and r, in both tiles. An elementwise epilogue
//            of the reduction (`c = relu(c)`, the next nest) is first fused
//            in (join_scopes) where the reduction is not cache-tiled, and
//            gets a tile of its own after the reduction scopes.
//
//===----------------------------------------------------------------------===//

#include "RegisterBlocking.h"

#include "MoveRules.h"

#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"
#include "perfdojo/Moves/Selector.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>

using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::heuristic;

namespace {

/// The budget of a cache tile's panel of the contiguous operand, and the
/// fewest reduction steps in a cache tile.
constexpr int64_t kPanelBytes = int64_t(256) << 10;
constexpr int64_t kMinReductionTile = 16;

llvm::SmallVector<int64_t> getDivisors(int64_t n, int64_t max) {
  llvm::SmallVector<int64_t> divisors;
  for (int64_t d = 1; d <= std::min(n, max); ++d)
    if (n % d == 0)
      divisors.push_back(d);
  return divisors;
}

/// Register tiles: rows x vectors accumulators within 3/4 of the vector
/// registers of the target, ranked by FMAs per load over the row scope (an
/// r x u tile makes r + u loads, one per row of the broadcast operand and
/// one per vector of the contiguous one, for r*u FMAs), then tiles that
/// divide the rows first, then by size. Scalar tiles (W = 1) take up to 12
/// columns. With
/// `rowRemainder`, the rows of a tile need not divide the row scope: the
/// remainder rows become a tile of their own (of the same vectors), whose
/// loads and FMAs count too (a row count with no divisor but 1, 197 say,
/// still gets a tall tile).
void rankTiles(BlockSite &site, const MoveOptions &options,
               bool rowRemainder) {
  int64_t registers = options.target.vectorRegisters;
  int64_t maxAccumulators = registers * 3 / 4;
  int64_t rowSize = site.row ? site.sizes[*site.row] : 1;
  struct Ranked {
    int64_t rows, vectors;
    double reuse;
    bool divides;
  };
  llvm::SmallVector<int64_t> rowTiles;
  for (int64_t r = 1; r <= std::min<int64_t>(rowSize, 8); ++r)
    if (rowRemainder || rowSize % r == 0)
      rowTiles.push_back(r);
  llvm::SmallVector<Ranked> ranked;
  for (int64_t r : rowTiles)
    for (int64_t u : getDivisors(site.laneMain / site.width,
                                 site.width == 1 ? 12 : 8)) {
      if (r * u > maxAccumulators || r * u < 2)
        continue;
      // Per reduction step: rowSize / r tiles of r + u loads each, and the
      // remainder's rest + u; rowSize * u FMAs in all.
      int64_t rest = rowSize % r;
      double loads = double(rowSize / r) * double(r + u) +
                     (rest ? double(rest + u) : 0.0);
      ranked.push_back({r, u, double(rowSize * u) / loads, rest == 0});
    }
  // A total order: deterministic with an unstable sort.
  llvm::sort(ranked, [](const Ranked &a, const Ranked &b) {
    if (a.reuse != b.reuse)
      return a.reuse > b.reuse;
    if (a.divides != b.divides)
      return a.divides;
    if (a.rows * a.vectors != b.rows * b.vectors)
      return a.rows * a.vectors > b.rows * b.vectors;
    return a.vectors > b.vectors;
  });
  site.tiles.clear();
  for (const Ranked &r : ranked)
    site.tiles.push_back({r.rows, r.vectors});
}

/// Whether `other` is a plain write of the element the reduction `leaf`
/// updates (its initialization before it, its epilogue after it).
bool writesReducedElement(LeafOp other, LeafOp leaf) {
  return other.getArray() == leaf.getArray() &&
         other.getReduce() == ReduceKind::none &&
         other.getIndices() == leaf.getIndices();
}

/// The epilogue of the reduction `leaf` (BlockSite::Epilogue), whose
/// enclosing `scopes` hold the reduction scopes from depth `reduction`.
BlockSite::Epilogue findEpilogue(LeafOp leaf, llvm::ArrayRef<ScopeOp> scopes,
                                 unsigned reduction) {
  using Epilogue = BlockSite::Epilogue;
  mlir::Operation *after = scopes[reduction]->getNextNode();
  if (after) {
    auto epilogue = llvm::dyn_cast<LeafOp>(after);
    return epilogue && !after->getNextNode() &&
                   writesReducedElement(epilogue, leaf)
               ? Epilogue::Fused
               : Epilogue::None;
  }
  // A perfect nest of the output scopes' sizes right after the outermost
  // scope, around one leaf.
  mlir::Operation *node = scopes.front()->getNextNode();
  for (unsigned d = 0; d < reduction; ++d) {
    auto scope = llvm::dyn_cast_or_null<ScopeOp>(node);
    if (!scope || scope.getMode() != Mode::seq ||
        scope.getSize() != ScopeOp(scopes[d]).getSize() ||
        !llvm::hasSingleElement(scope.getBlock()))
      return Epilogue::None;
    node = &scope.getBlock().front();
  }
  auto epilogue = llvm::dyn_cast<LeafOp>(node);
  return epilogue && writesReducedElement(epilogue, leaf) ? Epilogue::Fusable
                                                       : Epilogue::None;
}

std::optional<BlockSite> analyzeSite(KernelOp kernel, LeafOp leaf,
                                     const LeafRef &ref,
                                     const MoveOptions &options) {
  if (leaf.getReduce() == ReduceKind::none)
    return std::nullopt;
  llvm::SmallVector<ScopeOp> scopes = getEnclosingScopes(leaf);
  unsigned depth = scopes.size();
  if (depth < 2)
    return std::nullopt;
  BlockSite site;
  site.leaf = ref;
  for (ScopeOp scope : scopes) {
    if (scope.getMode() != Mode::seq)
      return std::nullopt;
    site.sizes.push_back(scope.getSize());
  }
  mlir::AffineMap output = leaf.getIndices();
  llvm::SmallVector<unsigned> outputDepths;
  for (unsigned d = 0; d < depth; ++d) {
    if (usesDepth(output, d))
      outputDepths.push_back(d);
    else
      site.reductions.push_back(d);
  }
  // The reduction scopes are the innermost ones.
  if (site.reductions.empty() || outputDepths.empty() ||
      site.reductions.front() < outputDepths.back())
    return std::nullopt;
  // Lanes: the variable of the output's last index, stride 1 or 0 in every
  // operand.
  std::optional<unsigned> lane;
  for (unsigned d : outputDepths)
    if (isUnitStride(output, d))
      lane = d;
  if (!lane)
    return std::nullopt;
  site.lane = *lane;
  llvm::SmallVector<mlir::AffineMap> contiguous;
  for (mlir::Attribute input : leaf.getInputs()) {
    auto access = llvm::dyn_cast<AccessAttr>(input);
    if (!access)
      continue;
    if (!usesDepth(access.getIndices(), site.lane))
      continue;
    if (!isUnitStride(access.getIndices(), site.lane))
      return std::nullopt;
    contiguous.push_back(access.getIndices());
  }
  site.width = getVectorLanes(kernel, leaf, options);
  site.elementBytes = std::max<int64_t>(1, options.target.vectorBytes / site.width);
  int64_t laneSize = site.sizes[site.lane];
  if (laneSize < 2)
    return std::nullopt;
  // Lanes narrower than a vector: a tile of scalar accumulators.
  if (site.width < 2 || laneSize < site.width)
    site.width = 1;
  site.laneMain = laneSize / site.width * site.width;
  auto anyContiguousUses = [&](unsigned d) {
    return llvm::any_of(contiguous,
                        [&](mlir::AffineMap m) { return usesDepth(m, d); });
  };
  // Rows: an output variable the contiguous operands do not use (each
  // vector load then serves every row of the tile), the innermost such;
  // else the innermost other output variable.
  std::optional<unsigned> reusing, any;
  for (unsigned d : outputDepths) {
    if (d == site.lane || site.sizes[d] < 2)
      continue;
    any = d;
    if (!anyContiguousUses(d))
      reusing = d;
  }
  site.row = reusing ? reusing : any;
  for (unsigned d : outputDepths)
    for (auto [dim, index] : llvm::enumerate(output.getResults()))
      if (index.isFunctionOfDim(d)) {
        site.outputDimension[d] = dim;
        break;
      }
  for (unsigned d : outputDepths)
    if (d != site.lane && d != site.row) {
      site.outer.push_back(d);
      if (!anyContiguousUses(d))
        site.panelInvariant.push_back(d);
    }
  rankTiles(site, options, /*rowRemainder=*/true);
  if (site.tiles.empty())
    return std::nullopt;
  ScopeOp first = scopes[site.reductions.front()];
  site.epilogue = findEpilogue(leaf, scopes, site.reductions.front());
  bool epilogueNext = site.epilogue == BlockSite::Epilogue::Fused;
  if (auto init = llvm::dyn_cast_or_null<LeafOp>(first->getPrevNode()))
    site.hasInit = ref.ordinal > 0 && writesReducedElement(init, leaf) &&
                   (!first->getNextNode() || epilogueNext) &&
                   !init->getPrevNode();
  // Cache tile of the first reduction scope: the panel of the contiguous
  // operand a tile row sweeps (kTile x the other reduction scopes it uses
  // x lanes: a convolution's 3x3 window too) within kPanelBytes, at least
  // kMinReductionTile steps (the tile's accumulators are loaded and stored
  // once per cache tile).
  int64_t k = site.sizes[site.reductions.front()];
  int64_t laneBytes = site.elementBytes;
  for (unsigned d : llvm::drop_begin(site.reductions))
    if (anyContiguousUses(d))
      laneBytes *= site.sizes[d];
  auto getKTile = [&](int64_t lanes) -> int64_t {
    int64_t best = 0;
    for (int64_t d : getDivisors(k, kPanelBytes / (lanes * laneBytes)))
      if (d >= kMinReductionTile)
        best = d;
    return best;
  };
  if (k * site.laneMain * laneBytes > kPanelBytes) {
    site.wholePanelLanes = kPanelBytes / (k * laneBytes);
    site.kTile = getKTile(site.laneMain);
    // Too many lanes for even the shortest cache tile: the panel takes the
    // most lanes (whole vectors dividing the lane scope) that leave room
    // for one, each of its rows still one long run of memory. Narrow
    // panels of the whole reduction instead read one short run per row of
    // the operand, a new page each (TinyLlama's 2048 x 5632 projections:
    // 28.9 ms against 11.5 ms with panels of 16 x 2816).
    if (!site.kTile && site.width > 1 && k >= 2 * kMinReductionTile)
      for (int64_t lanes : llvm::reverse(getDivisors(
               site.laneMain, kPanelBytes / (kMinReductionTile * laneBytes))))
        if (lanes % site.width == 0) {
          site.panelLanes = lanes;
          site.kTile = getKTile(lanes);
          break;
        }
  }
  return site;
}

/// Every register-blocking site of `kernel`, in text order.
std::vector<BlockSite> findSites(KernelOp kernel,
                                            const MoveOptions &options) {
  std::vector<BlockSite> sites;
  llvm::StringMap<unsigned> writers;
  kernel.walk([&](LeafOp leaf) {
    LeafRef ref{leaf.getArray().str(), writers[leaf.getArray()]++};
    if (auto site = analyzeSite(kernel, leaf, ref, options))
      sites.push_back(std::move(*site));
  });
  return sites;
}


/// Applies moves to `game` while keeping track of the blocked leaf's nest:
/// `labels[d]` names the scope at depth d on the leaf's path.
class NestBuilder {
public:
  enum : int { kLane = 100, kVectors, kRowsIn, kReductionIn, kColumnsIn };

  NestBuilder(Game &game, LeafRef leaf) : game(game), leaf(std::move(leaf)) {}

  LeafOp getLeaf() { return findLeaf(game.getKernel(), leaf); }
  std::string at(unsigned depth) { return getPathSelector(getLeaf(), depth); }
  bool apply(MoveKind kind, std::string location,
             llvm::ArrayRef<int64_t> params = {}) {
    return tryApply(game, makeMove(kind, std::move(location), params));
  }

  /// Fission until the leaf's scopes form a perfect nest from the top;
  /// the kept initialization `init` (right before the leaf's reduction
  /// scope) and epilogue `epilogue` (right after it) stay that scope's
  /// siblings, the only ones.
  bool isolate(const LeafRef *init = nullptr,
               const LeafRef *epilogue = nullptr) {
    unsigned depth = getNodeDepth(getLeaf());
    auto kept = [&](const LeafRef *ref) -> LeafOp {
      return ref ? findLeaf(game.getKernel(), *ref) : LeafOp();
    };
    for (int d = int(depth) - 1; d >= 0; --d) {
      auto child = [&]() -> mlir::Operation * {
        LeafOp current = getLeaf();
        auto scopes = getEnclosingScopes(current);
        return unsigned(d) + 1 < scopes.size() ? scopes[d + 1].getOperation()
                                               : current.getOperation();
      };
      mlir::Operation *begin = child();
      if (LeafOp first = kept(init); first && first->getNextNode() == begin)
        begin = first;
      if (mlir::Operation *prev = begin->getPrevNode())
        apply(MoveKind::SplitOff, getPathSelector(getFirstLeaf(prev), d));
      mlir::Operation *end = child();
      std::string cut = at(d);
      if (LeafOp last = kept(epilogue);
          last && end->getNextNode() == last.getOperation()) {
        end = last;
        cut = getPathSelector(last, d);
      }
      if (end->getNextNode())
        apply(MoveKind::SplitOff, cut);
    }
    for (ScopeOp scope : getEnclosingScopes(getLeaf())) {
      unsigned expected = 1;
      for (const LeafRef *ref : {init, epilogue})
        if (LeafOp leaf = kept(ref); leaf && leaf->getParentOp() == scope)
          ++expected;
      if (llvm::range_size(scope.getBlock()) != expected)
        return false;
    }
    return true;
  }

  /// Separates the kept initialization `init` (a sibling before the
  /// reduction scopes) and epilogue `epilogue` (a sibling after them) from
  /// the leaf at every depth of `labels` (deepest first).
  bool separate(const LeafRef *init, const LeafRef *epilogue,
                llvm::ArrayRef<int> tileLabels) {
    for (int label : llvm::reverse(tileLabels)) {
      std::optional<unsigned> d = position(label);
      if (!d)
        continue;
      if (epilogue && !apply(MoveKind::SplitOff, at(*d)))
        return false;
      if (init && !apply(MoveKind::SplitOff,
                         getPathSelector(findLeaf(game.getKernel(), *init),
                                         *d)))
        return false;
    }
    return true;
  }

  /// Fuses the epilogue's nest into the leaf's (join_scopes of every output
  /// scope, outermost first); true when the epilogue `epilogue` ends up the
  /// sibling right after the leaf's scope at depth `reduction`.
  bool fuseEpilogue(const LeafRef &epilogue, unsigned reduction) {
    for (unsigned d = 0; d < reduction; ++d)
      if (!apply(MoveKind::JoinScopes, at(d)))
        return false;
    LeafOp last = findLeaf(game.getKernel(), epilogue);
    auto scopes = getEnclosingScopes(getLeaf());
    return last && reduction < scopes.size() &&
           scopes[reduction]->getNextNode() == last.getOperation();
  }

  void initLabels() {
    labels.clear();
    for (unsigned d = 0, e = getNodeDepth(getLeaf()); d < e; ++d)
      labels.push_back(d);
  }
  std::optional<unsigned> position(int label) {
    auto it = llvm::find(labels, label);
    if (it == labels.end())
      return std::nullopt;
    return unsigned(it - labels.begin());
  }
  /// Splits the scope `label` by `factor`; the inner part is `inner`.
  bool split(int label, int64_t factor, int inner) {
    unsigned d = *position(label);
    if (!apply(MoveKind::SplitScope, at(d), {factor}))
      return false;
    labels.insert(labels.begin() + d + 1, inner);
    return true;
  }
  void relabel(int from, int to) { labels[*position(from)] = to; }
  /// Interchanges adjacent scopes until the labels follow `order` (labels
  /// absent from the nest are ignored).
  bool permute(llvm::ArrayRef<int> order) {
    auto rank = [&](int label) {
      return unsigned(llvm::find(order, label) - order.begin());
    };
    for (unsigned step = 0; step < 200; ++step) {
      bool swapped = false;
      for (unsigned d = 0; d + 1 < labels.size(); ++d) {
        if (rank(labels[d]) <= rank(labels[d + 1]))
          continue;
        if (!apply(MoveKind::SwapNestedScopes, at(d)))
          return false;
        std::swap(labels[d], labels[d + 1]);
        swapped = true;
        break;
      }
      if (!swapped)
        return true;
    }
    return false;
  }

private:
  Game &game;
  LeafRef leaf;

public:
  llvm::SmallVector<int> labels;
};

/// The register-blocking rule on one site; on failure the game is restored.
bool block(Game &game, const BlockSite &site, const BlockVariant &variant,
           const MoveOptions &options) {
  size_t mark = game.history().size();
  auto fail = [&] {
    undoTo(game, mark);
    return false;
  };
  int reduction = site.reductions.front();
  bool cacheTile = variant.cacheTile && site.kTile;
  // The initialization stays in the tile unless the reduction is
  // cache-tiled (it would then run once per cache tile).
  bool keepInit = site.hasInit && !cacheTile;
  LeafRef init = site.getInit();
  const LeafRef *keep = keepInit ? &init : nullptr;
  NestBuilder nest(game, site.leaf);
  if (!nest.getLeaf())
    return fail();
  // The epilogue joins the tile where the tile holds the whole reduction:
  // the accumulators are finished in registers and stored once.
  bool keepEpilogue =
      site.epilogue == BlockSite::Epilogue::Fused && !cacheTile;
  LeafRef epilogue = site.getEpilogue();
  if (site.epilogue == BlockSite::Epilogue::Fusable && !cacheTile) {
    size_t unfused = game.history().size();
    keepEpilogue = nest.fuseEpilogue(epilogue, reduction);
    if (!keepEpilogue)
      undoTo(game, unfused);
  }
  const LeafRef *keepLast = keepEpilogue ? &epilogue : nullptr;
  if (!nest.isolate(keep, keepLast))
    return fail();
  // A lane scope that is not a multiple of W: the remainder is cut off and
  // becomes a tile of narrow vectors or scalars (below), the main part is
  // blocked.
  bool cut = site.laneMain != site.sizes[site.lane];
  if (cut) {
    if (!nest.apply(MoveKind::CutScope, nest.at(site.lane), {site.laneMain}) ||
        !nest.isolate(keep, keepLast))
      return fail();
  }
  int64_t rowSize = site.row ? site.sizes[*site.row] : 1;
  llvm::SmallVector<std::pair<int64_t, int64_t>> tiles(site.tiles);
  if (variant.dividingRows)
    llvm::erase_if(tiles, [&](auto tile) { return rowSize % tile.first; });
  if (variant.operandsInRegisters)
    llvm::erase_if(tiles, [&](auto tile) {
      auto [r, u] = tile;
      return r * u + r + u > options.target.vectorRegisters;
    });
  if (tiles.empty())
    return fail();
  auto [rows, vectors] = tiles[std::min<size_t>(variant.tile, tiles.size() - 1)];
  // Rows that the tile does not divide: the remainder rows are cut off
  // (inside the lanes' main part) and blocked as a tile of their own below.
  int64_t rowMain = rows > 1 ? rowSize / rows * rows : rowSize;
  bool cutRows = rowMain != rowSize;
  if (cutRows) {
    if (!nest.apply(MoveKind::CutScope, nest.at(*site.row), {rowMain}) ||
        !nest.isolate(keep, keepLast))
      return fail();
  }
  nest.initLabels();
  int lane = site.lane;
  bool vector = site.width > 1;
  if (vector) {
    if (site.laneMain == site.width)
      nest.relabel(lane, NestBuilder::kLane);
    else if (!nest.split(lane, site.width, NestBuilder::kLane))
      return fail();
  }
  int64_t laneVectors = site.laneMain / site.width;
  if (vectors > 1) {
    if (vectors == laneVectors)
      nest.relabel(lane, NestBuilder::kVectors);
    else if (!nest.split(lane, vectors, NestBuilder::kVectors))
      return fail();
  }
  if (site.row && rows > 1) {
    if (rows == rowMain)
      nest.relabel(*site.row, NestBuilder::kRowsIn);
    else if (!nest.split(*site.row, rows, NestBuilder::kRowsIn))
      return fail();
  }
  if (cacheTile &&
      !nest.split(reduction, site.kTile, NestBuilder::kReductionIn))
    return fail();
  // A panel of part of the lanes: the column tiles split into panels (the
  // outer part, above the reduction's cache tile) and the tiles of one
  // panel. Where the panel is not a whole number of this tile's columns,
  // the panel spans all of them.
  int columns = lane;
  int64_t tileLanes = site.width * vectors;
  if (cacheTile && site.panelLanes && site.panelLanes % tileLanes == 0 &&
      (site.laneMain / tileLanes) % (site.panelLanes / tileLanes) == 0 &&
      site.panelLanes < site.laneMain && nest.position(lane)) {
    if (!nest.split(lane, site.panelLanes / tileLanes,
                    NestBuilder::kColumnsIn))
      return fail();
    columns = NestBuilder::kColumnsIn;
  }
  // Panels of whole reductions: the most column tiles per panel (at least
  // two, not all of them) within the budget.
  if (variant.wholePanel) {
    int64_t columnTiles = site.laneMain / tileLanes;
    int64_t perPanel = 0;
    if (!cacheTile && site.wholePanelLanes >= 2 * tileLanes)
      for (int64_t d :
           getDivisors(columnTiles, site.wholePanelLanes / tileLanes))
        if (d >= 2 && d < columnTiles)
          perPanel = d;
    if (!perPanel || !nest.position(lane) ||
        !nest.split(lane, perPanel, NestBuilder::kColumnsIn))
      return fail();
    columns = NestBuilder::kColumnsIn;
  }
  // (outer output scopes, [column panels, k outer], row tiles, column
  //  tiles, [k inner], reductions, rows in the tile, vectors in the tile,
  //  lanes)
  // Column tiles outermost: one column tile's slab of the stride-1
  // operand (a convolution's weights) is reused across every outer output
  // iteration before the next is read.
  int rowLabel = site.row ? int(*site.row) : -1;
  // The cache tile of the reduction goes above the outer scopes its panel
  // does not depend on (a convolution's image rows: one slab of weights
  // serves all of them while it stays in cache), below the others (a
  // batch of matrices, each with its own panel).
  llvm::SmallVector<int> outerOrder;
  if (variant.columnsOutermost)
    outerOrder.push_back(lane);
  for (unsigned d : site.outer)
    if (!cacheTile || !llvm::is_contained(site.panelInvariant, d))
      outerOrder.push_back(d);
  if (cacheTile) {
    if (columns != lane && !variant.columnsOutermost)
      outerOrder.push_back(lane);
    outerOrder.push_back(reduction);
    outerOrder.append(site.panelInvariant.begin(), site.panelInvariant.end());
  }
  if (variant.columnsOutermost) {
    outerOrder.push_back(rowLabel);
    if (columns != lane)
      outerOrder.push_back(columns);
  } else if (variant.outputOrder && site.row) {
    // The row tiles go above the first outer scope of a less major output
    // dimension (the outer scopes keep their nesting, which is already the
    // kernel's).
    unsigned rowDim = site.outputDimension.lookup(*site.row);
    auto *at = llvm::find_if(outerOrder, [&](int label) {
      auto dim = site.outputDimension.find(label);
      return label != lane && dim != site.outputDimension.end() &&
             dim->second > rowDim;
    });
    outerOrder.insert(at, rowLabel);
    outerOrder.push_back(columns);
  } else if (variant.wholePanel)
    outerOrder.append({lane, rowLabel, columns});
  else if (variant.columnsOuter)
    outerOrder.append({columns, rowLabel});
  else
    outerOrder.append({rowLabel, columns});
  llvm::SmallVector<int> reductionOrder;
  if (cacheTile)
    reductionOrder.push_back(NestBuilder::kReductionIn);
  for (unsigned d : site.reductions)
    if (!cacheTile || int(d) != reduction)
      reductionOrder.push_back(d);
  const int tileLabels[] = {NestBuilder::kRowsIn, NestBuilder::kVectors,
                            NestBuilder::kLane};
  // With the initialization or the epilogue in the tile: first order the
  // output scopes above them, then give each its own copy of the tile
  // scopes.
  llvm::SmallVector<std::pair<int, unsigned>> copyTile;
  if (keepInit || keepEpilogue) {
    llvm::SmallVector<int> order = outerOrder;
    order.append(std::begin(tileLabels), std::end(tileLabels));
    order.append(reductionOrder);
    if (!nest.permute(order) || !nest.separate(keep, keepLast, tileLabels))
      return fail();
    for (int label : tileLabels)
      if (auto d = nest.position(label))
        copyTile.push_back({label, *d});
  }
  llvm::SmallVector<int> order = outerOrder;
  order.append(reductionOrder);
  order.append(std::begin(tileLabels), std::end(tileLabels));
  if (!nest.permute(order))
    return fail();
  if (vector &&
      !nest.apply(MoveKind::SetVector,
                  nest.at(*nest.position(NestBuilder::kLane))))
    return fail();
  for (int label : {NestBuilder::kVectors, NestBuilder::kRowsIn})
    if (auto d = nest.position(label))
      nest.apply(MoveKind::SetUnroll, nest.at(*d));
  // The initialization and epilogue tiles: vector lanes, unrolled.
  for (const LeafRef *ref : {keep, keepLast}) {
    if (!ref)
      continue;
    for (auto [label, depth] : llvm::reverse(copyTile)) {
      std::string at = getPathSelector(findLeaf(game.getKernel(), *ref), depth);
      if (label == NestBuilder::kLane)
        nest.apply(vector ? MoveKind::SetVector : MoveKind::SetUnroll, at);
      else
        nest.apply(MoveKind::SetUnroll, at);
    }
  }
  // The remainders follow the main tile in text order: the remainder rows
  // (of the lanes' main part), then the remainder lanes (of every row);
  // each is the next writer of the array after the previous part's
  // initialization copy, leaf and epilogue copy.
  unsigned writersPerPart = 1 + keepInit + keepEpilogue;
  BlockSite::Epilogue restEpilogue =
      keepEpilogue ? BlockSite::Epilogue::Fused : BlockSite::Epilogue::None;
  if (cutRows) {
    BlockSite rest = site;
    rest.leaf.ordinal += writersPerPart;
    rest.hasInit = keepInit;
    rest.epilogue = restEpilogue;
    rest.sizes[*site.row] = rowSize - rowMain;
    rest.sizes[site.lane] = site.laneMain;
    rankTiles(rest, options, /*rowRemainder=*/false);
    // The variant's loop order, with the remainder's own best tile.
    BlockVariant remainder = variant;
    remainder.tile = 0;
    remainder.dividingRows = false;
    remainder.operandsInRegisters = false;
    if (!rest.tiles.empty())
      block(game, rest, remainder, options);
  }
  if (cut) {
    // A tile of the widest narrow vector the remainder holds (56 columns:
    // 48 + 8 lanes), whose own remainder is cut again; else scalar.
    BlockSite rest = site;
    rest.leaf.ordinal += writersPerPart * (cutRows ? 2 : 1);
    rest.hasInit = keepInit;
    rest.epilogue = restEpilogue;
    rest.sizes[site.lane] -= site.laneMain;
    LeafOp leaf = findLeaf(game.getKernel(), rest.leaf);
    int64_t lanes = leaf ? getLanesWithin(game.getKernel(), leaf,
                                          rest.sizes[site.lane], options)
                         : 0;
    // One narrow vector and no row tile dividing the rows (197 rows x 5
    // columns) makes no tile of two accumulators; a scalar tile does.
    for (int64_t width : {std::max<int64_t>(lanes, 1), int64_t(1)}) {
      rest.width = width;
      rest.laneMain = rest.sizes[site.lane] / width * width;
      rankTiles(rest, options, /*rowRemainder=*/false);
      BlockVariant narrow;
      narrow.outputOrder = variant.outputOrder;
      if ((!rest.tiles.empty() && block(game, rest, narrow, options)) ||
          width == 1)
        break;
    }
  }
  return true;
}

/// Whether `scope` is a reduction loop around a register tile: a leaf below
/// it reduces into an element that does not depend on the scope's variable,
/// inside an unrolled scope. With `holdingAccumulators`, only where the
/// scopes between it and the tile are reduction loops of that leaf too (the
/// tile's accumulators live across the whole scope), not a cache tile of
/// the reduction above output scopes.
bool isTileReduction(mlir::Operation *op, bool holdingAccumulators = false) {
  auto scope = llvm::dyn_cast_or_null<ScopeOp>(op);
  if (!scope)
    return false;
  unsigned depth = getNodeDepth(scope);
  bool found = false;
  scope.walk([&](LeafOp leaf) {
    if (found || leaf.getReduce() == ReduceKind::none ||
        usesDepth(leaf.getIndices(), depth))
      return;
    bool unrolled = false, outputBetween = false;
    for (mlir::Operation *p = leaf->getParentOp(); p != scope;
         p = p->getParentOp()) {
      auto between = llvm::cast<ScopeOp>(p);
      if (between.getMode() == Mode::unroll)
        unrolled = true;
      else if (unrolled &&
               usesDepth(leaf.getIndices(), getNodeDepth(between)))
        outputBetween = true;
    }
    found = unrolled && !(holdingAccumulators && outputBetween);
  });
  return found;
}

/// Whether `join` (a join_scopes request) fuses two reduction loops of
/// register tiles that hold their accumulators: both tiles would be live
/// at once and spill. Cache tiles of the reduction may fuse (their tiles
/// run one after the other, on the same slab of the panel).
bool joinsTiles(Game &game, const MoveRequest &join) {
  auto node = resolveNode(game.getKernel(), join.location);
  if (!node) {
    llvm::consumeError(node.takeError());
    return false;
  }
  return isTileReduction(*node, /*holdingAccumulators=*/true) &&
         isTileReduction((*node)->getNextNode(),
                         /*holdingAccumulators=*/true);
}

/// Whether `op` is a scope above a register tile: a reduction leaf below
/// it sits inside an unrolled scope.
bool isAboveTile(mlir::Operation *op) {
  auto scope = llvm::dyn_cast_or_null<ScopeOp>(op);
  if (!scope)
    return false;
  bool found = false;
  scope.walk([&](LeafOp leaf) {
    if (found || leaf.getReduce() == ReduceKind::none)
      return;
    for (mlir::Operation *p = leaf->getParentOp(); p != scope && !found;
         p = p->getParentOp())
      found = llvm::cast<ScopeOp>(p).getMode() == Mode::unroll;
  });
  return found;
}

/// Whether `swap` (a swap_nested_scopes request) changes the loop order
/// blockSite chose: a reduction loop of a register tile (a cache tile of
/// the reduction placed above the output scopes, or the reduction scopes
/// around the tile) would leave its place, or two scopes above a tile
/// (the panels above the row tiles) would trade places.
bool swapsTileReduction(Game &game, const MoveRequest &swap) {
  auto node = resolveNode(game.getKernel(), swap.location);
  if (!node) {
    llvm::consumeError(node.takeError());
    return false;
  }
  auto outer = llvm::dyn_cast<ScopeOp>(*node);
  if (!outer || outer.getBlock().empty())
    return false;
  mlir::Operation *inner = &outer.getBlock().front();
  return isTileReduction(outer) || isTileReduction(inner) ||
         (isAboveTile(outer) && isAboveTile(inner));
}

/// The dimension of `map` that `{depth}` alone indexes (coefficient 1, no
/// constant, no other variable) when no other dimension uses it.
std::optional<unsigned> findSoleDimension(mlir::AffineMap map,
                                          unsigned depth) {
  std::optional<unsigned> found;
  for (auto [k, e] : llvm::enumerate(map.getResults())) {
    if (!e.isFunctionOfDim(depth))
      continue;
    std::optional<LinearForm> form = getLinearForm(e);
    if (found || !form || form->constant != 0 || form->coeff(depth) != 1)
      return std::nullopt;
    for (unsigned d = 0; d < form->coeffs.size(); ++d)
      if (d != depth && form->coeff(d) != 0)
        return std::nullopt;
    found = k;
  }
  return found;
}

/// Names of the buffers of `kernel`.
/// Stages `array` around the top scope of `leaf`'s nest (on the stack
/// where it fits, else the heap) and returns the copy's name, or "".
std::string stageAroundNest(Game &game, llvm::StringRef array, LeafOp leaf) {
  llvm::StringSet<> before = getBufferNames(game.getKernel());
  std::string node = getPathSelector(leaf, 0);
  for (int64_t location : {1, 0})
    if (tryApply(game, makeMove(MoveKind::StageRegion,
                                array.str() + "," + node, {location})))
      return getNewBuffer(game.getKernel(), before);
  return "";
}

/// The reduction leaf among the writers of `array`.
std::optional<LeafRef> findReduction(KernelOp kernel, llvm::StringRef array) {
  std::optional<LeafRef> found;
  unsigned ordinal = 0;
  kernel.walk([&](LeafOp leaf) {
    if (leaf.getArray() != array)
      return;
    if (!found && leaf.getReduce() != ReduceKind::none)
      found = LeafRef{array.str(), ordinal};
    ++ordinal;
  });
  return found;
}

/// Swaps dimensions of the internal buffer `name` until dimension `from`
/// is the last.
bool moveDimensionLast(Game &game, llvm::StringRef name, unsigned from,
                       unsigned rank) {
  for (unsigned k = from; k + 1 < rank; ++k)
    if (!tryApply(game, makeMove(MoveKind::SwapDims,
                                 name.str() + "." + std::to_string(k))))
      return false;
  return true;
}

/// Orders the scopes of every copy nest that writes one of `arrays` or
/// reads one into another array (`a[...] = b[...]`), and of every nest
/// that fills one with a constant (an initialization): the scope of the
/// written array's last dimension innermost, so that the copy writes
/// consecutive elements. A transposing copy in its source's order writes
/// one cache line per element (3.2 ms against 0.97 ms for ResNet-50's
/// 3x3x256x256 weights).
void orderCopies(Game &game, const llvm::StringSet<> &arrays) {
  for (unsigned step = 0; step < 64; ++step) {
    std::optional<std::pair<std::string, unsigned>> swap;
    game.getKernel().walk([&](LeafOp leaf) {
      if (swap || leaf.getReduce() != ReduceKind::none)
        return;
      mlir::ArrayAttr inputs = leaf.getInputs();
      bool writesOne = arrays.contains(leaf.getArray());
      auto source = inputs.size() == 1
                        ? llvm::dyn_cast<AccessAttr>(inputs[0])
                        : AccessAttr();
      bool copies =
          source && (writesOne || arrays.contains(source.getArray()));
      bool fills = writesOne && llvm::none_of(inputs, [](mlir::Attribute a) {
                     return llvm::isa<AccessAttr>(a);
                   });
      if (!copies && !fills)
        return;
      auto results = leaf.getIndices().getResults();
      std::optional<LinearForm> last =
          results.empty() ? std::nullopt : getLinearForm(results.back());
      unsigned depth = getNodeDepth(leaf);
      if (!last || depth < 2)
        return;
      for (unsigned d = 0; d + 1 < depth; ++d)
        if (last->coeff(d) != 0 && last->coeff(depth - 1) == 0) {
          swap = {getPathSelector(leaf, d), d};
          return;
        }
    });
    if (!swap ||
        !tryApply(game, makeMove(MoveKind::SwapNestedScopes, swap->first)))
      return;
  }
}

/// Copies of `arrays` that read across the rows of their source (the
/// weights' transposition): the innermost scope, along which the copy
/// writes consecutive elements, is split by the vector width `lanes` and
/// its outer part moved outermost. Each step of the other scopes then reads
/// the next element of `lanes` source rows (cache lines used `lanes` times
/// while they stay in L1) and writes one vector; walking one row after
/// another instead touched a new line at every element.
void blockTranspositions(Game &game, const llvm::StringSet<> &arrays,
                         int64_t lanes) {
  llvm::SmallVector<LeafRef> copies;
  llvm::StringMap<unsigned> writers;
  game.getKernel().walk([&](LeafOp leaf) {
    unsigned ordinal = writers[leaf.getArray()]++;
    if (!arrays.contains(leaf.getArray()) ||
        leaf.getReduce() != ReduceKind::none || leaf.getInputs().size() != 1)
      return;
    auto source = llvm::dyn_cast<AccessAttr>(leaf.getInputs()[0]);
    unsigned depth = getNodeDepth(leaf);
    if (!source || depth < 2)
      return;
    auto scope = llvm::cast<ScopeOp>(leaf->getParentOp());
    auto read = source.getIndices().getResults();
    bool stridedRead = llvm::any_of(read.drop_back(), [&](mlir::AffineExpr e) {
      return e.isFunctionOfDim(depth - 1);
    });
    if (isUnitStride(leaf.getIndices(), depth - 1) && stridedRead &&
        int64_t(scope.getSize()) > lanes &&
        int64_t(scope.getSize()) % lanes == 0)
      copies.push_back({leaf.getArray().str(), ordinal});
  });
  for (const LeafRef &copy : copies) {
    LeafOp leaf = findLeaf(game.getKernel(), copy);
    unsigned depth = getNodeDepth(leaf);
    size_t mark = game.history().size();
    bool done = tryApply(game, makeMove(MoveKind::SplitScope,
                                        getPathSelector(leaf, depth - 1),
                                        {lanes}));
    for (unsigned d = depth - 1; done && d > 0; --d)
      done = tryApply(game,
                      makeMove(MoveKind::SwapNestedScopes,
                               getPathSelector(
                                   findLeaf(game.getKernel(), copy), d - 1)));
    if (!done)
      undoTo(game, mark);
  }
}

/// The relayout of one site whose lanes are narrower than a vector.
bool relayout(Game &game, const BlockSite &site, const MoveOptions &options) {
  size_t mark = game.history().size();
  auto fail = [&] {
    undoTo(game, mark);
    return false;
  };
  LeafOp leaf = findLeaf(game.getKernel(), site.leaf);
  if (!leaf)
    return false;
  int64_t lanes = getVectorLanes(game.getKernel(), leaf, options);
  // The new lanes: an output variable other than the old lanes, a multiple
  // of the vector, that indexes one dimension alone in the output and in
  // every operand it reaches.
  llvm::SmallVector<unsigned> outputs(site.outer.begin(), site.outer.end());
  if (site.row)
    outputs.push_back(*site.row);
  llvm::sort(outputs);
  std::optional<unsigned> lane;
  for (unsigned d : llvm::reverse(outputs))
    if (!lane && site.sizes[d] % lanes == 0 &&
        findSoleDimension(leaf.getIndices(), d)) {
      bool operandsAllow = true;
      for (mlir::Attribute input : leaf.getInputs())
        if (auto access = llvm::dyn_cast<AccessAttr>(input))
          if (usesDepth(access.getIndices(), d) &&
              (!findSoleDimension(access.getIndices(), d) ||
               access.getArray() == leaf.getArray()))
            operandsAllow = false;
      if (operandsAllow)
        lane = d;
    }
  if (!lane)
    return false;
  // The initialization stays in the nest with the reduction: the nest then
  // writes all of the output, so the staged copy needs no copy-in (a
  // separate initialization would be written, then copied, then blocked
  // apart from the reduction; the copy's every dimension would span nests
  // and no later reuse_dims could shrink it).
  LeafRef init = site.getInit();
  NestBuilder nest(game, site.leaf);
  if (!nest.isolate(site.hasInit ? &init : nullptr))
    return fail();
  std::string output = leaf.getArray().str();
  llvm::SmallVector<std::string> operands;
  for (mlir::Attribute input : nest.getLeaf().getInputs())
    if (auto access = llvm::dyn_cast<AccessAttr>(input))
      if (usesDepth(access.getIndices(), *lane) &&
          !llvm::is_contained(operands, access.getArray()))
        operands.push_back(access.getArray().str());
  std::string staged = stageAroundNest(game, output, nest.getLeaf());
  std::optional<LeafRef> ref =
      staged.empty() ? std::nullopt : findReduction(game.getKernel(), staged);
  if (!ref)
    return fail();
  llvm::SmallVector<std::string> copies = {staged};
  for (const std::string &operand : operands) {
    std::string copy =
        stageAroundNest(game, operand, findLeaf(game.getKernel(), *ref));
    if (copy.empty())
      return fail();
    copies.push_back(copy);
  }
  // Each copy with the new lanes' dimension last.
  for (const std::string &copy : copies) {
    LeafOp reduction = findLeaf(game.getKernel(), *ref);
    mlir::AffineMap map = reduction.getIndices();
    if (copy != staged)
      for (mlir::Attribute input : reduction.getInputs())
        if (auto access = llvm::dyn_cast<AccessAttr>(input);
            access && access.getArray() == copy)
          map = access.getIndices();
    std::optional<unsigned> dim = findSoleDimension(map, *lane);
    if (!dim ||
        !moveDimensionLast(game, copy, *dim, map.getNumResults()))
      return fail();
  }
  llvm::StringSet<> copied;
  for (const std::string &copy : copies)
    copied.insert(copy);
  orderCopies(game, copied);
  blockTranspositions(game, copied, lanes);
  return true;
}

} // namespace

std::vector<BlockSite> heuristic::findBlockSites(KernelOp kernel,
                                                 const MoveOptions &options) {
  return findSites(kernel, options);
}

bool heuristic::blockSite(Game &game, const BlockSite &site,
                          const BlockVariant &variant,
                          const MoveOptions &options) {
  return block(game, site, variant, options);
}

bool heuristic::relayoutForLanes(Game &game, const MoveOptions &options) {
  bool changed = false;
  // Later sites first: staging renames the leaves of earlier ones' arrays
  // less often than the other way round; each site is found afresh.
  std::vector<BlockSite> sites = findSites(game.getKernel(), options);
  for (const BlockSite &site : llvm::reverse(sites))
    if (site.width == 1 || site.laneMain != site.sizes[site.lane])
      changed |= relayout(game, site, options);
  return changed;
}

bool heuristic::joinsRegisterTiles(Game &game, const MoveRequest &join) {
  return joinsTiles(game, join);
}

bool heuristic::swapsRegisterTileReduction(Game &game,
                                           const MoveRequest &swap) {
  return swapsTileReduction(game, swap);
}
