//===- ReferencePolicy.h - which reference validates a run ------*- C++ -*-===//
//
// A run's outputs are trusted only after comparison with a reference, and
// every reference is computed in f64 on the run's own inputs: the
// interpreter's f64 mode where it is affordable, else the untransformed
// kernel promoted to f64 (ReferenceKernel.h) and compiled by the JIT, or the
// saved outputs of one of these. No reference rounds like the run (a long
// f32 reduction of the naive kernel can be 33% off, and a reference that
// shares such an error blames the programs that fix it), so the tolerance
// is the dtype's own (Validation.h) against each of them.
//
// The original kernel's own outputs, in its own type, are a second opinion:
// where the original itself is off from the f64 reference, a run that
// matches the original (within twice the tolerance, both rounding) is
// numerics, not a legality bug (KernelRun.h).
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
  Compiled,     ///< the baseline kernel (or this one), promoted to f64 and
                ///< compiled by the JIT, on the same inputs
  SavedOutputs, ///< RunOptions::referenceOutputs: the f64 reference outputs
                ///< an earlier run saved
};

/// The reference of a run with `options` on a kernel of `leafEvaluations`
/// (count those of the baseline when there is one). Saved outputs win over
/// `referenceEngine`; `Auto` takes the interpreter when the engine is the
/// interpreter anyway or the kernel is within `interpLimit`, else the
/// compiled f64 reference.
ReferenceKind selectReference(const RunOptions &options,
                              int64_t leafEvaluations);

/// The multiple of the dtype tolerance (Validation.h) allowed against the
/// original kernel's own outputs: both sides round in the output's type.
/// Against an f64 reference the multiple is 1.
constexpr double kOriginalToleranceScale = 2;

/// How reports name the reference, e.g. "the f64 reference (interpreter)".
/// Empty for None.
std::string describeReference(ReferenceKind kind);

} // namespace perfdojo

#endif // PERFDOJO_RUNTIME_REFERENCEPOLICY_H
