//===- PadDim.cpp - pad_dim and unpad_dim ---------------------------------===//
//
// pad_dim b.k p            (inverse: unpad_dim b.k p)
//   Allocates p more elements after dimension k of internal buffer b
//   (`n+q` becomes `n+q+p`). Indices are unchanged.
//   Legality: b is internal; p >= 1; dimension k is materialized (padding a
//   `:N` dimension would allocate nothing); the grown storage fits b's
//   location (MoveOptions stack and register budgets); every `:v` leaf
//   accessing b keeps its lane strides (padding changes the strides of the
//   outer dimensions). No dependence test: padding changes addresses, never
//   which accesses share an element.
//   Candidates, on materialized dimensions without padding only (so that
//   walks cannot grow a buffer forever): p in {1, 2, 4, 8, 16} (bank and
//   set-conflict breakers, alignment steps), plus the amount that rounds
//   the extent up to a multiple of the vector width in elements
//   (TargetDescription::vectorBytes / element bytes, 16 for f32 by default).
//
// unpad_dim b.k p          (inverse: pad_dim b.k p)
//   Removes p of the padding elements of dimension k.
//   Legality: 1 <= p <= padding of b.k; no access reaches into the removed
//   elements, i.e. every index on dimension k ranges over its leaf's box
//   below the remaining allocated extent (exact: the range of an affine form
//   over a box); dimension k is materialized (as for pad_dim, so that each
//   is the other's inverse: materialize a `:N` dimension first); `:v` lane
//   strides are kept. Removing storage never exceeds a location budget.
//   Candidates: the whole padding of each padded, materialized dimension.
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"

#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {

/// Changes the padding of dimension `k` of `buffer` by `delta`.
void addPadding(BufferOp buffer, unsigned k, int64_t delta) {
  SmallVector<int64_t> padding(buffer.getPadding());
  padding[k] += delta;
  buffer.setPadding(padding);
}

class PadDim final : public MoveOf<MoveKind::PadDim, 1, BufferDimMove> {
public:
  void addDimCandidates(MoveState &state, BufferOp buffer, unsigned k,
                        SmallVectorImpl<MoveRequest> &out) const override {
    if (buffer.getReused()[k] || buffer.getPadding()[k])
      return;
    int64_t lanes =
        state.getOptions().target.getVectorLanes(buffer.getElementType());
    SmallVector<int64_t, 6> amounts = {1, 2, 4, 8, 16};
    int64_t roundUp = (lanes - buffer.getShape()[k] % lanes) % lanes;
    if (roundUp && !llvm::is_contained(amounts, roundUp))
      amounts.push_back(roundUp);
    llvm::sort(amounts);
    for (int64_t p : amounts)
      addRequest(out, buffer, k, {p});
  }

  DiagnosedSilenceableFailure checkDim(MoveState &state,
                                       const MoveRequest &request,
                                       Location errorLoc, BufferOp buffer,
                                       unsigned k) const override {
    int64_t p = request.params[0];
    auto failAtBuffer = [&](const Twine &message) {
      return moves::failAtBuffer(request, errorLoc, buffer, message);
    };
    if (p < 1)
      return failAtBuffer("padding amount " + Twine(p) + " must be positive");
    if (buffer.getReused()[k])
      return failAtBuffer(
          "dimension " + Twine(k) + " of '" + buffer.getName() +
          "' is non-materialized (:N); padding it would allocate nothing");
    // The padded extent and storage must stay in the 64-bit range.
    SmallVector<int64_t> padding(buffer.getPadding());
    std::optional<int64_t> padded = llvm::checkedAdd(padding[k], p);
    if (!padded)
      return failAtBuffer("padding " + Twine(padding[k]) + " + " + Twine(p) +
                          " of dimension " + Twine(k) + " of '" +
                          buffer.getName() +
                          "' is beyond the 64-bit integer range");
    padding[k] = *padded;
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    if (!checkNewLayout(request, errorLoc, buffer, buffer.getName(),
                        buffer.getShape(), padding, buffer.getReused(), diag))
      return diag;
    // Storage grows by p times the product of the other dimensions (no
    // overflow: the layout fits).
    int64_t others = getStorageElements(buffer) / buffer.getAllocatedExtent(k);
    int64_t elements = others * (buffer.getAllocatedExtent(k) + p);
    if (std::optional<std::string> over = findCapacityViolation(
            buffer, buffer.getLocation(), elements, state.getOptions()))
      return failAtBuffer("padding would exceed the capacity of " +
                          stringifyBufferLocation(buffer.getLocation()) + ": " +
                          *over);
    return verifyVectorLanes(state, *this, request, errorLoc, buffer);
  }

  MoveRequest rewriteDim(MoveState &state, const MoveRequest &request,
                         BufferOp buffer, unsigned k) const override {
    addPadding(buffer, k, request.params[0]);
    return {"unpad_dim", request.location, {request.params[0]}};
  }
};

class UnpadDim final : public MoveOf<MoveKind::UnpadDim, 1, BufferDimMove> {
public:
  void addDimCandidates(MoveState &state, BufferOp buffer, unsigned k,
                        SmallVectorImpl<MoveRequest> &out) const override {
    if (int64_t p = buffer.getPadding()[k]; p && !buffer.getReused()[k])
      addRequest(out, buffer, k, {p});
  }

  DiagnosedSilenceableFailure checkDim(MoveState &state,
                                       const MoveRequest &request,
                                       Location errorLoc, BufferOp buffer,
                                       unsigned k) const override {
    int64_t p = request.params[0], padding = buffer.getPadding()[k];
    if (p < 1 || p > padding)
      return failWithNote(request, errorLoc,
                          "unpad amount " + Twine(p) +
                              " must lie between 1 and the padding " +
                              Twine(padding) + " of dimension " + Twine(k) +
                              " of '" + buffer.getName() + "'",
                          buffer, "declared here");
    if (buffer.getReused()[k])
      return failWithNote(
          request, errorLoc,
          "dimension " + Twine(k) + " of '" + buffer.getName() +
              "' is non-materialized (:N); materialize it before "
              "changing its padding",
          buffer, "declared here");
    int64_t remaining = buffer.getAllocatedExtent(k) - p;
    for (const ArrayAccess &access :
         collectArrayAccesses(state.getKernel(), buffer)) {
      auto range = access.indices[k].range(getLeafBoxSizes(access.leaf));
      // The verifier already rejects overflowing ranges.
      if (!range || range->second < remaining)
        continue;
      std::string text;
      llvm::raw_string_ostream os(text);
      printIndexExpr(os,
                     buildAffineExpr(access.indices[k], buffer.getContext()));
      DiagnosedSilenceableFailure diag =
          fail(request, errorLoc,
               "index " + text + " on dimension " + Twine(k) + " of '" +
                   buffer.getName() + "' reaches " + Twine(range->second) +
                   ", in the padding that would be removed (allocated extent " +
                   Twine(remaining) + " after the move)");
      diag.attachNote(access.leaf->getLoc()) << "this access";
      return diag;
    }
    return verifyVectorLanes(state, *this, request, errorLoc, buffer);
  }

  MoveRequest rewriteDim(MoveState &state, const MoveRequest &request,
                         BufferOp buffer, unsigned k) const override {
    addPadding(buffer, k, -request.params[0]);
    return {"pad_dim", request.location, {request.params[0]}};
  }
};

} // namespace

PERFDOJO_DEFINE_MOVE(PadDim)
PERFDOJO_DEFINE_MOVE(UnpadDim)
