//===- TransposingCopy.cpp - copies transposed through registers ---------===//

#include "perfdojo/Analysis/TransposingCopy.h"

#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"
#include "perfdojo/Dialect/Dojo/IR/PhysicalLayout.h"

using namespace perfdojo;
using namespace perfdojo::dojo;

int64_t TransposingLanes::getSourceStride(unsigned depth) const {
  return getStrideAlong(from, getIndexForms(source.getIndices()), depth);
}

std::optional<TransposingLanes>
perfdojo::matchTransposingLanes(ScopeOp lanes,
                                const TargetDescription &target) {
  if (lanes.getMode() != Mode::vector ||
      !llvm::hasSingleElement(lanes.getBlock()))
    return std::nullopt;
  auto leaf = llvm::dyn_cast<LeafOp>(lanes.getBlock().front());
  if (!leaf || leaf.getKind() != OpKind::copy ||
      leaf.getReduce() != ReduceKind::none || leaf.getInputs().size() != 1)
    return std::nullopt;
  TransposingLanes match;
  match.lanes = lanes;
  match.leaf = leaf;
  match.source = llvm::dyn_cast<AccessAttr>(leaf.getInputs()[0]);
  if (!match.source)
    return std::nullopt;
  KernelOp kernel = leaf->getParentOfType<KernelOp>();
  match.from = kernel.lookupArray(match.source.getArray().getValue());
  match.to = kernel.lookupArray(leaf.getArray());
  // Within one buffer a later row may read what an earlier row wrote: the
  // copy keeps its element order.
  if (!match.from || !match.to || match.from == match.to ||
      match.from.getElementType() != match.to.getElementType() ||
      isBoolType(match.to.getElementType()))
    return std::nullopt;
  match.square = target.getTransposeLanes(match.to.getElementType());
  if (match.square == 0 || lanes.getSize() % match.square != 0)
    return std::nullopt;
  unsigned lane = getNodeDepth(lanes);
  int64_t written =
      getStrideAlong(match.to, getIndexForms(leaf.getIndices()), lane);
  int64_t read = match.getSourceStride(lane);
  if (written != 1 || read == 0 || read == 1)
    return std::nullopt;
  return match;
}

std::optional<TransposingCopy>
perfdojo::matchTransposingCopy(ScopeOp unroll,
                               const TargetDescription &target) {
  TransposingCopy copy;
  ScopeOp scope = unroll;
  while (scope.getMode() == Mode::unroll &&
         llvm::hasSingleElement(scope.getBlock())) {
    copy.rows.push_back(scope);
    scope = llvm::dyn_cast<ScopeOp>(scope.getBlock().front());
    if (!scope)
      return std::nullopt;
  }
  std::optional<TransposingLanes> lanes = matchTransposingLanes(scope, target);
  if (copy.rows.empty() || !lanes)
    return std::nullopt;
  copy.lanes = *lanes;
  for (ScopeOp row : llvm::reverse(copy.rows)) {
    if (lanes->getSourceStride(getNodeDepth(row)) != copy.run)
      return std::nullopt;
    copy.run *= row.getSize();
  }
  if (copy.run % lanes->square != 0)
    return std::nullopt;
  return copy;
}
