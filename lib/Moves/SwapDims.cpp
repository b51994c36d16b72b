//===- SwapDims.cpp - swap_dims (layout permutation) ----------------------===//
//
// swap_dims b.k            (inverse: swap_dims b.k)
//   Swaps dimensions k and k+1 of internal buffer b: the extents, padding
//   and `:N` flags travel with their dimension, and every access to an
//   array of b swaps its indices k and k+1.
//   Legality: b is internal (kernel arguments keep the caller's layout) and
//   k+1 < rank. No dependence test: the permutation re-encodes storage
//   bijectively, so two accesses touch the same physical element after the
//   move iff they did before; the `:N` invariant is per dimension and moves
//   with it. The one layout-dependent condition, the lane strides of `:v`
//   leaves, is re-checked on the result.
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {

template <typename T> SmallVector<T> swapped(ArrayRef<T> values, unsigned k) {
  SmallVector<T> out(values);
  std::swap(out[k], out[k + 1]);
  return out;
}

class SwapDims final : public MoveOf<MoveKind::SwapDims, 0, BufferDimMove> {
public:
  void addDimCandidates(MoveState &state, BufferOp buffer, unsigned k,
                        SmallVectorImpl<MoveRequest> &out) const override {
    if (k + 1 < buffer.getRank())
      addRequest(out, buffer, k);
  }

  DiagnosedSilenceableFailure checkDim(MoveState &state,
                                       const MoveRequest &request,
                                       Location errorLoc, BufferOp buffer,
                                       unsigned k) const override {
    if (k + 1 >= buffer.getRank())
      return failWithNote(request, errorLoc,
                          "dimension " + Twine(k) +
                              " is the last dimension of '" + buffer.getName() +
                              "'; swap_dims swaps dimensions k and k+1",
                          buffer, "declared here");
    return verifyVectorLanes(state, *this, request, errorLoc, buffer);
  }

  MoveRequest rewriteDim(MoveState &state, const MoveRequest &request,
                         BufferOp buffer, unsigned k) const override {
    KernelOp kernel = state.getKernel();
    buffer.setShape(swapped(buffer.getShape(), k));
    buffer.setPadding(swapped(buffer.getPadding(), k));
    buffer.setReused(swapped(buffer.getReused(), k));
    rewriteArrayAccesses(kernel, buffer, [&](const ArrayAccess &access) {
      SmallVector<LinearForm, 4> indices(access.indices);
      std::swap(indices[k], indices[k + 1]);
      return indices;
    });
    return {getName().str(), request.location, {}};
  }
};

} // namespace

PERFDOJO_DEFINE_MOVE(SwapDims)
