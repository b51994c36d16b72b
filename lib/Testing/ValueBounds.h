//===- ValueBounds.h - value ranges and error bounds of statements -*- C++ -*-===//
//
// What the kernel generator (KernelGenerator.cpp) knows about the values a
// statement computes: their range by interval arithmetic, and a bound on
// their relative rounding error in units of the element type's epsilon (a
// forward error analysis). Private to lib/Testing.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_LIB_TESTING_VALUEBOUNDS_H
#define PERFDOJO_LIB_TESTING_VALUEBOUNDS_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"

#include <algorithm>
#include <optional>

namespace perfdojo::kernelgen {

struct Range {
  double lo = 0, hi = 0;
  bool within(const Range &outer) const {
    return lo >= outer.lo && hi <= outer.hi;
  }
  Range hull(const Range &o) const {
    return {std::min(lo, o.lo), std::max(hi, o.hi)};
  }
};

inline Range hullOf(std::optional<Range> a, Range b) {
  return a ? a->hull(b) : b;
}

/// The range of products of a value in `a` and one in `b`.
Range mulRange(Range a, Range b);

/// Divisors and the arguments of log, sqrt and rsqrt keep this distance
/// from zero, so rounding of the divisor does not blow up the result.
constexpr double kPositiveFloor = 0.25;

inline bool isPositive(Range r) { return r.lo >= kPositiveFloor; }

/// What inputs and inouts of element type `type` hold, as fillInputs
/// (Runtime/HostBuffer.h) draws them: the input generator's closed bounds
/// (Support/InputValues.h; `positive` for arrays that feed log, sqrt,
/// rsqrt or a divisor); bool 0 or 1.
Range getInputRange(mlir::Type type, bool positive);

/// The range of `kind` applied to `args`, or nullopt where the operation
/// leaves its safe domain. Integer division truncates toward zero.
std::optional<Range> applyRange(dojo::OpKind kind, llvm::ArrayRef<Range> args,
                                bool integer);

/// Relative error bounds, in units of the element type's epsilon, of the
/// value a statement computes from operands with errors `errors`, rounding
/// once more (and a few units for the JIT's polynomial transcendentals,
/// `dojo-approximate-math`). Nullopt where cancellation could magnify the
/// operands' errors without bound: a sum of values of both signs, unless
/// both are exact (then it rounds once). Outputs then stay within the
/// validation tolerance (8 epsilons at least, Validation.h) whenever the
/// engines are right.
std::optional<double> propagateError(dojo::OpKind kind,
                                     llvm::ArrayRef<Range> args,
                                     llvm::ArrayRef<double> errors);

/// Magnitudes each element type keeps its values within: well inside its
/// range, and (for f16) where its precision still means something. Integer
/// statements stay inside too, so i8 and i16 never wrap in a generated
/// kernel (wrapping is defined, docs/ir.md "Numbers", but the ranges of
/// later statements are computed without it); bool holds 0 and 1.
double getMagnitudeLimit(mlir::Type type);

} // namespace perfdojo::kernelgen

#endif // PERFDOJO_LIB_TESTING_VALUEBOUNDS_H
