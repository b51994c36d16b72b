//===- KernelRun.h - execute, validate and time one kernel ------*- C++ -*-===//
//
// One run of a kernel as `perfdojo-run` performs it, as a library:
//
//   1. pick the trusted reference (ReferencePolicy.h): the f64 interpreter,
//      or the untransformed kernel promoted to f64 and compiled
//      (ReferenceKernel.h), or saved outputs of one of these;
//   2. compile the kernel, and the f64 reference when it is compiled, with
//      the JIT (compilation touches no kernel data, so concurrent runs
//      overlap it);
//   3. under the timing lock (TimingLock.h): fill the inputs from the seed,
//      run and time the kernel (Timer.h, or the interpreter), compute the
//      reference outputs on the same inputs;
//   4. compare every output with the reference, modelled in the output's
//      type (Validation.h), and summarize the run (RunReport.h);
//   5. where an output does not match, measure the original kernel's own
//      error: its outputs saved with the reference, or the baseline run in
//      its own types. If the original is itself off from the f64 reference
//      (an overflow, a long f32 reduction) and this run reproduces it, the
//      output passes with a numerics note instead of a mismatch; without a
//      baseline the kernel is its own original, and the note says what its
//      numerics do.
//
// The search runs candidates in `perfdojo-run` worker processes, so that a
// crashing candidate cannot take the search down; those workers run this.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_EXECUTIONENGINE_KERNELRUN_H
#define PERFDOJO_EXECUTIONENGINE_KERNELRUN_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Runtime/HostBuffer.h"
#include "perfdojo/Runtime/RunOptions.h"
#include "perfdojo/Runtime/RunReport.h"

#include "llvm/Support/Error.h"

namespace perfdojo {

/// The error of a step that has reported its diagnostics on the kernel
/// already (the interpreter refusing a kernel, say): there is nothing more
/// to print.
class ReportedError : public llvm::ErrorInfo<ReportedError> {
public:
  static char ID;
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;
};

/// Prints `error` as `tool: message` on stderr, unless it is a
/// ReportedError.
void printRunError(llvm::Error error, llvm::StringRef tool);

/// A finished run: its report and its data.
struct KernelRun {
  dojo::KernelOp kernel;
  RunReport report;
  uint64_t seed = 0;
  /// The arguments in declaration order: after the run, and as the kernel
  /// received them.
  std::vector<HostBuffer> args, inputs;
  /// The reference's arguments after its run (f64 for float outputs), one
  /// per argument; empty when the run was not validated.
  std::vector<HostBuffer> reference;

  /// `--dump-outputs`: the `out` and `inout` arguments (BufferDump.h).
  llvm::Error dumpOutputs(llvm::StringRef path) const;
  /// `--dump-inputs`: the `in` and `inout` arguments before the run.
  llvm::Error dumpInputs(llvm::StringRef path) const;
  /// `--save-outputs`: the f64 reference outputs and this run's own outputs
  /// as a reference file for later runs (OutputFile.h). Only a validated
  /// run that passed saves one.
  llvm::Error saveOutputs(llvm::StringRef path) const;
};

/// Checks that `baseline` takes the same arguments as `kernel` (names,
/// types, shapes and roles), as a reference must.
llvm::Error checkBaselineArguments(dojo::KernelOp kernel,
                                   dojo::KernelOp baseline);

/// Runs `kernel` as `options` say. `baseline`, when not null, is the
/// untransformed kernel: it defines the work counts and the reduction
/// length of the tolerance (moves may add leaves that are not part of the
/// operator), it is the kernel the reference computes in f64, and its own
/// outputs tell numerics from a mismatch. Arguments must be within
/// checkArgumentSizes. A run whose outputs do not match is still a run:
/// see `report.passed()`.
llvm::Expected<KernelRun> runKernel(dojo::KernelOp kernel,
                                    dojo::KernelOp baseline,
                                    const RunOptions &options);

/// As above, on the given initial contents instead of the seeded
/// generator's: one buffer per argument in declaration order, each with the
/// argument's element count (any ScalarType: values convert as
/// HostBuffer::assign does). The contents of `out` arguments are ignored:
/// they start undefined (fillUndefined) as in every run.
llvm::Expected<KernelRun> runKernel(dojo::KernelOp kernel,
                                    dojo::KernelOp baseline,
                                    const RunOptions &options,
                                    llvm::ArrayRef<HostBuffer> initial);

} // namespace perfdojo

#endif // PERFDOJO_EXECUTIONENGINE_KERNELRUN_H
