//===- Validation.h - dtype-aware comparison of kernel outputs -*- C++ -*-===//
//
// Outputs are compared against an accurate reference computed in f64 (the
// interpreter's reference mode, or the kernel promoted to f64 and compiled,
// ReferenceKernel.h), modelled in the output's element type:
//
//   1. each expected value is rounded to the output's type first, so a true
//      6e38 expects inf from an f32 output and a tiny value flushes to the
//      type's subnormals or zero as the type would;
//   2. non-finite values must match in pattern: an infinity of the same
//      sign, NaN against NaN, but never an element the reference did not
//      write (its outputs start as a sentinel NaN, getUnwrittenValue);
//   3. finite values match within a tolerance scaled by the element type's
//      epsilon and by the square root of the longest reduction in the
//      kernel (the typical growth of rounding error in a sum of K terms).
//      Near-zero outputs are judged against the output's RMS rather than
//      their own magnitude, so cancellation does not cause false alarms:
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

/// The relative tolerance of an output of element type `type` of `kernel`:
/// getRelativeTolerance, except for integer outputs of a kernel that
/// converts a computed float (an array some leaf writes) to an integer.
/// Their values follow that float's rounding, which the f64 reference
/// does not share, so they compare within the widest such float type's
/// tolerance plus one unit (compareBuffers). Bool outputs stay exact.
double getOutputTolerance(dojo::KernelOp kernel, mlir::Type type,
                          int64_t reductionLength);

/// `value` as an element of `type` holds it: rounded to nearest, ties to
/// even, for f16, bf16 and f32: to +-inf beyond the type's range and to its
/// subnormals or zero below it. f64 and integer types: `value` itself.
double roundToElementType(double value, mlir::Type type);

/// The value the f64 reference's output elements hold before the reference
/// kernel runs: a quiet NaN with a payload that no operation produces
/// (computed NaNs carry the default payload). An expected element that
/// still holds it, or holds a NaN computed from it (operations keep a NaN
/// operand's payload), was never written by the reference.
double getUnwrittenValue();
bool isUnwrittenValue(double value);

struct Comparison {
  int64_t mismatches = 0;
  int64_t worstIndex = -1;    ///< element with the largest scaled error
  double worstActual = 0, worstExpected = 0;
  double maxScaledError = 0;  ///< max |a - e| / max(|e|, rms); NaN-free
  double tolerance = 0;       ///< the relative tolerance used
  double rms = 0;             ///< RMS of the finite expected values
  /// Expected elements the reference never wrote (isUnwrittenValue): each
  /// is a mismatch, whatever the actual value.
  int64_t neverWritten = 0, firstNeverWritten = -1;
  /// Elements that are infinite where the expected value, in the output's
  /// type, is finite; the first one and its f64 expected value.
  int64_t overflows = 0, firstOverflow = -1;
  double overflowActual = 0, overflowExpected = 0;
  /// Elements whose expected value, in the output's type, is inf or NaN:
  /// the computation itself leaves the type's range there, whatever the
  /// kernel; such elements match only the same non-finite value.
  int64_t nonFiniteExpected = 0, firstNonFiniteExpected = -1;
  /// An exact (integer or bool) comparison: worstIndex is then the first
  /// mismatching element, with its values in firstActual/firstExpected.
  bool exact = false;
  int64_t firstActual = 0, firstExpected = 0;
  bool passed() const { return mismatches == 0; }
};

/// Compares `actual` with `expected` element by element, modelled in
/// `elementType` (steps 1-3 above; a null type: f32 if `actual` holds f32,
/// else no rounding). `expected` may be f64 of a reference or the outputs
/// of another run. An integer `actual` is compared by compareExactly with
/// the tolerance (so pass getOutputTolerance's, 0 for most kernels), a
/// bool one exactly whatever the tolerance.
Comparison compareBuffers(const HostBuffer &actual, const HostBuffer &expected,
                          double relativeTolerance,
                          mlir::Type elementType = {});

/// Compares integer or bool elements as integers; the first mismatch is
/// reported. With a `relativeTolerance` above 0 (getOutputTolerance), an
/// element matches within 1 + relativeTolerance * max(|expected|, RMS).
Comparison compareExactly(const HostBuffer &actual, const HostBuffer &expected,
                          double relativeTolerance = 0);

/// One line such as "max scaled error 1.2e-07 (tolerance 4.8e-06)" or the
/// count and worst element of the mismatches.
std::string describe(const Comparison &comparison);

/// What `comparison` of a kernel's own outputs (of element type `type`,
/// longest reduction `reductionLength`) with the f64 reference says about
/// the kernel's numerics, as the end of a sentence about it: "overflows to
/// inf at element 5 (the f64 reference is 3.0e+38)", "is off by 33% from
/// the f64 reference (f32 rounding of a reduction of 25165824 terms)".
/// When the comparison passed, what its non-finite elements say ("leaves
/// the range of f32: 4 element(s) are inf or NaN, ..."), or empty.
std::string describeNumerics(const Comparison &comparison, mlir::Type type,
                             int64_t reductionLength);

} // namespace perfdojo

#endif // PERFDOJO_RUNTIME_VALIDATION_H
