//===- GpuSharedTiles.cpp - block-shared tiles of the GPU expert pass -----===//
//
// Rule 1s of the GPU expert pass (GpuSharedTiles.h). For a nest at depths
// 0..p-1 (batch), p (rows, M), p+1 (columns, N), p+2 (reduction, K), with
// BM x BN outputs per block, TY x TX threads, TM = BM/TY, TN = BN/TX
// outputs per thread and k tiles of BK:
//
//   1. the output is staged around the nest (`stage_region`: c_s,
//      initialized in place, one copy-out nest after);
//   2. the accumulation is tiled i0 j0 i1 j1 i2 j2 (split_scope by BM, TM,
//      BN, TN; swap_nested_scopes), the initialization cut off below
//      i0 j0 (split_off), the reduction split by BK and its outer part
//      moved above the threads: i0 j0 k0 i1 j1 k1 i2 j2;
//   3. the copy-out is tiled the same way and joined into i0 j0, and c_s's
//      dimensions split alike, so each thread coordinate indexes a
//      dimension of its own (each thread owns its accumulators across the
//      barriers of the k loop, Privatization.h);
//   4. each operand's k tile is staged below k0 (`stage_tile`; one the
//      column threads would read across its rows transposed by
//      `swap_dims`), its copy nest split onto the TY x TX threads (rows
//      over TY, the source's contiguous dimension over TX, 128-bit vectors
//      where they divide);
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

/// A GEMM-like nest: its output array, the ordinal of its initialization
/// among the array's writers, the batch depth p, the extents, and the
/// depth each dimension of the output is indexed by (a permutation: the
/// partials of a reduction split across blocks hold the slice last).
struct Site {
  std::string array;
  unsigned initOrdinal = 0;
  unsigned batch = 0;
  int64_t rows = 0, cols = 0, terms = 0;
  llvm::SmallVector<unsigned> indexDepths;
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

/// The site of reduction leaf `leaf`, if it is one (see GpuSharedTiles.h).
std::optional<Site> matchSite(KernelOp kernel, LeafOp leaf) {
  if (leaf.getReduce() == ReduceKind::none)
    return std::nullopt;
  llvm::SmallVector<ScopeOp, 8> scopes = getEnclosingScopes(leaf);
  unsigned depth = scopes.size();
  if (depth < 3 || !llvm::isa<KernelOp>(scopes.front()->getParentOp()) ||
      llvm::any_of(scopes, [](ScopeOp s) { return s.getMode() != Mode::seq; }))
    return std::nullopt;
  // The output indexed by the scopes above the one reduction scope, each
  // once, bare.
  unsigned r = depth - 1;
  llvm::SmallVector<unsigned> indexDepths =
      getIndexDepths(leaf.getIndices(), r);
  if (indexDepths.empty() || !llvm::hasSingleElement(scopes[r].getBlock()))
    return std::nullopt;
  for (unsigned d = 0; d + 1 < r; ++d)
    if (!llvm::hasSingleElement(scopes[d].getBlock()))
      return std::nullopt;
  // The column scope holds the initialization, then the reduction scope.
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
  site.batch = r - 2;
  site.rows = scopes[r - 2].getSize();
  site.cols = scopes[r - 1].getSize();
  site.terms = scopes[r].getSize();
  site.indexDepths = std::move(indexDepths);
  return site;
}

/// `ref@depth`.
std::string at(const std::string &ref, unsigned depth) {
  return ref + "@" + std::to_string(depth);
}

/// `array#ordinal`.
std::string writer(llvm::StringRef array, unsigned ordinal) {
  return (array + "#" + llvm::Twine(ordinal)).str();
}

/// Applies rule 1s's moves to `site`; false at the first illegal one (the
/// caller undoes the moves applied).
bool tileSite(Game &game, const TargetDescription &target, const Site &site,
              const SharedTileShape &shape) {
  auto apply = [&](MoveKind kind, const std::string &location,
                   llvm::ArrayRef<int64_t> params = {}) {
    return tryApply(game, makeMove(kind, location, params));
  };
  auto locate = [&](const std::string &buffer, BufferLocation location) {
    return apply(MoveKind::SetLocation, buffer,
                 {static_cast<int64_t>(location)});
  };
  const unsigned p = site.batch;
  const int64_t bm = shape.rows, bn = shape.cols;
  const int64_t tm = bm / shape.threadsY, tn = bn / shape.threadsX;

  // 1. The output staged on the heap around the nest (its size is the
  // output's; only the threads' own elements are allocated in the end).
  llvm::StringSet<> before = getBufferNames(game.getKernel());
  std::string init = writer(site.array, site.initOrdinal);
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
  // move exchanging positions k and k+1 (a bubble sort).
  auto sortByDepth = [&](llvm::function_ref<MoveRequest(size_t)> swapAt) {
    llvm::SmallVector<unsigned> order = site.indexDepths;
    for (size_t pass = 0; pass < order.size(); ++pass)
      for (size_t k = 0; k + 1 < order.size(); ++k)
        if (order[k] > order[k + 1]) {
          if (!tryApply(game, swapAt(k)))
            return false;
          std::swap(order[k], order[k + 1]);
        }
    return true;
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

  // Splits rows and columns of the nest of `ref` into i0 j0 i1 j1 i2 j2.
  auto tileOutputs = [&](const std::string &ref) {
    return apply(MoveKind::SplitScope, at(ref, p), {bm}) &&
           apply(MoveKind::SplitScope, at(ref, p + 1), {tm}) &&
           apply(MoveKind::SplitScope, at(ref, p + 3), {bn}) &&
           apply(MoveKind::SplitScope, at(ref, p + 4), {tn}) &&
           apply(MoveKind::SwapNestedScopes, at(ref, p + 2)) &&
           apply(MoveKind::SwapNestedScopes, at(ref, p + 1)) &&
           apply(MoveKind::SwapNestedScopes, at(ref, p + 3));
  };
  // 2. The accumulation tiled; the initialization cut off below i0 j0; the
  // reduction's k tiles above the threads, its steps above i2 j2.
  if (!tileOutputs(sAcc))
    return false;
  for (unsigned d = p + 5; d >= p + 2; --d)
    if (!apply(MoveKind::SplitOff, at(sInit, d)))
      return false;
  if (!apply(MoveKind::SplitScope, at(sAcc, p + 6), {shape.k}))
    return false;
  for (unsigned d = p + 5; d >= p + 2; --d)
    if (!apply(MoveKind::SwapNestedScopes, at(sAcc, d)))
      return false;
  if (!apply(MoveKind::SwapNestedScopes, at(sAcc, p + 6)) ||
      !apply(MoveKind::SwapNestedScopes, at(sAcc, p + 5)))
    return false;

  // 3. The copy-out tiled alike and joined; c_s split alike.
  if (!tileOutputs(copyOut))
    return false;
  for (unsigned d = 0; d <= p + 1; ++d)
    if (!apply(MoveKind::JoinScopes, at(sInit, d)))
      return false;
  const std::string dim = staged + ".";
  if (!apply(MoveKind::SplitDim, dim + std::to_string(p), {bm}) ||
      !apply(MoveKind::SplitDim, dim + std::to_string(p + 1), {tm}) ||
      !apply(MoveKind::SplitDim, dim + std::to_string(p + 3), {bn}) ||
      !apply(MoveKind::SplitDim, dim + std::to_string(p + 4), {tn}))
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
  llvm::SmallVector<std::string> tiles;
  for (const std::string &operand : operands) {
    before = getBufferNames(game.getKernel());
    if (!apply(MoveKind::StageTile, operand + "," + at(sAcc, p + 3),
               {static_cast<int64_t>(BufferLocation::stack)}))
      return false;
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
  for (mlir::Attribute input : accumulate.getInputs()) {
    auto access = llvm::dyn_cast<AccessAttr>(input);
    if (!access || !llvm::is_contained(tiles, access.getArray().getValue()))
      continue;
    mlir::AffineMap map = access.getIndices();
    unsigned rank = map.getNumResults();
    for (unsigned d = 0; d + 1 < rank; ++d) {
      if (!map.getResult(d).isFunctionOfDim(p + 7))
        continue;
      for (unsigned k = d; k + 1 < rank; ++k)
        if (!apply(MoveKind::SwapDims,
                   access.getArray().str() + "." + std::to_string(k)))
          return false;
      break;
    }
  }
  // Each tile's copy nest onto the block: its second-to-last scope split by
  // TY, its last (the source's contiguous dimension) by TX (times W lanes
  // of a 128-bit vector where they divide), the TY threads moved next to
  // the TX ones.
  struct CopyThreads {
    std::string tile;
    unsigned rowThreads, columnThreads; ///< depths of the `:b` scopes
    bool vector;
  };
  llvm::SmallVector<CopyThreads> copies;
  for (const std::string &tile : tiles) {
    BufferOp buffer = game.getKernel().lookupArray(tile);
    unsigned rank = buffer.getRank();
    auto copyLeaf = llvm::dyn_cast_or_null<LeafOp>(
        findNode(game.getKernel(), writer(tile, 0)));
    if (!copyLeaf)
      return false;
    llvm::SmallVector<ScopeOp, 8> copyScopes = getEnclosingScopes(copyLeaf);
    if (rank < 2 || copyScopes.size() != p + 3 + rank)
      return false;
    int64_t e0 = copyScopes[p + 3 + rank - 2].getSize();
    int64_t e1 = copyScopes[p + 3 + rank - 1].getSize();
    int64_t lanes = target.getVectorLanes(buffer.getElementType());
    int64_t ty = shape.threadsY, tx = shape.threadsX;
    bool vector = lanes > 1 && e1 % (tx * lanes) == 0;
    int64_t run = vector ? tx * lanes : tx;
    if (e0 % ty != 0 || e1 % run != 0)
      return false;
    // The copy nest sits below the scopes of depths < p+3 that hold it.
    const std::string copy = writer(tile, 0);
    unsigned rowDepth = p + 3 + rank - 2;
    bool splitRows = e0 > ty, splitColumns = e1 > run;
    if (splitRows && !apply(MoveKind::SplitScope, at(copy, rowDepth), {ty}))
      return false;
    unsigned rowThreads = rowDepth + splitRows;
    unsigned columnDepth = rowThreads + 1;
    if (splitColumns &&
        !apply(MoveKind::SplitScope, at(copy, columnDepth), {run}))
      return false;
    unsigned columnThreads = columnDepth + splitColumns;
    if (vector &&
        !apply(MoveKind::SplitScope, at(copy, columnThreads), {lanes}))
      return false;
    // rows/TY, TY, columns/run, TX -> rows/TY, columns/run, TY, TX.
    if (splitColumns) {
      if (!apply(MoveKind::SwapNestedScopes, at(copy, rowThreads)))
        return false;
      rowThreads += 1;
    }
    copies.push_back({tile, rowThreads, rowThreads + 1, vector});
  }

  // 5. Locations and modes.
  for (const std::string &tile : tiles)
    if (!locate(tile, BufferLocation::gpu_local))
      return false;
  if (!locate(staged, BufferLocation::gpu_local))
    return false;
  for (unsigned d = 0; d <= p + 1; ++d)
    if (!apply(MoveKind::SetGpuGrid, at(sInit, d)))
      return false;
  for (const std::string &tile : tiles)
    if (!locate(tile, BufferLocation::gpu_shared))
      return false;
  // The per-thread j2 scope: a vector where it is one, else unrolled.
  auto setLanes = [&](const std::string &location) {
    return apply(MoveKind::SetVector, location) ||
           apply(MoveKind::SetUnroll, location);
  };
  // The initialization and the copy-out: i1 j1 threads, i2 j2 per thread.
  for (const std::string &ref : {sInit, copyOut})
    if (!apply(MoveKind::SetGpuBlock, at(ref, p + 2)) ||
        !apply(MoveKind::SetGpuBlock, at(ref, p + 3)) ||
        !apply(MoveKind::SetUnroll, at(ref, p + 4)) || !setLanes(at(ref, p + 5)))
      return false;
  // The accumulation: k0, i1 j1 threads, k1 i2 j2 unrolled per thread.
  if (!apply(MoveKind::SetGpuBlock, at(sAcc, p + 3)) ||
      !apply(MoveKind::SetGpuBlock, at(sAcc, p + 4)) ||
      !apply(MoveKind::SetUnroll, at(sAcc, p + 5)) ||
      !apply(MoveKind::SetUnroll, at(sAcc, p + 6)) || !setLanes(at(sAcc, p + 7)))
    return false;
  for (const CopyThreads &copy : copies) {
    const std::string ref = writer(copy.tile, 0);
    if (!apply(MoveKind::SetGpuBlock, at(ref, copy.rowThreads)) ||
        !apply(MoveKind::SetGpuBlock, at(ref, copy.columnThreads)) ||
        (copy.vector && !setLanes(at(ref, copy.columnThreads + 1))))
      return false;
  }
  // c_s's grid dimensions (batch, i0, j0; the last first, so the numbers of
  // the others stay): one block's accumulators per thread.
  llvm::SmallVector<unsigned> gridDims = {p + 3, p};
  for (unsigned d = p; d-- > 0;)
    gridDims.push_back(d);
  for (unsigned d : gridDims)
    if (!apply(MoveKind::ReuseDims, dim + std::to_string(d)))
      return false;
  return true;
}

} // namespace

unsigned perfdojo::gpu_rules::tileInSharedMemory(
    Game &game, const TargetDescription &target, const SharedTileShape &shape) {
  if (!shape.isSet() || shape.rows % shape.threadsY != 0 ||
      shape.cols % shape.threadsX != 0 || shape.rows / shape.threadsY < 2 ||
      shape.cols / shape.threadsX < 2 || shape.k < 2)
    return 0;
  unsigned mapped = 0;
  llvm::StringSet<> tried;
  while (true) {
    std::optional<Site> site;
    game.getKernel().walk([&](LeafOp leaf) {
      if (site)
        return;
      std::optional<Site> match = matchSite(game.getKernel(), leaf);
      // Whole tiles only, at least two of each along every dimension.
      if (match && !tried.contains(writer(match->array, match->initOrdinal)) &&
          match->rows % shape.rows == 0 && match->rows > shape.rows &&
          match->cols % shape.cols == 0 && match->cols > shape.cols &&
          match->terms % shape.k == 0 && match->terms > shape.k)
        site = match;
    });
    if (!site)
      return mapped;
    tried.insert(writer(site->array, site->initOrdinal));
    size_t history = game.history().size();
    if (tileSite(game, target, *site, shape)) {
      ++mapped;
      continue;
    }
    while (game.history().size() > history)
      game.undo();
  }
}
