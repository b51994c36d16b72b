//===- IndexExpr.cpp - affine index expressions over scope depths --------===//

#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"

#include "mlir/IR/AffineExprVisitor.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace perfdojo {

std::optional<std::pair<int64_t, int64_t>>
LinearForm::range(llvm::ArrayRef<int64_t> sizes) const {
  int64_t lo = constant, hi = constant;
  for (auto [k, c] : llvm::enumerate(coeffs)) {
    if (c == 0)
      continue;
    int64_t last = k < sizes.size() ? sizes[k] - 1 : 0;
    int64_t term;
    if (llvm::MulOverflow(c, last, term) ||
        llvm::AddOverflow(c > 0 ? hi : lo, term, c > 0 ? hi : lo))
      return std::nullopt;
  }
  return std::make_pair(lo, hi);
}

static bool accumulate(AffineExpr expr, int64_t scale, LinearForm &form) {
  switch (expr.getKind()) {
  case AffineExprKind::Constant:
    form.constant += scale * cast<AffineConstantExpr>(expr).getValue();
    return true;
  case AffineExprKind::DimId: {
    unsigned k = cast<AffineDimExpr>(expr).getPosition();
    if (form.coeffs.size() <= k)
      form.coeffs.resize(k + 1, 0);
    form.coeffs[k] += scale;
    return true;
  }
  case AffineExprKind::Add: {
    auto bin = cast<AffineBinaryOpExpr>(expr);
    return accumulate(bin.getLHS(), scale, form) &&
           accumulate(bin.getRHS(), scale, form);
  }
  case AffineExprKind::Mul: {
    auto bin = cast<AffineBinaryOpExpr>(expr);
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
      return accumulate(bin.getLHS(), scale * c.getValue(), form);
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getLHS()))
      return accumulate(bin.getRHS(), scale * c.getValue(), form);
    return false;
  }
  default:
    // mod, floordiv, ceildiv and symbols are outside the dialect's forms.
    return false;
  }
}

std::optional<LinearForm> getLinearForm(AffineExpr expr) {
  LinearForm form;
  if (!accumulate(expr, 1, form))
    return std::nullopt;
  while (!form.coeffs.empty() && form.coeffs.back() == 0)
    form.coeffs.pop_back();
  return form;
}

AffineExpr buildAffineExpr(const LinearForm &form, MLIRContext *ctx) {
  AffineExpr result = getAffineConstantExpr(0, ctx);
  bool any = false;
  for (auto [k, c] : llvm::enumerate(form.coeffs)) {
    if (c == 0)
      continue;
    AffineExpr term = getAffineDimExpr(k, ctx) * c;
    result = any ? result + term : term;
    any = true;
  }
  if (form.constant != 0 || !any)
    result = any ? result + form.constant
                 : getAffineConstantExpr(form.constant, ctx);
  return result;
}

unsigned getDepthsUsed(AffineExpr expr) {
  unsigned used = 0;
  expr.walk([&](AffineExpr e) {
    if (auto d = dyn_cast<AffineDimExpr>(e))
      used = std::max(used, d.getPosition() + 1);
  });
  return used;
}

llvm::SmallBitVector getUsedDepths(AffineMap map, unsigned depth) {
  llvm::SmallBitVector used(depth);
  for (AffineExpr result : map.getResults())
    result.walk([&](AffineExpr e) {
      if (auto d = dyn_cast<AffineDimExpr>(e); d && d.getPosition() < depth)
        used.set(d.getPosition());
    });
  return used;
}

AffineMap makeIndexMap(llvm::ArrayRef<AffineExpr> results, MLIRContext *ctx) {
  unsigned dims = 0;
  for (AffineExpr e : results)
    dims = std::max(dims, getDepthsUsed(e));
  return AffineMap::get(dims, /*symbolCount=*/0, results, ctx);
}

void printIndexExpr(llvm::raw_ostream &os, AffineExpr expr) {
  std::optional<LinearForm> form = getLinearForm(expr);
  if (!form) {
    // Not representable in the dialect; the verifier rejects it. Print the
    // MLIR form so the diagnostic is still readable.
    os << "<" << expr << ">";
    return;
  }
  bool first = true;
  for (auto [k, c] : llvm::enumerate(form->coeffs)) {
    if (c == 0)
      continue;
    if (c < 0)
      os << "-";
    else if (!first)
      os << "+";
    os << "{" << k << "}";
    if (c != 1 && c != -1)
      os << "*" << (c < 0 ? -c : c);
    first = false;
  }
  if (first)
    os << form->constant;
  else if (form->constant > 0)
    os << "+" << form->constant;
  else if (form->constant < 0)
    os << "-" << -form->constant;
}

void printIndexList(llvm::raw_ostream &os, AffineMap map) {
  os << "[";
  llvm::interleave(
      map.getResults(), os, [&](AffineExpr e) { printIndexExpr(os, e); },
      ", ");
  os << "]";
}

} // namespace perfdojo

using namespace perfdojo;

SmallVector<LinearForm, 4> perfdojo::getIndexForms(AffineMap map) {
  SmallVector<LinearForm, 4> forms;
  for (AffineExpr e : map.getResults())
    forms.push_back(*getLinearForm(e));
  return forms;
}

bool perfdojo::isSameIndexList(ArrayRef<LinearForm> a,
                               ArrayRef<LinearForm> b) {
  if (a.size() != b.size())
    return false;
  for (auto [x, y] : llvm::zip(a, b)) {
    if (x.constant != y.constant)
      return false;
    for (unsigned k = 0; k < std::max(x.coeffs.size(), y.coeffs.size()); ++k)
      if (x.coeff(k) != y.coeff(k))
        return false;
  }
  return true;
}

bool perfdojo::isSameIndexList(AffineMap a, AffineMap b) {
  if (a == b)
    return true;
  if (!a || !b || a.getNumResults() != b.getNumResults())
    return false;
  SmallVector<LinearForm, 4> fa, fb;
  for (auto [x, y] : llvm::zip(a.getResults(), b.getResults())) {
    std::optional<LinearForm> fx = getLinearForm(x), fy = getLinearForm(y);
    if (!fx || !fy)
      return false;
    fa.push_back(*fx);
    fb.push_back(*fy);
  }
  return isSameIndexList(fa, fb);
}

AffineMap perfdojo::makeIndexMap(ArrayRef<LinearForm> forms,
                                 MLIRContext *ctx) {
  SmallVector<AffineExpr, 4> results;
  for (const LinearForm &form : forms)
    results.push_back(buildAffineExpr(form, ctx));
  return makeIndexMap(results, ctx);
}
