//===- Validation.h - dtype-aware comparison of kernel outputs -*- C++ -*-===//
//
// Reordered or long float reductions change rounding, so outputs are compared
// against an accurate reference (the interpreter's f64 mode) with a tolerance
// scaled by the element type's epsilon and by the square root of the longest
// reduction in the kernel (the typical growth of rounding error in a sum of
// K terms). Near-zero outputs are judged against the output's RMS rather
// than their own magnitude, so cancellation does not cause false alarms:
//
//   |actual - expected| <= eps(type) * (4 + 4 * sqrt(K)) * max(|expected|, rms)
//
// Integer and bool outputs have exact semantics (docs/ir.md, "Numbers"), so
// they compare exactly, as integers (no i64 value passes through a double).
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_RUNTIME_VALIDATION_H
#define PERFDOJO_RUNTIME_VALIDATION_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Runtime/HostBuffer.h"

namespace perfdojo {

/// The longest reduction any output element of `kernel` accumulates: for each
/// reducing leaf, the product of the sizes of its enclosing scopes whose
/// variable does not appear in its output index. 1 if there is none.
int64_t getMaxReductionLength(dojo::KernelOp kernel);

/// Relative tolerance for results of `type` accumulated over `K` terms; 0
/// for integer and bool types, which compare exactly.
double getRelativeTolerance(mlir::Type type, int64_t reductionLength);

struct Comparison {
  int64_t mismatches = 0;
  int64_t worstIndex = -1;    ///< element with the largest scaled error
  double worstActual = 0, worstExpected = 0;
  double maxScaledError = 0;  ///< max |a - e| / max(|e|, rms); NaN-free
  double tolerance = 0;       ///< the relative tolerance used
  double rms = 0;             ///< RMS of the expected values
  /// An exact (integer or bool) comparison: worstIndex is then the first
  /// mismatching element, with its values in firstActual/firstExpected.
  bool exact = false;
  int64_t firstActual = 0, firstExpected = 0;
  bool passed() const { return mismatches == 0; }
};

/// Compares `actual` with `expected` element by element. NaN matches only
/// NaN; infinities must match exactly. An integer or bool `actual` is
/// compared exactly (compareExactly), whatever the tolerance.
Comparison compareBuffers(const HostBuffer &actual, const HostBuffer &expected,
                          double relativeTolerance);

/// Compares integer or bool elements as integers; the first mismatch is
/// reported.
Comparison compareExactly(const HostBuffer &actual, const HostBuffer &expected);

/// One line such as "max scaled error 1.2e-07 (tolerance 4.8e-06)" or the
/// count and worst element of the mismatches.
std::string describe(const Comparison &comparison);

} // namespace perfdojo

#endif // PERFDOJO_RUNTIME_VALIDATION_H
