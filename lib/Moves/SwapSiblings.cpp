//===- SwapSiblings.cpp - swap_siblings (statement/loop reordering) ------===//
//
// swap_siblings a@d        (inverse: swap_siblings on the moved node)
//   The node a@d (a scope or a leaf) and its next sibling exchange places.
//   Legality: no instance of one conflicts with an instance of the other in
//   the same iteration of every enclosing scope:
//     NODEP(leaves(N), leaves(M) | x_<d = y_<d)
//   Flow, anti and output dependences all count; same-operator reductions
//   into one element commute under the reassociation policy.
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {
bool isTreeNode(Operation *op) { return isa<ScopeOp, LeafOp>(op); }

class SwapSiblings final : public MoveOf<MoveKind::SwapSiblings, 0, NodeMove> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    state.getKernel().walk<WalkOrder::PreOrder>([&](Operation *op) {
      Operation *next = op->getNextNode();
      if (isTreeNode(op) && next && isTreeNode(next))
        out.push_back({getName().str(), getNodeSelector(op), {}});
    });
  }

  DiagnosedSilenceableFailure checkNode(MoveState &state,
                                        const MoveRequest &request,
                                        Location errorLoc,
                                        Operation *first) const override {
    Operation *second = first->getNextNode();
    if (!second)
      return failWithNote(request, errorLoc, "the node has no next sibling",
                          first, "the node");
    unsigned d = getNodeDepth(first);
    SmallVector<DepthRelation, 8> relations(d, DepthRelation::Equal);
    if (std::optional<Conflict> conflict = state.getDependences().findConflict(
            collectLeaves(first), collectLeaves(second), relations,
            state.ordering())) {
      DiagnosedSilenceableFailure diag =
          fail(request, errorLoc,
               "the siblings depend on each other: " + conflict->describe());
      diag.attachNote(conflict->first.getLoc()) << "this leaf";
      diag.attachNote(conflict->second.getLoc()) << "conflicts with this leaf";
      return diag;
    }
    return DiagnosedSilenceableFailure::success();
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    Operation *first = *resolveNode(state.getKernel(), request.location);
    Operation *second = first->getNextNode();
    second->moveBefore(first);
    return {getName().str(), getNodeSelector(second), {}};
  }
};
} // namespace

PERFDOJO_DEFINE_MOVE(SwapSiblings)
