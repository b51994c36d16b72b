//===- InnerParallelism.cpp - parallel nests inside a short scope ---------===//

#include "InnerParallelism.h"

#include "LeafRef.h"
#include "MoveRules.h"

#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"
#include "perfdojo/Support/SaturatingArithmetic.h"

using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::heuristic;

namespace {

/// A guard against a privatization that would not remove its reduction:
/// a nest has far fewer reduction leaves.
constexpr unsigned kMaxPrivatizations = 64;

/// Parallelizes the nest whose outermost scope holds the leaf `ref` at
/// `depth`: each reduction across that scope gets a partial result per
/// iteration, then the scope becomes `:p`. All or nothing.
bool parallelizeNest(Game &game, LeafRef ref, unsigned depth) {
  size_t mark = game.history().size();
  auto nest = [&] {
    return llvm::cast<ScopeOp>(
        getAncestorAtDepth(findLeaf(game.getKernel(), ref), depth));
  };
  // A reduction across the nest's scope; once privatized, it writes a
  // slot per iteration and is one no more.
  auto findReduction = [&]() -> LeafOp {
    for (LeafOp leaf : collectLeaves(nest()))
      if (leaf.getReduce() != ReduceKind::none &&
          !usesDepth(leaf.getIndices(), depth))
        return leaf;
    return {};
  };
  for (unsigned step = 0; LeafOp leaf = findReduction(); ++step) {
    llvm::StringSet<> before = getBufferNames(game.getKernel());
    LeafRef name = getLeafRef(game.getKernel(), leaf);
    bool namesNest = name.array == ref.array && name.ordinal == ref.ordinal;
    if (step == kMaxPrivatizations ||
        !tryApply(game, makeMove(MoveKind::PrivatizeReduction,
                                 getPathSelector(leaf, depth), {depth}))) {
      undoTo(game, mark);
      return false;
    }
    // The leaf now accumulates into the new buffer (its second writer,
    // after the initialization placed before the nest): if it named the
    // nest, it still does under its new name.
    if (namesNest)
      ref = LeafRef{getNewBuffer(game.getKernel(), before), 1};
  }
  if (!tryApply(game, makeMove(MoveKind::SetParallel,
                               getPathSelector(findLeaf(game.getKernel(), ref),
                                               depth)))) {
    undoTo(game, mark);
    return false;
  }
  return true;
}

/// The most leaf instances one leaf of `nest` (at depth 1) runs per
/// iteration of the scope around it.
int64_t getNestWork(ScopeOp nest) {
  int64_t work = 0;
  for (LeafOp leaf : collectLeaves(nest)) {
    int64_t instances = 1;
    for (int64_t size : llvm::drop_begin(getLeafBoxSizes(leaf)))
      instances = saturatingMul(instances, size);
    work = std::max(work, instances);
  }
  return work;
}

} // namespace

bool perfdojo::heuristic::parallelizeInsideShortScopes(Game &game) {
  // The child nests of short top-level scopes, by their first leaves.
  llvm::SmallVector<LeafRef> nests;
  KernelOp kernel = game.getKernel();
  for (mlir::Operation &op : kernel.getBlock()) {
    auto scope = llvm::dyn_cast<ScopeOp>(op);
    if (!scope || scope.getMode() != Mode::seq || scope.getSize() < 2 ||
        scope.getSize() >= kShortScopeIterations)
      continue;
    for (mlir::Operation &child : scope.getBlock())
      if (auto nest = llvm::dyn_cast<ScopeOp>(child);
          nest && nest.getSize() > 1 &&
          getNestWork(nest) >= kMinInnerParallelWork)
        nests.push_back(getLeafRef(kernel, getFirstLeaf(nest)));
  }
  bool changed = false;
  for (const LeafRef &nest : nests)
    changed |= parallelizeNest(game, nest, 1);
  return changed;
}
