//===- GpuSharedTiles.cpp - block-shared tiles of the GPU expert pass -----===//
//
// Rule 1s of the GPU expert pass (GpuSharedTiles.h). A site is a top-level
// perfect nest of output scopes (each indexing the output once) holding
// the output's initialization and then its reduction scopes: a GEMM
// (`i j | k`), a batched GEMM, a convolution (`n co h w | ci r s`). Its
// innermost output scope is the columns; the rows are the innermost other
// output scope indexing an operand the columns do not (co of a
// convolution, i of a GEMM), moved next to the columns; the scopes above
// are the batch (depths 0..p-1, the grid). The first reduction scope (K)
// is split into k tiles, the others (a convolution's window) stay inside
// each thread's k step. With BM x BN outputs per block, TY x TX threads,
// TM = BM/TY, TN = BN/TX outputs per thread and k tiles of BK (a size
// equal to the whole dimension leaves that dimension unsplit):
//
//   1. the output is staged around the nest (`stage_region`: c_s,
//      initialized in place, one copy-out nest after);
//   2. the accumulation is tiled i0 j0 i1 j1 i2 j2 (split_scope,
//      swap_nested_scopes), the initialization cut off below i0 j0
//      (split_off), the reduction split by BK and its outer part moved
//      above the threads: i0 j0 k0 i1 j1 k1 [window] i2 j2;
//   3. the copy-out is tiled the same way and joined into i0 j0, and c_s's
//      dimensions split alike, so each thread coordinate indexes a
//      dimension of its own (each thread owns its accumulators across the
//      barriers of the k loop, Privatization.h);
//   4. each operand's k tile is staged below k0 (`stage_tile`, or
//      `stage_region` where the tile is the whole operand; with the
//      halo of a window: BN + S - 1 columns of a convolution's input; one
//      the column threads would read across its rows transposed by
//      `swap_dims`), its copy nest spread over the TY x TX threads: TX
//      over its last scope (the source's contiguous dimension, 128-bit
//      vectors where they divide, a remainder cut off and copied by the
//      TY threads alone) or else the innermost scope TX divides, TY over
//      the innermost other scope TY divides. A tile no such spread fits
//      is unstaged again and read from global memory;
//   5. locations and modes in the order that keeps every step legal: the
//      tiles and c_s in `gpu_local`, the batch scopes and i0 j0 `:g`, the
//      tiles in `gpu_shared`, then `:b` on the threads of every phase, `:u`
//      and `:v` on the per-thread scopes, and c_s's grid dimensions reused.
//
// Every step is a legal move (tryApply); the first illegal one undoes the
// nest's moves. test/Moves/Inputs/stage-tile/ holds the same recipe, by
// hand, on a 16x16x16 GEMM.
//
//===----------------------------------------------------------------------===//

#include "GpuSharedTiles.h"
#include "MoveRules.h"

#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"

#include "llvm/ADT/StringSet.h"

using namespace perfdojo;
using namespace perfdojo::dojo;

namespace {

/// Labels of the scopes of the rule's nests; the batch scopes and the
/// scopes around a copy nest keep their depth as label.
enum Label : int {
  kRows0 = 1000,
  kRows1,
  kRows2,
  kCols0,
  kCols1,
  kCols2,
  kTerms0,
  kTerms1,
  kCopyY,
  kCopyX,
  kCopyLanes,
  kInner = 2000, ///< + m: the m-th reduction scope inside the first
  kCopy = 3000,  ///< + j: the scope of a copy nest over tile dimension j
};

/// A site: its output array, the ordinal of its initialization among the
/// array's writers, the output scopes (r of them: rows at depth rowsDepth,
/// columns at r-1), the reduction scopes inside the first, the extents,
/// and the depth each dimension of the output is indexed by.
struct Site {
  std::string array;
  unsigned initOrdinal = 0;
  unsigned outputs = 0, rowsDepth = 0, inner = 0;
  int64_t rows = 0, cols = 0, terms = 0;
  llvm::SmallVector<unsigned> indexDepths;
};

/// The block's tile of a site: TY x TX threads, BM x BN outputs, TM x TN
/// per thread, k tiles of BK.
struct TileFit {
  int64_t ty = 0, tx = 0, bm = 0, tm = 0, bn = 0, tn = 0, bk = 0;
};

/// The position of `leaf` among the leaves writing its array, in text order.
unsigned getWriterOrdinal(KernelOp kernel, LeafOp leaf) {
  unsigned ordinal = 0;
  bool found = false;
  kernel.walk([&](LeafOp other) {
    if (found || other == leaf) {
      found = true;
      return;
    }
    ordinal += other.getArray() == leaf.getArray();
  });
  return ordinal;
}

/// The depth each index of `map` is, where `map` (of a leaf at depth
/// `depth`) indexes with every variable of the scopes above it once, bare
/// (`{2}, {0}, {1}`); empty otherwise.
llvm::SmallVector<unsigned> getIndexDepths(mlir::AffineMap map,
                                           unsigned depth) {
  llvm::SmallVector<unsigned> depths;
  if (map.getNumResults() != depth)
    return {};
  for (mlir::AffineExpr result : map.getResults()) {
    auto dim = llvm::dyn_cast<mlir::AffineDimExpr>(result);
    if (!dim || dim.getPosition() >= depth ||
        llvm::is_contained(depths, dim.getPosition()))
      return {};
    depths.push_back(dim.getPosition());
  }
  return depths;
}

/// The operands of `leaf` some index of which uses the variable `{depth}`.
llvm::StringSet<> getOperandsUsing(LeafOp leaf, unsigned depth) {
  llvm::StringSet<> names;
  for (mlir::Attribute input : leaf.getInputs())
    if (auto access = llvm::dyn_cast<AccessAttr>(input))
      if (usesDepth(access.getIndices(), depth))
        names.insert(access.getArray().getValue());
  return names;
}

/// The site of reduction leaf `leaf`, if it is one (see the file comment).
std::optional<Site> matchSite(KernelOp kernel, LeafOp leaf) {
  if (leaf.getReduce() == ReduceKind::none)
    return std::nullopt;
  llvm::SmallVector<ScopeOp, 8> scopes = getEnclosingScopes(leaf);
  unsigned depth = scopes.size();
  unsigned r = leaf.getIndices().getNumResults();
  if (r < 2 || r >= depth ||
      !llvm::isa<KernelOp>(scopes.front()->getParentOp()) ||
      llvm::any_of(scopes, [](ScopeOp s) { return s.getMode() != Mode::seq; }))
    return std::nullopt;
  // The output indexed by the output scopes, each once, bare; a perfect
  // nest but for the columns, which hold the initialization and then the
  // reduction scopes.
  llvm::SmallVector<unsigned> indexDepths =
      getIndexDepths(leaf.getIndices(), r);
  if (indexDepths.empty())
    return std::nullopt;
  for (unsigned d = 0; d < depth; ++d)
    if (d + 1 != r && !llvm::hasSingleElement(scopes[d].getBlock()))
      return std::nullopt;
  mlir::Block &columns = scopes[r - 1].getBlock();
  auto init = llvm::dyn_cast<LeafOp>(columns.front());
  if (std::distance(columns.begin(), columns.end()) != 2 || !init ||
      init.getReduce() != ReduceKind::none ||
      init.getArray() != leaf.getArray() ||
      init.getIndices() != leaf.getIndices() ||
      init->getNextNode() != scopes[r].getOperation())
    return std::nullopt;
  Site site;
  site.array = leaf.getArray().str();
  site.initOrdinal = getWriterOrdinal(kernel, init);
  site.outputs = r;
  site.inner = depth - r - 1;
  // The rows: the innermost output scope that indexes an operand the
  // columns do not index and none they do (each block's tile of such an
  // operand then serves all its columns), else the one above the columns.
  llvm::StringSet<> columnOperands = getOperandsUsing(leaf, r - 1);
  site.rowsDepth = r - 2;
  for (unsigned d = r - 1; d-- > 0;) {
    llvm::StringSet<> operands = getOperandsUsing(leaf, d);
    if (!operands.empty() &&
        llvm::none_of(operands.keys(), [&](llvm::StringRef name) {
          return columnOperands.contains(name);
        })) {
      site.rowsDepth = d;
      break;
    }
  }
  site.rows = scopes[site.rowsDepth].getSize();
  site.cols = scopes[r - 1].getSize();
  site.terms = scopes[r].getSize();
  site.indexDepths = std::move(indexDepths);
  return site;
}

/// The block's tile of `site` for `shape`, if `shape` fits it: a
/// dimension is split into blocks of the shape's size where that divides
/// it, or kept whole where it is smaller than a block, on the largest
/// number of threads up to the shape's that divides it (a convolution's
/// 54 columns on 9 threads of 6); at least a warp of 32 threads in all.
/// The k tile is the largest divisor of the terms up to the shape's.
std::optional<TileFit> fitTile(const Site &site, const SharedTileShape &shape) {
  struct Dim {
    int64_t block, threads;
  };
  auto fit = [](int64_t size, int64_t block,
                int64_t threads) -> std::optional<Dim> {
    if (size % block == 0)
      return Dim{block, threads};
    if (size > block)
      return std::nullopt;
    while (size % threads != 0)
      --threads;
    return Dim{size, threads};
  };
  std::optional<Dim> rows = fit(site.rows, shape.rows, shape.threadsY);
  std::optional<Dim> cols = fit(site.cols, shape.cols, shape.threadsX);
  if (!rows || !cols || rows->threads * cols->threads < 32)
    return std::nullopt;
  TileFit tile;
  tile.ty = rows->threads;
  tile.tx = cols->threads;
  tile.bm = rows->block;
  tile.tm = rows->block / rows->threads;
  tile.bn = cols->block;
  tile.tn = cols->block / cols->threads;
  tile.bk = std::min(site.terms, shape.k);
  while (site.terms % tile.bk != 0)
    --tile.bk;
  return tile;
}

/// `ref@depth`.
std::string at(const std::string &ref, unsigned depth) {
  return ref + "@" + std::to_string(depth);
}

/// `array#ordinal`.
std::string writer(llvm::StringRef array, unsigned ordinal) {
  return (array + "#" + llvm::Twine(ordinal)).str();
}

/// Sorts positions by `ranks` (a bubble sort: ties keep their order),
/// `swap(k)` exchanging positions k and k+1 (a move); false when a swap
/// fails.
bool sortBySwaps(llvm::SmallVector<int64_t> ranks,
                 llvm::function_ref<bool(size_t)> swap) {
  for (size_t pass = 0; pass < ranks.size(); ++pass)
    for (size_t k = 0; k + 1 < ranks.size(); ++k)
      if (ranks[k] > ranks[k + 1]) {
        if (!swap(k))
          return false;
        std::swap(ranks[k], ranks[k + 1]);
      }
  return true;
}

/// A perfect nest of the rule's program, named by a leaf below it, with a
/// label per depth so that the moves can name its scopes as they split
/// and reorder.
class LabeledNest {
public:
  LabeledNest(Game &game, std::string leaf, llvm::SmallVector<int> labels)
      : game(game), leaf(std::move(leaf)), labels(std::move(labels)) {}

  bool has(int label) const { return llvm::is_contained(labels, label); }
  unsigned depth(int label) const {
    return llvm::find(labels, label) - labels.begin();
  }
  std::string at(int label) const { return ::at(leaf, depth(label)); }
  llvm::ArrayRef<int> getLabels() const { return labels; }

  bool apply(MoveKind kind, int label, llvm::ArrayRef<int64_t> params = {}) {
    return tryApply(game, makeMove(kind, at(label), params));
  }
  void relabel(int from, int to) { labels[depth(from)] = to; }
  /// Splits the scope `label` by `factor`; the inner part is `inner`.
  bool split(int label, int64_t factor, int inner) {
    unsigned d = depth(label);
    if (!apply(MoveKind::SplitScope, label, {factor}))
      return false;
    labels.insert(labels.begin() + d + 1, inner);
    return true;
  }
  /// Reorders the scopes by their rank in `order` (labels not in it keep
  /// their place relative to each other, ranked first), swapping
  /// neighbours only.
  bool arrange(llvm::ArrayRef<int> order) {
    llvm::SmallVector<int64_t> ranks;
    for (int label : labels) {
      auto it = llvm::find(order, label);
      ranks.push_back(it == order.end() ? -1 : it - order.begin());
    }
    return sortBySwaps(ranks, [&](size_t k) {
      if (!tryApply(game, makeMove(MoveKind::SwapNestedScopes, ::at(leaf, k))))
        return false;
      std::swap(labels[k], labels[k + 1]);
      return true;
    });
  }

private:
  Game &game;
  std::string leaf;
  llvm::SmallVector<int> labels;
};

/// Where a tile's copy runs on the block: the depths of its `:b` scopes
/// (the TX one absent for a remainder the TY threads copy alone) and of
/// its vector lanes, in the nest of its writer `ref`.
struct CopyThreads {
  std::string ref;
  unsigned rowThreads = 0;
  std::optional<unsigned> columnThreads, lanes;
};

/// Spreads the copy nest of `copy` (tile dimension scopes below `prefix`)
/// over TY x TX threads as the file comment says; `spreadX` false copies
/// along X on the TY threads alone (a remainder narrower than TX).
std::optional<CopyThreads> spreadCopy(Game &game, const std::string &copy,
                                      llvm::ArrayRef<int> prefix,
                                      unsigned x, unsigned y, bool spreadX,
                                      int64_t ty, int64_t tx, int64_t lanes) {
  auto copyLeaf =
      llvm::dyn_cast_or_null<LeafOp>(findNode(game.getKernel(), copy));
  if (!copyLeaf)
    return std::nullopt;
  llvm::SmallVector<ScopeOp, 8> scopes = getEnclosingScopes(copyLeaf);
  llvm::SmallVector<int> labels(prefix);
  for (unsigned j = prefix.size(); j < scopes.size(); ++j)
    labels.push_back(kCopy + j - prefix.size());
  LabeledNest nest(game, copy, labels);
  int64_t ey = scopes[prefix.size() + y].getSize();
  int64_t ex = scopes[prefix.size() + x].getSize();
  if (ey > ty) {
    if (!nest.split(kCopy + y, ty, kCopyY))
      return std::nullopt;
  } else {
    nest.relabel(kCopy + y, kCopyY);
  }
  llvm::SmallVector<int> order = {kCopyY};
  bool vector = false;
  if (spreadX) {
    vector = lanes > 1 && ex % (tx * lanes) == 0;
    int64_t run = vector ? tx * lanes : tx;
    if (ex > run) {
      if (!nest.split(kCopy + x, run, kCopyX))
        return std::nullopt;
    } else {
      nest.relabel(kCopy + x, kCopyX);
    }
    if (vector && !nest.split(kCopyX, lanes, kCopyLanes))
      return std::nullopt;
    order.append({kCopyX, kCopyLanes});
  } else {
    order.push_back(kCopy + x);
  }
  if (!nest.arrange(order))
    return std::nullopt;
  CopyThreads threads;
  threads.ref = copy;
  threads.rowThreads = nest.depth(kCopyY);
  if (spreadX)
    threads.columnThreads = nest.depth(kCopyX);
  if (vector)
    threads.lanes = nest.depth(kCopyLanes);
  return threads;
}

/// Spreads the copy of `tile` (its writer's nest below the scopes
/// `prefix` of the accumulation) over the block, or returns nothing when
/// no spread fits (then nothing was changed, or the caller undoes it).
std::optional<llvm::SmallVector<CopyThreads, 2>>
spreadTileCopy(Game &game, const TargetDescription &target,
               const std::string &tile, llvm::ArrayRef<int> prefix,
               int64_t ty, int64_t tx) {
  BufferOp buffer = game.getKernel().lookupArray(tile);
  auto copyLeaf = llvm::dyn_cast_or_null<LeafOp>(
      findNode(game.getKernel(), writer(tile, 0)));
  if (!buffer || !copyLeaf)
    return std::nullopt;
  llvm::SmallVector<ScopeOp, 8> scopes = getEnclosingScopes(copyLeaf);
  unsigned rank = scopes.size() - prefix.size();
  if (rank < 2 || rank != buffer.getRank())
    return std::nullopt;
  llvm::SmallVector<int64_t> extents;
  for (unsigned j = 0; j < rank; ++j)
    extents.push_back(scopes[prefix.size() + j].getSize());
  // X: the last scope where TX threads fill it (a remainder cut off),
  // else the innermost scope TX divides; Y: the innermost other scope TY
  // divides.
  std::optional<unsigned> x, y;
  if (extents.back() >= tx)
    x = rank - 1;
  for (unsigned j = rank; !x && j-- > 0;)
    if (extents[j] % tx == 0)
      x = j;
  for (unsigned j = rank; x && !y && j-- > 0;)
    if (j != *x && extents[j] % ty == 0)
      y = j;
  if (!x || !y)
    return std::nullopt;
  // Vectors along the source's contiguous dimension only, where they leave
  // no larger remainder than single words.
  int64_t lanes = *x + 1 == rank
                      ? target.getVectorLanes(buffer.getElementType())
                      : 1;
  int64_t extent = extents[*x];
  if (lanes > 1 && (extent < tx * lanes || extent % (tx * lanes) > extent % tx))
    lanes = 1;
  int64_t run = tx * lanes;
  int64_t main = extent / run * run;
  llvm::SmallVector<CopyThreads, 2> copies;
  if (main != extents[*x]) {
    // The remainder cut off into a nest of its own after the main part.
    unsigned d = prefix.size() + *x;
    if (!tryApply(game, makeMove(MoveKind::CutScope, at(writer(tile, 0), d),
                                 {main})))
      return std::nullopt;
    for (unsigned k = d; k-- > prefix.size();)
      if (!tryApply(game,
                    makeMove(MoveKind::SplitOff, at(writer(tile, 0), k))))
        return std::nullopt;
    std::optional<CopyThreads> rest = spreadCopy(
        game, writer(tile, 1), prefix, *x, *y, false, ty, tx, lanes);
    if (!rest)
      return std::nullopt;
    copies.push_back(*rest);
  }
  std::optional<CopyThreads> body =
      spreadCopy(game, writer(tile, 0), prefix, *x, *y, true, ty, tx, lanes);
  if (!body)
    return std::nullopt;
  copies.push_back(*body);
  return copies;
}

/// Applies rule 1s's moves to `site`; false at the first illegal one (the
/// caller undoes the moves applied).
bool tileSite(Game &game, const TargetDescription &target, Site site,
              const TileFit &fit) {
  auto apply = [&](MoveKind kind, const std::string &location,
                   llvm::ArrayRef<int64_t> params = {}) {
    return tryApply(game, makeMove(kind, location, params));
  };
  auto locate = [&](const std::string &buffer, BufferLocation location) {
    return apply(MoveKind::SetLocation, buffer,
                 {static_cast<int64_t>(location)});
  };
  std::string init = writer(site.array, site.initOrdinal);
  const unsigned p = site.outputs - 2;
  // 0. The rows next to the columns.
  for (unsigned d = site.rowsDepth; d < p; ++d)
    if (!apply(MoveKind::SwapNestedScopes, at(init, d)))
      return false;
  if (site.rowsDepth != p) {
    auto leaf = llvm::dyn_cast_or_null<LeafOp>(findNode(
        game.getKernel(), writer(site.array, site.initOrdinal + 1)));
    std::optional<Site> moved =
        leaf ? matchSite(game.getKernel(), leaf) : std::nullopt;
    if (!moved || moved->rowsDepth != p)
      return false;
    site = *moved;
  }
  const bool rowBlocks = fit.bm < site.rows, colBlocks = fit.bn < site.cols;
  const bool kTiles = fit.bk < site.terms;
  // The grid: the batch scopes, i0 and j0 (one block in all is no launch
  // worth tiling).
  const unsigned grid = p + rowBlocks + colBlocks;
  if (grid == 0)
    return false;

  // 1. The output staged on the heap around the nest (its size is the
  // output's; only the threads' own elements are allocated in the end).
  llvm::StringSet<> before = getBufferNames(game.getKernel());
  if (!apply(MoveKind::StageRegion, site.array + "," + at(init, 0),
             {static_cast<int64_t>(BufferLocation::heap)}))
    return false;
  std::string staged = getNewBuffer(game.getKernel(), before);
  if (staged.empty())
    return false;
  const std::string sInit = writer(staged, 0), sAcc = writer(staged, 1);
  // The copy-out took the initialization's place among the output's writers.
  const std::string copyOut = init;
  // Sorts positions 0..r-1 by the depth indexing them with `swapAt(k)`, a
  // move exchanging positions k and k+1.
  auto sortByDepth = [&](llvm::function_ref<MoveRequest(size_t)> swapAt) {
    return sortBySwaps(llvm::SmallVector<int64_t>(site.indexDepths.begin(),
                                                  site.indexDepths.end()),
                       [&](size_t k) { return tryApply(game, swapAt(k)); });
  };
  // The copy's dimensions, and the copy-out's scopes (which follow the
  // output's dimensions; its iterations are independent), in the nest's
  // order.
  if (!sortByDepth([&](size_t k) {
        return makeMove(MoveKind::SwapDims, staged + "." + std::to_string(k));
      }) ||
      !sortByDepth([&](size_t k) {
        return makeMove(MoveKind::SwapNestedScopes, at(copyOut, k));
      }))
    return false;

  llvm::SmallVector<int> outputLabels;
  for (unsigned d = 0; d < p; ++d)
    outputLabels.push_back(d);
  outputLabels.append({kRows0, kCols0});
  // The tiled order of the outputs: batch, i0 j0 (the grid), i1 j1 (the
  // threads), i2 j2 (each thread's).
  llvm::SmallVector<int> tiledOrder(outputLabels.begin(),
                                    outputLabels.end() - 2);
  tiledOrder.append({kRows0, kCols0, kRows1, kCols1, kRows2, kCols2});
  // Splits rows and columns of `nest` into i0 j0 i1 j1 i2 j2 (the parts
  // of size 1 left out).
  auto tileOutputs = [&](LabeledNest &nest) {
    auto tileDim = [&](int outer, int threads, int inner, bool blocks,
                       int64_t block, int64_t perThread) {
      if (blocks) {
        if (!nest.split(outer, block, threads))
          return false;
      } else {
        nest.relabel(outer, threads);
      }
      return perThread == 1 || nest.split(threads, perThread, inner);
    };
    if (!tileDim(kRows0, kRows1, kRows2, rowBlocks, fit.bm, fit.tm) ||
        !tileDim(kCols0, kCols1, kCols2, colBlocks, fit.bn, fit.tn))
      return false;
    // The scopes below the outputs (the reduction's) stay below them.
    llvm::SmallVector<int> order(tiledOrder);
    for (int label : nest.getLabels())
      if (!llvm::is_contained(order, label))
        order.push_back(label);
    return nest.arrange(order);
  };
  // 2. The accumulation tiled; the initialization cut off below the grid;
  // the reduction's k tiles above the threads, its steps (and the other
  // reduction scopes) above i2 j2.
  llvm::SmallVector<int> accLabels(outputLabels);
  accLabels.push_back(kTerms0);
  for (unsigned m = 0; m < site.inner; ++m)
    accLabels.push_back(kInner + m);
  LabeledNest acc(game, sAcc, accLabels);
  if (!tileOutputs(acc))
    return false;
  const unsigned tiledOutputs = acc.depth(kTerms0);
  for (unsigned d = tiledOutputs; d-- > grid;)
    if (!apply(MoveKind::SplitOff, at(sInit, d)))
      return false;
  if (kTiles) {
    if (!acc.split(kTerms0, fit.bk, kTerms1))
      return false;
  } else {
    acc.relabel(kTerms0, kTerms1);
  }
  llvm::SmallVector<int> accOrder(tiledOrder.begin(), tiledOrder.end() - 4);
  accOrder.append({kTerms0, kRows1, kCols1, kTerms1});
  for (unsigned m = 0; m < site.inner; ++m)
    accOrder.push_back(kInner + m);
  accOrder.append({kRows2, kCols2});
  if (!acc.arrange(accOrder))
    return false;

  // 3. The copy-out tiled alike and joined; c_s split alike.
  LabeledNest out(game, copyOut, outputLabels);
  if (!tileOutputs(out))
    return false;
  for (unsigned d = 0; d < grid; ++d)
    if (!apply(MoveKind::JoinScopes, at(sInit, d)))
      return false;
  const std::string dim = staged + ".";
  llvm::SmallVector<unsigned> gridDims;
  unsigned next = p;
  auto splitDim = [&](bool blocks, int64_t block, int64_t perThread) {
    if (blocks) {
      gridDims.push_back(next);
      if (!apply(MoveKind::SplitDim, dim + std::to_string(next++), {block}))
        return false;
    }
    if (perThread > 1 &&
        !apply(MoveKind::SplitDim, dim + std::to_string(next++), {perThread}))
      return false;
    ++next;
    return true;
  };
  if (!splitDim(rowBlocks, fit.bm, fit.tm) ||
      !splitDim(colBlocks, fit.bn, fit.tn))
    return false;

  // 4. The operands' k tiles, staged at i1 (below k0) on the stack.
  llvm::SmallVector<std::string> operands;
  // The accumulation, re-resolved after each move that rebuilds the tree.
  auto getAccumulation = [&] {
    return llvm::dyn_cast_or_null<LeafOp>(findNode(game.getKernel(), sAcc));
  };
  LeafOp accumulate = getAccumulation();
  if (!accumulate)
    return false;
  for (mlir::Attribute input : accumulate.getInputs())
    if (auto access = llvm::dyn_cast<AccessAttr>(input))
      if (!llvm::is_contained(operands, access.getArray().getValue()))
        operands.push_back(access.getArray().getValue().str());
  // A tile that is the whole operand (whole rows and k in one block) is
  // staged by stage_region; an operand neither move stages stays in
  // global memory. Each tile's inverse, should its copy fit no spread.
  llvm::SmallVector<std::string> tiles;
  llvm::SmallVector<MoveKind> unstage;
  for (const std::string &operand : operands) {
    before = getBufferNames(game.getKernel());
    std::string location = operand + "," + acc.at(kRows1);
    if (apply(MoveKind::StageTile, location,
              {static_cast<int64_t>(BufferLocation::stack)}))
      unstage.push_back(MoveKind::UnstageTile);
    else if (apply(MoveKind::StageRegion, location,
                   {static_cast<int64_t>(BufferLocation::heap)}))
      unstage.push_back(MoveKind::Unstage);
    else
      continue;
    tiles.push_back(getNewBuffer(game.getKernel(), before));
  }
  // A tile the threads of a row read across its rows (b[j, k] of an NT
  // GEMM: each thread's column j2 a row of the tile, 16 or more threads on
  // one bank) is transposed: the dimension the column variables index
  // last (swap_dims), so the row's threads read consecutive words. Its
  // copy then writes across rows, once per element and k tile, where the
  // accumulation reads each element TM times.
  if (!(accumulate = getAccumulation()))
    return false;
  unsigned columnVariable = acc.depth(fit.tn > 1 ? kCols2 : kCols1);
  for (mlir::Attribute input : accumulate.getInputs()) {
    auto access = llvm::dyn_cast<AccessAttr>(input);
    if (!access || !llvm::is_contained(tiles, access.getArray().getValue()))
      continue;
    mlir::AffineMap map = access.getIndices();
    unsigned rank = map.getNumResults();
    for (unsigned d = 0; d + 1 < rank; ++d) {
      if (!map.getResult(d).isFunctionOfDim(columnVariable))
        continue;
      for (unsigned k = d; k + 1 < rank; ++k)
        if (!apply(MoveKind::SwapDims,
                   access.getArray().str() + "." + std::to_string(k)))
          return false;
      break;
    }
  }
  // Each tile's copy nest onto the block; a tile no spread fits is read
  // from global memory again.
  llvm::ArrayRef<int> copyPrefix =
      acc.getLabels().take_front(acc.depth(kRows1));
  llvm::SmallVector<CopyThreads> copies;
  llvm::SmallVector<std::string> shared;
  for (auto [tile, inverse] : llvm::zip(tiles, unstage)) {
    size_t mark = game.history().size();
    std::optional<llvm::SmallVector<CopyThreads, 2>> spread =
        spreadTileCopy(game, target, tile, copyPrefix, fit.ty, fit.tx);
    if (spread) {
      copies.append(*spread);
      shared.push_back(tile);
      continue;
    }
    undoTo(game, mark);
    if (!apply(inverse, tile))
      return false;
  }
  if (shared.empty())
    return false;

  // 5. Locations and modes.
  for (const std::string &tile : shared)
    if (!locate(tile, BufferLocation::gpu_local))
      return false;
  if (!locate(staged, BufferLocation::gpu_local))
    return false;
  for (unsigned d = 0; d < grid; ++d)
    if (!apply(MoveKind::SetGpuGrid, at(sInit, d)))
      return false;
  for (const std::string &tile : shared)
    if (!locate(tile, BufferLocation::gpu_shared))
      return false;
  // A per-thread scope of lanes: a vector where it is one, else unrolled.
  auto setLanes = [&](const std::string &location) {
    return apply(MoveKind::SetVector, location) ||
           apply(MoveKind::SetUnroll, location);
  };
  // Each thread's i2 j2: unrolled and lanes (its accumulators are
  // registers).
  auto setThreads = [&](LabeledNest &nest) {
    return nest.apply(MoveKind::SetGpuBlock, kRows1) &&
           nest.apply(MoveKind::SetGpuBlock, kCols1) &&
           (!nest.has(kRows2) || nest.apply(MoveKind::SetUnroll, kRows2)) &&
           (!nest.has(kCols2) || setLanes(nest.at(kCols2)));
  };
  // The initialization has the copy-out's scopes, the tiled outputs.
  LabeledNest initThreads(game, sInit, llvm::to_vector(out.getLabels()));
  // The accumulation: k0, i1 j1 threads, the innermost reduction step
  // unrolled.
  int innermostTerm = site.inner ? kInner + site.inner - 1 : kTerms1;
  if (!setThreads(initThreads) || !setThreads(out) ||
      !setThreads(acc) || !acc.apply(MoveKind::SetUnroll, innermostTerm))
    return false;
  for (const CopyThreads &copy : copies) {
    if (!apply(MoveKind::SetGpuBlock, at(copy.ref, copy.rowThreads)) ||
        (copy.columnThreads &&
         !apply(MoveKind::SetGpuBlock, at(copy.ref, *copy.columnThreads))) ||
        (copy.lanes && !setLanes(at(copy.ref, *copy.lanes))))
      return false;
  }
  // c_s's grid dimensions (batch, i0, j0; the last first, so the numbers of
  // the others stay): one block's accumulators per thread.
  for (unsigned d = p; d-- > 0;)
    gridDims.insert(gridDims.begin(), d);
  for (unsigned d : llvm::reverse(gridDims))
    if (!apply(MoveKind::ReuseDims, dim + std::to_string(d)))
      return false;
  return true;
}

} // namespace

unsigned perfdojo::gpu_rules::tileInSharedMemory(
    Game &game, const TargetDescription &target, const SharedTileShape &shape) {
  if (!shape.isSet() || shape.rows % shape.threadsY != 0 ||
      shape.cols % shape.threadsX != 0 || shape.k < 1)
    return 0;
  unsigned mapped = 0;
  llvm::StringSet<> tried;
  while (true) {
    std::optional<Site> site;
    std::optional<TileFit> fit;
    game.getKernel().walk([&](LeafOp leaf) {
      if (site)
        return;
      std::optional<Site> match = matchSite(game.getKernel(), leaf);
      if (!match || tried.contains(writer(match->array, match->initOrdinal)))
        return;
      if ((fit = fitTile(*match, shape)))
        site = match;
    });
    if (!site)
      return mapped;
    tried.insert(writer(site->array, site->initOrdinal));
    size_t history = game.history().size();
    if (tileSite(game, target, *site, *fit)) {
      ++mapped;
      continue;
    }
    while (game.history().size() > history)
      game.undo();
  }
}
