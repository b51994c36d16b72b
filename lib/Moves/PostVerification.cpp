//===- PostVerification.cpp - a move's result keeps the kernel invariants -===//
//
// A move's check proves its own condition; the rules every kernel keeps
// (Analysis/KernelInvariants.h) are re-run on the move's result, on a
// detached copy, and a violation blames the move. The reasons are the
// analyses' own wording; these wrappers name the subject as the user sees
// it before the move and say how to get out of the way.
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"
#include "perfdojo/Analysis/Initialization.h"
#include "perfdojo/Analysis/KernelInvariants.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

namespace perfdojo::moves {

/// A failure blaming `request` with `message` and the violation's notes.
static DiagnosedSilenceableFailure blame(const MoveRequest &request,
                                         Location errorLoc,
                                         const Twine &message,
                                         const InvariantViolation &violation) {
  DiagnosedSilenceableFailure diag = fail(request, errorLoc, message);
  violation.attachNotes(diag);
  return diag;
}

DiagnosedSilenceableFailure
verifyReusedDims(KernelOp kernel, const MoveRequest &request,
                 Location errorLoc,
                 function_ref<unsigned(BufferOp, unsigned)> currentDim) {
  for (BufferOp buffer : kernel.getBuffers()) {
    for (auto [k, reused] : llvm::enumerate(buffer.getReused())) {
      if (!reused)
        continue;
      std::optional<InvariantViolation> violation =
          findReusedDimViolation(kernel, buffer, k);
      if (!violation)
        continue;
      std::string dim = getBufferDimSelector(buffer, k);
      std::string shown = dim;
      if (currentDim && currentDim(buffer, k) != k) {
        dim = getBufferDimSelector(buffer, currentDim(buffer, k));
        shown = dim + " (" + shown + " of the result)";
      }
      return blame(request, errorLoc,
                   "the result would break the non-materialized dimension " +
                       shown + ": " + violation->reason +
                       "; materialize it first (materialize_dims " + dim + ")",
                   *violation);
    }
  }
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure
checkReuseInvariant(KernelOp kernel, BufferOp buffer, unsigned k,
                    const MoveRequest &request, Location errorLoc,
                    const Twine &prefix) {
  std::optional<InvariantViolation> violation =
      findReusedDimViolation(kernel, buffer, k);
  if (!violation)
    return DiagnosedSilenceableFailure::success();
  return blame(request, errorLoc, prefix + violation->reason, *violation);
}

DiagnosedSilenceableFailure checkRegisterAddressing(KernelOp kernel,
                                                    BufferOp buffer,
                                                    const MoveRequest &request,
                                                    Location errorLoc) {
  std::optional<InvariantViolation> violation =
      findRegisterAddressingViolation(kernel, buffer);
  if (!violation)
    return DiagnosedSilenceableFailure::success();
  return blame(request, errorLoc, violation->reason + " (B8)", *violation);
}

DiagnosedSilenceableFailure verifyRegisterBuffers(KernelOp kernel,
                                                  const MoveRequest &request,
                                                  Location errorLoc) {
  for (BufferOp buffer : kernel.getBuffers()) {
    if (buffer.getLocation() != BufferLocation::reg)
      continue;
    if (std::optional<InvariantViolation> violation =
            findRegisterAddressingViolation(kernel, buffer))
      return blame(request, errorLoc,
                   "the result would break a register buffer: " +
                       violation->reason +
                       "; move it to the stack first (set_location " +
                       buffer.getName() + " 1)",
                   *violation);
  }
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure verifyVectorLanes(MoveState &state,
                                              const Move &move,
                                              const MoveRequest &request,
                                              Location errorLoc,
                                              BufferOp buffer) {
  auto isVector = [](ScopeOp scope) { return scope.getMode() == Mode::vector; };
  if (!llvm::any_of(collectScopes(state.getKernel()), isVector))
    return DiagnosedSilenceableFailure::success();
  SmallVector<ScopeOp> before = collectScopes(state.getKernel());
  OwningOpRef<KernelOp> copy = state.getKernel().clone();
  MoveState copyState(*copy, state.getOptions());
  (void)move.rewrite(copyState, request);
  // Only the strides of `buffer` changed; the tree and the other accesses
  // kept theirs. Any stride is valid under `:v` (K5); the lane shape
  // set_vector offers is a policy, and a layout move must not change
  // whether a vector leaf meets it, in either direction: its inverse is
  // checked the same way, so it stays available.
  for (auto [old, scope] : llvm::zip_equal(before, collectScopes(*copy))) {
    if (!isVector(scope))
      continue;
    std::optional<InvariantViolation> wasOff = findVectorLaneViolation(old);
    std::optional<InvariantViolation> violation =
        findVectorLaneViolation(scope);
    if (violation && !wasOff)
      return blame(request, errorLoc,
                   "the new layout of '" + buffer.getName() +
                       "' would break a vector leaf: " + violation->reason +
                       " (clear the mode first)",
                   *violation);
    if (wasOff && !violation)
      return blame(request, errorLoc,
                   "the new layout of '" + buffer.getName() +
                       "' would give a vector leaf the lane shape set_vector "
                       "offers where it has another (" +
                       wasOff->reason +
                       "), which the move's inverse could not undo",
                   *wasOff);
  }
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure verifyInitialization(MoveState &state,
                                                 const Move &move,
                                                 const MoveRequest &request,
                                                 Location errorLoc) {
  OwningOpRef<KernelOp> copy = state.getKernel().clone();
  MoveState copyState(*copy, state.getOptions());
  (void)move.rewrite(copyState, request);
  copyState.invalidate();
  std::optional<InitializationViolation> violation =
      findUninitializedRead(*copy, copyState.getDependences());
  if (!violation)
    return DiagnosedSilenceableFailure::success();
  DiagnosedSilenceableFailure diag =
      fail(request, errorLoc, "the result " + violation->message);
  violation->attachNotes(diag);
  return diag;
}

DiagnosedSilenceableFailure verifyBlockShapes(KernelOp kernel,
                                              const MoveRequest &request,
                                              Location errorLoc) {
  if (std::optional<InvariantViolation> violation =
          findBlockShapeViolation(kernel))
    return blame(request, errorLoc,
                 "the result would give the phases of a kernel " +
                     violation->reason,
                 *violation);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure verifySnitchMarks(KernelOp kernel,
                                              const MoveRequest &request,
                                              Location errorLoc) {
  if (std::optional<InvariantViolation> violation = findSnitchViolation(kernel))
    return blame(request, errorLoc,
                 "the result would break " + violation->subject + ": " +
                     violation->reason,
                 *violation);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure verifyConcurrentScopes(KernelOp kernel,
                                                   const MoveRequest &request,
                                                   Location errorLoc,
                                                   bool reassociate) {
  DependenceAnalysis deps(kernel);
  for (ScopeOp scope : collectScopes(kernel)) {
    if (!isConcurrentMode(scope.getMode()))
      continue;
    std::optional<InvariantViolation> violation =
        findRaceViolation(deps, scope, reassociate);
    if (!violation)
      continue;
    DiagnosedSilenceableFailure diag =
        fail(request, errorLoc,
             "the result would make " + violation->subject +
                 " race: " + violation->reason);
    diag.attachNote(scope.getLoc()) << "the scope";
    violation->attachNotes(diag);
    return diag;
  }
  return DiagnosedSilenceableFailure::success();
}

} // namespace perfdojo::moves
