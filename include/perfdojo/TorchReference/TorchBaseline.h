//===- TorchBaseline.h - a kernel's libtorch operator, validated and timed ===//
//
// The libtorch baseline of a library kernel, the reference point of
// perfdojo-search's "speedup over libtorch":
//   1. the operator: named by the caller, else the kernel's name (the .dojo
//      importer names a kernel after its file), else the file's stem;
//   2. validation: the operator's outputs on the kernel's seeded inputs must
//      match the kernel itself, JIT-compiled as given (-O3), so a kernel
//      that only shares its name with an operator (a softmax over another
//      axis) is refused instead of being compared with the wrong
//      computation;
//   3. timing as in perfdojo-run: a warm-up pass over every argument copy,
//      then repetitions that each take the next copy (ArgumentRotation);
//      operators with ATen out= variants write into the copy's output
//      buffers, like the compiled kernel they are compared with.
//
// perfdojo-run-torch is the command-line front end. This header does not
// include libtorch's headers, so its users compile quickly; linking
// PerfDojoTorchReference brings libtorch in. Built only with
// PERFDOJO_ENABLE_TORCH.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TORCHREFERENCE_TORCHBASELINE_H
#define PERFDOJO_TORCHREFERENCE_TORCHBASELINE_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/ExecutionEngine/Timer.h"
#include "perfdojo/Runtime/Validation.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace perfdojo {

/// Why a baseline failed. The values are perfdojo-run-torch's exit codes.
enum class TorchBaselineFailure {
  /// Unusable input: no such operator, shapes libtorch rejects, a kernel
  /// that does not compile or run.
  Unusable = 1,
  /// The operator does not compute this kernel.
  Mismatch = 2,
};

/// The error of a failed baseline. An empty message means the reason was
/// already reported as a diagnostic at the kernel.
class TorchBaselineError : public llvm::ErrorInfo<TorchBaselineError> {
public:
  static char ID;
  TorchBaselineError(TorchBaselineFailure kind, std::string message)
      : kind(kind), message(std::move(message)) {}

  TorchBaselineFailure getKind() const { return kind; }
  const std::string &getMessage() const { return message; }
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  TorchBaselineFailure kind;
  std::string message;
};

/// The libtorch operator for `kernel`: `requested` if given (it must be an
/// operator), else the first of the kernel's name and the stem of `path`
/// that is one. Fails with TorchBaselineFailure::Unusable and a message
/// listing the operators.
llvm::Expected<std::string> selectTorchOperator(dojo::KernelOp kernel,
                                                llvm::StringRef requested,
                                                llvm::StringRef path);

struct TorchBaselineOptions {
  /// libtorch intra-op threads (at::set_num_threads) and the JIT's threads
  /// for the kernel that validates it; at least 1.
  unsigned threads = 1;
  /// Untimed calls first (at least one per argument copy), then the timed
  /// repetitions.
  unsigned warmup = 1;
  unsigned repetitions = 10;
  /// The cache the timed calls start from (perfdojo-run's --cache-state).
  CacheState cache = CacheState::Cold;
  /// Seed of the input generator (the same data as perfdojo-run's).
  uint64_t seed = 0;
};

/// A validated and timed baseline.
struct TorchBaselineResult {
  std::string operatorName;
  std::string kernelName;
  unsigned threads = 1;
  /// Each output buffer with its comparison against the kernel's, in the
  /// kernel's argument order.
  std::vector<std::pair<std::string, Comparison>> outputs;
  /// The largest scaled error of any output.
  double maxScaledError = 0;
  TimingResult timing;
  /// Argument copies the timed calls rotate through.
  unsigned inputCopies = 1;
  CacheState cache = CacheState::Cold;
  /// Whether the operator wrote into each copy's output buffers (ATen's
  /// out= variants, as the compiled kernels do) rather than allocating.
  bool writesIntoOutputs = false;

  /// The text report: the operator, one line per validated output, the
  /// time.
  void print(llvm::raw_ostream &os) const;
  /// The JSON report (`operator`, `kernel`, `threads`, `time_median_s`,
  /// `time_min_s`, `repetitions`, `input_copies`, `cache_state`,
  /// `writes_into_outputs`, `valid`, `max_scaled_error`), read by
  /// perfdojo-search (Search/SearchReport.h).
  llvm::json::Object toJSON() const;
};

/// Validates libtorch operator `operatorName` against `kernel` and times it.
/// Fails with a TorchBaselineError.
llvm::Expected<TorchBaselineResult>
runTorchBaseline(dojo::KernelOp kernel, llvm::StringRef operatorName,
                 const TorchBaselineOptions &options);

} // namespace perfdojo

#endif // PERFDOJO_TORCHREFERENCE_TORCHBASELINE_H
