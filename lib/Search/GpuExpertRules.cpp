//===- GpuExpertRules.cpp - the GPU expert pass ---------------------------===//

#include "perfdojo/Search/GpuExpertRules.h"
#include "perfdojo/Analysis/Concurrency.h"
#include "GpuSharedTiles.h"
#include "MoveRules.h"
#include "RegisterBlocking.h"

#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"
#include "perfdojo/Moves/Selector.h"

#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringSet.h"

using namespace perfdojo;
using namespace perfdojo::dojo;

namespace {

/// The `index`-th top-level scope of the kernel, or null.
ScopeOp getTopScope(Game &game, unsigned index) {
  unsigned i = 0;
  for (mlir::Operation &op : game.getKernel().getBlock())
    if (auto scope = llvm::dyn_cast<ScopeOp>(op))
      if (i++ == index)
        return scope;
  return nullptr;
}

bool hasModeAround(ScopeOp scope, Mode mode) {
  for (mlir::Operation *p = scope->getParentOp(); p && !llvm::isa<KernelOp>(p);
       p = p->getParentOp())
    if (llvm::cast<ScopeOp>(p).getMode() == mode)
      return true;
  return false;
}

bool hasModeInside(ScopeOp scope, Mode mode) {
  bool found = false;
  scope->walk([&](ScopeOp inner) {
    if (inner != scope && inner.getMode() == mode)
      found = true;
  });
  return found;
}

/// The threads of one block for a scope of `size` iterations: 256 where it
/// divides, else the largest multiple of 32 dividing it (at most
/// `maxThreads`), else the largest divisor of at least 32; 0 for none.
int64_t chooseBlockSplit(int64_t size, int64_t maxThreads) {
  if (size % 256 == 0 && maxThreads >= 256)
    return 256;
  for (int64_t b = maxThreads / 32 * 32; b >= 32; b -= 32)
    if (size % b == 0)
      return b;
  for (int64_t b = maxThreads; b >= 32; --b)
    if (size % b == 0)
      return b;
  return 0;
}

/// Rule 2a on the nest of top-level scope `top`: perfect pairs of plain
/// scopes below the grid collapse into one larger scope where the indices
/// allow (`merge_scopes`), so threads get the longest dimension.
void mergeNests(Game &game, unsigned top) {
  llvm::StringSet<> tried;
  while (true) {
    std::optional<std::string> candidate;
    getTopScope(game, top)->walk([&](ScopeOp scope) {
      if (candidate || scope.getMode() != Mode::seq ||
          !llvm::hasSingleElement(scope.getBlock()))
        return;
      auto child = llvm::dyn_cast<ScopeOp>(scope.getBlock().front());
      std::string selector = getNodeSelector(scope);
      if (child && child.getMode() == Mode::seq && !tried.contains(selector))
        candidate = selector;
    });
    if (!candidate)
      return;
    if (tryApply(game, makeMove(MoveKind::MergeScopes, *candidate)))
      tried.clear();
    else
      tried.insert(*candidate);
  }
}

/// Rule 2b vectorizes scopes of at least this many vectors: with fewer,
/// the threads left are too few even with a second thread dimension.
constexpr int64_t kMinVectorGroups = 8;

/// Rule 2b on the nest of top-level scope `top`.
void vectorizeLanes(Game &game, unsigned top, const TargetDescription &target) {
  llvm::StringSet<> tried;
  while (true) {
    ScopeOp root = getTopScope(game, top);
    std::optional<std::string> candidate;
    int64_t width = 0;
    root->walk([&](ScopeOp scope) {
      if (candidate || scope.getMode() != Mode::seq ||
          !llvm::hasSingleElement(scope.getBlock()))
        return;
      auto leaf = llvm::dyn_cast<LeafOp>(scope.getBlock().front());
      if (!leaf || leaf.getReduce() != ReduceKind::none)
        return;
      int64_t w = target.getVectorLanes(
          game.getKernel().lookupArray(leaf.getArray()).getElementType());
      int64_t size = scope.getSize();
      std::string selector = getNodeSelector(scope);
      if (w > 1 && size % w == 0 && size / w >= kMinVectorGroups &&
          !tried.contains(selector)) {
        candidate = selector;
        width = w;
      }
    });
    if (!candidate)
      return;
    tried.insert(*candidate);
    if (!tryApply(game, makeMove(MoveKind::SplitScope, *candidate, {width})))
      continue;
    // The lanes are the new inner scope: the split scope's only child.
    auto outer = llvm::cast<ScopeOp>(*resolveNode(game.getKernel(), *candidate));
    auto lanes = llvm::cast<ScopeOp>(outer.getBlock().front());
    if (!tryApply(game, makeMove(MoveKind::SetVector, getNodeSelector(lanes))))
      game.undo();
  }
}

/// The threads that share a reduction scope of `size` iterations, in a
/// block whose threads accumulate `terms` terms in all (the scope and the
/// sequential scopes around it up to the grid): each thread accumulates
/// terms / T of them, then thread 0 combines the T partials, so T near
/// sqrt(terms) balances the two (times `factor`, a variant's choice: the
/// combine reads block-shared memory, cheaper than the terms' loads). T
/// divides `size`, is at most a block, and is a multiple of the warp where
/// one fits: the smallest such T from sqrt(terms) up, else the largest
/// below, else the largest divisor of `size` that fits a block. `size`
/// itself means no split; 0 none fits.
int64_t chooseReductionThreads(int64_t size, int64_t terms,
                               const TargetDescription &target,
                               int64_t factor) {
  int64_t warp = target.warpSize, limit = std::min(size, target.maxBlockSize);
  if (size <= 2 * warp)
    return size;
  int64_t root = 1;
  while (root * root < terms)
    ++root;
  root = std::min(root * std::max<int64_t>(factor, 1), limit);
  int64_t start = (root + warp - 1) / warp * warp;
  for (int64_t t = start; t <= limit; t += warp)
    if (size % t == 0)
      return t;
  for (int64_t t = std::min(start - warp, limit / warp * warp); t >= warp;
       t -= warp)
    if (size % t == 0)
      return t;
  for (int64_t t = limit; t >= 1; --t)
    if (size % t == 0)
      return t;
  return 0;
}

/// Puts the partials `name` that privatize_reduction made inside a grid
/// scope into block-shared memory, before any thread scope reads them:
/// `gpu_local` first (private to the grid iteration while no thread scope
/// lies between), which lets the dimensions the grid indexes be reused
/// (one copy per block is what a block needs), then `gpu_shared`, which
/// then fits. Undone entirely where any step is illegal: the partials stay
/// in global memory.
void placePartialsInBlock(Game &game, llvm::StringRef name) {
  BufferOp partials = game.getKernel().lookupArray(name);
  if (!partials)
    return;
  unsigned rank = partials.getRank();
  unsigned applied = 0;
  auto apply = [&](const MoveRequest &move) {
    bool ok = tryApply(game, move);
    applied += ok;
    return ok;
  };
  if (apply(makeMove(MoveKind::SetLocation, name.str(),
                     {static_cast<int64_t>(BufferLocation::gpu_local)}))) {
    // The last dimension holds one partial per thread: never reused.
    for (unsigned k = 0; k + 1 < rank; ++k)
      apply(makeMove(MoveKind::ReuseDims, (name + "." + llvm::Twine(k)).str()));
    if (apply(makeMove(MoveKind::SetLocation, name.str(),
                       {static_cast<int64_t>(BufferLocation::gpu_shared)})))
      return;
  }
  while (applied--)
    game.undo();
}

/// The threads of a reduction scope: each of its iterations accumulates
/// into a partial of its own (`privatize_reduction`, the init and the
/// combine placed around the scope at depth `depth`), which makes its
/// iterations independent; the partials go to block-shared memory where
/// they can (placePartialsInBlock); then `:b`. Undone where the
/// privatization or `:b` is illegal.
bool privatizeAt(Game &game, const std::string &selector, unsigned depth) {
  llvm::Expected<Game::Cursor> cursor = game.track(selector);
  if (!cursor) {
    llvm::consumeError(cursor.takeError());
    return false;
  }
  llvm::StringSet<> before = getBufferNames(game.getKernel());
  if (!tryApply(game, makeMove(MoveKind::PrivatizeReduction, selector,
                               {int64_t(depth)})))
    return false;
  size_t history = game.history().size();
  for (const auto &name : getBufferNames(game.getKernel()))
    if (!before.contains(name.getKey()))
      placePartialsInBlock(game, name.getKey());
  std::optional<std::string> moved = game.getSelector(*cursor);
  if (moved && tryApply(game, makeMove(MoveKind::SetGpuBlock, *moved)))
    return true;
  while (game.history().size() >= history)
    game.undo();
  return false;
}

/// privatizeAt with the partials' init and combine as far out as legal,
/// from just inside the grid scope at `gridDepth` to the scope's own depth:
/// each thread then accumulates over every enclosing sequential scope, and
/// thread 0 combines once.
bool privatizeIntoThreads(Game &game, const std::string &selector,
                          unsigned gridDepth, unsigned depth) {
  for (unsigned d = gridDepth + 1; d <= depth; ++d)
    if (privatizeAt(game, selector, d))
      return true;
  return false;
}

/// The terms one thread of a block accumulates when `scope`, a reduction
/// scope below the grid scope `root`, is split over threads: the product
/// of its size and the sequential scopes between it and `root`.
int64_t getBlockTerms(ScopeOp scope, ScopeOp root) {
  int64_t terms = scope.getSize();
  for (auto p = scope->getParentOfType<ScopeOp>(); p && p != root;
       p = p->getParentOfType<ScopeOp>())
    if (p.getMode() == Mode::seq)
      terms = std::min<int64_t>(terms * p.getSize(), int64_t(1) << 40);
  return terms;
}

/// Whether `scope` holds a single reduction leaf that privatization can
/// spread over threads: not the combine of partials made before (a
/// reduction reading only `partials`).
bool isPrivatizableReduction(ScopeOp scope, const llvm::StringSet<> &partials) {
  auto leaf = llvm::dyn_cast<LeafOp>(scope.getBlock().front());
  return llvm::hasSingleElement(scope.getBlock()) && leaf &&
         leaf.getReduce() != ReduceKind::none &&
         !llvm::all_of(leaf.getInputs(), [&](mlir::Attribute input) {
           auto access = llvm::dyn_cast<AccessAttr>(input);
           return !access || partials.contains(access.getArray().getValue());
         });
}

/// Whether the reduction leaf of `scope` accumulates over `scope` and every
/// scope between it and `root` (or the innermost grid scope above it): no
/// enclosing scope below the grid selects output elements, so only
/// privatization gives it threads.
bool reducesOverEveryScopeBelow(ScopeOp scope, ScopeOp root) {
  auto leaf = llvm::cast<LeafOp>(scope.getBlock().front());
  llvm::SmallBitVector used = getUsedDepths(leaf.getIndices(), leaf.getDepth());
  for (ScopeOp p = scope; p && p != root && p.getMode() != Mode::gpu_grid;
       p = p->getParentOfType<ScopeOp>())
    if (used.test(getNodeDepth(p)))
      return false;
  return true;
}

/// The threads of every block of top-level scope `top` when it holds
/// reductions that only privatization can spread over threads
/// (reducesOverEveryScopeBelow): the fewest that any of them wants
/// (chooseReductionThreads), so every phase of the launch has the one
/// block shape the `:b` phase rule allows; 0 (each phase its own choice)
/// otherwise.
int64_t chooseLaunchThreads(Game &game, unsigned top,
                            const TargetDescription &target, int64_t factor) {
  ScopeOp root = getTopScope(game, top);
  int64_t threads = 0;
  root->walk([&](ScopeOp scope) {
    if (scope == root || scope.getMode() != Mode::seq ||
        !isPrivatizableReduction(scope, {}) ||
        !reducesOverEveryScopeBelow(scope, root))
      return;
    int64_t t =
        chooseReductionThreads(scope.getSize(), getBlockTerms(scope, root),
                               target, factor);
    if (t > 1 && (threads == 0 || t < threads))
      threads = t;
  });
  return threads;
}

/// Rule 2c on the nest of top-level scope `top`: scopes that can be `:b`
/// as they are, or (with `privatizeReductions`) reductions given one
/// partial per thread. With `launchThreads` (chooseLaunchThreads), every
/// thread scope has that size: scopes of a multiple of it are split.
void mapThreads(Game &game, unsigned top, const TargetDescription &target,
                bool privatizeReductions, int64_t launchThreads,
                int64_t factor, int64_t lanes) {
  llvm::StringSet<> tried;
  // Partials made by privatize_reduction: a reduction reading only these
  // is their combine, which stays with thread 0 (privatizing it again
  // would never end).
  llvm::StringSet<> partials;
  auto privatize = [&](const std::string &selector, unsigned depth) {
    llvm::StringSet<> before = getBufferNames(game.getKernel());
    unsigned gridDepth = getNodeDepth(getTopScope(game, top));
    if (!privatizeIntoThreads(game, selector, gridDepth, depth))
      return false;
    for (const auto &name : getBufferNames(game.getKernel()))
      if (!before.contains(name.getKey()))
        partials.insert(name.getKey());
    return true;
  };
  // Splits the scope `selector` by `threads` and applies `map` to the inner
  // scope, the threads; undoes the split where `map` fails.
  auto splitThreads = [&](const std::string &selector, int64_t threads,
                          llvm::function_ref<bool(const std::string &)> map) {
    if (!tryApply(game, makeMove(MoveKind::SplitScope, selector, {threads})))
      return false;
    auto outer = llvm::cast<ScopeOp>(*resolveNode(game.getKernel(), selector));
    if (map(getNodeSelector(llvm::cast<ScopeOp>(outer.getBlock().front()))))
      return true;
    game.undo();
    return false;
  };
  auto setBlock = [&](const std::string &selector) {
    return tryApply(game, makeMove(MoveKind::SetGpuBlock, selector));
  };
  while (true) {
    ScopeOp root = getTopScope(game, top);
    std::optional<std::string> candidate;
    int64_t size = 0, terms = 0;
    unsigned depth = 0;
    bool reduction = false;
    // Post-order: innermost scopes first.
    root->walk([&](ScopeOp scope) {
      // Threads reducing into one element are for the privatizing pass
      // (a partial each, then combineInBlocks), not a tree per iteration.
      if (candidate || scope == root || scope.getMode() != Mode::seq ||
          scope.getSize() < 2 || hasModeAround(scope, Mode::gpu_block) ||
          hasModeInside(scope, Mode::gpu_block) ||
          (!privatizeReductions && reducesAcross(scope)))
        return;
      std::string selector = getNodeSelector(scope);
      if (tried.contains(selector))
        return;
      candidate = selector;
      size = scope.getSize();
      terms = getBlockTerms(scope, root);
      depth = getNodeDepth(scope);
      reduction = privatizeReductions &&
                  isPrivatizableReduction(scope, partials);
    });
    if (!candidate)
      return;
    tried.insert(*candidate);
    // The threads for this scope: the launch's, else its own choice.
    int64_t threads =
        launchThreads ? (size % launchThreads == 0 ? launchThreads : 0)
        : reduction   ? chooseReductionThreads(size, terms, target, factor)
        : size <= target.maxBlockSize
            ? size
            : chooseBlockSplit(size, target.maxBlockSize);
    if (!threads)
      continue;
    bool mapped = false;
    if (reduction) {
      // chooseReductionThreads partials, each accumulated over the outer
      // iterations of a split (coalesced: consecutive threads read
      // consecutive terms), combined after them.
      auto privatizeHere = [&](const std::string &s) {
        return privatize(s, depth);
      };
      // With lanes, each thread first takes `lanes` consecutive terms per
      // step (an unrolled scope: adjacent loads the back end can merge
      // into one vector load), then the threads split the rest.
      if (lanes > 1 && size % (threads * lanes) == 0 &&
          splitThreads(*candidate, lanes, [&](const std::string &inner) {
            return tryApply(game, makeMove(MoveKind::SetUnroll, inner)) &&
                   (size / lanes == threads
                        ? privatizeHere(*candidate)
                        : splitThreads(*candidate, threads, privatizeHere));
          }))
        mapped = true;
      else
        mapped = threads == size ? privatizeHere(*candidate)
                                 : splitThreads(*candidate, threads,
                                                privatizeHere);
    } else if (!privatizeReductions) {
      mapped = threads == size ? setBlock(*candidate)
                               : splitThreads(*candidate, threads, setBlock);
    }
    if (mapped)
      tried.clear();
  }
}

/// Rule 5, the combine: a plain scope under top-level scope `top` holding
/// one reduction leaf whose output misses the scope's variable (the combine
/// of partials privatization made, or a reduction as short as the block)
/// becomes a block reduction (`:b`): its threads combine the terms by warp
/// shuffles (any size a block holds: the lowering pads it to whole warps).
/// Where the move refuses (another block shape, a type the target does not
/// combine), thread 0 keeps combining.
void combineInBlocks(Game &game, unsigned top) {
  llvm::SmallVector<std::string> combines;
  getTopScope(game, top)->walk([&](ScopeOp scope) {
    if (scope.getMode() == Mode::seq && reducesAcross(scope) &&
        !hasModeAround(scope, Mode::gpu_block))
      combines.push_back(getNodeSelector(scope));
  });
  for (const std::string &selector : combines)
    tryApply(game, makeMove(MoveKind::SetGpuBlock, selector));
}

/// Rule 2d: the perfect nest of `:g` scopes under top-level scope `top`.
void extendGrid(Game &game, unsigned top) {
  for (unsigned depth = 0;; ++depth) {
    // Re-resolved at every step: a move may rebuild the tree.
    ScopeOp root = getTopScope(game, top);
    llvm::SmallVector<LeafOp> leaves = collectLeaves(root);
    if (leaves.empty())
      return;
    auto scope = llvm::cast<ScopeOp>(getAncestorAtDepth(leaves.front(), depth));
    if (!llvm::hasSingleElement(scope.getBlock()))
      return;
    auto child = llvm::dyn_cast<ScopeOp>(scope.getBlock().front());
    if (!child || child.getMode() != Mode::seq ||
        !tryApply(game, makeMove(MoveKind::SetGpuGrid, getNodeSelector(child))))
      return;
  }
}

/// Rule 3: internal buffers private to the blocks of one grid move to
/// block-shared memory where they fit, then buffer dimensions are reused
/// until exhaustion (a block-shared buffer drops its grid dimensions: one
/// copy per block is what it needs). Buffers in registers or `gpu_local`
/// (rule 1s's per-thread accumulators) stay there.
void placeBlockMemory(Game &game) {
  llvm::SmallVector<std::string> internal;
  for (BufferOp buffer : game.getKernel().getBuffers())
    if (!buffer.isArgument() && buffer.getLocation() != BufferLocation::reg &&
        buffer.getLocation() != BufferLocation::gpu_local)
      internal.push_back(buffer.getName().str());
  for (const std::string &name : internal)
    tryApply(game,
             makeMove(MoveKind::SetLocation, name,
                      {static_cast<int64_t>(BufferLocation::gpu_shared)}));
  applyUntilExhausted(game, [](const MoveRequest &m) {
    return m.getKind() == MoveKind::ReuseDims;
  });
}

/// Gives the leaf `ref` (array#ordinal) a nest of its own from depth `depth`
/// up: at every depth above, the scope around it is cut before and after
/// its branch (`split_off`), where it has siblings there.
void isolateNest(Game &game, const std::string &ref, unsigned depth) {
  for (int d = int(depth) - 1; d >= 0; --d) {
    tryApply(game, makeMove(MoveKind::SplitOff, ref + "@" + std::to_string(d)));
    auto node = resolveNode(game.getKernel(), ref);
    if (!node)
      return;
    mlir::Operation *branch =
        getAncestorAtDepth(llvm::cast<LeafOp>(*node), d + 1);
    if (mlir::Operation *previous = branch->getPrevNode()) {
      LeafOp first = llvm::isa<LeafOp>(previous)
                         ? llvm::cast<LeafOp>(previous)
                         : collectLeaves(llvm::cast<ScopeOp>(previous)).front();
      tryApply(game, makeMove(MoveKind::SplitOff, getPathSelector(first, d)));
    }
  }
}

/// Rule 1a: a reduction whose outputs are too few threads to keep the GPU
/// busy is split across blocks. For a leaf `o[F] op= v` in a plain nest,
/// N output elements selected by the outer scopes and the reduction scopes
/// inside them (the outermost of K iterations), with N below the variant's
/// splitThreads: K becomes S slices of K/S (S the smallest divisor of K
/// with N x S >= splitThreads and at least 128 terms per slice), each
/// slice accumulating into a partial of its own (`privatize_reduction`);
/// the partials' initialization and accumulation split off from the rest
/// (`split_off`), the slices moved outermost in both
/// (`swap_nested_scopes`) and the two joined (`join_scopes`), so the grid
/// takes the slices: N x S threads, each initializing and accumulating its
/// partial, then a launch combining S partials per output. Where no S
/// reaches splitThreads and the reduction runs over several scopes (a
/// batch norm's statistics over batch, rows and columns), every iteration
/// of the outermost is a slice and the slices and outputs become the grid
/// (`set_gpu_grid`) before the thread rules, whose threads then share the
/// inner reduction scopes of each slice. Undone entirely where a step is
/// illegal.
void splitReductions(Game &game, const GpuExpertVariant &variant) {
  if (variant.splitThreads <= 0)
    return;
  // Candidates by array and ordinal (stable across the moves below, which
  // only add writers of new arrays).
  llvm::SmallVector<std::string> sites;
  game.getKernel().walk([&](LeafOp leaf) {
    if (leaf.getReduce() != ReduceKind::none)
      sites.push_back(getNodeSelector(leaf));
  });
  for (const std::string &site : sites) {
    auto node = resolveNode(game.getKernel(), site);
    if (!node)
      continue;
    auto leaf = llvm::dyn_cast<LeafOp>(*node);
    if (!leaf)
      continue;
    llvm::SmallVector<ScopeOp, 8> scopes = getEnclosingScopes(leaf);
    unsigned depth = scopes.size();
    if (depth < 2 || !llvm::hasSingleElement(scopes.back().getBlock()) ||
        llvm::any_of(scopes, [](ScopeOp s) { return s.getMode() != Mode::seq; }))
      continue;
    // The outer r scopes select outputs, the inner ones reduce.
    llvm::SmallBitVector used = getUsedDepths(leaf.getIndices(), depth);
    unsigned r = 0;
    while (r < depth && used.test(r))
      ++r;
    if (r == 0 || r == depth || used.count() != r)
      continue;
    int64_t outputs = 1, terms = 1;
    for (unsigned d = 0; d < depth; ++d) {
      int64_t &product = d < r ? outputs : terms;
      product = std::min<int64_t>(product * scopes[d].getSize(),
                                  int64_t(1) << 40);
    }
    if (outputs >= variant.splitThreads)
      continue;
    // Slices of the outermost reduction scope, the fewest that make
    // enough threads of the slices and outputs.
    int64_t outer = scopes[r].getSize(), slices = 0;
    for (int64_t s = 2; s <= outer && terms / s >= 128 && !slices; ++s)
      if (outer % s == 0 && outputs * s >= variant.splitThreads)
        slices = s;
    // Over several reduction scopes where none does: each iteration of
    // the outermost a slice, and slices x outputs blocks, whose threads
    // then share the reduction scopes inside (gridded here, before the
    // thread rules, which would otherwise take the outputs as threads).
    bool blocks = false;
    if (!slices && depth - r > 1 && outer > 1 && terms / outer >= 128) {
      slices = outer;
      blocks = true;
    }
    if (!slices)
      continue;
    size_t history = game.history().size();
    auto undoAll = [&] {
      while (game.history().size() > history)
        game.undo();
    };
    llvm::StringSet<> before = getBufferNames(game.getKernel());
    std::string reduction = getPathSelector(leaf, r);
    if ((slices < outer &&
         !tryApply(game, makeMove(MoveKind::SplitScope, reduction,
                                  {outer / slices}))) ||
        !tryApply(game, makeMove(MoveKind::PrivatizeReduction, reduction,
                                 {int64_t(r)}))) {
      undoAll();
      continue;
    }
    std::string partials = getNewBuffer(game.getKernel(), before);
    // The partials' writers: #0 the initialization, #1 the accumulation.
    // Each gets a nest of its own, the slices outermost in both, and the
    // two nests join: every slice initializes, then accumulates.
    std::string init = partials + "#0", accumulate = partials + "#1";
    for (const std::string &ref : {init, accumulate})
      isolateNest(game, ref, r);
    bool moved = true;
    for (const std::string &ref : {init, accumulate})
      for (int d = int(r) - 1; d >= 0 && moved; --d)
        moved = tryApply(game, makeMove(MoveKind::SwapNestedScopes,
                                        ref + "@" + std::to_string(d)));
    // Both nests start with the slices, then the r output scopes: join
    // them down to the innermost output scope (depth r).
    for (unsigned d = 0; d <= r && moved; ++d)
      moved = tryApply(game, makeMove(MoveKind::JoinScopes,
                                      init + "@" + std::to_string(d)));
    for (unsigned d = 0; d <= r && moved && blocks; ++d)
      moved = tryApply(game, makeMove(MoveKind::SetGpuGrid,
                                      init + "@" + std::to_string(d)));
    if (!moved)
      undoAll();
  }
}

/// Rule 1: register tiles for reductions whose output misses the reduction
/// variables (GEMMs, convolutions): each thread will accumulate a tile of
/// rows x (vectors x W) outputs (W = 4 f32 lanes: one 128-bit load of the
/// stride-1 operand per vector and reduction step, each of the rows
/// scalars of the other operand reused over the lanes), the reduction
/// scopes outside the tile (the register-blocking rule of the CPU expert
/// pass, RegisterBlocking.h, with the variant's tile; rows is the largest
/// divisor of the row scope up to the variant's), where at least the
/// variant's minTileThreads tiles remain to be threads. Later sites first: a cut duplicates the
/// blocked leaf, which renumbers the later writers.
void blockRegisters(Game &game, const TargetDescription &target,
                    const GpuExpertVariant &variant) {
  if (variant.tileRows < 1 || variant.tileVectors < 1)
    return;
  MoveOptions options = game.getOptions();
  options.target = target;
  std::vector<heuristic::BlockSite> sites =
      heuristic::findBlockSites(game.getKernel(), options);
  for (heuristic::BlockSite &site : llvm::reverse(sites)) {
    if (site.width <= 1 ||
        (site.laneMain / site.width) % variant.tileVectors != 0)
      continue;
    int64_t rowSize = site.row ? site.sizes[*site.row] : 1;
    int64_t rows = variant.tileRows;
    while (rowSize % rows != 0)
      --rows;
    if (rows * variant.tileVectors < 2)
      continue;
    // Tiles are threads: too few of them would starve the GPU.
    int64_t tiles = rowSize / rows *
                    (site.laneMain / (site.width * variant.tileVectors));
    for (unsigned d : site.outer)
      tiles = std::min<int64_t>(tiles * site.sizes[d], int64_t(1) << 40);
    if (tiles < variant.minTileThreads)
      continue;
    site.tiles = {{rows, variant.tileVectors}};
    heuristic::blockSite(game, site, heuristic::BlockVariant{}, options);
  }
}

/// Rules 0 and 2e leave at least this many blocks to the grid: two waves
/// of blocks on a GPU of about a hundred multiprocessors.
constexpr int64_t kMinGridBlocks = 256;

/// Rule 0: adjacent top-level scopes of the same size, at least
/// kMinGridBlocks iterations, join (`join_scopes` where legal): a row's
/// phases (the statistics of a normalization, then its use) become one
/// launch whose block keeps the row in cache between them, instead of a
/// launch per phase reading it from memory again.
void fuseLaunches(Game &game) {
  for (unsigned top = 0;;) {
    ScopeOp first = getTopScope(game, top), second = getTopScope(game, top + 1);
    if (!first || !second)
      return;
    if (first.getSize() == second.getSize() &&
        first.getSize() >= kMinGridBlocks && first->getNextNode() == second &&
        tryApply(game, makeMove(MoveKind::JoinScopes, getNodeSelector(first))))
      continue;
    ++top;
  }
}

/// Rule 2e: a block of fewer than the variant's minimum threads takes the
/// plain scope around its outermost `:b` scope as a second thread
/// dimension (or, where that scope is too large, its smallest part that
/// brings the block to the minimum: split_scope, the inner part `:b`),
/// where the block stays within the target's threads and the grid keeps
/// kMinGridBlocks blocks.
void widenBlocks(Game &game, unsigned top, const TargetDescription &target,
                 const GpuExpertVariant &variant) {
  llvm::StringSet<> tried;
  while (true) {
    std::optional<std::string> candidate;
    int64_t split = 0;
    getTopScope(game, top)->walk([&](ScopeOp scope) {
      if (candidate || scope.getMode() != Mode::gpu_block ||
          hasModeAround(scope, Mode::gpu_block))
        return;
      // The block: this scope and the `:b` scopes nested as only
      // children below it.
      int64_t threads = 1;
      for (ScopeOp s = scope;;) {
        threads *= s.getSize();
        auto only = llvm::hasSingleElement(s.getBlock())
                        ? llvm::dyn_cast<ScopeOp>(s.getBlock().front())
                        : ScopeOp();
        if (!only || only.getMode() != Mode::gpu_block)
          break;
        s = only;
      }
      auto parent = scope->getParentOfType<ScopeOp>();
      if (threads >= variant.minBlockThreads || !parent ||
          parent == getTopScope(game, top) || parent.getMode() != Mode::seq ||
          !llvm::hasSingleElement(parent.getBlock()))
        return;
      // The parent whole, or its smallest divisor that brings the block to
      // the minimum (split off as the inner part of the parent).
      int64_t size = parent.getSize(), part = 0;
      for (int64_t d = 2; d <= size && !part; ++d)
        if (size % d == 0 && threads * d <= target.maxBlockSize &&
            (threads * d >= variant.minBlockThreads || d == size))
          part = d;
      if (!part)
        return;
      // The blocks left to the grid: the scopes around the parent and what
      // is left of the parent.
      int64_t blocks = size / part;
      for (auto p = parent->getParentOfType<ScopeOp>(); p;
           p = p->getParentOfType<ScopeOp>())
        blocks = std::min<int64_t>(blocks * p.getSize(), kMinGridBlocks);
      if (blocks < kMinGridBlocks)
        return;
      std::string selector = getNodeSelector(parent);
      if (!tried.insert(selector).second)
        return;
      candidate = selector;
      split = part == size ? 0 : part;
    });
    if (!candidate)
      return;
    if (!split) {
      tryApply(game, makeMove(MoveKind::SetGpuBlock, *candidate));
      continue;
    }
    if (!tryApply(game, makeMove(MoveKind::SplitScope, *candidate, {split})))
      continue;
    auto outer = llvm::cast<ScopeOp>(*resolveNode(game.getKernel(), *candidate));
    if (!tryApply(game, makeMove(MoveKind::SetGpuBlock,
                                 getNodeSelector(llvm::cast<ScopeOp>(
                                     outer.getBlock().front())))))
      game.undo();
  }
}

} // namespace

std::vector<GpuExpertVariant> perfdojo::getGpuExpertVariants() {
  auto variant = [](int64_t rows, int64_t vectors, int64_t minBlockThreads,
                    bool fuse, int64_t splitThreads = 1 << 18,
                    int64_t factor = 1, int64_t lanes = 1,
                    bool blockCombine = true) {
    GpuExpertVariant v;
    v.blockCombine = blockCombine;
    v.splitThreads = splitThreads;
    v.reductionThreadsFactor = factor;
    v.reductionLanes = lanes;
    v.tileRows = rows;
    v.tileVectors = vectors;
    v.minBlockThreads = minBlockThreads;
    v.fuseLaunches = fuse;
    return v;
  };
  // Rule 1s's tiles: 16x16 threads of 4x4, 8x8 or 8x4 outputs, k tiles
  // of 16; 8x8 threads of 4x4 (more blocks where the outputs are few);
  // 16x16 threads of 4x4 with k tiles of 32 (half the barriers per term).
  auto shared = [&](int64_t threadsY, int64_t threadsX, int64_t rows,
                    int64_t cols, int64_t k) {
    GpuExpertVariant v = variant(4, 1, 128, true);
    v.sharedTile = {threadsY, threadsX, rows, cols, k};
    return v;
  };
  return {variant(4, 1, 128, true), variant(2, 1, 128, true),
          variant(4, 2, 128, true), variant(8, 1, 128, true),
          variant(0, 0, 128, true), variant(4, 1, 0, true),
          variant(4, 1, 128, false), variant(4, 1, 128, true, 0),
          variant(4, 1, 128, true, 1 << 20),
          variant(4, 1, 128, true, 1 << 18, 4),
          variant(4, 1, 128, true, 1 << 18, 1, 4),
          variant(4, 1, 128, true, 1 << 18, 4, 4),
          variant(4, 1, 128, true, 1 << 18, 1, 1, false),
          shared(16, 16, 64, 64, 16), shared(16, 16, 128, 128, 16),
          shared(16, 16, 128, 64, 16), shared(8, 8, 32, 32, 8),
          shared(16, 16, 64, 64, 32)};
}

void perfdojo::applyGpuExpertRules(Game &game, const TargetDescription &target,
                                   const GpuExpertVariant &variant) {
  splitReductions(game, variant);
  gpu_rules::tileInSharedMemory(game, target, variant.sharedTile);
  blockRegisters(game, target, variant);
  if (variant.fuseLaunches)
    fuseLaunches(game);
  for (unsigned top = 0; ScopeOp scope = getTopScope(game, top); ++top) {
    // Mapped whole by rule 1s.
    if (hasModeInside(scope, Mode::gpu_block))
      continue;
    // A grid set by rule 1a's slices, or one set here.
    if (scope.getMode() != Mode::gpu_grid &&
        (scope.getMode() != Mode::seq ||
         !tryApply(game,
                   makeMove(MoveKind::SetGpuGrid, getNodeSelector(scope)))))
      continue;
    mergeNests(game, top);
    vectorizeLanes(game, top, target);
    int64_t factor = variant.reductionThreadsFactor;
    int64_t launchThreads = chooseLaunchThreads(game, top, target, factor);
    int64_t lanes = variant.reductionLanes;
    mapThreads(game, top, target, /*privatizeReductions=*/false,
               launchThreads, factor, lanes);
    mapThreads(game, top, target, /*privatizeReductions=*/true,
               launchThreads, factor, lanes);
    // The partials' initializations, new since the first pass.
    mapThreads(game, top, target, /*privatizeReductions=*/false,
               launchThreads, factor, lanes);
    if (variant.blockCombine)
      combineInBlocks(game, top);
    widenBlocks(game, top, target, variant);
    extendGrid(game, top);
  }
  placeBlockMemory(game);
}
