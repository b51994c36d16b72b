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

/// Both moves name a buffer, keep the tree as it is and flip its mark
/// (`set_nontemporal` sets it, `clear_nontemporal` clears it); only the
/// CPU lowering emits non-temporal stores.
template <MoveKind Kind>
class NontemporalMove final : public MoveOf<Kind, 0> {
  static constexpr bool sets = Kind == MoveKind::SetNontemporal;

public:
  bool isAvailableOn(const TargetDescription &target) const override {
    return target.supports(Mode::parallel);
  }
  bool restructuresTree() const override { return false; }

  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    for (BufferOp buffer : state.getKernel().getBuffers())
      if (sets ? !buffer.getNontemporal() && buffer.mayBeNontemporal() &&
                     hasVectorStores(state.getKernel(), buffer)
               : buffer.getNontemporal())
        out.push_back({this->getName().str(), buffer.getName().str(), {}});
  }

  DiagnosedSilenceableFailure checkRequest(MoveState &state,
                                           const MoveRequest &request,
                                           Location errorLoc) const override {
    BufferOp buffer = lookupBuffer(state.getKernel(), request.location);
    if (!buffer)
      return fail(request, errorLoc,
                  "no buffer named '" + request.location + "'");
    auto failHere = [&](const Twine &message) {
      return failAtBuffer(request, errorLoc, buffer,
                          "'" + buffer.getName() + "' " + message);
    };
    if (!sets)
      return buffer.getNontemporal() ? DiagnosedSilenceableFailure::success()
                                     : failHere("is not nontemporal");
    const TargetDescription &target = state.getOptions().target;
    if (!isAvailableOn(target))
      return failAtBuffer(request, errorLoc, buffer,
                          "the target '" + target.name +
                              "' has no non-temporal stores");
    if (buffer.getNontemporal())
      return failHere("is nontemporal already");
    if (!buffer.mayBeNontemporal())
      return failHere("is not an 'out' or 'inout' buffer on the heap; only "
                      "those are written past the caches");
    return DiagnosedSilenceableFailure::success();
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    lookupBuffer(state.getKernel(), request.location).setNontemporal(sets);
    return {sets ? "clear_nontemporal" : "set_nontemporal", request.location,
            {}};
  }
};

using SetNontemporal = NontemporalMove<MoveKind::SetNontemporal>;
using ClearNontemporal = NontemporalMove<MoveKind::ClearNontemporal>;

} // namespace

PERFDOJO_DEFINE_MOVE(SetNontemporal)
PERFDOJO_DEFINE_MOVE(ClearNontemporal)
