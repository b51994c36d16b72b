//===- TilePacking.cpp - staged copies packed per cache tile --------------===//
//
// The rule of TilePacking.h. On ResNet-50's stage-4 3x3 convolution after
// the relayout and a cache tile of 16 input channels:
//
//   16 256 3 3 16:v w_s[{1}, {2}, {3}, 16*{0}+{4}] = w[16*{0}+{4}, {1}, ..]
//   16 1 14 ... y_s[..] += x[..] * w_s[16*{0}+{5}, {6}, {7}, ..]
//
// becomes one tile loop that copies its 16 x 3 x 3 x 256 slab (147 KB, in
// L2) and then reads it, where the whole copy (2.36 MB) was written to
// memory and read back.
//
//===----------------------------------------------------------------------===//

#include "TilePacking.h"

#include "MoveRules.h"

#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"

using namespace perfdojo;
using namespace perfdojo::dojo;

namespace {

/// The one leaf writing `array`, or null where none or several do.
LeafOp getOnlyWriter(KernelOp kernel, llvm::StringRef array) {
  LeafOp found;
  unsigned writers = 0;
  kernel.walk([&](LeafOp leaf) {
    if (leaf.getArray() == array && writers++ == 0)
      found = leaf;
  });
  return writers == 1 ? found : LeafOp();
}

/// The accesses to `array` that leaves below `op` read.
llvm::SmallVector<AccessAttr> getReads(mlir::Operation *op,
                                       llvm::StringRef array) {
  llvm::SmallVector<AccessAttr> reads;
  for (LeafOp leaf : collectLeaves(op))
    for (mlir::Attribute input : leaf.getInputs())
      if (auto access = llvm::dyn_cast<AccessAttr>(input);
          access && access.getArray() == array)
        reads.push_back(access);
  return reads;
}

/// Where to pack the copy into `array`: the dimension the reading tile
/// walks in slabs of `slab` elements, and the depth of the copy's scope
/// that writes it.
struct PackPlan {
  std::string array;
  unsigned dim = 0;
  unsigned depth = 0;
  int64_t slab = 0;
};

std::optional<PackPlan> planPacking(KernelOp kernel, BufferOp buffer) {
  if (buffer.isArgument())
    return std::nullopt;
  llvm::StringRef name = buffer.getName();
  LeafOp copy = getOnlyWriter(kernel, name);
  if (!copy || copy.getReduce() != ReduceKind::none ||
      copy.getInputs().size() != 1 ||
      !llvm::isa<AccessAttr>(copy.getInputs()[0]))
    return std::nullopt;
  mlir::Operation *top = getAncestorAtDepth(copy, 0);
  if (!llvm::isa<ScopeOp>(top) || collectLeaves(top).size() != 1)
    return std::nullopt;
  // The reading nest: the one later top-level node that reads the copy.
  ScopeOp tile;
  for (mlir::Operation *op = top->getNextNode(); op; op = op->getNextNode()) {
    if (getReads(op, name).empty())
      continue;
    if (tile || !llvm::isa<ScopeOp>(op))
      return std::nullopt;
    tile = llvm::cast<ScopeOp>(op);
  }
  if (!tile || tile.getMode() != Mode::seq || tile.getSize() < 2)
    return std::nullopt;
  // Per dimension, the step of every read along the tile's variable.
  llvm::SmallVector<LinearForm, 4> writes = getIndexForms(copy.getIndices());
  llvm::SmallVector<std::optional<int64_t>> slabs(writes.size());
  for (AccessAttr read : getReads(tile, name))
    for (auto [k, form] : llvm::enumerate(getIndexForms(read.getIndices()))) {
      int64_t step = form.coeff(0);
      slabs[k] = !slabs[k] || *slabs[k] == step ? step : -1;
    }
  llvm::SmallVector<ScopeOp, 8> scopes = getEnclosingScopes(copy);
  for (auto [k, write] : llvm::enumerate(writes)) {
    if (!slabs[k] || *slabs[k] < 2 || write.constant != 0)
      continue;
    std::optional<unsigned> depth;
    bool single = true;
    for (unsigned d = 0; d < scopes.size(); ++d)
      if (int64_t c = write.coeff(d)) {
        single &= !depth && c == 1;
        depth = d;
      }
    if (single && depth &&
        int64_t(scopes[*depth].getSize()) ==
            int64_t(tile.getSize()) * *slabs[k])
      return PackPlan{name.str(), unsigned(k), *depth, *slabs[k]};
  }
  return std::nullopt;
}

bool pack(Game &game, const PackPlan &plan) {
  size_t mark = game.history().size();
  auto fail = [&] {
    undoTo(game, mark);
    return false;
  };
  auto at = [&](unsigned depth) {
    return getPathSelector(getOnlyWriter(game.getKernel(), plan.array),
                           depth);
  };
  // The scopes above the slab's become plain for the swaps (only plain
  // scopes swap) and parallel again afterwards, one level deeper.
  llvm::SmallVector<unsigned> parallel;
  for (unsigned d = 0; d < plan.depth; ++d) {
    ScopeOp scope = llvm::cast<ScopeOp>(getAncestorAtDepth(
        getOnlyWriter(game.getKernel(), plan.array), d));
    if (scope.getMode() == Mode::seq)
      continue;
    if (scope.getMode() != Mode::parallel ||
        !tryApply(game, makeMove(MoveKind::ClearMode, at(d))))
      return fail();
    parallel.push_back(d + 1);
  }
  if (!tryApply(game, makeMove(MoveKind::SplitScope, at(plan.depth),
                               {plan.slab})))
    return fail();
  for (unsigned d = plan.depth; d > 0; --d)
    if (!tryApply(game, makeMove(MoveKind::SwapNestedScopes, at(d - 1))))
      return fail();
  // Next to the reading nest: past the nests in between (the output's
  // initialization), each swap a legal move.
  for (unsigned step = 0;; ++step) {
    mlir::Operation *top =
        getAncestorAtDepth(getOnlyWriter(game.getKernel(), plan.array), 0);
    mlir::Operation *next = top->getNextNode();
    if (!next || step > 256)
      return fail();
    if (!getReads(next, plan.array).empty())
      break;
    if (!tryApply(game, makeMove(MoveKind::SwapSiblings, at(0))))
      return fail();
  }
  std::string dim = plan.array + "." + std::to_string(plan.dim);
  if (!tryApply(game, makeMove(MoveKind::JoinScopes, at(0))) ||
      !tryApply(game, makeMove(MoveKind::SplitDim, dim, {plan.slab})) ||
      !tryApply(game, makeMove(MoveKind::ReuseDims, dim)))
    return fail();
  for (unsigned d : parallel)
    if (!tryApply(game, makeMove(MoveKind::SetParallel, at(d))))
      return fail();
  return true;
}

} // namespace

bool heuristic::packCopiesInTiles(Game &game) {
  llvm::SmallVector<std::string> internal;
  for (BufferOp buffer : game.getKernel().getBuffers())
    if (!buffer.isArgument())
      internal.push_back(buffer.getName().str());
  bool packed = false;
  for (const std::string &name : internal)
    if (BufferOp buffer = game.getKernel().lookupArray(name))
      if (std::optional<PackPlan> plan = planPacking(game.getKernel(), buffer))
        packed |= pack(game, *plan);
  return packed;
}
