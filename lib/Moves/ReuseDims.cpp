//===- ReuseDims.cpp - reuse_dims and materialize_dims (the `:N` mark) ----===//
//
// reuse_dims b.k           (inverse: materialize_dims b.k)
//   Marks dimension k of internal buffer b as not materialized: all its
//   slots share storage. Legal when the `:N` invariant holds (moves.md 3.1):
//     NM1  b is internal;
//     NM2  with r the deepest depth any dim-k index uses, every access to b
//          sits below depth r; its ancestor at depth r is its reuse scope;
//     NM3  inside one reuse scope all dim-k indices are identical;
//     NM4  every read of b (and the read half of a reduction) is covered by
//          an earlier plain write in the same reuse-scope iteration: a leaf
//          before it, sharing c >= r+1 scopes, whose index agrees on depths
//          < c and whose per-iteration box densely contains the read's.
//   Under NM1-NM4 no value ever crosses from one slot to another, so folding
//   the slots cannot change a value read (the paper's Figure 6: a temporary
//   becomes reusable once producer and consumer are fused).
//   Concurrency is not part of the invariant: a `:N` dimension shared by
//   the iterations of a `:p`, `:v` or GPU scope is a conflict for the
//   dependence test (physical addresses drop `:N` dimensions), unless the
//   buffer is privatized per iteration by its location
//   (getPrivatizingScope). The post-verification of every move re-runs the
//   conflict test of every concurrent scope (verifyConcurrentScopes), so
//   reuse_dims is refused where it would make such a scope race. Every move
//   that restructures the tree re-checks NM2-NM4 for all existing `:N`
//   marks on its result (post-verification, Move.cpp), so the marks stay
//   valid and materialize_dims always has reuse_dims as its inverse.
//   The NM4 coverage check is findUncoveredRead (Analysis/Privatization.h),
//   shared with the privatization rule.
// materialize_dims b.k     (inverse: reuse_dims b.k)
//   Semantically always legal: NM1-NM4 make aliased and unaliased
//   executions equal. Refused only when the grown storage would exceed the
//   budget of b's location (stack bytes, register elements; SetLocation.cpp)
//   or would change the lane stride of a `:v` leaf (verifyVectorLanes; both
//   moves change the strides of the dimensions before k).
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {

class ReuseDims final : public MoveOf<MoveKind::ReuseDims, 0, BufferDimMove> {
public:
  bool acceptsArguments() const override { return true; }

  void addDimCandidates(MoveState &state, BufferOp buffer, unsigned k,
                        SmallVectorImpl<MoveRequest> &out) const override {
    if (!buffer.isArgument() && !buffer.getReused()[k])
      addRequest(out, buffer, k);
  }

  DiagnosedSilenceableFailure checkDim(MoveState &state,
                                       const MoveRequest &request,
                                       Location errorLoc, BufferOp buffer,
                                       unsigned k) const override {
    auto note = [&](DiagnosedSilenceableFailure d, Location loc,
                    const Twine &what) {
      d.attachNote(loc) << what;
      return d;
    };
    if (buffer.isArgument())
      return note(fail(request, errorLoc,
                       "'" + buffer.getName() +
                           "' is a kernel argument; its storage belongs to "
                           "the caller (NM1)"),
                  buffer.getLoc(), "declared here");
    if (buffer.getReused()[k])
      return note(fail(request, errorLoc,
                       "dimension " + Twine(k) + " of '" + buffer.getName() +
                           "' is already non-materialized"),
                  buffer.getLoc(), "declared here");

    DiagnosedSilenceableFailure reuse =
        checkReuseInvariant(state.getKernel(), buffer, k, request, errorLoc, "");
    if (!reuse.succeeded())
      return reuse;
    // Dropping the dimension's storage changes the strides of the
    // dimensions before it.
    return verifyVectorLanes(state, *this, request, errorLoc, buffer);
  }

  MoveRequest rewriteDim(MoveState &state, const MoveRequest &request,
                         BufferOp buffer, unsigned k) const override {
    SmallVector<bool> reused(buffer.getReused());
    reused[k] = true;
    buffer.setReused(reused);
    return {"materialize_dims", request.location, {}};
  }
};

class MaterializeDims final
    : public MoveOf<MoveKind::MaterializeDims, 0, BufferDimMove> {
public:
  bool acceptsArguments() const override { return true; }

  void addDimCandidates(MoveState &state, BufferOp buffer, unsigned k,
                        SmallVectorImpl<MoveRequest> &out) const override {
    if (buffer.getReused()[k])
      addRequest(out, buffer, k);
  }

  DiagnosedSilenceableFailure checkDim(MoveState &state,
                                       const MoveRequest &request,
                                       Location errorLoc, BufferOp buffer,
                                       unsigned k) const override {
    if (!buffer.getReused()[k])
      return failWithNote(request, errorLoc,
                          "dimension " + Twine(k) + " of '" + buffer.getName() +
                              "' is already materialized",
                          buffer, "declared here");
    // The storage grows by the allocated extent of dimension k; it must
    // stay in the 64-bit range and fit the buffer's location (set_location
    // budgets).
    SmallVector<bool> reused(buffer.getReused());
    reused[k] = false;
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    if (!checkNewLayout(request, errorLoc, buffer, buffer.getName(),
                        buffer.getShape(), buffer.getPadding(), reused, diag))
      return diag;
    int64_t grown = getStorageElements(buffer) * buffer.getAllocatedExtent(k);
    if (std::optional<std::string> over = findCapacityViolation(
            buffer, buffer.getLocation(), grown, state.getOptions()))
      return failWithNote(request, errorLoc,
                          "materializing would exceed the capacity of " +
                              stringifyBufferLocation(buffer.getLocation()) +
                              ": " + *over,
                          buffer, "declared here");
    return verifyVectorLanes(state, *this, request, errorLoc, buffer);
  }

  MoveRequest rewriteDim(MoveState &state, const MoveRequest &request,
                         BufferOp buffer, unsigned k) const override {
    SmallVector<bool> reused(buffer.getReused());
    reused[k] = false;
    buffer.setReused(reused);
    return {"reuse_dims", request.location, {}};
  }
};
} // namespace

PERFDOJO_DEFINE_MOVE(ReuseDims)
PERFDOJO_DEFINE_MOVE(MaterializeDims)
