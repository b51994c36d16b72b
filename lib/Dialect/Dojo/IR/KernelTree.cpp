//===- KernelTree.cpp - navigating a scope tree and its accesses ----------===//

#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

std::optional<std::string>
perfdojo::findScopeDepthViolation(uint64_t enclosing) {
  if (enclosing < kMaxScopeDepth)
    return std::nullopt;
  return "scope nesting depth " + std::to_string(enclosing + 1) +
         " exceeds the limit of " + std::to_string(kMaxScopeDepth);
}

unsigned perfdojo::countEnclosingScopes(Operation *node, unsigned limit) {
  unsigned depth = 0;
  for (Operation *p = node->getParentOp(); p && isa<ScopeOp>(p) && depth < limit;
       p = p->getParentOp())
    ++depth;
  return depth;
}

unsigned perfdojo::getSubtreeScopeHeight(Operation *node) {
  // Depth-first with an explicit stack: the subtree may be any depth.
  unsigned height = 0;
  SmallVector<std::pair<Operation *, unsigned>> stack = {{node, 0}};
  while (!stack.empty()) {
    auto [op, above] = stack.pop_back_val();
    auto scope = dyn_cast<ScopeOp>(op);
    if (!scope)
      continue;
    height = std::max(height, above + 1);
    for (Operation &child : scope.getBlock())
      stack.push_back({&child, above + 1});
  }
  return height;
}

unsigned perfdojo::getNodeDepth(Operation *node) {
  unsigned depth = 0;
  for (Operation *p = node->getParentOp(); p && isa<ScopeOp>(p);
       p = p->getParentOp())
    ++depth;
  return depth;
}

SmallVector<int64_t, 8> perfdojo::getLeafBoxSizes(LeafOp leaf) {
  SmallVector<int64_t, 8> sizes;
  for (auto scope = leaf->getParentOfType<ScopeOp>(); scope;
       scope = scope->getParentOfType<ScopeOp>())
    sizes.push_back(scope.getSize());
  std::reverse(sizes.begin(), sizes.end());
  return sizes;
}

SmallVector<ScopeOp, 8> perfdojo::getEnclosingScopes(Operation *node) {
  SmallVector<ScopeOp, 8> scopes;
  for (auto scope = node->getParentOfType<ScopeOp>(); scope;
       scope = scope->getParentOfType<ScopeOp>())
    scopes.push_back(scope);
  std::reverse(scopes.begin(), scopes.end());
  return scopes;
}

Operation *perfdojo::getAncestorAtDepth(Operation *node, unsigned depth) {
  for (unsigned d = getNodeDepth(node); d > depth; --d)
    node = node->getParentOp();
  return node;
}

unsigned perfdojo::getCommonScopeCount(LeafOp a, LeafOp b) {
  unsigned c = 0;
  unsigned da = a.getDepth(), db = b.getDepth();
  for (unsigned d = 0; d < std::min(da, db); ++d) {
    if (getAncestorAtDepth(a, d) != getAncestorAtDepth(b, d))
      break;
    c = d + 1;
  }
  return c;
}

SmallVector<ScopeOp> perfdojo::collectScopes(KernelOp kernel) {
  SmallVector<ScopeOp> scopes;
  kernel.walk<WalkOrder::PreOrder>(
      [&](ScopeOp scope) { scopes.push_back(scope); });
  return scopes;
}

SmallVector<LeafOp> perfdojo::collectLeaves(Operation *op) {
  SmallVector<LeafOp> leaves;
  op->walk<WalkOrder::PreOrder>([&](LeafOp leaf) { leaves.push_back(leaf); });
  return leaves;
}

SmallVector<ArrayAccess> perfdojo::collectArrayAccesses(KernelOp kernel,
                                                        BufferOp buffer) {
  SmallVector<StringRef> arrays = buffer.getArrayNames();
  SmallVector<ArrayAccess> accesses;
  kernel.walk<WalkOrder::PreOrder>([&](LeafOp leaf) {
    if (llvm::is_contained(arrays, leaf.getArray()))
      accesses.push_back({leaf, -1, getIndexForms(leaf.getIndices())});
    for (auto [i, input] : llvm::enumerate(leaf.getInputs())) {
      auto access = dyn_cast<AccessAttr>(input);
      if (access && llvm::is_contained(arrays, access.getArray().getValue()))
        accesses.push_back(
            {leaf, static_cast<int>(i), getIndexForms(access.getIndices())});
    }
  });
  return accesses;
}
