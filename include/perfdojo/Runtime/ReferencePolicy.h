//===- ReferencePolicy.h - which reference validates a run ------*- C++ -*-===//
//
// A run's outputs are trusted only after comparison with a reference. The
// f64 interpreter is exact up to rounding of the reference itself but slow,
// so on large kernels the untransformed kernel, compiled by the same JIT,
// stands in for it; a search validates its candidates against the saved
// outputs of the original. Both of those carry float32 rounding of their
// own, so their tolerance is doubled.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_RUNTIME_REFERENCEPOLICY_H
#define PERFDOJO_RUNTIME_REFERENCEPOLICY_H

#include "perfdojo/Runtime/RunOptions.h"

namespace perfdojo {

/// The reference a run validates against.
enum class ReferenceKind {
  None,         ///< not validated (--validate=false, or the reference
                ///< mode, which is the reference)
  Interpreter,  ///< the f64 interpreter on the same inputs
  Baseline,     ///< the baseline kernel (or this one with modes cleared),
                ///< compiled by the same JIT
  SavedOutputs, ///< RunOptions::referenceOutputs
};

/// The reference of a run with `options` on a kernel of `leafEvaluations`
/// (count those of the baseline when there is one). Saved outputs win over
/// `referenceEngine`; `Auto` takes the interpreter when the engine is the
/// interpreter anyway or the kernel is within `interpLimit`.
ReferenceKind selectReference(const RunOptions &options,
                              int64_t leafEvaluations);

/// The multiple of the dtype tolerance (Validation.h) that `kind` allows: 1
/// against the f64 interpreter, 2 where the reference rounds like the run.
double getToleranceScale(ReferenceKind kind);

/// How reports name the reference, e.g. "the f64 reference (interpreter)".
/// `hasBaseline`: a baseline kernel was given (else the baseline reference is
/// this kernel with its modes cleared). Empty for None.
std::string describeReference(ReferenceKind kind, bool hasBaseline);

} // namespace perfdojo

#endif // PERFDOJO_RUNTIME_REFERENCEPOLICY_H
