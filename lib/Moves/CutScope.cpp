//===- CutScope.cpp - cut_scope (peel a remainder) and join_cut ----------===//
//
// cut_scope a@d k          (inverse: join_cut a@d)
//   A plain scope of size s at depth d becomes two consecutive plain scopes
//   of sizes k and s-k; the second holds a copy of the body with
//   {d} := {d} + k, so together they run iterations 0..s-1 in order.
//   Legality: 0 < k < s. No dependence test: every instance keeps its
//   elements and its place in the execution order (iterations below k
//   precede those at or above k before and after).
//   Candidates: k = f*floor(s/f) for f in {2, 4, 8, 16} where 0 < k < s,
//   i.e. the cut that leaves a scalar remainder after a tile of f (A1's
//   non-divisible case). Any 0 < k < s is accepted when written.
//   After a cut every leaf of the body exists twice, so selectors of the
//   arrays written there gain `#k` suffixes; the inverse names the first
//   scope by its first leaf.
//
// join_cut a@d             (inverse: cut_scope a@d k, k = size of a@d)
//   The plain scope a@d (size k) and its next sibling, a plain scope of any
//   size, become one scope of their summed size.
//   Legality: the second body equals the first shifted by k: the same tree
//   of scopes (sizes and modes) and leaves (array, operation, reduction,
//   constants), where every affine form of the second is the first's with
//   coeff({d}) * k added to its constant. No dependence test, as for
//   cut_scope.
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {

/// `form[{d} := {d} + k]`, or nullopt when its constant leaves the 64-bit
/// range (then no form of a valid kernel equals it).
std::optional<LinearForm> shifted(const LinearForm &form, unsigned d,
                                  int64_t k) {
  std::optional<int64_t> constant =
      llvm::checkedMulAdd(form.coeff(d), k, form.constant);
  if (!constant)
    return std::nullopt;
  LinearForm out = form;
  out.constant = *constant;
  return out;
}

/// `map` with `{d} := {d} + k`, or a null map on overflow.
AffineMap shiftedMap(AffineMap map, unsigned d, int64_t k) {
  SmallVector<AffineExpr, 4> results;
  for (AffineExpr e : map.getResults()) {
    std::optional<LinearForm> form = shifted(*getLinearForm(e), d, k);
    if (!form)
      return AffineMap();
    results.push_back(buildAffineExpr(*form, map.getContext()));
  }
  return makeIndexMap(results, map.getContext());
}

/// Whether leaf `b` is leaf `a` with {d} := {d} + k.
bool isShiftedLeaf(LeafOp a, LeafOp b, unsigned d, int64_t k) {
  if (a.getArray() != b.getArray() || a.getKind() != b.getKind() ||
      a.getReduce() != b.getReduce() ||
      a.getStreamsAttr() != b.getStreamsAttr() ||
      shiftedMap(a.getIndices(), d, k) != b.getIndices() ||
      a.getInputs().size() != b.getInputs().size())
    return false;
  for (auto [x, y] : llvm::zip(a.getInputs(), b.getInputs())) {
    if (auto access = dyn_cast<AccessAttr>(x)) {
      auto other = dyn_cast<AccessAttr>(y);
      if (!other || access.getArray() != other.getArray() ||
          shiftedMap(access.getIndices(), d, k) != other.getIndices())
        return false;
    } else if (auto index = dyn_cast<IndexValueAttr>(x)) {
      auto other = dyn_cast<IndexValueAttr>(y);
      if (!other || shiftedMap(index.getExpr(), d, k) != other.getExpr())
        return false;
    } else if (x != y) {
      return false;
    }
  }
  return true;
}

/// The first child pair (in pre-order) where block `b` differs from block
/// `a` shifted by k at depth d; {null, null} if they match. A missing child
/// is reported as null with the other block's op.
std::pair<Operation *, Operation *> firstDifference(Block &a, Block &b,
                                                    unsigned d, int64_t k) {
  auto itA = a.begin(), itB = b.begin();
  for (; itA != a.end() && itB != b.end(); ++itA, ++itB) {
    Operation *x = &*itA, *y = &*itB;
    auto scopeX = dyn_cast<ScopeOp>(x), scopeY = dyn_cast<ScopeOp>(y);
    if (scopeX && scopeY) {
      if (scopeX.getSize() != scopeY.getSize() ||
          scopeX.getMode() != scopeY.getMode())
        return {x, y};
      auto inner = firstDifference(scopeX.getBlock(), scopeY.getBlock(), d, k);
      if (inner.first || inner.second)
        return inner;
      continue;
    }
    auto leafX = dyn_cast<LeafOp>(x), leafY = dyn_cast<LeafOp>(y);
    if (!leafX || !leafY || !isShiftedLeaf(leafX, leafY, d, k))
      return {x, y};
  }
  if (itA != a.end())
    return {&*itA, nullptr};
  if (itB != b.end())
    return {nullptr, &*itB};
  return {nullptr, nullptr};
}

class CutScope final : public MoveOf<MoveKind::CutScope, 1, PlainScopeMove> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    for (ScopeOp scope : collectScopes(state.getKernel())) {
      if (scope.getMode() != Mode::seq)
        continue;
      int64_t s = scope.getSize();
      SmallVector<int64_t, 4> cuts;
      for (int64_t f : {2, 4, 8, 16}) {
        int64_t k = s / f * f;
        if (k > 0 && k < s && !llvm::is_contained(cuts, k))
          cuts.push_back(k);
      }
      llvm::sort(cuts);
      std::string location = getNodeSelector(scope);
      for (int64_t k : cuts)
        out.push_back({getName().str(), location, {k}});
    }
  }

  DiagnosedSilenceableFailure checkScope(MoveState &state,
                                         const MoveRequest &request,
                                         Location errorLoc,
                                         ScopeOp scope) const override {
    int64_t s = scope.getSize(), k = request.params[0];
    if (k <= 0 || k >= s)
      return failWithNote(
          request, errorLoc,
          "cut point " + Twine(k) +
              " must lie strictly between 0 and the scope size " + Twine(s),
          scope, "the scope");
    return DiagnosedSilenceableFailure::success();
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    ScopeOp scope = getRequestScope(state, request);
    unsigned d = scope.getDepth();
    int64_t s = scope.getSize(), k = request.params[0];
    OpBuilder builder(scope.getContext());
    builder.setInsertionPointAfter(scope);
    auto rest = cast<ScopeOp>(builder.clone(*scope.getOperation()));
    rest.setSize(s - k);
    scope.setSize(k);
    rewriteIndices(rest, [&](const LinearForm &in) {
      // 0 < k < s: the shifted constant lies inside the form's range.
      return *shifted(in, d, k);
    });
    return {"join_cut", getNodeSelector(scope), {}};
  }
};

class JoinCut final : public MoveOf<MoveKind::JoinCut, 0, PlainScopeMove> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    for (ScopeOp scope : collectScopes(state.getKernel())) {
      auto next = dyn_cast_or_null<ScopeOp>(scope->getNextNode());
      if (scope.getMode() == Mode::seq && next && next.getMode() == Mode::seq)
        out.push_back({getName().str(), getNodeSelector(scope), {}});
    }
  }

  DiagnosedSilenceableFailure checkScope(MoveState &state,
                                         const MoveRequest &request,
                                         Location errorLoc,
                                         ScopeOp first) const override {
    auto second = dyn_cast_or_null<ScopeOp>(first->getNextNode());
    if (!second)
      return failWithNote(request, errorLoc, "the next sibling is not a scope",
                          first, "the scope");
    if (second.getMode() != Mode::seq)
      return failWithNote(
          request, errorLoc,
          "the next scope has a mode; join_cut needs plain scopes "
          "(clear the mode first)",
          second, "the next scope");
    int64_t k = first.getSize();
    if (!llvm::checkedAdd(k, int64_t(second.getSize())))
      return failWithNote(request, errorLoc,
                          "the joined scope would have " + Twine(k) + " + " +
                              Twine(second.getSize()) +
                              " iterations, beyond the 64-bit index range",
                          second, "the next scope");
    auto [x, y] = firstDifference(first.getBlock(), second.getBlock(),
                                  first.getDepth(), k);
    if (x || y) {
      DiagnosedSilenceableFailure diag =
          fail(request, errorLoc,
               "the next scope's body is not this body with {" +
                   Twine(first.getDepth()) + "} shifted by " + Twine(k));
      if (x)
        diag.attachNote(x->getLoc()) << "first difference, in this scope";
      if (y)
        diag.attachNote(y->getLoc()) << "first difference, in the next scope";
      return diag;
    }
    return DiagnosedSilenceableFailure::success();
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    ScopeOp first = getRequestScope(state, request);
    auto second = cast<ScopeOp>(first->getNextNode());
    int64_t k = first.getSize();
    first.setSize(k + second.getSize());
    second.erase();
    return {"cut_scope", getNodeSelector(first), {k}};
  }
};

} // namespace

PERFDOJO_DEFINE_MOVE(CutScope)
PERFDOJO_DEFINE_MOVE(JoinCut)
