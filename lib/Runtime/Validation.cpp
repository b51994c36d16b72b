//===- Validation.cpp - dtype-aware comparison of kernel outputs ---------===//

#include "perfdojo/Runtime/Validation.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"

#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/Format.h"

#include <cmath>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

int64_t perfdojo::getMaxReductionLength(KernelOp kernel) {
  int64_t longest = 1;
  kernel.walk([&](LeafOp leaf) {
    if (leaf.getReduce() == ReduceKind::none)
      return;
    // Depths the output index depends on select distinct elements; every
    // other enclosing scope accumulates into the same element.
    llvm::SmallBitVector used(leaf.getDepth());
    for (AffineExpr e : leaf.getIndices().getResults())
      e.walk([&](AffineExpr sub) {
        if (auto d = dyn_cast<AffineDimExpr>(sub))
          used.set(d.getPosition());
      });
    int64_t length = 1;
    unsigned depth = leaf.getDepth();
    for (auto scope = leaf->getParentOfType<ScopeOp>(); scope;
         scope = scope->getParentOfType<ScopeOp>()) {
      --depth;
      if (!used.test(depth))
        length *= scope.getSize();
    }
    longest = std::max(longest, length);
  });
  return longest;
}

double perfdojo::getRelativeTolerance(Type type, int64_t reductionLength) {
  if (!isa<FloatType>(type))
    return 0; // integers and bool are exact
  double eps = type.isF64()    ? 0x1.0p-52
               : type.isF16()  ? 0x1.0p-10
               : type.isBF16() ? 0x1.0p-7
                               : 0x1.0p-23;
  return eps * (4.0 + 4.0 * std::sqrt(static_cast<double>(reductionLength)));
}

Comparison perfdojo::compareBuffers(const HostBuffer &actual,
                                    const HostBuffer &expected,
                                    double relativeTolerance) {
  if (!isFloatScalarType(actual.getType()))
    return compareExactly(actual, expected);
  Comparison c;
  c.tolerance = relativeTolerance;
  int64_t n = std::min(actual.size(), expected.size());
  double sumSq = 0;
  int64_t finite = 0;
  for (int64_t i = 0; i < n; ++i) {
    double e = expected.get(i);
    if (std::isfinite(e)) {
      sumSq += e * e;
      ++finite;
    }
  }
  c.rms = finite ? std::sqrt(sumSq / finite) : 0;
  auto noteWorst = [&](int64_t i, double a, double e, double scaled) {
    if (c.worstIndex < 0 || scaled > c.maxScaledError) {
      c.worstIndex = i;
      c.worstActual = a;
      c.worstExpected = e;
      c.maxScaledError = scaled;
    }
  };
  for (int64_t i = 0; i < n; ++i) {
    double a = actual.get(i), e = expected.get(i);
    if (std::isnan(a) || std::isnan(e) || std::isinf(a) || std::isinf(e)) {
      bool same = (std::isnan(a) && std::isnan(e)) || a == e;
      if (!same) {
        ++c.mismatches;
        noteWorst(i, a, e, INFINITY);
      }
      continue;
    }
    double scale = std::max(std::abs(e), c.rms);
    double scaled = scale > 0 ? std::abs(a - e) / scale : std::abs(a - e);
    if (scaled > relativeTolerance)
      ++c.mismatches;
    noteWorst(i, a, e, scaled);
  }
  if (actual.size() != expected.size())
    c.mismatches += std::abs(actual.size() - expected.size());
  return c;
}

Comparison perfdojo::compareExactly(const HostBuffer &actual,
                                    const HostBuffer &expected) {
  Comparison c;
  c.exact = true;
  int64_t n = std::min(actual.size(), expected.size());
  double sumSq = 0;
  for (int64_t i = 0; i < n; ++i) {
    double e = expected.get(i);
    sumSq += e * e;
  }
  c.rms = n ? std::sqrt(sumSq / n) : 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t a = actual.getInt(i), e = expected.getInt(i);
    if (a == e)
      continue;
    if (c.mismatches++ == 0) {
      c.worstIndex = i;
      c.firstActual = a;
      c.firstExpected = e;
      c.worstActual = static_cast<double>(a);
      c.worstExpected = static_cast<double>(e);
    }
    // The report's scaled error, as for floats; it plays no part in the
    // verdict.
    double scale = std::max(std::abs(static_cast<double>(e)), c.rms);
    double diff = std::abs(static_cast<double>(a) - static_cast<double>(e));
    c.maxScaledError =
        std::max(c.maxScaledError, scale > 0 ? diff / scale : diff);
  }
  if (actual.size() != expected.size())
    c.mismatches += std::abs(actual.size() - expected.size());
  return c;
}

std::string perfdojo::describe(const Comparison &c) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (c.exact) {
    if (c.passed())
      os << "exact match";
    else if (c.worstIndex < 0)
      os << c.mismatches << " element(s) more or fewer than the reference";
    else
      os << c.mismatches << " mismatching element(s) (exact comparison); "
         << "first at " << c.worstIndex << ": got " << c.firstActual
         << ", expected " << c.firstExpected;
    return text;
  }
  if (c.passed()) {
    os << "max scaled error " << llvm::format("%.3g", c.maxScaledError)
       << " (tolerance " << llvm::format("%.3g", c.tolerance) << ")";
    return text;
  }
  os << c.mismatches << " mismatching element(s); worst at " << c.worstIndex
     << ": got " << llvm::format("%.9g", c.worstActual) << ", expected "
     << llvm::format("%.9g", c.worstExpected) << " (scaled error "
     << llvm::format("%.3g", c.maxScaledError) << ", tolerance "
     << llvm::format("%.3g", c.tolerance) << ")";
  return text;
}
