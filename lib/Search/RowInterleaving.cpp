//===- RowInterleaving.cpp - several rows of a row reduction at once ------===//

#include "RowInterleaving.h"

#include "LeafRef.h"
#include "MoveRules.h"

#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"

using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::heuristic;

namespace {

/// The depth of the row scope of `leaf` if it is a lane reduction: a
/// reduction in a `:v` scope whose enclosing scopes up to the row scope
/// (the nearest one whose variable the output index uses) are plain
/// scopes of the reduction, at least one of them.
std::optional<unsigned> getRowDepth(LeafOp leaf) {
  if (leaf.getReduce() == ReduceKind::none)
    return std::nullopt;
  auto scopes = getEnclosingScopes(leaf);
  if (scopes.size() < 3 || scopes.back().getMode() != Mode::vector)
    return std::nullopt;
  mlir::AffineMap output = leaf.getIndices();
  for (int d = int(scopes.size()) - 2; d >= 0; --d) {
    if (scopes[d].getMode() != Mode::seq)
      return std::nullopt;
    if (usesDepth(output, d))
      return d + 2 < int(scopes.size()) ? std::optional<unsigned>(d)
                                        : std::nullopt;
  }
  return std::nullopt;
}

/// The rows to interleave in a row scope of `size` iterations (0: none).
int64_t getInterleavedRows(int64_t size) {
  for (int64_t rows = kMaxInterleavedRows; rows > 1; rows /= 2)
    if (size % rows == 0 && size > rows)
      return rows;
  return 0;
}

/// Whether every scope below `scope` runs as straight-line code (`:v` or
/// `:u`): unrolling `scope` then adds no loop copies.
bool hasStraightLineBody(ScopeOp scope) {
  bool straight = true;
  scope.getBlock().walk([&](ScopeOp inner) {
    straight &=
        inner.getMode() == Mode::vector || inner.getMode() == Mode::unroll;
  });
  return straight;
}

/// Gives every internal buffer dimension indexed `rows*{d} + {d+1}` (the
/// row scope at depth d just split by `rows`) the two dimensions
/// `[{d}, {d+1}]`, where legal.
void splitRowDims(Game &game, unsigned d, int64_t rows) {
  llvm::SmallVector<std::pair<std::string, unsigned>> dims;
  KernelOp kernel = game.getKernel();
  for (BufferOp buffer : kernel.getBuffers()) {
    if (buffer.isArgument())
      continue;
    auto accesses = collectArrayAccesses(kernel, buffer);
    // Last dimension first: a split shifts the later ones.
    for (int k = int(buffer.getRank()) - 1; k >= 0; --k) {
      if (buffer.getShape()[k] % rows)
        continue;
      if (llvm::any_of(accesses, [&](const ArrayAccess &access) {
            const LinearForm &form = access.indices[k];
            return form.coeff(d + 1) != 0 &&
                   form.coeff(d) == rows * form.coeff(d + 1);
          }))
        dims.emplace_back(buffer.getName().str(), unsigned(k));
    }
  }
  for (const auto &[name, k] : dims)
    tryApply(game, makeMove(MoveKind::SplitDim,
                            name + "." + std::to_string(k), {rows}));
}

/// The arrays `leaf` reads.
llvm::StringSet<> getReadArrays(LeafOp leaf) {
  llvm::StringSet<> arrays;
  for (mlir::Attribute input : leaf.getInputs())
    if (auto access = llvm::dyn_cast<AccessAttr>(input))
      arrays.insert(access.getArray().getValue());
  return arrays;
}

/// Whether a lane reduction of the row scope `rowScope` (at `depth`) reads
/// an array that a leaf of the row scope other than a reduction reads too
/// (a softmax's second pass over its row). Interleaved rows would spread
/// that reuse over R rows' data, out of the nearest cache. Reductions are
/// exempt: the scalar remainder of a row (`y[i] += x[i, 48]`) reads the
/// lines the lanes just read.
bool isRowReadAgain(ScopeOp rowScope, unsigned depth) {
  llvm::SmallVector<LeafOp> leaves = collectLeaves(rowScope);
  for (LeafOp leaf : leaves) {
    if (getRowDepth(leaf) != depth)
      continue;
    llvm::StringSet<> read = getReadArrays(leaf);
    for (LeafOp other : leaves)
      if (other.getReduce() == ReduceKind::none &&
          llvm::any_of(getReadArrays(other), [&](const auto &array) {
            return read.contains(array.getKey());
          }))
        return true;
  }
  return false;
}

/// Interleaves the rows of the row scope at `depth` on the path of `site`.
bool interleave(Game &game, const LeafRef &site, unsigned depth) {
  KernelOp kernel = game.getKernel();
  LeafOp leaf = findLeaf(kernel, site);
  auto rowScope = llvm::cast<ScopeOp>(getAncestorAtDepth(leaf, depth));
  int64_t rows = getInterleavedRows(rowScope.getSize());
  if (!rows || isRowReadAgain(rowScope, depth))
    return false;
  // Each child of the row scope, by its first leaf; and whether it holds
  // a lane reduction of this row scope.
  llvm::SmallVector<std::pair<LeafRef, bool>> children;
  for (mlir::Operation &child : rowScope.getBlock()) {
    bool reduces = llvm::any_of(collectLeaves(&child), [&](LeafOp inner) {
      return getRowDepth(inner) == depth;
    });
    children.emplace_back(getLeafRef(kernel, getFirstLeaf(&child)), reduces);
  }
  size_t mark = game.history().size();
  auto at = [&](const LeafRef &ref, unsigned d) {
    return getPathSelector(findLeaf(game.getKernel(), ref), d);
  };
  if (!tryApply(game, makeMove(MoveKind::SplitScope, at(site, depth), {rows})))
    return false;
  splitRowDims(game, depth, rows);
  for (size_t i = 0; i + 1 < children.size(); ++i)
    if (!tryApply(game, makeMove(MoveKind::SplitOff,
                                 at(children[i].first, depth + 1)))) {
      undoTo(game, mark);
      return false;
    }
  for (const auto &[ref, reduces] : children) {
    unsigned d = depth + 1;
    // The rows' copy of a lane reduction goes down through its reduction
    // scopes to the lanes.
    while (reduces) {
      auto copy = llvm::cast<ScopeOp>(
          getAncestorAtDepth(findLeaf(game.getKernel(), ref), d));
      auto inner = llvm::dyn_cast<ScopeOp>(&copy.getBlock().front());
      if (!llvm::hasSingleElement(copy.getBlock()) || !inner ||
          inner.getMode() != Mode::seq ||
          !tryApply(game, makeMove(MoveKind::SwapNestedScopes, at(ref, d))))
        break;
      ++d;
    }
    auto copy = llvm::cast<ScopeOp>(
        getAncestorAtDepth(findLeaf(game.getKernel(), ref), d));
    if (hasStraightLineBody(copy))
      tryApply(game, makeMove(MoveKind::SetUnroll, at(ref, d)));
  }
  return true;
}

} // namespace

bool perfdojo::heuristic::interleaveRows(Game &game) {
  bool changed = false;
  // One row scope at a time, by one of its lane reductions: the moves
  // change the tree under the others.
  llvm::SmallVector<std::pair<LeafRef, unsigned>> sites;
  llvm::DenseSet<mlir::Operation *> rowScopes;
  KernelOp kernel = game.getKernel();
  kernel.walk([&](LeafOp leaf) {
    if (auto depth = getRowDepth(leaf))
      if (rowScopes.insert(getAncestorAtDepth(leaf, *depth)).second)
        sites.emplace_back(getLeafRef(kernel, leaf), *depth);
  });
  // Later row scopes first: interleaving renumbers no leaf, but keeps the
  // earlier scopes' depths.
  for (const auto &[ref, depth] : llvm::reverse(sites))
    changed |= interleave(game, ref, depth);
  return changed;
}
