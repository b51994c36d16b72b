//===- RunOptions.h - what one run of a kernel is asked to do ---*- C++ -*-===//
//
// The settings of one execution of a kernel: the engine, the trusted
// reference that validates it, inputs, timing and how concurrent runs
// share the machine. `perfdojo-run` fills them from its flags and runs
// them in-process (perfdojo/ExecutionEngine/KernelRun.h); the search
// evaluator fills them for each candidate and hands them, as a command
// line, to a `perfdojo-run` worker process that isolates crashes.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_RUNTIME_RUNOPTIONS_H
#define PERFDOJO_RUNTIME_RUNOPTIONS_H

#include "perfdojo/Support/CacheState.h"
#include "perfdojo/Support/PageBacking.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace perfdojo {

/// What executes the kernel.
enum class RunEngine {
  Jit,    ///< compiled for this CPU (perfdojo/ExecutionEngine/JitKernel.h)
  Interp, ///< the reference interpreter
  Cuda,   ///< compiled for an NVIDIA GPU and run through the CUDA driver
          ///< (perfdojo/ExecutionEngine/GpuKernel.h; docs/gpu.md)
  Snitch, ///< lowered for a Snitch core and run on its executable model
          ///< (perfdojo/ExecutionEngine/SnitchKernel.h; docs/snitch.md)
};
llvm::StringRef stringifyRunEngine(RunEngine engine);
/// Parses `jit`, `interp`, `cuda` or `snitch`; the error lists them.
llvm::Expected<RunEngine> parseRunEngine(llvm::StringRef name);

/// The trusted reference a user asks for (ReferencePolicy.h decides which
/// one a run actually uses).
enum class ReferenceEngine {
  Auto,     ///< the interpreter up to `interpLimit` leaf evaluations, else
            ///< the compiled f64 reference
  Interp,   ///< the f64 interpreter
  Compiled, ///< the untransformed kernel (the baseline, else this kernel)
            ///< promoted to f64 and compiled by the JIT
};
llvm::StringRef stringifyReferenceEngine(ReferenceEngine engine);
/// Parses `auto`, `interp` or `compiled`; the error lists them.
llvm::Expected<ReferenceEngine> parseReferenceEngine(llvm::StringRef name);

struct RunOptions {
  RunEngine engine = RunEngine::Jit;
  /// Interpreter only: run its f64 reference mode itself.
  bool referenceMode = false;

  /// Compare the outputs with a trusted reference.
  bool validate = true;
  ReferenceEngine referenceEngine = ReferenceEngine::Auto;
  /// The largest leaf-evaluation count `Auto` validates with the
  /// interpreter (it is about 100x slower than compiled code); above it,
  /// with the compiled f64 reference.
  int64_t interpLimit = int64_t(1) << 28;
  /// Saved outputs to validate against instead of computing a reference
  /// (the f64 reference outputs and the saving run's own outputs, written
  /// by an earlier validated run, see OutputFile.h); "" for none.
  std::string referenceOutputs;

  /// Seed of the input generator (fillInputs).
  uint64_t seed = 0;

  /// JIT: LLVM optimization level 0-3 and polynomial f32 transcendentals.
  unsigned optLevel = 3;
  bool approximateMath = true;
  /// JIT: OpenMP threads of `:p` scopes (0: the runtime's default).
  unsigned threads = 0;

  /// CUDA: the chip to compile for ("": the newest one the device runs;
  /// sm_90 for a bundle or for results of a remote run).
  std::string gpuChip;
  /// CUDA: instead of running through the driver, read the outputs and
  /// times a `perfdojo-gpu-launch` run of this kernel's bundle left in this
  /// directory ("" for none).
  std::string gpuResults;

  /// Timing (perfdojo/ExecutionEngine/Timer.h): untimed calls, the warm-up
  /// time after which argument copies are read instead of run on, and timed
  /// repetitions (0: getRepetitions's default).
  unsigned warmup = 1;
  double maxWarmupSeconds = 1;
  unsigned repetitions = 0;
  /// The cache the timed repetitions start from (CacheState.h).
  CacheState cache = CacheState::Cold;
  /// The pages the arguments live on (PageBacking.h).
  PageBacking pages = PageBacking::Huge;
  /// JIT: stop timing at the first call slower than this many seconds
  /// (TimingOptions::stopAboveSeconds; 0: never).
  double stopAboveSeconds = 0;

  /// A file to hold an exclusive lock on while touching kernel data
  /// (TimingLock.h); "" for none.
  std::string timingLock;

  /// Machine peaks for the roofline percentage (0: not reported).
  double peakGflops = 0, peakGBps = 0;

  /// Refuses combinations that cannot run (the f64 reference mode outside
  /// the interpreter).
  llvm::Error check() const;

  /// Timed repetitions: `repetitions`, or 3 for the interpreter and 10 for
  /// the JIT and CUDA.
  unsigned getRepetitions() const;
};

/// The `perfdojo-run` flags that make a worker process run with `options`
/// (only those that differ from the defaults), followed by `--baseline`
/// when `baselinePath` is not empty. The caller adds the executable, the
/// kernel file and output flags such as `--json`.
std::vector<std::string> getRunFlags(const RunOptions &options,
                                     llvm::StringRef baselinePath = "");

} // namespace perfdojo

#endif // PERFDOJO_RUNTIME_RUNOPTIONS_H
