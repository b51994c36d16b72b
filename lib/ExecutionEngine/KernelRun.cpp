//===- KernelRun.cpp - execute, validate and time one kernel --------------===//

#include "perfdojo/ExecutionEngine/KernelRun.h"
#include "perfdojo/ExecutionEngine/GpuKernel.h"
#include "perfdojo/ExecutionEngine/SnitchKernel.h"
#include "perfdojo/ExecutionEngine/JitKernel.h"
#include "perfdojo/ExecutionEngine/Timer.h"
#include "perfdojo/Runtime/BufferDump.h"
#include "perfdojo/Runtime/Interpreter.h"
#include "perfdojo/Runtime/OutputFile.h"
#include "perfdojo/Runtime/ReferenceKernel.h"
#include "perfdojo/Runtime/ReferencePolicy.h"
#include "perfdojo/Runtime/TimingLock.h"
#include "perfdojo/Runtime/Validation.h"
#include "perfdojo/Runtime/WorkCounts.h"

#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;
using namespace perfdojo;

char ReportedError::ID = 0;

void ReportedError::log(llvm::raw_ostream &os) const {
  os << "reported as a diagnostic";
}

std::error_code ReportedError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

void perfdojo::printRunError(llvm::Error error, llvm::StringRef tool) {
  llvm::handleAllErrors(
      std::move(error), [](const ReportedError &) {},
      [&](const llvm::ErrorInfoBase &info) {
        llvm::errs() << tool << ": " << info.message() << "\n";
      });
}

static llvm::Error reported() { return llvm::make_error<ReportedError>(); }

static bool isOutput(dojo::KernelOp kernel, const HostBuffer &arg) {
  return kernel.lookupArray(arg.getName()).getRole() != dojo::Role::in;
}

llvm::Error KernelRun::dumpOutputs(llvm::StringRef path) const {
  return writeBufferDump(kernel, args, dojo::Role::in, path);
}

llvm::Error KernelRun::dumpInputs(llvm::StringRef path) const {
  return writeBufferDump(kernel, inputs, dojo::Role::out, path);
}

llvm::Error KernelRun::saveOutputs(llvm::StringRef path) const {
  if (reference.empty())
    return llvm::createStringError(
        "the run was not validated: there are no reference outputs to save");
  if (!report.passed())
    return llvm::createStringError("a run whose outputs do not match " +
                                   report.reference +
                                   " saves no reference outputs");
  std::vector<const HostBuffer *> referenceOutputs, runOutputs;
  for (auto [arg, ref] : llvm::zip_equal(args, reference))
    if (isOutput(kernel, arg)) {
      referenceOutputs.push_back(&ref);
      runOutputs.push_back(&arg);
    }
  return writeOutputFile(path, seed, referenceOutputs, runOutputs);
}

llvm::Error perfdojo::checkBaselineArguments(dojo::KernelOp kernel,
                                             dojo::KernelOp baseline) {
  auto signature = [](dojo::KernelOp k) {
    std::vector<std::string> list;
    for (dojo::BufferOp b : k.getBuffers())
      if (b.isArgument())
        list.push_back(b.getName().str() + " " + describeArgumentType(b) + " " +
                       dojo::stringifyRole(b.getRole()).str());
    return list;
  };
  if (signature(kernel) == signature(baseline))
    return llvm::Error::success();
  return llvm::createStringError(
      "the baseline's arguments differ from the kernel's (names, types, "
      "shapes and roles must match)");
}

namespace {
/// The compiled or prepared executables of one run.
struct Executables {
  std::optional<Interpreter> interp;
  std::unique_ptr<JitKernel> jit, referenceJit;
  std::unique_ptr<GpuKernel> gpu;
  std::unique_ptr<SnitchKernel> snitch;
  /// The kernel `referenceJit` runs: the untransformed kernel in f64.
  OwningOpRef<dojo::KernelOp> referenceKernel;
};

/// Times of the run, in the report's terms.
struct Times {
  double median = 0, min = 0;
  unsigned repetitions = 0, copies = 1;
  bool stoppedEarly = false;
  /// A run on the Snitch model.
  std::optional<snitch::RunResult> snitch;
};

/// The reference's outputs, and the original kernel's own when known.
struct ReferenceOutputs {
  /// One buffer per argument (empty for `in` arguments); none for None.
  std::vector<HostBuffer> reference;
  /// The saving run's outputs of a saved file, by name.
  std::vector<HostBuffer> original;
};
} // namespace

static JitOptions getJitOptions(const RunOptions &options) {
  JitOptions jitOptions;
  jitOptions.optLevel = std::min(options.optLevel, 3u);
  jitOptions.approximateMath = options.approximateMath;
  return jitOptions;
}

/// Step 2: everything that does not touch kernel data.
static llvm::Expected<Executables> prepare(dojo::KernelOp kernel,
                                           dojo::KernelOp baseline,
                                           ReferenceKind reference,
                                           const RunOptions &options) {
  Executables result;
  if (options.engine == RunEngine::Interp) {
    auto created =
        Interpreter::create(kernel, InterpreterOptions{options.referenceMode});
    if (failed(created))
      return reported();
    result.interp.emplace(std::move(*created));
  }
  JitOptions jitOptions = getJitOptions(options);
  if (options.engine == RunEngine::Jit) {
    setJitThreads(options.threads);
    auto compiled = JitKernel::compile(kernel, jitOptions);
    if (!compiled)
      return compiled.takeError();
    result.jit = std::move(*compiled);
  }
  if (options.engine == RunEngine::Cuda) {
    GpuCompileOptions gpuOptions;
    gpuOptions.approximateMath = options.approximateMath;
    gpuOptions.chip = options.gpuChip;
    if (gpuOptions.chip.empty() && !options.gpuResults.empty())
      gpuOptions.chip = "sm_90";
    if (gpuOptions.chip.empty()) {
      // The device decides: asking for it also says early, before any
      // compilation, when there is no driver or no device.
      gpu::DeviceInfo device;
      std::string error;
      if (!gpu::queryDevice(0, device, error))
        return llvm::createStringError(error);
      std::optional<std::string> chip =
          chooseCudaChip(device.computeMajor, device.computeMinor);
      if (!chip)
        return llvm::createStringError(
            "the CUDA device '" + device.name + "' (" + device.getArch() +
            ") is older than every chip PerfDojo compiles for");
      gpuOptions.chip = *chip;
    }
    auto compiled = GpuKernel::compile(kernel, gpuOptions);
    if (!compiled)
      return compiled.takeError();
    result.gpu = std::move(*compiled);
  }
  if (options.engine == RunEngine::Snitch) {
    auto compiled = SnitchKernel::compile(kernel);
    if (!compiled)
      return compiled.takeError();
    result.snitch = std::move(*compiled);
  }
  if (reference == ReferenceKind::Compiled) {
    // The untransformed kernel (without a baseline, this one) in f64,
    // sequential, with libm's transcendentals.
    auto promoted = promoteToF64(baseline ? baseline : kernel);
    if (failed(promoted))
      return reported();
    result.referenceKernel = std::move(*promoted);
    JitOptions referenceOptions = jitOptions;
    referenceOptions.approximateMath = false;
    auto compiled =
        JitKernel::compile(*result.referenceKernel, referenceOptions);
    if (!compiled)
      return compiled.takeError();
    result.referenceJit = std::move(*compiled);
  }
  return std::move(result);
}

/// Step 3: runs and times the kernel; `args` hold the outputs of a run on
/// `inputs` afterwards.
static llvm::Expected<Times> execute(Executables &executables,
                                     std::vector<HostBuffer> &args,
                                     llvm::ArrayRef<HostBuffer> inputs,
                                     const RunOptions &options) {
  Times times;
  unsigned repetitions = options.getRepetitions();
  if (Interpreter *interp =
          executables.interp ? &*executables.interp : nullptr) {
    // Every repetition starts from the same inputs (inout buffers included).
    std::vector<double> seconds;
    for (unsigned r = 0; r < repetitions; ++r) {
      for (size_t i = 0; i < args.size(); ++i)
        args[i].assign(inputs[i]);
      auto start = std::chrono::steady_clock::now();
      if (llvm::Error err = interp->run(args))
        return std::move(err);
      seconds.push_back(std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - start)
                            .count());
    }
    TimingResult summary = summarizeTimes(seconds);
    times.median = summary.medianSeconds;
    times.min = summary.minSeconds;
    times.repetitions = seconds.size();
    return times;
  }
  if (executables.snitch) {
    // The model is deterministic: one run gives outputs and cycles.
    llvm::Expected<snitch::RunResult> ran = executables.snitch->run(args);
    if (!ran)
      return ran.takeError();
    times.median = times.min =
        ran->cycles / snitch::SnitchCore::getDefault().clockHz;
    times.repetitions = 1;
    times.snitch = std::move(*ran);
    return times;
  }
  if (executables.gpu) {
    // Every execution starts from the inputs; the outputs are the last
    // timed one's.
    llvm::Expected<gpu::GpuRunResult> ran =
        options.gpuResults.empty()
            ? executables.gpu->run(
                  args, gpu::GpuRunOptions{int(std::max(1u, options.warmup)),
                                           int(repetitions), 0})
            : executables.gpu->readResults(options.gpuResults, args);
    if (!ran)
      return ran.takeError();
    times.median = ran->medianMs / 1e3;
    times.min = ran->minMs / 1e3;
    times.repetitions = ran->timesMs.size();
    return times;
  }
  // The outputs compared are those of one call on the inputs themselves;
  // the timed calls run on copies.
  if (llvm::Error err = executables.jit->run(args))
    return std::move(err);
  TimingOptions timing;
  timing.warmup = options.warmup;
  timing.maxWarmupSeconds = options.maxWarmupSeconds;
  timing.repetitions = repetitions;
  timing.cache = options.cache;
  timing.stopAboveSeconds = options.stopAboveSeconds;
  auto measured = timeKernel(*executables.jit, inputs, timing);
  if (!measured)
    return measured.takeError();
  times.median = measured->medianSeconds;
  times.min = measured->minSeconds;
  times.repetitions = measured->repetitions;
  times.copies = measured->copies;
  times.stoppedEarly = measured->stoppedEarly;
  return times;
}

/// The arguments of an f64 reference run of `kernel`: the inputs converted
/// exactly, every f64 `out` argument holding the unwritten sentinel, so an
/// element the reference never writes is told from a computed NaN.
static std::vector<HostBuffer>
prepareReferenceArguments(dojo::KernelOp kernel,
                          llvm::ArrayRef<HostBuffer> inputs,
                          std::optional<ScalarType> type) {
  std::vector<HostBuffer> refArgs = allocateArguments(kernel, type);
  for (size_t i = 0; i < inputs.size(); ++i) {
    refArgs[i].assign(inputs[i]);
    if (kernel.lookupArray(refArgs[i].getName()).getRole() == dojo::Role::out &&
        refArgs[i].getType() == ScalarType::f64)
      refArgs[i].fill(getUnwrittenValue());
  }
  return refArgs;
}

/// Step 3, continued: the reference outputs on the same inputs.
static llvm::Expected<ReferenceOutputs>
computeReference(ReferenceKind reference, dojo::KernelOp kernel,
                 dojo::KernelOp baseline, Executables &executables,
                 llvm::ArrayRef<HostBuffer> inputs, const RunOptions &options) {
  ReferenceOutputs result;
  std::vector<HostBuffer> &refArgs = result.reference;
  switch (reference) {
  case ReferenceKind::None:
    break;
  case ReferenceKind::Interpreter: {
    // The untransformed kernel, like the compiled reference.
    dojo::KernelOp source = baseline ? baseline : kernel;
    auto ref = Interpreter::create(source, InterpreterOptions{true});
    if (failed(ref))
      return reported();
    refArgs = prepareReferenceArguments(source, inputs, ScalarType::f64);
    if (llvm::Error err = ref->run(refArgs))
      return std::move(err);
    break;
  }
  case ReferenceKind::Compiled:
    refArgs = prepareReferenceArguments(*executables.referenceKernel, inputs,
                                        std::nullopt);
    if (llvm::Error err = executables.referenceJit->run(refArgs))
      return std::move(err);
    break;
  case ReferenceKind::SavedOutputs: {
    auto saved = readOutputFile(options.referenceOutputs, options.seed);
    if (!saved)
      return saved.takeError();
    refArgs.resize(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!isOutput(kernel, inputs[i]))
        continue;
      const HostBuffer *found =
          SavedOutputs::find(saved->reference, inputs[i].getName());
      if (!found || found->size() != inputs[i].size())
        return llvm::createStringError(
            "'" + options.referenceOutputs + "' has no output '" +
            inputs[i].getName() + "' of " + std::to_string(inputs[i].size()) +
            " elements");
      refArgs[i] = *found;
    }
    result.original = std::move(saved->run);
    break;
  }
  }
  return std::move(result);
}

/// The original kernel's own outputs on `inputs`: `baseline` run in its own
/// element types by the run's engine (one buffer per argument).
static llvm::Expected<std::vector<HostBuffer>>
runOriginal(dojo::KernelOp baseline, llvm::ArrayRef<HostBuffer> inputs,
            const RunOptions &options) {
  std::vector<HostBuffer> args(inputs.begin(), inputs.end());
  if (options.engine == RunEngine::Interp) {
    auto interp = Interpreter::create(baseline, InterpreterOptions{false});
    if (failed(interp))
      return reported();
    if (llvm::Error err = interp->run(args))
      return std::move(err);
    return std::move(args);
  }
  auto compiled = JitKernel::compile(baseline, getJitOptions(options));
  if (!compiled)
    return compiled.takeError();
  if (llvm::Error err = (*compiled)->run(args))
    return std::move(err);
  return std::move(args);
}

/// Step 4 for one output: `output.comparison` is set; compares the
/// original's own outputs (if any) with the reference and, where both
/// differ from it, this run's with the original's; says what that means.
static void judgeOutput(OutputSummary &output, const HostBuffer &actual,
                        const HostBuffer &expected, const HostBuffer *original,
                        mlir::Type type, double tolerance,
                        int64_t reductionLength) {
  const Comparison &comparison = *output.comparison;
  if (!original) {
    // The kernel is its own original: say what its numerics do, also when
    // they pass by leaving the type's range as the reference does.
    std::string numerics = describeNumerics(comparison, type, reductionLength);
    if (!numerics.empty())
      output.note = "this kernel " + numerics;
    return;
  }
  output.original = compareBuffers(*original, expected, tolerance, type);
  if (output.original->passed()) {
    if (comparison.passed() && output.original->nonFiniteExpected)
      output.note = "the original kernel itself " +
                    describeNumerics(*output.original, type, reductionLength) +
                    "; so does this run";
    return;
  }
  output.note = "the original kernel itself " +
                describeNumerics(*output.original, type, reductionLength);
  if (comparison.passed()) {
    output.note += "; this run matches the f64 reference";
    return;
  }
  // An element the reference never writes is no numerics: no excuse.
  if (output.original->neverWritten)
    return;
  output.againstOriginal = compareBuffers(
      actual, *original, kOriginalToleranceScale * tolerance, type);
  output.note += output.againstOriginal->passed()
                     ? "; this run matches the original (numerics, not a "
                       "legality bug)"
                     : "; this run differs from the original too: " +
                           describe(*output.againstOriginal);
}

static llvm::Expected<KernelRun>
runKernelOn(dojo::KernelOp kernel, dojo::KernelOp baseline,
            const RunOptions &options,
            std::optional<llvm::ArrayRef<HostBuffer>> initial);

llvm::Expected<KernelRun> perfdojo::runKernel(dojo::KernelOp kernel,
                                              dojo::KernelOp baseline,
                                              const RunOptions &options) {
  return runKernelOn(kernel, baseline, options, std::nullopt);
}

llvm::Expected<KernelRun> perfdojo::runKernel(dojo::KernelOp kernel,
                                              dojo::KernelOp baseline,
                                              const RunOptions &options,
                                              llvm::ArrayRef<HostBuffer> initial) {
  return runKernelOn(kernel, baseline, options, initial);
}

static llvm::Expected<KernelRun>
runKernelOn(dojo::KernelOp kernel, dojo::KernelOp baseline,
            const RunOptions &options,
            std::optional<llvm::ArrayRef<HostBuffer>> initial) {
  if (llvm::Error err = options.check())
    return std::move(err);
  HostBuffer::setPageBacking(options.pages);
  if (baseline)
    if (llvm::Error err = checkBaselineArguments(kernel, baseline))
      return std::move(err);
  dojo::KernelOp operatorKernel = baseline ? baseline : kernel;
  WorkCounts counts = countWork(operatorKernel);
  ReferenceKind reference = selectReference(options, counts.leafEvaluations);

  llvm::Expected<Executables> executables =
      prepare(kernel, baseline, reference, options);
  if (!executables)
    return executables.takeError();

  // Everything from here touches kernel data: one run at a time.
  llvm::Expected<TimingLock> lock = TimingLock::acquire(options.timingLock);
  if (!lock)
    return lock.takeError();
  KernelRun run;
  run.kernel = kernel;
  run.seed = options.seed;
  std::optional<ScalarType> argType;
  if (options.referenceMode)
    argType = ScalarType::f64;
  run.args = allocateArguments(kernel, argType);
  if (llvm::Error err = fillArguments(kernel, run.args, initial, options.seed))
    return std::move(err);
  run.inputs = run.args;
  llvm::Expected<Times> times =
      execute(*executables, run.args, run.inputs, options);
  if (!times)
    return times.takeError();
  llvm::Expected<ReferenceOutputs> refOutputs = computeReference(
      reference, kernel, baseline, *executables, run.inputs, options);
  if (!refOutputs)
    return refOutputs.takeError();
  run.reference = std::move(refOutputs->reference);

  // Step 4: the report.
  RunReport &report = run.report;
  report.kernel = kernel.getSymName().str();
  report.engine = options.engine;
  report.referenceMode = options.referenceMode;
  report.numArguments = run.args.size();
  report.counts = counts;
  report.medianSeconds = times->median;
  report.minSeconds = times->min;
  report.repetitions = times->repetitions;
  report.inputCopies = times->copies;
  report.cache = options.cache;
  report.pages = options.pages;
  report.stoppedEarly = times->stoppedEarly;
  report.gflops = counts.flops / times->min / 1e9;
  report.gbps = counts.compulsoryBytes / times->min / 1e9;
  report.reference = describeReference(reference);
  report.roofline =
      computeRoofline(counts, times->min, options.peakGflops, options.peakGBps);
  if (executables->jit) {
    const CompileTimes &compileTimes = executables->jit->getCompileTimes();
    report.compile =
        CompileSummary{std::min(options.optLevel, 3u), options.threads,
                       compileTimes.lowerMs,           compileTimes.translateMs,
                       compileTimes.codegenMs,         compileTimes.totalMs()};
  }
  if (const std::optional<snitch::RunResult> &model = times->snitch) {
    double cycles = std::max<double>(1, model->cycles);
    SnitchSummary summary;
    summary.cycles = model->cycles;
    summary.fpuUtilization = model->fpuUtilization();
    summary.fpOpsPerCycle = model->fpArithmeticOps / cycles;
    summary.peakShare = summary.fpOpsPerCycle /
                        snitch::SnitchCore::getDefault().fpOpsPerCycle;
    report.snitch = summary;
  }
  int64_t reductionLength = getMaxReductionLength(operatorKernel);
  auto getTolerance = [&](dojo::BufferOp buffer) {
    return getOutputTolerance(operatorKernel, buffer.getElementType(),
                              reductionLength);
  };
  bool anyMismatch = false;
  for (size_t i = 0; i < run.args.size(); ++i) {
    const HostBuffer &arg = run.args[i];
    dojo::BufferOp buffer = kernel.lookupArray(arg.getName());
    if (buffer.getRole() == dojo::Role::in)
      continue;
    OutputSummary output;
    output.name = arg.getName();
    output.type = describeArgumentType(buffer);
    computeChecksums(arg, output.sum, output.l2);
    if (!run.reference.empty()) {
      output.comparison = compareBuffers(
          arg, run.reference[i], getTolerance(buffer), buffer.getElementType());
      anyMismatch |= !output.comparison->passed();
    }
    report.outputs.push_back(std::move(output));
  }

  // The original kernel's own outputs: saved with the reference, else, when
  // this run does not match a reference computed from a baseline, the
  // baseline run in its own types (only then: it costs a compilation).
  std::vector<HostBuffer> original = std::move(refOutputs->original);
  if (original.empty() && anyMismatch && baseline &&
      reference != ReferenceKind::SavedOutputs) {
    llvm::Expected<std::vector<HostBuffer>> ran =
        runOriginal(baseline, run.inputs, options);
    if (!ran)
      return ran.takeError();
    original = std::move(*ran);
  }
  lock->release();

  if (run.reference.empty())
    return std::move(run);
  auto output = report.outputs.begin();
  for (size_t i = 0; i < run.args.size(); ++i) {
    const HostBuffer &arg = run.args[i];
    dojo::BufferOp buffer = kernel.lookupArray(arg.getName());
    if (buffer.getRole() == dojo::Role::in)
      continue;
    judgeOutput(*output++, arg, run.reference[i],
                SavedOutputs::find(original, arg.getName()),
                buffer.getElementType(), getTolerance(buffer), reductionLength);
  }
  return std::move(run);
}
