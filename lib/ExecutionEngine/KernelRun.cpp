//===- KernelRun.cpp - execute, validate and time one kernel --------------===//

#include "perfdojo/ExecutionEngine/KernelRun.h"
#include "perfdojo/ExecutionEngine/JitKernel.h"
#include "perfdojo/ExecutionEngine/Timer.h"
#include "perfdojo/Runtime/BufferDump.h"
#include "perfdojo/Runtime/Interpreter.h"
#include "perfdojo/Runtime/OutputFile.h"
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
  if (!report.passed())
    return llvm::createStringError("outputs that do not match " +
                                   report.reference + " cannot be a reference");
  std::vector<const HostBuffer *> outputs;
  for (const HostBuffer &arg : args)
    if (isOutput(kernel, arg))
      outputs.push_back(&arg);
  return writeOutputFile(path, seed, outputs);
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
};

/// Times of the run, in the report's terms.
struct Times {
  double median = 0, min = 0;
  unsigned repetitions = 0, copies = 1;
};
} // namespace

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
  JitOptions jitOptions;
  jitOptions.optLevel = std::min(options.optLevel, 3u);
  jitOptions.approximateMath = options.approximateMath;
  if (options.engine == RunEngine::Jit) {
    setJitThreads(options.threads);
    auto compiled = JitKernel::compile(kernel, jitOptions);
    if (!compiled)
      return compiled.takeError();
    result.jit = std::move(*compiled);
  }
  if (reference == ReferenceKind::Baseline) {
    // Without a baseline, the same tree with every mode cleared: the
    // sequential program the moves started from, as far as modes go.
    OwningOpRef<dojo::KernelOp> sequential;
    if (!baseline) {
      sequential = cast<dojo::KernelOp>(kernel->clone());
      sequential->walk(
          [](dojo::ScopeOp scope) { scope.setMode(dojo::Mode::seq); });
    }
    auto compiled =
        JitKernel::compile(baseline ? baseline : *sequential, jitOptions);
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
  // The outputs compared are those of one call on the inputs themselves;
  // the timed calls run on copies.
  if (llvm::Error err = executables.jit->run(args))
    return std::move(err);
  TimingOptions timing;
  timing.warmup = options.warmup;
  timing.maxWarmupSeconds = options.maxWarmupSeconds;
  timing.repetitions = repetitions;
  auto measured = timeKernel(*executables.jit, inputs, timing);
  if (!measured)
    return measured.takeError();
  times.median = measured->medianSeconds;
  times.min = measured->minSeconds;
  times.repetitions = measured->repetitions;
  times.copies = measured->copies;
  return times;
}

/// Step 3, continued: the reference outputs on the same inputs, one buffer
/// per argument (those of `in` arguments may be empty). Empty for None.
static llvm::Expected<std::vector<HostBuffer>>
computeReference(ReferenceKind reference, dojo::KernelOp kernel,
                 Executables &executables, llvm::ArrayRef<HostBuffer> inputs,
                 const RunOptions &options) {
  std::vector<HostBuffer> refArgs;
  switch (reference) {
  case ReferenceKind::None:
    break;
  case ReferenceKind::Interpreter: {
    auto ref = Interpreter::create(kernel, InterpreterOptions{true});
    if (failed(ref))
      return reported();
    refArgs = allocateArguments(kernel, ScalarType::f64);
    for (size_t i = 0; i < inputs.size(); ++i)
      refArgs[i].assign(inputs[i]);
    if (llvm::Error err = ref->run(refArgs))
      return std::move(err);
    break;
  }
  case ReferenceKind::SavedOutputs: {
    auto saved = readOutputFile(options.referenceOutputs, options.seed);
    if (!saved)
      return saved.takeError();
    refArgs.resize(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!isOutput(kernel, inputs[i]))
        continue;
      auto it = llvm::find_if(*saved, [&](const HostBuffer &b) {
        return b.getName() == inputs[i].getName();
      });
      if (it == saved->end() || it->size() != inputs[i].size())
        return llvm::createStringError(
            "'" + options.referenceOutputs + "' has no output '" +
            inputs[i].getName() + "' of " + std::to_string(inputs[i].size()) +
            " elements");
      refArgs[i] = std::move(*it);
    }
    break;
  }
  case ReferenceKind::Baseline:
    refArgs.assign(inputs.begin(), inputs.end());
    if (llvm::Error err = executables.referenceJit->run(refArgs))
      return std::move(err);
    break;
  }
  return std::move(refArgs);
}

llvm::Expected<KernelRun> perfdojo::runKernel(dojo::KernelOp kernel,
                                              dojo::KernelOp baseline,
                                              const RunOptions &options) {
  if (llvm::Error err = options.check())
    return std::move(err);
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
  fillInputs(kernel, run.args, options.seed);
  run.inputs = run.args;
  llvm::Expected<Times> times =
      execute(*executables, run.args, run.inputs, options);
  if (!times)
    return times.takeError();
  llvm::Expected<std::vector<HostBuffer>> refArgs =
      computeReference(reference, kernel, *executables, run.inputs, options);
  if (!refArgs)
    return refArgs.takeError();
  lock->release();

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
  report.gflops = counts.flops / times->min / 1e9;
  report.gbps = counts.compulsoryBytes / times->min / 1e9;
  report.reference = describeReference(reference, bool(baseline));
  report.roofline =
      computeRoofline(counts, times->min, options.peakGflops, options.peakGBps);
  if (executables->jit) {
    const CompileTimes &compileTimes = executables->jit->getCompileTimes();
    report.compile =
        CompileSummary{std::min(options.optLevel, 3u), options.threads,
                       compileTimes.lowerMs,           compileTimes.translateMs,
                       compileTimes.codegenMs,         compileTimes.totalMs()};
  }
  int64_t reductionLength = getMaxReductionLength(operatorKernel);
  double toleranceScale = getToleranceScale(reference);
  for (size_t i = 0; i < run.args.size(); ++i) {
    const HostBuffer &arg = run.args[i];
    dojo::BufferOp buffer = kernel.lookupArray(arg.getName());
    if (buffer.getRole() == dojo::Role::in)
      continue;
    OutputSummary output;
    output.name = arg.getName();
    output.type = describeArgumentType(buffer);
    computeChecksums(arg, output.sum, output.l2);
    if (!refArgs->empty())
      output.comparison = compareBuffers(
          arg, (*refArgs)[i],
          toleranceScale *
              getRelativeTolerance(buffer.getElementType(), reductionLength));
    report.outputs.push_back(std::move(output));
  }
  return std::move(run);
}
