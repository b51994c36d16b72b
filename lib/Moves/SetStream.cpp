//===- SetStream.cpp - set_ssr and clear_ssr ------------------------------===//
//
// Snitch's stream semantic registers as moves on one leaf operand (F1 of
// docs/moves.md). A stream mark is a hint like a mode: the interpreter and
// the CPU lowering read the operand from memory as before, the Snitch
// lowering streams it.
//
//   set_ssr a@d [j, e]  operand j (0 the output) of leaf a@d streams from
//                       the scope of depth e: the stream rule
//                       (Analysis/SnitchRules.h) holds on the result.
//   clear_ssr a@d [j]   the operand is read or written from memory again;
//                       refused where a `:f` scope around the leaf needs
//                       the stream (the FREP body rule).
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"
#include "perfdojo/Analysis/SnitchRules.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {

/// Whether operand `position` (0 the output) of `leaf` is an array access.
bool isAccessOperand(LeafOp leaf, unsigned position) {
  return position == 0 || isa<AccessAttr>(leaf.getInputs()[position - 1]);
}

/// Both moves name a leaf and need a target with stream data movers.
template <MoveKind Kind, unsigned NumParams>
class StreamMove : public MoveOf<Kind, NumParams, NodeMove> {
public:
  bool isAvailableOn(const TargetDescription &target) const override {
    return target.streamDataMovers > 0;
  }
  bool restructuresTree() const override { return false; }

protected:
  virtual DiagnosedSilenceableFailure checkLeaf(MoveState &state,
                                                const MoveRequest &request,
                                                Location errorLoc,
                                                LeafOp leaf) const = 0;

private:
  DiagnosedSilenceableFailure checkNode(MoveState &state,
                                        const MoveRequest &request,
                                        Location errorLoc,
                                        Operation *node) const final {
    auto leaf = dyn_cast<LeafOp>(node);
    if (!leaf)
      return failWithNote(request, errorLoc,
                          "streams are set on leaf operands; this is a scope",
                          node, "the scope");
    return checkLeaf(state, request, errorLoc, leaf);
  }
};

class SetSsr final : public StreamMove<MoveKind::SetSsr, 2> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    state.getKernel().walk([&](LeafOp leaf) {
      std::string location = getNodeSelector(leaf);
      for (unsigned position = 0; position <= leaf.getInputs().size();
           ++position) {
        if (!isAccessOperand(leaf, position) ||
            leaf.getStreamDepth(position))
          continue;
        for (unsigned depth = 0; depth < leaf.getDepth(); ++depth)
          out.push_back({getName().str(),
                         location,
                         {int64_t(position), int64_t(depth)}});
      }
    });
  }

  DiagnosedSilenceableFailure checkLeaf(MoveState &state,
                                        const MoveRequest &request,
                                        Location errorLoc,
                                        LeafOp leaf) const override {
    const TargetDescription &target = state.getOptions().target;
    if (!isAvailableOn(target))
      return failWithNote(request, errorLoc,
                          "the target '" + target.name +
                              "' has no stream semantic registers",
                          leaf, "the leaf");
    int64_t position = request.params[0], depth = request.params[1];
    int64_t operands = leaf.getInputs().size() + 1;
    if (position < 0 || position >= operands)
      return failWithNote(request, errorLoc,
                          "the leaf has operands 0 (the output) to " +
                              Twine(operands - 1) + ", not " +
                              Twine(position),
                          leaf, "the leaf");
    if (!isAccessOperand(leaf, position))
      return failWithNote(request, errorLoc,
                          "operand " + Twine(position) +
                              " is no array access: only accesses stream",
                          leaf, "the leaf");
    if (leaf.getStreamDepth(position))
      return failWithNote(request, errorLoc,
                          "operand " + Twine(position) +
                              " streams already; clear_ssr it first",
                          leaf, "the leaf");
    if (depth < 0 || depth >= leaf.getDepth())
      return failWithNote(request, errorLoc,
                          "a stream starts at a scope around the leaf: depth "
                          "0 to " +
                              Twine(int64_t(leaf.getDepth()) - 1) + ", not " +
                              Twine(depth),
                          leaf, "the leaf");
    OwningOpRef<KernelOp> copy = state.getKernel().clone();
    auto copyLeaf = cast<LeafOp>(*resolveNode(*copy, request.location));
    copyLeaf.setStreamDepth(position, depth);
    if (std::optional<InvariantViolation> violation =
            findStreamViolation(copyLeaf)) {
      DiagnosedSilenceableFailure d =
          fail(request, errorLoc, violation->reason);
      d.attachNote(leaf.getLoc()) << "the leaf";
      return d;
    }
    return DiagnosedSilenceableFailure::success();
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    auto leaf = cast<LeafOp>(*resolveNode(state.getKernel(), request.location));
    leaf.setStreamDepth(request.params[0], request.params[1]);
    return {"clear_ssr", request.location, {request.params[0]}};
  }
};

class ClearSsr final : public StreamMove<MoveKind::ClearSsr, 1> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    state.getKernel().walk([&](LeafOp leaf) {
      for (unsigned position = 0; position <= leaf.getInputs().size();
           ++position)
        if (leaf.getStreamDepth(position))
          out.push_back(
              {getName().str(), getNodeSelector(leaf), {int64_t(position)}});
    });
  }

  DiagnosedSilenceableFailure checkLeaf(MoveState &state,
                                        const MoveRequest &request,
                                        Location errorLoc,
                                        LeafOp leaf) const override {
    int64_t position = request.params[0];
    if (position < 0 || position > int64_t(leaf.getInputs().size()) ||
        !leaf.getStreamDepth(position))
      return failWithNote(request, errorLoc,
                          "operand " + Twine(position) + " is not streamed",
                          leaf, "the leaf");
    for (auto scope = leaf->getParentOfType<ScopeOp>(); scope;
         scope = scope->getParentOfType<ScopeOp>()) {
      if (scope.getMode() != Mode::frep)
        continue;
      return failWithNote(request, errorLoc,
                          "the :f scope around the leaf repeats it from the "
                          "stream; clear its mode first",
                          scope, "the :f scope");
    }
    return DiagnosedSilenceableFailure::success();
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    auto leaf = cast<LeafOp>(*resolveNode(state.getKernel(), request.location));
    unsigned position = request.params[0];
    int64_t depth = *leaf.getStreamDepth(position);
    leaf.setStreamDepth(position, std::nullopt);
    return {"set_ssr", request.location, {int64_t(position), depth}};
  }
};

} // namespace

PERFDOJO_DEFINE_MOVE(SetSsr)
PERFDOJO_DEFINE_MOVE(ClearSsr)
