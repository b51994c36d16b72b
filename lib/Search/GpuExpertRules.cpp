//===- GpuExpertRules.cpp - the GPU expert pass ---------------------------===//

#include "perfdojo/Search/GpuExpertRules.h"
#include "MoveRules.h"

#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"
#include "perfdojo/Moves/Selector.h"

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
      if (w > 1 && size % w == 0 && size / w >= 32 &&
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

/// The threads of a reduction scope: each of its iterations accumulates
/// into a partial of its own (`privatize_reduction`, the init and the
/// combine placed around the scope at depth `depth`), which makes its
/// iterations independent; then `:b`. Undone where either is illegal.
bool privatizeAt(Game &game, const std::string &selector, unsigned depth) {
  llvm::Expected<Game::Cursor> cursor = game.track(selector);
  if (!cursor) {
    llvm::consumeError(cursor.takeError());
    return false;
  }
  if (!tryApply(game, makeMove(MoveKind::PrivatizeReduction, selector,
                               {int64_t(depth)})))
    return false;
  std::optional<std::string> moved = game.getSelector(*cursor);
  if (moved && tryApply(game, makeMove(MoveKind::SetGpuBlock, *moved)))
    return true;
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

/// Rule 2c on the nest of top-level scope `top`: scopes that can be `:b`
/// as they are, or (with `privatizeReductions`) reductions given one
/// partial per thread.
void mapThreads(Game &game, unsigned top, const TargetDescription &target,
                bool privatizeReductions) {
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
  while (true) {
    ScopeOp root = getTopScope(game, top);
    std::optional<std::string> candidate;
    int64_t size = 0;
    unsigned depth = 0;
    bool reduction = false;
    // Post-order: innermost scopes first.
    root->walk([&](ScopeOp scope) {
      if (candidate || scope == root || scope.getMode() != Mode::seq ||
          scope.getSize() < 2 || hasModeAround(scope, Mode::gpu_block) ||
          hasModeInside(scope, Mode::gpu_block))
        return;
      std::string selector = getNodeSelector(scope);
      if (tried.contains(selector))
        return;
      candidate = selector;
      size = scope.getSize();
      depth = getNodeDepth(scope);
      auto leaf = llvm::dyn_cast<LeafOp>(scope.getBlock().front());
      reduction = privatizeReductions &&
                  llvm::hasSingleElement(scope.getBlock()) && leaf &&
                  leaf.getReduce() != ReduceKind::none &&
                  !llvm::all_of(leaf.getInputs(), [&](mlir::Attribute input) {
                    auto access = llvm::dyn_cast<AccessAttr>(input);
                    return !access ||
                           partials.contains(access.getArray().getValue());
                  });
    });
    if (!candidate)
      return;
    tried.insert(*candidate);
    if (size <= target.maxBlockSize) {
      if ((!privatizeReductions &&
           tryApply(game, makeMove(MoveKind::SetGpuBlock, *candidate))) ||
          (reduction && privatize(*candidate, depth)))
        tried.clear();
      continue;
    }
    if (privatizeReductions && !reduction)
      continue;
    int64_t split = chooseBlockSplit(size, target.maxBlockSize);
    if (!split ||
        !tryApply(game, makeMove(MoveKind::SplitScope, *candidate, {split})))
      continue;
    auto outer = llvm::cast<ScopeOp>(*resolveNode(game.getKernel(), *candidate));
    std::string threads =
        getNodeSelector(llvm::cast<ScopeOp>(outer.getBlock().front()));
    // A reduction: one partial per thread, accumulated over the outer
    // iterations, combined after them.
    if ((!privatizeReductions &&
         tryApply(game, makeMove(MoveKind::SetGpuBlock, threads))) ||
        (reduction && privatize(threads, depth)))
      tried.clear();
    else
      game.undo();
  }
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
/// copy per block is what it needs).
void placeBlockMemory(Game &game) {
  llvm::SmallVector<std::string> internal;
  for (BufferOp buffer : game.getKernel().getBuffers())
    if (!buffer.isArgument() && buffer.getLocation() != BufferLocation::reg)
      internal.push_back(buffer.getName().str());
  for (const std::string &name : internal)
    tryApply(game,
             makeMove(MoveKind::SetLocation, name,
                      {static_cast<int64_t>(BufferLocation::gpu_shared)}));
  applyUntilExhausted(game, [](const MoveRequest &m) {
    return m.getKind() == MoveKind::ReuseDims;
  });
}

} // namespace

void perfdojo::applyGpuExpertRules(Game &game, const TargetDescription &target) {
  for (unsigned top = 0; ScopeOp scope = getTopScope(game, top); ++top) {
    if (scope.getMode() != Mode::seq ||
        !tryApply(game, makeMove(MoveKind::SetGpuGrid, getNodeSelector(scope))))
      continue;
    mergeNests(game, top);
    vectorizeLanes(game, top, target);
    mapThreads(game, top, target, /*privatizeReductions=*/false);
    mapThreads(game, top, target, /*privatizeReductions=*/true);
    // The partials' initializations, new since the first pass.
    mapThreads(game, top, target, /*privatizeReductions=*/false);
    extendGrid(game, top);
  }
  placeBlockMemory(game);
}
