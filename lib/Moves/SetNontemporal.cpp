//===- SetNontemporal.cpp - set_nontemporal and clear_nontemporal --------===//
//
// Where a kernel's results go on their way to memory, as moves on one
// buffer. Like a mode, the mark changes no result: the interpreter ignores
// it, and the CPU lowering writes the buffer's whole-vector stores past the
// caches (non-temporal stores, no read for ownership of the line), fenced
// before the kernel or a parallel body returns.
//
//   set_nontemporal b    b is an `out` or `inout` buffer on the heap (the
//                        IR's rule, BufferOp::mayBeNontemporal), not yet
//                        marked, on a CPU target.
//   clear_nontemporal b  b is marked.
//
// Candidates: set_nontemporal on buffers a `:v` leaf writes without
// reducing (the stores that stream); every marked buffer for
// clear_nontemporal.
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {

/// Both moves name a buffer and keep the tree as it is; only the CPU
/// lowering emits non-temporal stores.
template <MoveKind Kind>
class NontemporalMove : public MoveOf<Kind, 0> {
public:
  bool isAvailableOn(const TargetDescription &target) const override {
    return target.supports(Mode::parallel);
  }
  bool restructuresTree() const override { return false; }

protected:
  /// The buffer `request.location` names; on failure fills `diag`.
  BufferOp resolve(MoveState &state, const MoveRequest &request,
                   Location errorLoc, DiagnosedSilenceableFailure &diag) const {
    BufferOp buffer = lookupBuffer(state.getKernel(), request.location);
    if (!buffer)
      diag = fail(request, errorLoc,
                  "no buffer named '" + request.location + "'");
    return buffer;
  }
};

/// Whether a `:v` leaf writes `buffer` without reducing into it.
bool hasVectorStores(KernelOp kernel, BufferOp buffer) {
  bool found = false;
  kernel.walk([&](LeafOp leaf) {
    auto scope = dyn_cast<ScopeOp>(leaf->getParentOp());
    if (scope && scope.getMode() == Mode::vector &&
        leaf.getReduce() == ReduceKind::none &&
        kernel.lookupArray(leaf.getArray()) == buffer)
      found = true;
  });
  return found;
}

class SetNontemporal final
    : public NontemporalMove<MoveKind::SetNontemporal> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    for (BufferOp buffer : state.getKernel().getBuffers())
      if (!buffer.getNontemporal() && buffer.mayBeNontemporal() &&
          hasVectorStores(state.getKernel(), buffer))
        out.push_back({getName().str(), buffer.getName().str(), {}});
  }

  DiagnosedSilenceableFailure checkRequest(MoveState &state,
                                           const MoveRequest &request,
                                           Location errorLoc) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    BufferOp buffer = resolve(state, request, errorLoc, diag);
    if (!buffer)
      return diag;
    const TargetDescription &target = state.getOptions().target;
    if (!isAvailableOn(target))
      return failAtBuffer(request, errorLoc, buffer,
                          "the target '" + target.name +
                              "' has no non-temporal stores");
    if (buffer.getNontemporal())
      return failAtBuffer(request, errorLoc, buffer,
                          "'" + buffer.getName() + "' is nontemporal already");
    if (!buffer.mayBeNontemporal())
      return failAtBuffer(request, errorLoc, buffer,
                          "'" + buffer.getName() +
                              "' is not an 'out' or 'inout' buffer on the "
                              "heap; only those are written past the caches");
    return DiagnosedSilenceableFailure::success();
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    BufferOp buffer = lookupBuffer(state.getKernel(), request.location);
    buffer.setNontemporal(true);
    return {"clear_nontemporal", request.location, {}};
  }
};

class ClearNontemporal final
    : public NontemporalMove<MoveKind::ClearNontemporal> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    for (BufferOp buffer : state.getKernel().getBuffers())
      if (buffer.getNontemporal())
        out.push_back({getName().str(), buffer.getName().str(), {}});
  }

  DiagnosedSilenceableFailure checkRequest(MoveState &state,
                                           const MoveRequest &request,
                                           Location errorLoc) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    BufferOp buffer = resolve(state, request, errorLoc, diag);
    if (!buffer)
      return diag;
    if (!buffer.getNontemporal())
      return failAtBuffer(request, errorLoc, buffer,
                          "'" + buffer.getName() + "' is not nontemporal");
    return DiagnosedSilenceableFailure::success();
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    BufferOp buffer = lookupBuffer(state.getKernel(), request.location);
    buffer.setNontemporal(false);
    return {"set_nontemporal", request.location, {}};
  }
};

} // namespace

PERFDOJO_DEFINE_MOVE(SetNontemporal)
PERFDOJO_DEFINE_MOVE(ClearNontemporal)
