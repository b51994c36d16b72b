//===- BufferLayout.cpp - helpers shared by the buffer moves -------------===//
//
// The buffer moves (swap_dims, pad_dim/unpad_dim, split_dim/merge_dims,
// set_location) change how an internal buffer is stored, never which element
// an instance touches. They share three pieces:
//   * visiting and rewriting every access to a buffer's arrays (outputs and
//     operands; index values are values, not accesses, and stay);
//   * the location budgets (stack bytes, register elements) of MoveOptions;
//   * the one layout-dependent mode condition: a `:v` leaf needs lane stride
//     1 on its output and 0 or 1 on its operands in the *physical* layout,
//     which a permutation or padding can break. It is re-checked on a copy.
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"

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

std::optional<std::pair<BufferOp, unsigned>>
resolveDimRequest(MoveState &state, const MoveRequest &request, unsigned count,
                  Location errorLoc, DiagnosedSilenceableFailure &diag) {
  if (!expectParams(request, count, errorLoc, diag))
    return std::nullopt;
  return resolveInternalDimOrFail(state, request, errorLoc, diag);
}

SmallVector<int64_t, 8> getIterationSizes(LeafOp leaf) {
  SmallVector<int64_t, 8> sizes;
  for (auto scope = leaf->getParentOfType<ScopeOp>(); scope;
       scope = scope->getParentOfType<ScopeOp>())
    sizes.push_back(scope.getSize());
  std::reverse(sizes.begin(), sizes.end());
  return sizes;
}

static SmallVector<LinearForm, 4> formsOf(AffineMap map) {
  SmallVector<LinearForm, 4> forms;
  for (AffineExpr e : map.getResults())
    forms.push_back(*getLinearForm(e));
  return forms;
}

static AffineMap mapOf(ArrayRef<LinearForm> forms, MLIRContext *ctx) {
  SmallVector<AffineExpr, 4> results;
  for (const LinearForm &form : forms)
    results.push_back(buildAffineExpr(form, ctx));
  return makeIndexMap(results, ctx);
}

SmallVector<ArrayAccess> collectArrayAccesses(KernelOp kernel,
                                              BufferOp buffer) {
  SmallVector<StringRef> arrays = buffer.getArrayNames();
  SmallVector<ArrayAccess> accesses;
  kernel.walk<WalkOrder::PreOrder>([&](LeafOp leaf) {
    if (llvm::is_contained(arrays, leaf.getArray()))
      accesses.push_back({leaf, -1, formsOf(leaf.getIndices())});
    for (auto [i, input] : llvm::enumerate(leaf.getInputs())) {
      auto access = dyn_cast<AccessAttr>(input);
      if (access && llvm::is_contained(arrays, access.getArray().getValue()))
        accesses.push_back(
            {leaf, static_cast<int>(i), formsOf(access.getIndices())});
    }
  });
  return accesses;
}

void rewriteArrayAccesses(
    KernelOp kernel, BufferOp buffer,
    function_ref<SmallVector<LinearForm, 4>(const ArrayAccess &)> fn) {
  // Collect first: rewriting while walking would visit rewritten leaves.
  SmallVector<ArrayAccess> accesses = collectArrayAccesses(kernel, buffer);
  for (const ArrayAccess &access : accesses) {
    LeafOp leaf = access.leaf;
    MLIRContext *ctx = leaf.getContext();
    AffineMap map = mapOf(fn(access), ctx);
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

int64_t getStorageElements(BufferOp buffer) {
  int64_t elements = 1;
  for (unsigned d = 0; d < buffer.getRank(); ++d) {
    if (buffer.getReused()[d])
      continue;
    int64_t extent = buffer.getAllocatedExtent(d);
    if (elements > INT64_MAX / extent)
      return INT64_MAX;
    elements *= extent;
  }
  return elements;
}

std::optional<std::string> findCapacityViolation(BufferOp buffer,
                                                 BufferLocation location,
                                                 int64_t elements,
                                                 const MoveOptions &options) {
  std::string name = "'" + buffer.getName().str() + "'";
  if (location == BufferLocation::reg) {
    if (elements <= options.registerElements)
      return std::nullopt;
    return name + " would allocate " + std::to_string(elements) +
           " elements, over the register budget of " +
           std::to_string(options.registerElements) + " elements";
  }
  if (location == BufferLocation::stack) {
    int64_t bytes = (buffer.getElementType().getIntOrFloatBitWidth() + 7) / 8;
    int64_t total = elements > INT64_MAX / bytes ? INT64_MAX : elements * bytes;
    if (total <= options.stackBytes)
      return std::nullopt;
    return name + " would allocate " + std::to_string(total) +
           " bytes, over the stack budget of " +
           std::to_string(options.stackBytes) + " bytes";
  }
  return std::nullopt;
}

SmallVector<int64_t, 4> getElementStrides(BufferOp buffer) {
  SmallVector<int64_t, 4> strides(buffer.getRank(), 0);
  int64_t running = 1;
  for (int d = buffer.getRank() - 1; d >= 0; --d) {
    if (buffer.getReused()[d])
      continue;
    strides[d] = running;
    running *= buffer.getAllocatedExtent(d);
  }
  return strides;
}

int64_t getStrideAlong(BufferOp buffer, ArrayRef<LinearForm> forms,
                       unsigned depth) {
  int64_t stride = 0;
  for (auto [form, s] : llvm::zip(forms, getElementStrides(buffer)))
    stride += form.coeff(depth) * s;
  return stride;
}

/// Whether some `:v` leaf accesses an array of `buffer`.
static bool hasVectorAccess(KernelOp kernel, BufferOp buffer) {
  for (const ArrayAccess &access : collectArrayAccesses(kernel, buffer))
    if (auto scope = dyn_cast<ScopeOp>(access.leaf->getParentOp()))
      if (scope.getMode() == Mode::vector)
        return true;
  return false;
}

DiagnosedSilenceableFailure verifyVectorLanes(MoveState &state,
                                              const Move &move,
                                              const MoveRequest &request,
                                              Location errorLoc,
                                              BufferOp buffer) {
  if (!hasVectorAccess(state.getKernel(), buffer))
    return DiagnosedSilenceableFailure::success();
  OwningOpRef<KernelOp> copy = state.getKernel().clone();
  MoveState copyState(*copy, state.getOptions());
  (void)move.rewrite(copyState, request);
  BufferOp moved = lookupBuffer(*copy, buffer.getName());
  for (const ArrayAccess &access : collectArrayAccesses(*copy, moved)) {
    auto scope = dyn_cast<ScopeOp>(access.leaf->getParentOp());
    if (!scope || scope.getMode() != Mode::vector)
      continue;
    int64_t stride = getStrideAlong(moved, access.indices, scope.getDepth());
    bool isOutput = access.operand < 0;
    if (stride == 1 || (!isOutput && stride == 0))
      continue;
    DiagnosedSilenceableFailure diag =
        fail(request, errorLoc,
             "the new layout of '" + buffer.getName() + "' would make " +
                 (isOutput ? "the output" : "an operand") +
                 " of a vector leaf move by " + Twine(stride) +
                 " element(s) per lane; " +
                 (isOutput ? "vector stores need stride 1"
                           : "vector loads need stride 0 or 1") +
                 " (clear the mode first)");
    diag.attachNote(access.leaf->getLoc()) << "the vector leaf";
    return diag;
  }
  return DiagnosedSilenceableFailure::success();
}

} // namespace perfdojo::moves
