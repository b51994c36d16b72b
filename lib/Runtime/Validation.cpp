//===- Validation.cpp - dtype-aware comparison of kernel outputs ---------===//

#include "perfdojo/Runtime/Validation.h"
#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"

#include "perfdojo/Support/Float16.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/bit.h"
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
    llvm::SmallBitVector used =
        getUsedDepths(leaf.getIndices(), leaf.getDepth());
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

double perfdojo::getOutputTolerance(dojo::KernelOp kernel, Type type,
                                    int64_t reductionLength) {
  if (!isIntegerElementType(type))
    return getRelativeTolerance(type, reductionLength);
  llvm::StringSet<> written;
  kernel.walk([&](dojo::LeafOp leaf) { written.insert(leaf.getArray()); });
  double tolerance = 0;
  kernel.walk([&](dojo::LeafOp leaf) {
    Type to = kernel.lookupArray(leaf.getArray()).getElementType();
    if (!isIntegerElementType(to))
      return;
    for (Attribute input : leaf.getInputs()) {
      auto access = dyn_cast<dojo::AccessAttr>(input);
      if (!access || !written.contains(access.getArray().getValue()))
        continue;
      Type from = kernel.lookupArray(access.getArray().getValue())
                      .getElementType();
      if (isa<FloatType>(from))
        tolerance = std::max(tolerance,
                             getRelativeTolerance(from, reductionLength));
    }
  });
  return tolerance;
}

namespace {
/// The float formats an expected value is rounded to.
enum class Rounding { None, F32, F16, BF16 };

Rounding getRounding(Type type) {
  if (!type)
    return Rounding::None;
  if (type.isF32())
    return Rounding::F32;
  if (type.isF16())
    return Rounding::F16;
  if (type.isBF16())
    return Rounding::BF16;
  return Rounding::None;
}

double round(double value, Rounding rounding) {
  switch (rounding) {
  case Rounding::None:
    return value;
  case Rounding::F32:
    // The hardware conversion: nearest-even, gradual underflow, inf beyond
    // the range.
    return static_cast<float>(value);
  case Rounding::F16:
    return halfToDouble(doubleToHalf(value));
  case Rounding::BF16:
    return bfloat16ToDouble(doubleToBFloat16(value));
  }
  llvm_unreachable("unknown rounding");
}

/// The sentinel's bits: a quiet NaN whose payload spells "never written".
constexpr uint64_t kUnwrittenBits = 0x7ff8'0000'0bad'f00dULL;
} // namespace

double perfdojo::roundToElementType(double value, Type type) {
  return round(value, getRounding(type));
}

double perfdojo::getUnwrittenValue() {
  return llvm::bit_cast<double>(kUnwrittenBits);
}

bool perfdojo::isUnwrittenValue(double value) {
  // Arithmetic on a NaN operand keeps its payload, but may set the sign.
  return (llvm::bit_cast<uint64_t>(value) & ~(uint64_t(1) << 63)) ==
         kUnwrittenBits;
}

Comparison perfdojo::compareBuffers(const HostBuffer &actual,
                                    const HostBuffer &expected,
                                    double relativeTolerance,
                                    Type elementType) {
  // Integers within getOutputTolerance's allowance (0 but for a converted
  // computed float: exact); bool always exactly.
  if (actual.getType() == ScalarType::i1)
    return compareExactly(actual, expected);
  if (!isFloatScalarType(actual.getType()))
    return compareExactly(actual, expected, relativeTolerance);
  Comparison c;
  c.tolerance = relativeTolerance;
  Rounding rounding = elementType ? getRounding(elementType)
                      : actual.getType() == ScalarType::f32  ? Rounding::F32
                      : actual.getType() == ScalarType::f16  ? Rounding::F16
                      : actual.getType() == ScalarType::bf16 ? Rounding::BF16
                                                             : Rounding::None;
  int64_t n = std::min(actual.size(), expected.size());
  double sumSq = 0;
  int64_t finite = 0;
  for (int64_t i = 0; i < n; ++i) {
    double e = round(expected.get(i), rounding);
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
    double a = actual.get(i), exact = expected.get(i);
    if (isUnwrittenValue(exact)) {
      // Whatever the run left there (the NaN it was filled with, say), it
      // cannot match an element the reference never computed.
      if (c.neverWritten++ == 0)
        c.firstNeverWritten = i;
      ++c.mismatches;
      noteWorst(i, a, exact, INFINITY);
      continue;
    }
    double e = round(exact, rounding);
    if (!std::isfinite(e) && c.nonFiniteExpected++ == 0)
      c.firstNonFiniteExpected = i;
    if (std::isnan(a) || std::isnan(e) || std::isinf(a) || std::isinf(e)) {
      bool same = (std::isnan(a) && std::isnan(e)) || a == e;
      if (!same) {
        ++c.mismatches;
        noteWorst(i, a, e, INFINITY);
        if (std::isinf(a) && std::isfinite(e) && c.overflows++ == 0) {
          c.firstOverflow = i;
          c.overflowActual = a;
          c.overflowExpected = exact;
        }
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
                                    const HostBuffer &expected,
                                    double relativeTolerance) {
  Comparison c;
  c.exact = true;
  c.tolerance = relativeTolerance;
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
    // The report's scaled error, as for floats; the verdict is exact, or
    // within one unit and the tolerance where one is given.
    double scale = std::max(std::abs(static_cast<double>(e)), c.rms);
    double diff = std::abs(static_cast<double>(a) - static_cast<double>(e));
    c.maxScaledError =
        std::max(c.maxScaledError, scale > 0 ? diff / scale : diff);
    if (relativeTolerance > 0 && diff <= 1 + relativeTolerance * scale)
      continue;
    if (c.mismatches++ == 0) {
      c.worstIndex = i;
      c.firstActual = a;
      c.firstExpected = e;
      c.worstActual = static_cast<double>(a);
      c.worstExpected = static_cast<double>(e);
    }
  }
  if (actual.size() != expected.size())
    c.mismatches += std::abs(actual.size() - expected.size());
  return c;
}

std::string perfdojo::describe(const Comparison &c) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (c.exact) {
    if (c.passed() && c.maxScaledError == 0)
      os << "exact match";
    else if (c.passed())
      os << "match within one unit and the converted float's tolerance "
         << "(max scaled error " << llvm::format("%.3g", c.maxScaledError)
         << ", tolerance " << llvm::format("%.3g", c.tolerance) << ")";
    else if (c.worstIndex < 0)
      os << c.mismatches << " element(s) more or fewer than the reference";
    else
      os << c.mismatches << " mismatching element(s) ("
         << (c.tolerance > 0 ? "within one unit and the converted float's "
                               "tolerance"
                             : "exact comparison")
         << "); first at " << c.worstIndex << ": got " << c.firstActual
         << ", expected " << c.firstExpected;
    return text;
  }
  if (c.passed()) {
    os << "max scaled error " << llvm::format("%.3g", c.maxScaledError)
       << " (tolerance " << llvm::format("%.3g", c.tolerance) << ")";
    return text;
  }
  os << c.mismatches << " mismatching element(s); ";
  if (c.neverWritten) {
    os << c.neverWritten << " never written by the reference (first at "
       << c.firstNeverWritten << ")";
    if (c.neverWritten == c.mismatches)
      return text;
    os << "; ";
  }
  os << "worst at " << c.worstIndex << ": got "
     << llvm::format("%.9g", c.worstActual) << ", expected "
     << llvm::format("%.9g", c.worstExpected) << " (scaled error "
     << llvm::format("%.3g", c.maxScaledError) << ", tolerance "
     << llvm::format("%.3g", c.tolerance) << ")";
  return text;
}

std::string perfdojo::describeNumerics(const Comparison &c, Type type,
                                       int64_t reductionLength) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (c.passed()) {
    if (c.nonFiniteExpected)
      os << "leaves the range of " << type << ": " << c.nonFiniteExpected
         << " element(s) are inf or NaN, as the f64 reference rounded to "
         << type << " is (first at element " << c.firstNonFiniteExpected
         << "); they match only the same value";
    return text;
  }
  if (c.neverWritten) {
    os << "leaves " << c.neverWritten
       << " element(s) that the reference never writes (first at "
       << c.firstNeverWritten << ")";
  } else if (c.overflows) {
    os << "overflows to " << (c.overflowActual < 0 ? "-inf" : "inf")
       << " at element " << c.firstOverflow << " (the f64 reference is "
       << llvm::format("%.9g", c.overflowExpected) << ")";
  } else if (!std::isfinite(c.maxScaledError)) {
    os << "gives " << llvm::format("%.9g", c.worstActual) << " at element "
       << c.worstIndex << " where the f64 reference is "
       << llvm::format("%.9g", c.worstExpected);
  } else {
    os << "is off by " << llvm::format("%.3g", 100 * c.maxScaledError)
       << "% from the f64 reference (" << type << " rounding";
    if (reductionLength > 1)
      os << " of a reduction of " << reductionLength << " terms";
    os << ")";
  }
  return text;
}
