//===- BufferLayout.cpp - helpers shared by the buffer moves -------------===//
//
// The buffer moves (swap_dims, pad_dim/unpad_dim, split_dim/merge_dims,
// set_location) change how an internal buffer is stored, never which element
// an instance touches. They share:
//   * rewriting every access to a buffer's arrays (outputs and operands;
//     index values are values, not accesses, and stay);
//   * the location budgets (stack bytes, register elements) of the target.
// The physical layout itself is Dialect/Dojo/IR/PhysicalLayout.h; the one
// layout-dependent mode condition (vector lanes) is re-checked on a copy by
// verifyVectorLanes (PostVerification.cpp).
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"

#include <cmath>

#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

namespace perfdojo::moves {

std::string getFreshBufferName(KernelOp kernel, StringRef base,
                               BufferOp ignore) {
  llvm::StringSet<> taken;
  for (BufferOp buffer : kernel.getBuffers()) {
    if (buffer == ignore)
      continue;
    taken.insert(buffer.getName());
    for (StringRef name : buffer.getArrayNames())
      taken.insert(name);
  }
  if (!taken.contains(base))
    return base.str();
  for (unsigned i = 1;; ++i)
    if (!taken.contains(base.str() + std::to_string(i)))
      return base.str() + std::to_string(i);
}

BufferOp lookupBuffer(KernelOp kernel, StringRef name) {
  for (BufferOp buffer : kernel.getBuffers())
    if (buffer.getName() == name)
      return buffer;
  return {};
}

BufferOp resolveInternalBufferOrFail(MoveState &state,
                                     const MoveRequest &request, StringRef name,
                                     StringRef what, Location errorLoc,
                                     DiagnosedSilenceableFailure &diag) {
  BufferOp buffer = lookupBuffer(state.getKernel(), name);
  if (!buffer) {
    diag = fail(request, errorLoc, "no buffer named '" + name + "'");
    return {};
  }
  if (buffer.isArgument()) {
    diag = fail(request, errorLoc,
                "'" + name + "' is a kernel argument; its " + what +
                    " belongs to the caller");
    diag.attachNote(buffer.getLoc()) << "declared here";
    return {};
  }
  return buffer;
}

std::optional<std::pair<BufferOp, unsigned>>
resolveInternalDimOrFail(MoveState &state, const MoveRequest &request,
                         Location errorLoc, DiagnosedSilenceableFailure &diag) {
  auto resolved = resolveBufferDim(state.getKernel(), request.location);
  if (!resolved) {
    diag = fail(request, errorLoc, llvm::toString(resolved.takeError()));
    return std::nullopt;
  }
  if (!resolveInternalBufferOrFail(state, request, resolved->first.getName(),
                                   "layout", errorLoc, diag))
    return std::nullopt;
  return *resolved;
}

DiagnosedSilenceableFailure failAtBuffer(const MoveRequest &request,
                                         Location errorLoc, BufferOp buffer,
                                         const Twine &message) {
  return failWithNote(request, errorLoc, message, buffer, "declared here");
}

void BufferDimMove::candidates(MoveState &state,
                               SmallVectorImpl<MoveRequest> &out) const {
  for (BufferOp buffer : state.getKernel().getBuffers())
    if (acceptsArguments() || !buffer.isArgument())
      for (unsigned k = 0; k < buffer.getRank(); ++k)
        addDimCandidates(state, buffer, k, out);
}

void BufferDimMove::addRequest(SmallVectorImpl<MoveRequest> &out,
                               BufferOp buffer, unsigned k,
                               ArrayRef<int64_t> params) const {
  out.push_back({getName().str(), getBufferDimSelector(buffer, k),
                 SmallVector<int64_t, 2>(params)});
}

DiagnosedSilenceableFailure
BufferDimMove::checkRequest(MoveState &state, const MoveRequest &request,
                            Location errorLoc) const {
  std::optional<std::pair<BufferOp, unsigned>> resolved;
  DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
  if (acceptsArguments()) {
    auto any = resolveBufferDim(state.getKernel(), request.location);
    if (!any)
      return fail(request, errorLoc, llvm::toString(any.takeError()));
    resolved = *any;
  } else {
    resolved = resolveInternalDimOrFail(state, request, errorLoc, diag);
    if (!resolved)
      return diag;
  }
  return checkDim(state, request, errorLoc, resolved->first, resolved->second);
}

MoveRequest BufferDimMove::rewrite(MoveState &state,
                                   const MoveRequest &request) const {
  auto [buffer, k] = *resolveBufferDim(state.getKernel(), request.location);
  return rewriteDim(state, request, buffer, k);
}

void rewriteArrayAccesses(
    KernelOp kernel, BufferOp buffer,
    function_ref<SmallVector<LinearForm, 4>(const ArrayAccess &)> fn) {
  // Collect first: rewriting while walking would visit rewritten leaves.
  SmallVector<ArrayAccess> accesses = collectArrayAccesses(kernel, buffer);
  for (const ArrayAccess &access : accesses) {
    LeafOp leaf = access.leaf;
    MLIRContext *ctx = leaf.getContext();
    AffineMap map = makeIndexMap(fn(access), ctx);
    if (access.operand < 0) {
      leaf.setIndicesAttr(AffineMapAttr::get(map));
      continue;
    }
    SmallVector<Attribute, 2> inputs(leaf.getInputs().getValue());
    auto old = cast<AccessAttr>(inputs[access.operand]);
    inputs[access.operand] = AccessAttr::get(ctx, old.getArray(), map);
    leaf.setInputsAttr(ArrayAttr::get(ctx, inputs));
  }
}

std::optional<std::string> findCapacityViolation(BufferOp buffer,
                                                 BufferLocation location,
                                                 int64_t elements,
                                                 const MoveOptions &options) {
  return options.target.findCapacityViolation(buffer, location, elements);
}

bool checkNewLayout(const MoveRequest &request, Location errorLoc,
                    BufferOp buffer, StringRef name, ArrayRef<int64_t> shape,
                    ArrayRef<int64_t> padding, ArrayRef<bool> reused,
                    DiagnosedSilenceableFailure &diag) {
  std::optional<std::string> overflow = findLayoutOverflow(
      name, getElementBytes(buffer), shape, padding, reused);
  if (!overflow)
    return true;
  diag = failAtBuffer(request, errorLoc, buffer,
                      "the result would have no 64-bit layout: " + *overflow);
  return false;
}

std::string describeOverflowingProduct(int64_t a, int64_t b) {
  double bits = std::log2(std::abs(double(a))) + std::log2(std::abs(double(b)));
  return std::to_string(a) + " * " + std::to_string(b) + " (about 2^" +
         std::to_string(int64_t(std::lround(bits))) + ")";
}

} // namespace perfdojo::moves
