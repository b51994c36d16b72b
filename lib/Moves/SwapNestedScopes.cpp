//===- SwapNestedScopes.cpp - swap_nested_scopes (interchange) -----------===//
//
// swap_nested_scopes a@d   (inverse: itself, at the same location)
//   A scope at depth d whose only child is a scope exchanges sizes with it;
//   {d} and {d+1} swap in every index below.
//   Legality: both scopes are plain (modes are set after restructuring), and
//   no two instances whose order flips conflict:
//     NODEP(sub, sub | x_<d = y_<d, x_d < y_d, x_d+1 > y_d+1)
//   in ordering mode, so same-operator reductions may be interchanged under
//   the reassociation policy.
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {
class SwapNestedScopes final
    : public MoveOf<MoveKind::SwapNestedScopes, 0, NodeMove> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    for (ScopeOp scope : collectScopes(state.getKernel()))
      if (llvm::hasSingleElement(scope.getBlock()) &&
          isa<ScopeOp>(scope.getBlock().front()))
        out.push_back({getName().str(), getNodeSelector(scope), {}});
  }

  DiagnosedSilenceableFailure checkNode(MoveState &state,
                                        const MoveRequest &request,
                                        Location errorLoc,
                                        Operation *node) const override {
    auto outer = dyn_cast<ScopeOp>(node);
    ScopeOp inner;
    if (outer && llvm::hasSingleElement(outer.getBlock()))
      inner = dyn_cast<ScopeOp>(outer.getBlock().front());
    if (!inner)
      return failWithNote(request, errorLoc,
                          "needs a scope whose only child is a scope", node,
                          "this node");
    for (ScopeOp scope : {outer, inner}) {
      if (scope.getMode() == Mode::seq)
        continue;
      return failWithNote(request, errorLoc,
                          "both scopes must be plain; clear the mode first",
                          scope, "scope with a mode");
    }
    unsigned d = outer.getDepth();
    SmallVector<DepthRelation, 8> relations(d, DepthRelation::Equal);
    relations.push_back(DepthRelation::Less);
    relations.push_back(DepthRelation::Greater);
    SmallVector<LeafOp> leaves = collectLeaves(inner);
    if (std::optional<Conflict> conflict = state.getDependences().findConflict(
            leaves, leaves, relations, state.ordering())) {
      DiagnosedSilenceableFailure diag =
          fail(request, errorLoc,
               "interchange would reorder dependent instances: " +
                   conflict->describe());
      diag.attachNote(conflict->first.getLoc()) << "this leaf";
      diag.attachNote(conflict->second.getLoc()) << "depends on this leaf";
      return diag;
    }
    return DiagnosedSilenceableFailure::success();
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    ScopeOp outer = getRequestScope(state, request);
    auto inner = cast<ScopeOp>(outer.getBlock().front());
    unsigned d = outer.getDepth();
    int64_t outerSize = outer.getSize();
    outer.setSize(inner.getSize());
    inner.setSize(outerSize);
    rewriteIndices(inner, [&](const LinearForm &in) {
      LinearForm out = in;
      if (out.coeffs.size() < d + 2)
        out.coeffs.resize(d + 2, 0);
      std::swap(out.coeffs[d], out.coeffs[d + 1]);
      while (!out.coeffs.empty() && out.coeffs.back() == 0)
        out.coeffs.pop_back();
      return out;
    });
    return {getName().str(), getNodeSelector(outer), {}};
  }
};
} // namespace

PERFDOJO_DEFINE_MOVE(SwapNestedScopes)
