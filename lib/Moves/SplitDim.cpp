//===- SplitDim.cpp - split_dim and merge_dims ----------------------------===//
//
// split_dim b.k f          (inverse: merge_dims b.k)
//   Dimension k of internal buffer b, of extent n, becomes two dimensions
//   [n/f, f]; every index e on it becomes [e1, e2] with e = f*e1 + e2.
//   Legality: b is internal; 1 <= f <= n and f divides n; dimension k has
//   no padding; every index e = c + sum_j a_j*{j} on dimension k splits:
//     e1 = (c - r)/f + sum over a_j divisible by f of (a_j/f)*{j},
//     e2 = r + sum over the other terms of a_j*{j},
//   where r is the one value congruent to c mod f that puts the smallest
//   value of e2 over the leaf's box at or above 0 (r = -lo + (c+lo) mod f,
//   [lo, hi] the range of e2 - r); the split is legal iff then hi + r < f.
//   e2 then lies in [0, f) at every point, so e1 = floor(e/f), e2 = e mod f:
//   the map is the row-major bijection and stays affine. Example: after
//   split_scope by f, {d}*f+{d+1} becomes [{d}, {d+1}]; the constant 5 with
//   f = 4 becomes [1, 1]. A `:N` dimension splits into two `:N` dimensions.
//   Candidates: the divisors 1 < f < n of unpadded dimensions
//   (getProperDivisors, Support/Divisors.h: bounded work at any size).
//
// merge_dims b.k           (inverse: split_dim b.k q)
//   Dimensions k and k+1 (extents p, q) become one of extent p*q; [e1, e2]
//   becomes q*e1 + e2.
//   Legality: b is internal; both dimensions are materialized or both `:N`;
//   neither is padded; for every access, e2 shares no variable with e1 and
//   has no term whose coefficient is a multiple of q. With the bounds
//   invariant (e2 in [0, q)) this makes split_dim b.k q recover [e1, e2]
//   exactly, so the inverse restores the text.
//
// Neither move needs a dependence test: with no padding, element (e1, e2)
// keeps its row-major offset, so physical addresses, `:v` lane strides and
// storage size are unchanged. The `:N` checks are syntactic and per
// dimension (a merged write may no longer be a dense box), so both moves
// post-verify the `:N` marks of b on the result, naming dimensions as they
// are before the move.
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"

#include "perfdojo/Support/Divisors.h"

#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {

void trim(LinearForm &form) {
  while (!form.coeffs.empty() && form.coeffs.back() == 0)
    form.coeffs.pop_back();
}

std::string printForm(const LinearForm &form, MLIRContext *ctx) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printIndexExpr(os, buildAffineExpr(form, ctx));
  return text;
}

/// e = f*e1 + e2 with e2 in [0, f) over `sizes` (see the file comment).
struct SplitIndex {
  LinearForm high, low;
  /// The range of e2 (`low`) over the box, for the diagnostic.
  int64_t lo = 0, hi = 0;
  bool ok = false;
};

SplitIndex splitIndex(const LinearForm &e, int64_t f, ArrayRef<int64_t> sizes) {
  SplitIndex split;
  split.high.coeffs.assign(e.coeffs.size(), 0);
  split.low.coeffs.assign(e.coeffs.size(), 0);
  for (auto [k, a] : llvm::enumerate(e.coeffs)) {
    if (a % f == 0)
      split.high.coeffs[k] = a / f;
    else
      split.low.coeffs[k] = a;
  }
  trim(split.high);
  trim(split.low);
  auto range = split.low.range(sizes);
  if (!range)
    return split;
  auto [lo, hi] = *range;
  int64_t r = -lo + (((e.constant + lo) % f) + f) % f;
  split.lo = lo + r;
  split.hi = hi + r;
  if (split.hi >= f)
    return split;
  split.high.constant = (e.constant - r) / f;
  split.low.constant = r;
  split.ok = true;
  return split;
}

/// Post-verification of the `:N` marks of `buffer` (the only buffer whose
/// forms change) on a copy rewritten by `move`; `currentDim` maps a
/// dimension of the result to the one before the move.
DiagnosedSilenceableFailure
postVerifyReuse(MoveState &state, const Move &move, const MoveRequest &request,
                Location errorLoc, BufferOp buffer,
                function_ref<unsigned(unsigned)> currentDim) {
  if (!llvm::is_contained(buffer.getReused(), true))
    return DiagnosedSilenceableFailure::success();
  OwningOpRef<KernelOp> copy = state.getKernel().clone();
  MoveState copyState(*copy, state.getOptions());
  (void)move.rewrite(copyState, request);
  return verifyReusedDims(
      *copy, request, errorLoc, [&](BufferOp b, unsigned k) {
        return b.getName() == buffer.getName() ? currentDim(k) : k;
      });
}

class SplitDim final : public MoveOf<MoveKind::SplitDim, 1, BufferDimMove> {
public:
  void addDimCandidates(MoveState &state, BufferOp buffer, unsigned k,
                        SmallVectorImpl<MoveRequest> &out) const override {
    int64_t n = buffer.getShape()[k];
    if (buffer.getPadding()[k])
      return;
    for (int64_t f : getProperDivisors(n))
      addRequest(out, buffer, k, {f});
  }

  DiagnosedSilenceableFailure checkDim(MoveState &state,
                                       const MoveRequest &request,
                                       Location errorLoc, BufferOp buffer,
                                       unsigned k) const override {
    int64_t f = request.params[0], n = buffer.getShape()[k];
    auto failAtBuffer = [&](const Twine &message) {
      return moves::failAtBuffer(request, errorLoc, buffer, message);
    };
    if (f < 1 || f > n || n % f)
      return failAtBuffer(
          "split factor " + Twine(f) + " does not divide extent " + Twine(n) +
          " of dimension " + Twine(k) + " of '" + buffer.getName() + "'");
    if (buffer.getPadding()[k])
      return failAtBuffer("dimension " + Twine(k) + " of '" + buffer.getName() +
                          "' is padded; unpad it before splitting");
    for (const ArrayAccess &access :
         collectArrayAccesses(state.getKernel(), buffer)) {
      SplitIndex split =
          splitIndex(access.indices[k], f, getLeafBoxSizes(access.leaf));
      if (split.ok)
        continue;
      return failWithNote(
          request, errorLoc,
          "index " + printForm(access.indices[k], buffer.getContext()) +
              " on dimension " + Twine(k) + " of '" + buffer.getName() +
              "' does not split as " + Twine(f) + "*e1+e2 with e2 in [0, " +
              Twine(f) + "): e2 would range over [" + Twine(split.lo) + ", " +
              Twine(split.hi) + "]",
          access.leaf, "this access");
    }
    return postVerifyReuse(state, *this, request, errorLoc, buffer,
                           [&](unsigned j) { return j <= k ? j : j - 1; });
  }

  MoveRequest rewriteDim(MoveState &state, const MoveRequest &request,
                         BufferOp buffer, unsigned k) const override {
    KernelOp kernel = state.getKernel();
    int64_t f = request.params[0];
    rewriteArrayAccesses(kernel, buffer, [&](const ArrayAccess &access) {
      SplitIndex split =
          splitIndex(access.indices[k], f, getLeafBoxSizes(access.leaf));
      SmallVector<LinearForm, 4> indices(access.indices);
      indices[k] = split.high;
      indices.insert(indices.begin() + k + 1, split.low);
      return indices;
    });
    SmallVector<int64_t> shape(buffer.getShape()), padding(buffer.getPadding());
    SmallVector<bool> reused(buffer.getReused());
    shape[k] /= f;
    shape.insert(shape.begin() + k + 1, f);
    padding.insert(padding.begin() + k + 1, 0);
    reused.insert(reused.begin() + k + 1, reused[k]);
    buffer.setShape(shape);
    buffer.setPadding(padding);
    buffer.setReused(reused);
    return {"merge_dims", request.location, {}};
  }
};

class MergeDims final : public MoveOf<MoveKind::MergeDims, 0, BufferDimMove> {
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
    StringRef name = buffer.getName();
    auto failAtBuffer = [&](const Twine &message) {
      return moves::failAtBuffer(request, errorLoc, buffer, message);
    };
    if (k + 1 >= buffer.getRank())
      return failAtBuffer("dimension " + Twine(k) +
                          " is the last dimension of '" + name +
                          "'; merge_dims merges dimensions k and k+1");
    if (buffer.getReused()[k] != buffer.getReused()[k + 1])
      return failAtBuffer("dimensions " + Twine(k) + " and " + Twine(k + 1) +
                          " of '" + name +
                          "' differ in materialization; merge_dims needs both "
                          "materialized or both :N");
    for (unsigned j : {k, k + 1})
      if (buffer.getPadding()[j])
        return failAtBuffer("dimension " + Twine(j) + " of '" + name +
                            "' is padded; unpad it before merging");
    int64_t q = buffer.getShape()[k + 1];
    // `:N` dimensions allocate nothing, so their merged extent is not
    // bounded by the storage: it must itself stay in the 64-bit range.
    if (!llvm::checkedMul(buffer.getShape()[k], q))
      return failAtBuffer(
          "the merged dimension would have " +
          describeOverflowingProduct(buffer.getShape()[k], q) +
          " elements, beyond the 64-bit index range");
    MLIRContext *ctx = buffer.getContext();
    for (const ArrayAccess &access :
         collectArrayAccesses(state.getKernel(), buffer)) {
      const LinearForm &e1 = access.indices[k], &e2 = access.indices[k + 1];
      // The merged index q * e1 + e2, term by term, in the 64-bit range (a
      // large coefficient is in bounds only on a variable that is always 0,
      // of a size-1 scope).
      for (size_t j = 0; j <= e1.coeffs.size(); ++j) {
        bool constant = j == e1.coeffs.size();
        int64_t a = constant ? e1.constant : e1.coeffs[j];
        int64_t b = constant ? e2.constant
                             : (j < e2.coeffs.size() ? e2.coeffs[j] : 0);
        std::optional<int64_t> scaled = llvm::checkedMul(q, a);
        if (scaled && llvm::checkedAdd(*scaled, b))
          continue;
        return failWithNote(
            request, errorLoc,
            "the merged index of '" + name + "' would have " +
                (constant ? std::string("the constant ")
                          : "the coefficient of {" + std::to_string(j) +
                                "} ") +
                describeOverflowingProduct(q, a) +
                (b ? " + " + std::to_string(b) : std::string()) +
                ", beyond the 64-bit index range",
            access.leaf, "this access");
      }
      for (auto [j, a] : llvm::enumerate(e2.coeffs)) {
        if (a == 0)
          continue;
        std::string why;
        if (e1.coeff(j) != 0)
          why = "both indices use {" + std::to_string(j) + "}";
        else if (a % q == 0)
          why = "the coefficient " + std::to_string(a) + " of {" +
                std::to_string(j) +
                "} in the second is a multiple of its extent " +
                std::to_string(q);
        else
          continue;
        return failWithNote(
            request, errorLoc,
            "indices [" + printForm(e1, ctx) + ", " + printForm(e2, ctx) +
                "] on dimensions " + Twine(k) + " and " + Twine(k + 1) +
                " of '" + name + "' would not split back after merging: " + why,
            access.leaf, "this access");
      }
    }
    return postVerifyReuse(state, *this, request, errorLoc, buffer,
                           [&](unsigned j) { return j <= k ? j : j + 1; });
  }

  MoveRequest rewriteDim(MoveState &state, const MoveRequest &request,
                         BufferOp buffer, unsigned k) const override {
    KernelOp kernel = state.getKernel();
    int64_t q = buffer.getShape()[k + 1];
    rewriteArrayAccesses(kernel, buffer, [&](const ArrayAccess &access) {
      SmallVector<LinearForm, 4> indices(access.indices);
      const LinearForm &e1 = indices[k], &e2 = indices[k + 1];
      LinearForm merged;
      merged.coeffs.assign(std::max(e1.coeffs.size(), e2.coeffs.size()), 0);
      for (unsigned j = 0; j < merged.coeffs.size(); ++j)
        merged.coeffs[j] = q * e1.coeff(j) + e2.coeff(j);
      merged.constant = q * e1.constant + e2.constant;
      trim(merged);
      indices[k] = merged;
      indices.erase(indices.begin() + k + 1);
      return indices;
    });
    SmallVector<int64_t> shape(buffer.getShape()), padding(buffer.getPadding());
    SmallVector<bool> reused(buffer.getReused());
    shape[k] *= q;
    shape.erase(shape.begin() + k + 1);
    padding.erase(padding.begin() + k + 1);
    reused.erase(reused.begin() + k + 1);
    buffer.setShape(shape);
    buffer.setPadding(padding);
    buffer.setReused(reused);
    return {"split_dim", request.location, {q}};
  }
};

} // namespace

PERFDOJO_DEFINE_MOVE(SplitDim)
PERFDOJO_DEFINE_MOVE(MergeDims)
