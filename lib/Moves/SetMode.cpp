//===- SetMode.cpp - set_unroll/parallel/vector/gpu_*, clear_mode ---------===//
//
// Modes are execution hints: a mode is legal iff the kernel computes the same
// outputs as with the mode erased. One move per mode sets it on a plain
// scope a@d; clear_mode a@d is the common inverse.
//
//   Which modes nest in which, and that a `:v` scope holds exactly one
//   leaf, is the mode taxonomy (Dialect/Dojo/IR/ModeRules.h); the sizes are
//   the target's (TargetDescription.h):
//   set_unroll     size <= unrollLimit.
//   set_vector     size = the target's lanes for the output's type; the
//                  output moves by one element per lane and every operand
//                  by zero or one (vector lanes, KernelInvariants.h).
//   set_gpu_block  size <= maxBlockSize; every phase of the kernel keeps the
//                  same :b sizes (one block shape per launch). A block
//                  reduction (its phase one reduction leaf whose output
//                  misses the scope, Analysis/Concurrency.h) combines its
//                  threads' terms as a tree: the reduction policy must
//                  allow reordering and the target combine its size and
//                  type (findBlockReductionViolation).
//   set_gpu_warp   size = warpSize.
//   set_frep       size <= the sequencer's repetitions; the body is FP code
//                  over streams and registers (the FREP body rule,
//                  Analysis/SnitchRules.h).
//   Every concurrent mode (`:p :v :g :b :w`): no two instances that may
//   run at the same time conflict (race freedom; for `:b` the phase rule,
//   Analysis/Concurrency.h: threads of different phases are ordered by
//   barriers, threads of one phase conflict in any iterations of the
//   sequential scopes around it).
//   The conflict test runs with the new mode in place: a `:p` or GPU mode
//   privatizes the stack/reg/gpu_* temporaries whose accesses all lie in
//   its iterations and whose reads are covered per iteration
//   (getPrivatizingScope, Analysis/Privatization.h); such a buffer gets a
//   copy per iteration and creates no conflict. Heap buffers are shared.
//   Every mode is an invariant of the IR: the verifier and the
//   post-verification of every later move re-run these rules.
//   clear_mode     always keeps results; refused where it would break the
//                  GPU nesting (a grid above blocks, a block above warps),
//                  and on a `:v` whose leaf set_vector would refuse (its
//                  inverse).
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"
#include "perfdojo/Analysis/Concurrency.h"
#include "perfdojo/Analysis/KernelInvariants.h"
#include "perfdojo/Analysis/SnitchRules.h"
#include "perfdojo/Dialect/Dojo/IR/TextSyntax.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {

std::string suffixOf(Mode m) { return ":" + getModeSuffix(m).str(); }

/// The set_* moves, one instance per mode.
class SetMode : public NodeMove {
public:
  SetMode(MoveKind kind, Mode mode) : NodeMove(kind, 0), mode(mode) {}
  std::optional<Mode> getRequiredMode() const override { return mode; }

  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    for (ScopeOp scope : collectScopes(state.getKernel()))
      if (scope.getMode() == Mode::seq)
        out.push_back({getName().str(), getNodeSelector(scope), {}});
  }

  DiagnosedSilenceableFailure checkNode(MoveState &state,
                                        const MoveRequest &request,
                                        Location errorLoc,
                                        Operation *node) const override {
    auto scope = dyn_cast<ScopeOp>(node);
    auto failAt = [&](Operation *at, const Twine &message, StringRef what) {
      DiagnosedSilenceableFailure d = fail(request, errorLoc, message);
      d.attachNote(at->getLoc()) << what;
      return d;
    };
    if (!scope)
      return failAt(node, "modes are set on scopes, not leaves", "the leaf");
    if (scope.getMode() != Mode::seq)
      return failAt(scope,
                    "the scope already has mode " + suffixOf(scope.getMode()) +
                        "; clear it first",
                    "the scope");
    const TargetDescription &target = state.getOptions().target;
    if (!target.supports(mode))
      return failAt(scope,
                    "the target '" + target.name + "' has no " +
                        describeMode(mode) + " scopes",
                    "the scope");
    auto failRule = [&](const ModeRuleViolation &violation) {
      DiagnosedSilenceableFailure d =
          fail(request, errorLoc, violation.message);
      d.attachNote(violation.other ? violation.other->getLoc()
                                   : scope.getLoc())
          << (violation.other ? violation.note : "the scope");
      return d;
    };
    if (std::optional<ModeRuleViolation> violation =
            findEnclosingModeViolation(scope, mode))
      return failRule(*violation);
    if (std::optional<ModeRuleViolation> violation =
            findEnclosedModeViolation(scope, mode))
      return failRule(*violation);
    if (std::optional<DiagnosedSilenceableFailure> bad =
            checkTargetSize(state, request, errorLoc, scope))
      return std::move(*bad);

    // The invariants of the new mode, on a copy that has it: its lanes, the
    // block shape and race freedom (the mode itself can privatize buffers,
    // a stack temporary per `:p` iteration, Privatization.h).
    OwningOpRef<KernelOp> copy = state.getKernel().clone();
    auto copyScope = cast<ScopeOp>(*resolveNode(*copy, request.location));
    copyScope.setMode(mode);
    auto failInvariant = [&](const Twine &message,
                             const InvariantViolation &violation) {
      DiagnosedSilenceableFailure d = fail(request, errorLoc, message);
      violation.attachNotes(d);
      return d;
    };
    if (mode == Mode::vector)
      if (std::optional<InvariantViolation> violation =
              findVectorLaneViolation(copyScope))
        return failInvariant(violation->reason, *violation);
    if (mode == Mode::frep)
      if (std::optional<InvariantViolation> violation =
              findFrepViolation(copyScope))
        return failInvariant(violation->reason, *violation);
    if (mode == Mode::gpu_block)
      if (std::optional<InvariantViolation> violation =
              findBlockShapeViolation(*copy))
        return failInvariant("the phases of the kernel would have " +
                                 violation->reason,
                             *violation);
    if (mode == Mode::gpu_block && isBlockReduction(copyScope)) {
      auto leaf = cast<LeafOp>(copyScope.getBlock().front());
      if (std::optional<std::string> problem =
              state.getOptions().target.findBlockReductionViolation(
                  copyScope.getSize(),
                  copy->lookupArray(leaf.getArray()).getElementType()))
        return failAt(scope, "its threads would reduce into one element: " +
                                 *problem,
                      "the scope");
    }
    if (!isConcurrentMode(mode))
      return DiagnosedSilenceableFailure::success();
    DependenceAnalysis deps(*copy);
    if (std::optional<InvariantViolation> violation =
            findRaceViolation(deps, copyScope,
                                  state.getOptions().reassociate))
      return failInvariant("the scope would race: " + violation->reason,
                           *violation);
    return DiagnosedSilenceableFailure::success();
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    ScopeOp scope = getRequestScope(state, request);
    scope.setMode(mode);
    return {"clear_mode", request.location, {}};
  }

private:
  /// The target's size for the mode (TargetDescription::
  /// findModeSizeViolation): the failure to report, or nullopt.
  std::optional<DiagnosedSilenceableFailure>
  checkTargetSize(MoveState &state, const MoveRequest &request,
                  Location errorLoc, ScopeOp scope) const {
    // The mode rules made a `:v` body one leaf: its output's type has the
    // lanes.
    Type laneType;
    if (mode == Mode::vector)
      laneType = state.getKernel()
                     .lookupArray(cast<LeafOp>(scope.getBlock().front())
                                      .getArray())
                     .getElementType();
    std::optional<std::string> problem =
        state.getOptions().target.findModeSizeViolation(
            mode, scope.getSize(), laneType);
    if (!problem)
      return std::nullopt;
    DiagnosedSilenceableFailure d = fail(request, errorLoc, *problem);
    d.attachNote(scope.getLoc()) << "the scope";
    return std::move(d);
  }

  Mode mode;
};

/// The set_* move of `ModeValue`, of kind `Kind`.
template <MoveKind Kind, Mode ModeValue> class SetModeOf final : public SetMode {
public:
  SetModeOf() : SetMode(Kind, ModeValue) {}
};
using SetUnrollMove = SetModeOf<MoveKind::SetUnroll, Mode::unroll>;
using SetParallelMove = SetModeOf<MoveKind::SetParallel, Mode::parallel>;
using SetVectorMove = SetModeOf<MoveKind::SetVector, Mode::vector>;
using SetGpuGridMove = SetModeOf<MoveKind::SetGpuGrid, Mode::gpu_grid>;
using SetGpuBlockMove = SetModeOf<MoveKind::SetGpuBlock, Mode::gpu_block>;
using SetGpuWarpMove = SetModeOf<MoveKind::SetGpuWarp, Mode::gpu_warp>;
using SetFrepMove = SetModeOf<MoveKind::SetFrep, Mode::frep>;

class ClearMode final : public MoveOf<MoveKind::ClearMode, 0, NodeMove> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    for (ScopeOp scope : collectScopes(state.getKernel()))
      if (scope.getMode() != Mode::seq)
        out.push_back({getName().str(), getNodeSelector(scope), {}});
  }

  DiagnosedSilenceableFailure checkNode(MoveState &state,
                                        const MoveRequest &request,
                                        Location errorLoc,
                                        Operation *node) const override {
    auto scope = dyn_cast<ScopeOp>(node);
    if (!scope || scope.getMode() == Mode::seq)
      return failWithNote(request, errorLoc,
                          "the node is not a scope with a mode", node,
                          "this node");
    // A `:b` needs some `:g` around it, a `:w` some `:b`
    // (getRequiredEnclosingMode): refuse only if this scope is the one that
    // provides it.
    Mode provided = scope.getMode();
    ScopeOp orphan;
    scope.getBody().walk([&](ScopeOp inner) {
      if (getRequiredEnclosingMode(inner.getMode()) != provided)
        return WalkResult::advance();
      for (auto p = inner->getParentOfType<ScopeOp>(); p;
           p = p->getParentOfType<ScopeOp>())
        if (p != scope && p.getMode() == provided)
          return WalkResult::advance();
      orphan = inner;
      return WalkResult::interrupt();
    });
    if (orphan)
      return failWithNote(request, errorLoc,
                          "the scope encloses a " + suffixOf(orphan.getMode()) +
                              " scope that needs it; clear that one first",
                          orphan, "this scope");
    // The inverse set_vector offers only the lane shape of
    // findVectorLaneViolation; a `:v` written by hand (or generated) with
    // another shape is valid but could not be restored.
    if (provided == Mode::vector)
      if (std::optional<InvariantViolation> violation =
              findVectorLaneViolation(scope)) {
        DiagnosedSilenceableFailure d =
            fail(request, errorLoc,
                 "the move could not be undone: " + violation->reason);
        violation->attachNotes(d);
        return d;
      }
    return DiagnosedSilenceableFailure::success();
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    ScopeOp scope = getRequestScope(state, request);
    Mode old = scope.getMode();
    scope.setMode(Mode::seq);
    return {("set_" + stringifyMode(old)).str(), request.location, {}};
  }
};
} // namespace

PERFDOJO_DEFINE_MOVE_AS(SetUnroll, SetUnrollMove)
PERFDOJO_DEFINE_MOVE_AS(SetParallel, SetParallelMove)
PERFDOJO_DEFINE_MOVE_AS(SetVector, SetVectorMove)
PERFDOJO_DEFINE_MOVE_AS(SetGpuGrid, SetGpuGridMove)
PERFDOJO_DEFINE_MOVE_AS(SetGpuBlock, SetGpuBlockMove)
PERFDOJO_DEFINE_MOVE_AS(SetGpuWarp, SetGpuWarpMove)
PERFDOJO_DEFINE_MOVE_AS(SetFrep, SetFrepMove)
PERFDOJO_DEFINE_MOVE(ClearMode)
