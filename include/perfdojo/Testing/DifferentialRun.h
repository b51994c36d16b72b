//===- DifferentialRun.h - one kernel through every engine ------*- C++ -*-===//
//
// Differential testing of generated kernels (KernelGenerator.h). One kernel
// goes through:
//   1. import and verification of its `.dojo` text;
//   2. the round trip: export, import, export again gives the same text,
//      and both kernels print the same MLIR;
//   3. the interpreter in f64 reference mode (the reference) and in the
//      kernel's element types, on inputs filled from the seed;
//   4. the JIT at -O0 and -O3, on 1 and (when the kernel has a `:p` scope)
//      2 threads, in a forked child process so that a crash or a hang of
//      compiled code is reported instead of ending the run;
//   5. optionally a short random walk of legal moves (MoveFuzzer.h).
// Outputs are compared with the reference under the validation rules
// (Validation.h: the dtype tolerance scaled by the longest reduction; NaN
// matches only NaN, infinities exactly).
//
// runCampaign generates and checks kernels one after another, counts what
// they covered, and saves every failing kernel with the command that
// reproduces it. perfdojo-fuzz-kernels is its command line.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TESTING_DIFFERENTIALRUN_H
#define PERFDOJO_TESTING_DIFFERENTIALRUN_H

#include "perfdojo/Testing/KernelGenerator.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace perfdojo {

struct DifferentialOptions {
  /// Seeds the input generator (fillInputs) and the move walk.
  uint64_t inputSeed = 1;
  /// Runs the JIT stage (step 4).
  bool jit = true;
  /// The child process running the JIT is killed after this long.
  unsigned timeoutSeconds = 300;
  /// Moves of the random walk of step 5 (0: no walk).
  unsigned walkLength = 0;
  /// Self-test of the comparison: changes the first output element of
  /// every JIT run, which the comparison must then report.
  bool plantFailure = false;
};

/// What one kernel went through.
struct DifferentialResult {
  /// `stage: message` per failure; empty when the kernel passed.
  std::vector<std::string> failures;
  /// The interpreter executes the kernel's element types (otherwise steps
  /// 3-5 are skipped).
  bool executable = false;
  /// The JIT stage was skipped: the kernel is mapped for a GPU.
  bool jitSkipped = false;
  /// JIT variants compiled and compared.
  unsigned jitRuns = 0;
  /// Moves made by the walk.
  unsigned moves = 0;

  bool passed() const { return failures.empty(); }
};

/// Checks the kernel of `text` (steps 1-5). Uses a context of its own,
/// without threads, so that the JIT child can be forked from it.
DifferentialResult checkKernel(llvm::StringRef text,
                               const DifferentialOptions &options);

struct CampaignOptions {
  /// Kernel i is generated from seed `seed + i`.
  uint64_t seed = 1;
  /// Stop after this many kernels, or (when > 0) after this many seconds,
  /// whichever comes first.
  uint64_t count = 100;
  double seconds = 0;
  /// Element type names (`f32`, ...); empty means every type the
  /// interpreter executes.
  std::vector<std::string> dtypes;
  KernelGenOptions generator;
  DifferentialOptions check;
  /// Where failing kernels are saved (empty: not saved).
  std::string saveFailures;
  /// A progress line every this many kernels (0: none).
  unsigned progressEvery = 100;
  /// Flags that reproduce this campaign's generator options, for the
  /// reproduce command of a failure (`--max-elements=...`).
  std::string reproduceFlags;
};

struct CampaignSummary {
  uint64_t kernels = 0, failed = 0, generatorBugs = 0, notExecutable = 0;
  uint64_t gpuKernels = 0, jitRuns = 0, moves = 0;
  uint64_t droppedModes = 0, droppedLocations = 0, droppedReuse = 0;
  double seconds = 0;
  /// Kernels per element type, and kernels that have each feature.
  std::map<std::string, uint64_t> dtypes, features;
  /// The files (or, without a directory, the seeds) of the failures.
  std::vector<std::string> failures;

  bool passed() const { return failed == 0 && generatorBugs == 0; }
  /// `kernels=N failed=F generator-bugs=G ...`, then the counts by type and
  /// feature, one line each.
  void print(llvm::raw_ostream &os) const;
};

/// The element types the interpreter executes, as names: every IR element
/// type for which getScalarType has an answer.
std::vector<std::string> getExecutableTypeNames();

/// Generates and checks kernels as `options` say, printing progress and
/// failures to `log`.
CampaignSummary runCampaign(const CampaignOptions &options,
                            llvm::raw_ostream &log);

} // namespace perfdojo

#endif // PERFDOJO_TESTING_DIFFERENTIALRUN_H
