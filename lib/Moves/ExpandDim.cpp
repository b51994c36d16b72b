//===- ExpandDim.cpp - expand_dim and collapse_dim ------------------------===//
//
// expand_dim b.k n d       (inverse: collapse_dim b.k)
//   Inserts a new materialized dimension of extent n at position k of the
//   internal buffer b (0 <= k <= rank); every access to an array of b gets
//   the index {d} there. Each iteration of the scope at depth d then works
//   on its own copy of b: the building block of manual privatization (a
//   temporary per parallel iteration) and of recomputation.
//   Legality:
//     * b is internal and accessed by some leaf; n >= 1, d >= 0;
//     * every access lies below one and the same scope S at depth d, and S
//       has size n. With depth-named variables, {d} in two different
//       subtrees means two different scopes, so a single S is essential;
//     * the new dimension, indexed by {d}, satisfies the `:N` invariant
//       NM2-NM4 (ReuseDims.cpp). NM4 is what makes the copies
//       self-contained: every read of
//       b is covered by an earlier plain write in the same iteration of S,
//       so no value written in one iteration is read in another. Then
//       folding the copies back (`:N`, or no dimension at all) gives the
//       same addresses as the original, and NM1-NM4 make the folded and the
//       expanded kernels equal (the argument of materialize_dims);
//     * the grown storage fits b's location (stack and register budgets);
//     * `:v` leaves keep their lane strides (verifyVectorLanes): the new
//       dimension changes the strides of the dimensions before it.
//   Candidates: for each internal buffer, each scope common to all its
//   accesses whose variable no index of the buffer uses yet and whose size
//   is at least 2, at positions 0 and rank.
//
// collapse_dim b.k         (inverse: expand_dim b.k n d)
//   Removes dimension k (extent n) of the internal buffer b; its index
//   disappears from every access. All iterations of the indexing scope then
//   share one copy.
//   Legality: b is internal; dimension k is materialized and unpadded; every
//   access indexes it by exactly {d} for one d (coefficient 1, no
//   constant), below one and the same scope of size n; and the dimension
//   satisfies the `:N` invariant, so sharing one copy changes no value read.
//   Where the copies would race (one copy shared by the iterations of a
//   `:p`, `:v` or GPU scope, unless privatized by location), the post-
//   verification of the modes refuses the move (verifyConcurrentScopes).
//   `:v` leaves keep their lane strides. These are exactly the conditions
//   expand_dim checks on its result, so each move's inverse is legal.
//
// A dimension indexed by a constant is not covered (the catalogue's constant
// form of expand_dim): it adds no copies and reuse_dims already folds it.
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {

/// The form `{d}`.
LinearForm variable(unsigned d) {
  LinearForm form;
  form.coeffs.assign(d + 1, 0);
  form.coeffs[d] = 1;
  return form;
}

/// d if `form` is exactly `{d}`.
std::optional<unsigned> getVariableDepth(const LinearForm &form) {
  std::optional<unsigned> depth;
  if (form.constant != 0)
    return std::nullopt;
  for (auto [k, c] : llvm::enumerate(form.coeffs)) {
    if (c == 0)
      continue;
    if (c != 1 || depth)
      return std::nullopt;
    depth = k;
  }
  return depth;
}

/// The scope at depth `d` on the path of `leaf`, or null if the leaf is not
/// below depth d.
ScopeOp scopeAtDepth(LeafOp leaf, unsigned d) {
  unsigned depth = leaf.getDepth();
  if (depth <= d)
    return {};
  Operation *node = leaf;
  for (unsigned k = depth; k > d; --k)
    node = node->getParentOp();
  return cast<ScopeOp>(node);
}

/// The one scope at depth `d` enclosing every access in `accesses`; on
/// failure fills `diag` (an access not below depth d, or two different
/// scopes).
ScopeOp findCommonScope(ArrayRef<ArrayAccess> accesses, unsigned d,
                        StringRef name, const MoveRequest &request,
                        Location errorLoc, DiagnosedSilenceableFailure &diag) {
  ScopeOp common;
  LeafOp first;
  for (const ArrayAccess &access : accesses) {
    ScopeOp scope = scopeAtDepth(access.leaf, d);
    if (!scope) {
      diag = fail(request, errorLoc,
                  "an access to '" + name + "' is not below depth " + Twine(d) +
                      ", so it has no variable {" + Twine(d) + "}");
      diag.attachNote(access.leaf->getLoc()) << "the access";
      return {};
    }
    if (common && scope != common) {
      diag = fail(request, errorLoc,
                  "the accesses to '" + name + "' lie in different scopes " +
                      "at depth " + Twine(d) + ", so {" + Twine(d) +
                      "} would name different scopes");
      diag.attachNote(first.getLoc()) << "this access";
      diag.attachNote(access.leaf->getLoc()) << "and this one";
      return {};
    }
    if (!common) {
      common = scope;
      first = access.leaf;
    }
  }
  return common;
}

/// Parses `b.k` where k may equal the rank (the position after the last
/// dimension); on failure fills `diag`.
std::optional<std::pair<BufferOp, unsigned>>
resolveInsertPosition(MoveState &state, const MoveRequest &request,
                      Location errorLoc, DiagnosedSilenceableFailure &diag) {
  auto [name, posText] = StringRef(request.location).rsplit('.');
  unsigned pos;
  if (name.empty() || posText.getAsInteger(10, pos)) {
    diag = fail(request, errorLoc,
                "expected a buffer position like 't.0' but found '" +
                    request.location + "'");
    return std::nullopt;
  }
  BufferOp buffer = resolveInternalBufferOrFail(state, request, name, "layout",
                                                errorLoc, diag);
  if (!buffer)
    return std::nullopt;
  if (pos > buffer.getRank()) {
    diag = fail(request, errorLoc,
                "position " + Twine(pos) + " is past the end of '" + name +
                    "', which has rank " + Twine(buffer.getRank()));
    diag.attachNote(buffer.getLoc()) << "declared here";
    return std::nullopt;
  }
  return std::make_pair(buffer, pos);
}

template <typename T>
SmallVector<T> inserted(ArrayRef<T> values, unsigned pos, T value) {
  SmallVector<T> out(values);
  out.insert(out.begin() + pos, value);
  return out;
}

template <typename T> SmallVector<T> erased(ArrayRef<T> values, unsigned pos) {
  SmallVector<T> out(values);
  out.erase(out.begin() + pos);
  return out;
}

/// The expansion itself (shared by check, on a copy, and rewrite).
void expand(KernelOp kernel, BufferOp buffer, unsigned pos, int64_t n,
            unsigned d) {
  buffer.setShape(inserted<int64_t>(buffer.getShape(), pos, n));
  buffer.setPadding(inserted<int64_t>(buffer.getPadding(), pos, 0));
  buffer.setReused(inserted<bool>(buffer.getReused(), pos, false));
  rewriteArrayAccesses(kernel, buffer, [&](const ArrayAccess &access) {
    SmallVector<LinearForm, 4> indices(access.indices);
    indices.insert(indices.begin() + pos, variable(d));
    return indices;
  });
}

class ExpandDim final : public MoveOf<MoveKind::ExpandDim, 2> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    KernelOp kernel = state.getKernel();
    for (BufferOp buffer : kernel.getBuffers()) {
      if (buffer.isArgument())
        continue;
      SmallVector<ArrayAccess> accesses = collectArrayAccesses(kernel, buffer);
      if (accesses.empty())
        continue;
      // Scopes enclosing every access: a common prefix of the paths.
      unsigned common = UINT_MAX;
      for (const ArrayAccess &access : accesses)
        common = std::min(common, getNodeDepth(access.leaf));
      for (unsigned d = 0; d < common; ++d) {
        ScopeOp scope = scopeAtDepth(accesses.front().leaf, d);
        if (llvm::any_of(accesses, [&](const ArrayAccess &a) {
              return scopeAtDepth(a.leaf, d) != scope;
            }))
          break;
        bool used = llvm::any_of(accesses, [&](const ArrayAccess &a) {
          return llvm::any_of(a.indices, [&](const LinearForm &form) {
            return form.coeff(d) != 0;
          });
        });
        if (used || scope.getSize() < 2)
          continue;
        for (unsigned pos : {0u, static_cast<unsigned>(buffer.getRank())}) {
          out.push_back({getName().str(),
                         buffer.getName().str() + "." + std::to_string(pos),
                         {int64_t(scope.getSize()), int64_t(d)}});
          if (buffer.getRank() == 0)
            break;
        }
      }
    }
  }

  DiagnosedSilenceableFailure checkRequest(MoveState &state,
                                           const MoveRequest &request,
                                           Location errorLoc) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    auto resolved = resolveInsertPosition(state, request, errorLoc, diag);
    if (!resolved)
      return diag;
    BufferOp buffer = resolved->first;
    unsigned pos = resolved->second;
    int64_t n = request.params[0], d = request.params[1];
    StringRef name = buffer.getName();
    auto failAtBuffer = [&](const Twine &message) {
      DiagnosedSilenceableFailure f = fail(request, errorLoc, message);
      f.attachNote(buffer.getLoc()) << "declared here";
      return f;
    };
    if (n < 1 || d < 0)
      return failAtBuffer("the extent " + Twine(n) +
                          " must be positive and "
                          "the depth " +
                          Twine(d) + " non-negative");
    KernelOp kernel = state.getKernel();
    SmallVector<ArrayAccess> accesses = collectArrayAccesses(kernel, buffer);
    if (accesses.empty())
      return failAtBuffer("no leaf accesses '" + name + "'");
    ScopeOp scope = findCommonScope(accesses, d, name, request, errorLoc, diag);
    if (!scope)
      return diag;
    if (int64_t(scope.getSize()) != n)
      return failWithNote(
          request, errorLoc,
          "the new extent " + Twine(n) + " differs from the size " +
              Twine(scope.getSize()) + " of the scope at depth " + Twine(d),
          scope, "the scope");
    // The copies must stay in the 64-bit range and fit the location.
    if (!checkNewLayout(request, errorLoc, buffer, name,
                        inserted<int64_t>(buffer.getShape(), pos, n),
                        inserted<int64_t>(buffer.getPadding(), pos, 0),
                        inserted<bool>(buffer.getReused(), pos, false), diag))
      return diag;
    int64_t grown = getStorageElements(buffer) * n;
    if (std::optional<std::string> over = findCapacityViolation(
            buffer, buffer.getLocation(), grown, state.getOptions()))
      return failAtBuffer("the copies would exceed the capacity of " +
                          stringifyBufferLocation(buffer.getLocation()) + ": " +
                          *over);

    // The new dimension must satisfy the `:N` invariant: try it on a copy.
    OwningOpRef<KernelOp> copy = kernel.clone();
    BufferOp copied = lookupBuffer(*copy, name);
    expand(*copy, copied, pos, n, d);
    DiagnosedSilenceableFailure reuse = checkReuseInvariant(
        *copy, copied, pos, request, errorLoc,
        "every iteration of the scope at depth " + Twine(d) +
            " can have its own copy of '" + name +
            "' only where one shared copy would be a legal `:N` dimension: ");
    if (!reuse.succeeded())
      return reuse;
    // The new dimension changes the strides of the ones before it.
    return verifyVectorLanes(state, *this, request, errorLoc, buffer);
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    auto [name, posText] = StringRef(request.location).rsplit('.');
    unsigned pos = 0;
    (void)posText.getAsInteger(10, pos); // checked by check()
    BufferOp buffer = lookupBuffer(state.getKernel(), name);
    expand(state.getKernel(), buffer, pos, request.params[0],
           request.params[1]);
    return {"collapse_dim", request.location, {}};
  }
};

class CollapseDim final : public MoveOf<MoveKind::CollapseDim> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    KernelOp kernel = state.getKernel();
    for (BufferOp buffer : kernel.getBuffers()) {
      if (buffer.isArgument())
        continue;
      SmallVector<ArrayAccess> accesses = collectArrayAccesses(kernel, buffer);
      if (accesses.empty())
        continue;
      for (unsigned k = 0; k < buffer.getRank(); ++k) {
        if (getVariableDepth(accesses.front().indices[k]))
          out.push_back({getName().str(), getBufferDimSelector(buffer, k), {}});
      }
    }
  }

  DiagnosedSilenceableFailure checkRequest(MoveState &state,
                                           const MoveRequest &request,
                                           Location errorLoc) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    auto resolved = resolveInternalDimOrFail(state, request, errorLoc, diag);
    if (!resolved)
      return diag;
    BufferOp buffer = resolved->first;
    unsigned k = resolved->second;
    StringRef name = buffer.getName();
    auto failAtBuffer = [&](const Twine &message) {
      DiagnosedSilenceableFailure f = fail(request, errorLoc, message);
      f.attachNote(buffer.getLoc()) << "declared here";
      return f;
    };
    if (buffer.getReused()[k])
      return failAtBuffer("dimension " + Twine(k) + " of '" + name +
                          "' is non-materialized; materialize it first");
    if (buffer.getPadding()[k])
      return failAtBuffer("dimension " + Twine(k) + " of '" + name +
                          "' is padded; unpad it first");
    KernelOp kernel = state.getKernel();
    SmallVector<ArrayAccess> accesses = collectArrayAccesses(kernel, buffer);
    if (accesses.empty())
      return failAtBuffer("no leaf accesses '" + name + "'");
    std::optional<unsigned> d = getVariableDepth(accesses.front().indices[k]);
    for (const ArrayAccess &access : accesses) {
      if (d && getVariableDepth(access.indices[k]) == d)
        continue;
      return failWithNote(request, errorLoc,
                          "dimension " + Twine(k) + " of '" + name +
                              "' is not indexed by one scope variable alone in "
                              "every access",
                          access.leaf, "this access");
    }
    ScopeOp scope =
        findCommonScope(accesses, *d, name, request, errorLoc, diag);
    if (!scope)
      return diag;
    int64_t n = buffer.getShape()[k];
    if (int64_t(scope.getSize()) != n)
      return failWithNote(request, errorLoc,
                          "the extent " + Twine(n) + " of dimension " +
                              Twine(k) + " differs from the size " +
                              Twine(scope.getSize()) +
                              " of the scope whose variable indexes it",
                          scope, "the scope");
    DiagnosedSilenceableFailure reuse = checkReuseInvariant(
        kernel, buffer, k, request, errorLoc,
        "the iterations of the scope at depth " + Twine(*d) +
            " can share one copy of '" + name +
            "' only where the dimension could be `:N`: ");
    if (!reuse.succeeded())
      return reuse;
    return verifyVectorLanes(state, *this, request, errorLoc, buffer);
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    KernelOp kernel = state.getKernel();
    auto [buffer, dim] = *resolveBufferDim(kernel, request.location);
    unsigned k = dim;
    int64_t n = buffer.getShape()[k];
    SmallVector<ArrayAccess> accesses = collectArrayAccesses(kernel, buffer);
    int64_t d = *getVariableDepth(accesses.front().indices[k]);
    buffer.setShape(erased<int64_t>(buffer.getShape(), k));
    buffer.setPadding(erased<int64_t>(buffer.getPadding(), k));
    buffer.setReused(erased<bool>(buffer.getReused(), k));
    rewriteArrayAccesses(kernel, buffer, [&](const ArrayAccess &access) {
      SmallVector<LinearForm, 4> indices(access.indices);
      indices.erase(indices.begin() + k);
      return indices;
    });
    return {"expand_dim", request.location, {n, d}};
  }
};

} // namespace

PERFDOJO_DEFINE_MOVE(ExpandDim)
PERFDOJO_DEFINE_MOVE(CollapseDim)
