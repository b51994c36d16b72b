//===- PadScope.cpp - pad_scope and unpad_scope ---------------------------===//
//
// pad_scope a@d s'         (inverse: unpad_scope a@d s)
//   The plain scope a@d of size s runs s' > s iterations; the body is
//   unchanged. The extra instances E (those with {d} in [s, s')) compute
//   into the padding of internal buffers (moves.md A5, Halide's RoundUp):
//   a SIMD or GPU tail then needs no remainder scope.
//   Legality, with the extents of each buffer's dimensions (logical n,
//   allocated n+pad):
//     P1 the scope is plain, and every scope around it is plain or `:u`
//        (extra iterations under a parallel, vector or GPU scope would need
//        its concurrency condition proved again);
//     P2 bounds: every access of every leaf under the scope stays inside
//        the allocated extents over the grown box (kernel arguments have
//        none: their accesses stay in the logical extents), so pad_dim must
//        come first;
//     P3 E writes only padding: every leaf under the scope writes an
//        internal buffer, and no instance in E writes (or reduces into) an
//        element whose indices are all below the logical extents;
//     P4 padding never reaches logical data: no instance of any leaf that
//        reads a buffer written under the scope reads a padding element
//        (some index at or above its logical extent) while it writes a
//        logical element. This is the pairwise condition of moves.md A5.3
//        strengthened to every padding element, whoever wrote it, so it is
//        a question about one leaf's box, not about pairs of instances;
//     P5 E reads nothing unwritten: the result keeps the rule that no
//        element of an internal array is read before it is written
//        (Analysis/Initialization.h, run on a copy). An internal array may
//        hold logical elements nothing writes, which E could reach.
//   P3 and P4 are decided exactly: integer emptiness of the box with the
//   index inequalities (MLIR's Presburger library, after a cheap interval
//   test). Under P2-P4 every logical element is written by the same
//   instances from the same logical values before and after the move; E
//   only adds values in padding, which nothing logical reads. Floating-point
//   operations on padding garbage are assumed not to trap (moves.md A5.4).
//   Candidates: s' = f*ceil(s/f) > s for f in {2, 4, ..., 64}.
//
// unpad_scope a@d s        (inverse: pad_scope a@d s')
//   The reverse: the scope of size s' runs s < s' iterations. Legality: P1,
//   and P3-P4 on the kernel as it is, with E = [s, s'): the removed
//   instances wrote only padding that nothing logical reads, so no logical
//   element changes; and P5 on the result (padding they wrote may be read
//   by the extra instances of another padded scope). Candidates: the smallest such s in [s'-64, s'-1] (the
//   legal sizes form an interval ending at s'-1).
//
// This is the restricted form the IR allows: there is no predication (no
// guards or masked tails, moves.md 0.5.7), so extra instances really run and
// must have storage to write. Reductions over a padded scope into logical
// elements, and writes to kernel arguments, are therefore refused (use
// cut_scope for such tails).
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"

#include "mlir/Analysis/Presburger/IntegerRelation.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {

/// `form` + `delta`.
LinearForm shifted(LinearForm form, int64_t delta) {
  form.constant += delta;
  return form;
}

/// `-form`.
LinearForm negated(LinearForm form) {
  for (int64_t &c : form.coeffs)
    c = -c;
  form.constant = -form.constant;
  return form;
}

/// Whether some integer point of the box `0 <= x_k < sizes[k]` makes every
/// form of `nonNegative` >= 0. Exact; a form that is negative over the whole
/// box answers at once.
bool boxHasPoint(ArrayRef<int64_t> sizes, ArrayRef<LinearForm> nonNegative) {
  for (const LinearForm &form : nonNegative) {
    auto range = form.range(sizes);
    if (range && range->second < 0)
      return false;
  }
  unsigned n = sizes.size();
  presburger::IntegerPolyhedron poly(
      presburger::PresburgerSpace::getSetSpace(n));
  for (unsigned k = 0; k < n; ++k) {
    poly.addBound(presburger::BoundType::LB, k, 0);
    poly.addBound(presburger::BoundType::UB, k, sizes[k] - 1);
  }
  for (const LinearForm &form : nonNegative) {
    if (form.coeffs.size() > n)
      return true; // malformed: fail closed
    SmallVector<int64_t, 8> row(n + 1, 0);
    for (unsigned k = 0; k < form.coeffs.size(); ++k)
      row[k] = form.coeffs[k];
    row[n] = form.constant;
    poly.addInequality(row);
  }
  return !poly.isIntegerEmpty();
}

/// The rows "every index of `forms` lies below the logical extent of its
/// dimension of `buffer`": the instance touches a logical element.
void addLogicalRows(BufferOp buffer, ArrayRef<LinearForm> forms,
                    SmallVectorImpl<LinearForm> &rows) {
  for (auto [j, form] : llvm::enumerate(forms))
    rows.push_back(shifted(negated(form), buffer.getShape()[j] - 1));
}

std::string formText(const LinearForm &form, MLIRContext *ctx) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printIndexExpr(os, buildAffineExpr(form, ctx));
  return text;
}

/// P1-P4 for `scope` at depth d running `padded` iterations, of which those
/// from `logical` on are the extra ones. pad_scope also checks P2 (for
/// unpad_scope the verifier already holds); `extra` names those iterations
/// in messages ("extra" or "removed").
DiagnosedSilenceableFailure checkPadding(MoveState &state,
                                         const MoveRequest &request,
                                         Location errorLoc, ScopeOp scope,
                                         int64_t logical, int64_t padded,
                                         StringRef extra) {
  bool checkBounds = extra == "extra";
  KernelOp kernel = state.getKernel();
  MLIRContext *ctx = kernel.getContext();
  unsigned d = scope.getDepth();
  auto failAt = [&](Operation *op, StringRef what, const Twine &message) {
    DiagnosedSilenceableFailure diag = fail(request, errorLoc, message);
    diag.attachNote(op->getLoc()) << what;
    return diag;
  };
  // P1.
  if (ScopeOp outer = findConcurrentAncestor(scope))
    return failAt(outer, "the scope with a mode",
                  "an enclosing scope has a parallel, vector or GPU mode; "
                  "clear it first (P1)");
  auto boxOf = [&](LeafOp leaf) {
    SmallVector<int64_t, 8> sizes = getLeafBoxSizes(leaf);
    if (scope->isProperAncestor(leaf))
      sizes[d] = padded;
    return sizes;
  };

  SmallVector<LeafOp> inner = collectLeaves(scope);
  llvm::SmallPtrSet<Operation *, 4> written;
  for (LeafOp leaf : inner) {
    SmallVector<int64_t, 8> box = boxOf(leaf);
    // P2: every access inside the allocated extents.
    if (checkBounds) {
      auto checkAccess = [&](StringRef array, AffineMap map)
          -> std::optional<DiagnosedSilenceableFailure> {
        BufferOp buffer = kernel.lookupArray(array);
        for (auto [j, form] : llvm::enumerate(getIndexForms(map))) {
          auto range = form.range(box);
          int64_t extent = buffer.getAllocatedExtent(j);
          if (range && range->first >= 0 && range->second < extent)
            continue;
          return failAt(
              leaf, "this access",
              "index " + formText(form, ctx) + " on dimension " + Twine(j) +
                  " of '" + array + "' would leave the allocated extent " +
                  Twine(extent) + " in the extra iterations" +
                  (buffer.isArgument()
                       ? Twine(" (a kernel argument has no padding)")
                       : Twine(" (pad the dimension first)")) +
                  " (P2)");
        }
        return std::nullopt;
      };
      if (auto bad = checkAccess(leaf.getArray(), leaf.getIndices()))
        return std::move(*bad);
      for (Attribute input : leaf.getInputs())
        if (auto access = dyn_cast<AccessAttr>(input))
          if (auto bad = checkAccess(access.getArray().getValue(),
                                     access.getIndices()))
            return std::move(*bad);
    }
    // P3: the extra instances write padding only.
    BufferOp output = kernel.lookupArray(leaf.getArray());
    if (output.isArgument())
      return failAt(leaf, "this leaf",
                    "the " + extra + " iterations would write kernel argument '" +
                        leaf.getArray() + "', which has no padding (P3)");
    LinearForm tail; // {d} - logical >= 0
    tail.coeffs.assign(d + 1, 0);
    tail.coeffs[d] = 1;
    tail.constant = -logical;
    SmallVector<LinearForm, 8> rows = {tail};
    addLogicalRows(output, getIndexForms(leaf.getIndices()), rows);
    if (boxHasPoint(box, rows))
      return failAt(leaf, "this leaf",
                    "the " + extra +
                        " iterations would write a logical element of '" +
                        leaf.getArray() + "' in `" + getStatementText(leaf) +
                        "`; only padding may be written there (P3)");
    written.insert(output);
  }

  // P4: no instance that writes a logical element reads padding of a
  // buffer written under the scope.
  for (LeafOp leaf : collectLeaves(kernel)) {
    BufferOp output = kernel.lookupArray(leaf.getArray());
    SmallVector<LinearForm, 8> logicalOut;
    addLogicalRows(output, getIndexForms(leaf.getIndices()), logicalOut);
    SmallVector<int64_t, 8> box = boxOf(leaf);
    for (Attribute input : leaf.getInputs()) {
      auto access = dyn_cast<AccessAttr>(input);
      if (!access)
        continue;
      BufferOp buffer = kernel.lookupArray(access.getArray().getValue());
      if (!written.contains(buffer))
        continue;
      for (auto [k, form] : llvm::enumerate(getIndexForms(access.getIndices()))) {
        if (buffer.getPadding()[k] == 0)
          continue;
        SmallVector<LinearForm, 8> rows(logicalOut);
        rows.push_back(shifted(form, -buffer.getShape()[k]));
        if (!boxHasPoint(box, rows))
          continue;
        return failAt(leaf, "the read",
                      "padding would reach logical data: `" +
                          getStatementText(leaf) + "` reads the padding of '" +
                          access.getArray().getValue() + "' (index " +
                          formText(form, ctx) + " on dimension " + Twine(k) +
                          ") while writing a logical element of '" +
                          leaf.getArray() + "' (P4)");
      }
    }
  }
  return DiagnosedSilenceableFailure::success();
}

class PadScope final : public MoveOf<MoveKind::PadScope, 1, PlainScopeMove> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    for (ScopeOp scope : collectScopes(state.getKernel())) {
      if (scope.getMode() != Mode::seq)
        continue;
      int64_t s = scope.getSize();
      SmallVector<int64_t, 6> sizes;
      for (int64_t f = 2; f <= 64; f *= 2) {
        int64_t rounded = (s + f - 1) / f * f;
        if (rounded > s && !llvm::is_contained(sizes, rounded))
          sizes.push_back(rounded);
      }
      llvm::sort(sizes);
      for (int64_t size : sizes)
        out.push_back({getName().str(), getNodeSelector(scope), {size}});
    }
  }

  DiagnosedSilenceableFailure checkScope(MoveState &state,
                                         const MoveRequest &request,
                                         Location errorLoc,
                                         ScopeOp scope) const override {
    int64_t s = scope.getSize(), padded = request.params[0];
    if (padded <= s)
      return failWithNote(request, errorLoc,
                          "new size " + Twine(padded) +
                              " must be larger than the scope size " + Twine(s),
                          scope, "the scope");
    DiagnosedSilenceableFailure padding =
        checkPadding(state, request, errorLoc, scope, s, padded, "extra");
    if (!padding.succeeded())
      return padding;
    // P5: the extra instances read only elements written before them. An
    // internal array may have logical elements nothing writes (a
    // privatized buffer sized by an allocation, say); P3 and P4 speak of
    // padding only.
    return verifyInitialization(state, *this, request, errorLoc);
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    ScopeOp scope = getRequestScope(state, request);
    int64_t s = scope.getSize();
    scope.setSize(request.params[0]);
    return {"unpad_scope", getNodeSelector(scope), {s}};
  }
};

class UnpadScope final
    : public MoveOf<MoveKind::UnpadScope, 1, PlainScopeMove> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    Location loc = state.getKernel().getLoc();
    for (ScopeOp scope : collectScopes(state.getKernel())) {
      if (scope.getMode() != Mode::seq || scope.getSize() < 2)
        continue;
      // Cheap filter: every leaf writes a padded internal buffer.
      if (!llvm::all_of(collectLeaves(scope), [&](LeafOp leaf) {
            BufferOp b = state.getKernel().lookupArray(leaf.getArray());
            return !b.isArgument() && llvm::any_of(b.getPadding(),
                                                   [](int64_t p) { return p; });
          }))
        continue;
      int64_t size = scope.getSize(), best = 0;
      std::string location = getNodeSelector(scope);
      for (int64_t s = size - 1; s >= std::max<int64_t>(1, size - 64); --s) {
        MoveRequest request{getName().str(), location, {s}};
        DiagnosedSilenceableFailure result = check(state, request, loc);
        bool ok = result.succeeded();
        if (!ok)
          (void)result.silence();
        if (!ok)
          break;
        best = s;
      }
      if (best)
        out.push_back({getName().str(), location, {best}});
    }
  }

  DiagnosedSilenceableFailure checkScope(MoveState &state,
                                         const MoveRequest &request,
                                         Location errorLoc,
                                         ScopeOp scope) const override {
    int64_t size = scope.getSize(), s = request.params[0];
    if (s < 1 || s >= size)
      return failWithNote(request, errorLoc,
                          "new size " + Twine(s) + " must lie between 1 and " +
                              Twine(size - 1) + ", below the scope size " +
                              Twine(size),
                          scope, "the scope");
    DiagnosedSilenceableFailure padding =
        checkPadding(state, request, errorLoc, scope, s, size, "removed");
    if (!padding.succeeded())
      return padding;
    // P5: padding the removed instances wrote may be read by the extra
    // instances of another padded scope.
    return verifyInitialization(state, *this, request, errorLoc);
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    ScopeOp scope = getRequestScope(state, request);
    int64_t size = scope.getSize();
    scope.setSize(request.params[0]);
    return {"pad_scope", getNodeSelector(scope), {size}};
  }
};

} // namespace

PERFDOJO_DEFINE_MOVE(PadScope)
PERFDOJO_DEFINE_MOVE(UnpadScope)
