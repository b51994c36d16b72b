//===- IndexRewrite.cpp - rewriting the affine forms of a subtree --------===//
//
// Scopes carry no SSA values, so restructuring the tree only rewrites the
// affine forms of the leaves below it. These helpers visit every form of a
// leaf: its output index list, each access operand and each index value.
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

namespace {
AffineMap mapForms(AffineMap map,
                   function_ref<LinearForm(const LinearForm &)> fn) {
  MLIRContext *ctx = map.getContext();
  SmallVector<AffineExpr, 4> results;
  for (AffineExpr e : map.getResults())
    results.push_back(buildAffineExpr(fn(*getLinearForm(e)), ctx));
  return makeIndexMap(results, ctx);
}
} // namespace

void perfdojo::moves::rewriteIndices(
    Operation *root, function_ref<LinearForm(const LinearForm &)> fn) {
  auto rewriteLeaf = [&](LeafOp leaf) {
    MLIRContext *ctx = leaf.getContext();
    leaf.setIndicesAttr(AffineMapAttr::get(mapForms(leaf.getIndices(), fn)));
    SmallVector<Attribute, 2> inputs;
    for (Attribute input : leaf.getInputs()) {
      if (auto access = dyn_cast<AccessAttr>(input))
        input = AccessAttr::get(ctx, access.getArray(),
                                mapForms(access.getIndices(), fn));
      else if (auto index = dyn_cast<IndexValueAttr>(input))
        input = IndexValueAttr::get(ctx, mapForms(index.getExpr(), fn));
      inputs.push_back(input);
    }
    leaf.setInputsAttr(ArrayAttr::get(ctx, inputs));
  };
  root->walk(rewriteLeaf);
}

bool perfdojo::moves::allIndices(Operation *root,
                                 function_ref<bool(const LinearForm &)> fn) {
  auto visitMap = [&](AffineMap map) {
    for (AffineExpr e : map.getResults())
      if (!fn(*getLinearForm(e)))
        return false;
    return true;
  };
  WalkResult result = root->walk([&](LeafOp leaf) {
    if (!visitMap(leaf.getIndices()))
      return WalkResult::interrupt();
    for (Attribute input : leaf.getInputs()) {
      if (auto access = dyn_cast<AccessAttr>(input)) {
        if (!visitMap(access.getIndices()))
          return WalkResult::interrupt();
      } else if (auto index = dyn_cast<IndexValueAttr>(input)) {
        if (!visitMap(index.getExpr()))
          return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}
