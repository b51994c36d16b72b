//===- TransposingChains.cpp - relayout copies as register squares --------===//

#include "TransposingChains.h"

#include "LeafRef.h"
#include "MoveRules.h"

#include "perfdojo/Analysis/TransposingCopy.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"

using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::heuristic;

namespace {

/// The transposing lanes of the copy `ref`, or nullopt.
std::optional<TransposingLanes> findLanes(Game &game, const LeafRef &ref,
                                          const TargetDescription &target) {
  LeafOp leaf = findLeaf(game.getKernel(), ref);
  auto lanes = leaf ? llvm::dyn_cast<ScopeOp>(leaf->getParentOp()) : ScopeOp();
  if (!lanes)
    return std::nullopt;
  return matchTransposingLanes(lanes, target);
}

/// Whether the chain above the lanes of `ref` is (now) a transposing copy.
bool isChained(Game &game, const LeafRef &ref,
               const TargetDescription &target) {
  std::optional<TransposingLanes> lanes = findLanes(game, ref, target);
  if (!lanes)
    return false;
  ScopeOp top;
  for (auto scope = llvm::dyn_cast<ScopeOp>(lanes->lanes->getParentOp());
       scope && scope.getMode() == Mode::unroll;
       scope = llvm::dyn_cast<ScopeOp>(scope->getParentOp()))
    top = scope;
  return top && matchTransposingCopy(top, target);
}

/// The smallest factor `f` of `size` that makes `run * f` a whole number
/// of squares of `side`, or 0.
int64_t getSquaringFactor(int64_t size, int64_t run, int64_t side) {
  for (int64_t f = 1; f <= size; ++f)
    if (size % f == 0 && (run * f) % side == 0)
      return f;
  return 0;
}

/// The first way: the plain scopes right above the lanes, each the only
/// child of the next, read a run of consecutive elements; unrolled up to
/// the first run of whole squares, the last one split where a part of it
/// completes the squares (a convolution's 16 input channels of 3 x 3
/// taps: 8 of them, 72 rows, not 144).
bool unrollRun(Game &game, const LeafRef &ref,
               const TargetDescription &target) {
  std::optional<TransposingLanes> lanes = findLanes(game, ref, target);
  if (!lanes)
    return false;
  size_t mark = game.history().size();
  auto fail = [&] {
    undoTo(game, mark);
    return false;
  };
  llvm::SmallVector<unsigned> rows;
  int64_t run = 1;
  for (auto scope = llvm::dyn_cast<ScopeOp>(lanes->lanes->getParentOp());
       scope && scope.getMode() == Mode::seq &&
       llvm::hasSingleElement(scope.getBlock()) &&
       lanes->getSourceStride(getNodeDepth(scope)) == run;
       scope = llvm::dyn_cast<ScopeOp>(scope->getParentOp())) {
    unsigned depth = getNodeDepth(scope);
    int64_t size = scope.getSize();
    int64_t factor = getSquaringFactor(size, run, lanes->square);
    if (factor > 1 && factor < size) {
      // The inner part completes the squares: the rows above move one
      // depth down.
      if (!tryApply(game, makeMove(MoveKind::SplitScope, getNodeSelector(scope),
                                   {factor})))
        return fail();
      for (unsigned &row : rows)
        ++row;
      size = factor;
      ++depth;
    }
    run *= size;
    if (run > kMaxChainRun)
      return fail();
    rows.push_back(depth);
    if (run % lanes->square != 0)
      continue;
    LeafOp leaf = findLeaf(game.getKernel(), ref);
    llvm::SmallVector<std::string> selectors;
    for (unsigned row : rows)
      selectors.push_back(getPathSelector(leaf, row));
    for (const std::string &row : selectors)
      if (!tryApply(game, makeMove(MoveKind::SetUnroll, row)))
        return fail();
    return isChained(game, ref, target) || fail();
  }
  return fail();
}

/// The second way: the scope whose variable reads consecutive source
/// elements, split by the square side, its inner part moved down to right
/// above the lanes, alone there, and unrolled.
bool moveRunDown(Game &game, const LeafRef &ref,
                 const TargetDescription &target) {
  std::optional<TransposingLanes> lanes = findLanes(game, ref, target);
  if (!lanes)
    return false;
  unsigned laneDepth = getNodeDepth(lanes->lanes);
  // (A size-1 scope's variable is always 0: its stride says nothing.)
  std::optional<unsigned> found;
  for (unsigned d = 0; d < laneDepth; ++d)
    if (lanes->getSourceStride(d) == 1 &&
        llvm::cast<ScopeOp>(getAncestorAtDepth(lanes->leaf, d)).getSize() > 1)
      found = d;
  if (!found)
    return false;
  unsigned d = *found;
  auto scope = llvm::cast<ScopeOp>(getAncestorAtDepth(lanes->leaf, d));
  int64_t size = scope.getSize(), side = lanes->square;
  bool parallel = scope.getMode() == Mode::parallel;
  // A parallel scope keeps at least two iterations to share.
  if (size % side != 0 || (parallel && size / side < 2) ||
      (!parallel && scope.getMode() != Mode::seq))
    return false;
  size_t mark = game.history().size();
  auto apply = [&](MoveKind kind, unsigned depth,
                   llvm::ArrayRef<int64_t> params = {}) {
    return tryApply(
        game,
        makeMove(kind, getPathSelector(findLeaf(game.getKernel(), ref), depth),
                 params));
  };
  auto fail = [&] {
    undoTo(game, mark);
    return false;
  };
  if (parallel && !apply(MoveKind::ClearMode, d))
    return fail();
  if (size > side) {
    if (!apply(MoveKind::SplitScope, d, {side}) ||
        (parallel && !apply(MoveKind::SetParallel, d)))
      return fail();
    ++d;
    ++laneDepth;
  }
  for (; d + 1 < laneDepth; ++d)
    if (!apply(MoveKind::SwapNestedScopes, d))
      return fail();
  // The lanes alone in their copy of the run's scope: its other children
  // (a remainder's narrower vectors, scalars) move to copies of their own.
  mlir::Operation *branch =
      getAncestorAtDepth(findLeaf(game.getKernel(), ref), d + 1);
  if (branch->getNextNode() && !apply(MoveKind::SplitOff, d))
    return fail();
  if (mlir::Operation *previous = branch->getPrevNode()) {
    LeafOp last = collectLeaves(previous).back();
    if (!tryApply(game, makeMove(MoveKind::SplitOff, getPathSelector(last, d))))
      return fail();
  }
  if (!apply(MoveKind::SetUnroll, d) || !isChained(game, ref, target))
    return fail();
  return true;
}

} // namespace

bool heuristic::chainTransposingCopies(Game &game,
                                       const TargetDescription &target) {
  llvm::SmallVector<LeafRef> copies;
  KernelOp kernel = game.getKernel();
  kernel.walk([&](ScopeOp scope) {
    if (std::optional<TransposingLanes> lanes =
            matchTransposingLanes(scope, target))
      copies.push_back(getLeafRef(kernel, lanes->leaf));
  });
  bool changed = false;
  for (const LeafRef &copy : copies) {
    if (isChained(game, copy, target))
      continue;
    changed |= unrollRun(game, copy, target) || moveRunDown(game, copy, target);
  }
  return changed;
}
