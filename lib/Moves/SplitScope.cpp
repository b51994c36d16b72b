//===- SplitScope.cpp - split_scope and merge_scopes ----------------------===//
//
// split_scope a@d f        (inverse: merge_scopes a@d)
//   A plain scope of size s at depth d becomes a scope of size s/f holding a
//   scope of size f; inside, {d} := f*{d} + {d+1} and deeper depths shift
//   by one.
//   Legality: the scope has no mode; 1 < f < s and f divides s. No
//   dependence test: v -> (v div f, v mod f) is an order isomorphism, so
//   every instance keeps its place in the execution order and touches the
//   same elements.
//   Candidates: every proper divisor f of s (getProperDivisors,
//   Support/Divisors.h: bounded work at any size).
//
// merge_scopes a@d         (inverse: split_scope a@d q)
//   A plain scope (size p) whose only child is a plain scope (size q)
//   becomes one scope of size p*q.
//   Legality: every index form below has coef({d}) = q * coef({d+1}), so
//   q*{d} + {d+1} collapses to the new {d} and no div/mod is ever needed.
//   Neither scope has size 1, or the inverse split would need a factor of
//   1 or s (remove_scope drops an unused size-1 scope instead).
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"

#include "perfdojo/Support/Divisors.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {

class SplitScope final
    : public MoveOf<MoveKind::SplitScope, 1, PlainScopeMove> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    for (ScopeOp scope : collectScopes(state.getKernel())) {
      int64_t s = scope.getSize();
      if (scope.getMode() != Mode::seq)
        continue;
      std::string location = getNodeSelector(scope);
      // Every proper divisor, in increasing order.
      for (int64_t f : getProperDivisors(s))
        out.push_back({getName().str(), location, {f}});
    }
  }

  DiagnosedSilenceableFailure checkScope(MoveState &state,
                                         const MoveRequest &request,
                                         Location errorLoc,
                                         ScopeOp scope) const override {
    int64_t s = scope.getSize(), f = request.params[0];
    if (f <= 1 || f >= s)
      return failWithNote(request, errorLoc,
                          "split factor " + Twine(f) +
                              " must lie strictly between 1 "
                              "and the scope size " +
                              Twine(s),
                          scope, "the scope");
    if (s % f)
      return failWithNote(request, errorLoc,
                          "split factor " + Twine(f) +
                              " does not divide scope size " + Twine(s),
                          scope, "the scope");
    // The inner scope adds one level under the scope.
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    (void)checkNestingBound(request, errorLoc,
                            uint64_t(scope.getDepth()) + 1 +
                                getSubtreeScopeHeight(scope),
                            scope, diag);
    return diag;
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    ScopeOp scope = getRequestScope(state, request);
    unsigned d = scope.getDepth();
    int64_t f = request.params[0];
    // {d} := f*{d} + {d+1}; {k>d} := {k+1}.
    rewriteIndices(scope, [&](const LinearForm &in) {
      LinearForm out;
      out.constant = in.constant;
      for (unsigned k = 0; k < in.coeffs.size(); ++k) {
        int64_t c = in.coeffs[k];
        if (c == 0)
          continue;
        auto add = [&](unsigned depth, int64_t v) {
          if (out.coeffs.size() <= depth)
            out.coeffs.resize(depth + 1, 0);
          out.coeffs[depth] += v;
        };
        if (k < d) {
          add(k, c);
        } else if (k == d) {
          add(d, c * f);
          add(d + 1, c);
        } else {
          add(k + 1, c);
        }
      }
      return out;
    });
    OpBuilder builder(scope.getContext());
    builder.setInsertionPointToStart(&scope.getBlock());
    auto inner = ScopeOp::create(builder, scope.getLoc(), f, Mode::seq);
    Block &innerBlock = inner.getBlock();
    innerBlock.getOperations().splice(
        innerBlock.end(), scope.getBlock().getOperations(),
        std::next(Block::iterator(inner)), scope.getBlock().end());
    scope.setSize(scope.getSize() / f);
    return {"merge_scopes", getNodeSelector(scope), {}};
  }
};

class MergeScopes final
    : public MoveOf<MoveKind::MergeScopes, 0, PlainScopeMove> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    for (ScopeOp scope : collectScopes(state.getKernel()))
      if (llvm::hasSingleElement(scope.getBlock()) &&
          isa<ScopeOp>(scope.getBlock().front()))
        out.push_back({getName().str(), getNodeSelector(scope), {}});
  }

  DiagnosedSilenceableFailure checkScope(MoveState &state,
                                         const MoveRequest &request,
                                         Location errorLoc,
                                         ScopeOp outer) const override {
    auto inner = dyn_cast<ScopeOp>(outer.getBlock().front());
    if (!llvm::hasSingleElement(outer.getBlock()) || !inner)
      return failWithNote(
          request, errorLoc,
          "the scope's only child must be a scope to merge with", outer,
          "the outer scope");
    if (inner.getMode() != Mode::seq)
      return failWithNote(
          request, errorLoc,
          "the inner scope has a mode; merge_scopes needs plain "
          "scopes (clear the mode first)",
          inner, "the inner scope");
    unsigned d = outer.getDepth();
    int64_t q = inner.getSize();
    // The inverse split_scope needs 1 < q < p*q.
    if (outer.getSize() == 1 || q == 1) {
      ScopeOp unit = q == 1 ? inner : outer;
      return failWithNote(
          request, errorLoc,
          "sizes " + Twine(outer.getSize()) + " and " + Twine(q) +
              ": a merge with a scope of size 1 cannot be undone by "
              "split_scope (use remove_scope)",
          unit, "the scope of size 1");
    }
    if (!llvm::checkedMul(int64_t(outer.getSize()), q))
      return failWithNote(
          request, errorLoc,
          "the merged scope would have " +
              describeOverflowingProduct(outer.getSize(), q) +
              " iterations, beyond the 64-bit index range",
          outer, "the outer scope");
    std::optional<LinearForm> bad;
    allIndices(inner, [&](const LinearForm &form) {
      if (std::optional<int64_t> expected =
              llvm::checkedMul(q, form.coeff(d + 1));
          expected && form.coeff(d) == *expected)
        return true;
      bad = form;
      return false;
    });
    if (bad) {
      std::string text;
      llvm::raw_string_ostream os(text);
      printIndexExpr(os, buildAffineExpr(*bad, outer.getContext()));
      return failWithNote(request, errorLoc,
                          "index " + text + " does not use {" + Twine(d) +
                              "} and {" + Twine(d + 1) + "} only through {" +
                              Twine(d) + "}*" + Twine(q) + "+{" + Twine(d + 1) +
                              "}, so the merged scope would need div/mod",
                          inner, "the inner scope");
    }
    return DiagnosedSilenceableFailure::success();
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    ScopeOp outer = getRequestScope(state, request);
    auto inner = cast<ScopeOp>(outer.getBlock().front());
    unsigned d = outer.getDepth();
    int64_t q = inner.getSize();
    // c*(q*{d} + {d+1}) + rest  ->  c*{d} + rest; {k>d+1} := {k-1}.
    rewriteIndices(inner, [&](const LinearForm &in) {
      LinearForm out;
      out.constant = in.constant;
      for (unsigned k = 0; k < in.coeffs.size(); ++k) {
        if (k == d)
          continue; // folded into {d+1}'s coefficient
        unsigned to = k < d ? k : k - 1;
        if (out.coeffs.size() <= to)
          out.coeffs.resize(to + 1, 0);
        out.coeffs[to] += in.coeffs[k];
      }
      return out;
    });
    Block &outerBlock = outer.getBlock();
    outerBlock.getOperations().splice(outerBlock.end(),
                                      inner.getBlock().getOperations());
    inner.erase();
    outer.setSize(outer.getSize() * q);
    return {"split_scope", getNodeSelector(outer), {q}};
  }
};

} // namespace

PERFDOJO_DEFINE_MOVE(SplitScope)
PERFDOJO_DEFINE_MOVE(MergeScopes)
