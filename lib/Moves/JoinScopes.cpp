//===- JoinScopes.cpp - join_scopes (fusion) and split_off (fission) -----===//
//
// join_scopes a@d          (inverse: split_off at the gap between the parts)
//   The scope a@d and its next sibling, a scope of the same size, become one
//   scope running the first body then the second in every iteration.
// split_off a@d            (inverse: join_scopes)
//   The scope a@d (d < depth(a)) is cut after its child on the path to a;
//   the children after it move to a new scope of the same size right after.
//
// Legality (both): plain scopes of equal size, and no instance of the second
// part at an earlier iteration conflicts with an instance of the first part
// at a later one (the fusion-preventing backward dependence):
//   NODEP(X, Y | x_<d = y_<d, x_d > y_d)
// Physical addresses make a `:N` slot written in X and read in Y a conflict,
// so fission never separates the producer and consumer of a reused slot.
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {

/// The shared legality of fusion and fission of parts X and Y at depth d.
DiagnosedSilenceableFailure checkFusible(MoveState &state,
                                         const MoveRequest &request,
                                         Location errorLoc, unsigned d,
                                         ArrayRef<LeafOp> xs,
                                         ArrayRef<LeafOp> ys) {
  SmallVector<DepthRelation, 8> relations(d, DepthRelation::Equal);
  relations.push_back(DepthRelation::Greater);
  if (std::optional<Conflict> conflict = state.getDependences().findConflict(
          xs, ys, relations, state.ordering())) {
    DiagnosedSilenceableFailure diag =
        fail(request, errorLoc,
             "a later iteration of the first part conflicts with an earlier "
             "iteration of the second: " +
                 conflict->describe());
    diag.attachNote(conflict->first.getLoc()) << "first part";
    diag.attachNote(conflict->second.getLoc()) << "second part";
    return diag;
  }
  return DiagnosedSilenceableFailure::success();
}

SmallVector<LeafOp> leavesOf(iterator_range<Block::iterator> range) {
  SmallVector<LeafOp> leaves;
  for (Operation &op : range)
    leaves.append(collectLeaves(&op));
  return leaves;
}

class JoinScopes final : public MoveOf<MoveKind::JoinScopes> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    for (ScopeOp scope : collectScopes(state.getKernel())) {
      auto next = dyn_cast_or_null<ScopeOp>(scope->getNextNode());
      if (next && next.getSize() == scope.getSize())
        out.push_back({getName().str(), getNodeSelector(scope), {}});
    }
  }

  DiagnosedSilenceableFailure checkRequest(MoveState &state,
                                           const MoveRequest &request,
                                           Location errorLoc) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    ScopeOp first = resolveScopeRequest(state, request,
                                        "join_scopes needs a scope, not a leaf",
                                        errorLoc, diag);
    if (!first)
      return diag;
    auto second = dyn_cast_or_null<ScopeOp>(first->getNextNode());
    if (!second)
      return failWithNote(request, errorLoc, "the next sibling is not a scope",
                          first, "the scope");
    if (second.getSize() != first.getSize())
      return failWithNote(request, errorLoc,
                          "sizes differ: " + Twine(first.getSize()) + " and " +
                              Twine(second.getSize()),
                          second, "the next scope");
    for (ScopeOp scope : {first, second}) {
      if (scope.getMode() == Mode::seq)
        continue;
      return failWithNote(request, errorLoc,
                          "both scopes must be plain; clear the mode first",
                          scope, "scope with a mode");
    }
    return checkFusible(state, request, errorLoc, first.getDepth(),
                        collectLeaves(first), collectLeaves(second));
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    ScopeOp first = getRequestScope(state, request);
    auto second = cast<ScopeOp>(first->getNextNode());
    Operation *lastOfFirst = &first.getBlock().back();
    first.getBlock().getOperations().splice(
        first.getBlock().end(), second.getBlock().getOperations());
    second.erase();
    return {"split_off",
            getPathSelector(getFirstLeaf(lastOfFirst), first.getDepth()),
            {}};
  }
};

class SplitOff final : public MoveOf<MoveKind::SplitOff> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    for (ScopeOp scope : collectScopes(state.getKernel()))
      for (Operation &child : scope.getBlock())
        if (child.getNextNode())
          out.push_back({getName().str(),
                         getPathSelector(getFirstLeaf(&child),
                                         scope.getDepth()),
                         {}});
  }

  DiagnosedSilenceableFailure checkRequest(MoveState &state,
                                           const MoveRequest &request,
                                           Location errorLoc) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    ScopeOp scope = resolveScopeRequest(
        state, request,
        request.location + " is a leaf; split_off names a gap inside a scope "
                           "as a@d with d smaller than the depth of leaf a",
        errorLoc, diag);
    if (!scope)
      return diag;
    Operation *gap = gapChild(state, request);
    if (!gap->getNextNode())
      return failWithNote(
          request, errorLoc,
          "nothing follows the gap: the named child is the last one", gap,
          "the last child");
    if (scope.getMode() != Mode::seq)
      return failWithNote(request, errorLoc,
                          "the scope must be plain; clear the mode first",
                          scope, "scope with a mode");
    Block &block = scope.getBlock();
    auto cut = std::next(Block::iterator(gap));
    return checkFusible(state, request, errorLoc, scope.getDepth(),
                        leavesOf({block.begin(), cut}),
                        leavesOf({cut, block.end()}));
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    ScopeOp scope = getRequestScope(state, request);
    Operation *gap = gapChild(state, request);
    OpBuilder builder(scope.getContext());
    builder.setInsertionPointAfter(scope);
    auto second = ScopeOp::create(builder, scope.getLoc(), scope.getSize(),
                                  scope.getMode());
    second.getBlock().getOperations().splice(
        second.getBlock().end(), scope.getBlock().getOperations(),
        std::next(Block::iterator(gap)), scope.getBlock().end());
    return {"join_scopes", getNodeSelector(scope), {}};
  }

private:
  /// The child of the named scope on the path to the named leaf.
  static Operation *gapChild(MoveState &state, const MoveRequest &request) {
    StringRef leafPart = StringRef(request.location).split('@').first;
    Operation *node = *resolveNode(state.getKernel(), leafPart);
    Operation *scope = *resolveNode(state.getKernel(), request.location);
    while (node->getParentOp() != scope)
      node = node->getParentOp();
    return node;
  }
};
} // namespace

PERFDOJO_DEFINE_MOVE(JoinScopes)
PERFDOJO_DEFINE_MOVE(SplitOff)
