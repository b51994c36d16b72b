//===- perfdojo-run.cpp - execute, validate and time a dojo kernel -------===//
//
// Loads a kernel (`.dojo` text or MLIR), fills its inputs deterministically,
// runs it with the JIT (default) or the interpreter, validates the outputs
// against a trusted f64 reference (the interpreter's f64 mode on small
// kernels, the untransformed kernel promoted to f64 and compiled on large
// ones), and prints per-output checksums, compile time, run time and
// achieved rates.
//
// The decisions (reference, tolerance, timing, report) are the library's:
// perfdojo/ExecutionEngine/KernelRun.h; this tool maps flags to RunOptions
// and prints the report (docs/run-report.md for --json).
//
//===----------------------------------------------------------------------===//

#include "perfdojo/ExecutionEngine/GpuKernel.h"
#include "perfdojo/ExecutionEngine/KernelRun.h"
#include "perfdojo/Runtime/BufferDump.h"
#include "perfdojo/Support/LargeStack.h"
#include "perfdojo/Support/ToolFlags.h"
#include "perfdojo/Target/DojoText/DojoText.h"
#include "perfdojo/Target/DojoText/KernelFile.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

using namespace mlir;
using namespace perfdojo;
namespace cl = llvm::cl;

static cl::OptionCategory runCategory("perfdojo-run options");
static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<kernel.dojo|kernel.mlir>"),
                                      cl::cat(runCategory));
static cl::opt<std::string>
    engine("engine", cl::init("jit"),
           cl::desc("Execution engine: jit (compile for this CPU, default), "
                    "interp (the reference interpreter), cuda (compile for "
                    "an NVIDIA GPU, run through the CUDA driver) or snitch "
                    "(compile for a Snitch core, run on its executable "
                    "model: prints cycles and FPU utilization)"),
           cl::cat(runCategory));
static cl::opt<unsigned> optLevel("O", cl::init(3), cl::Prefix,
                                  cl::desc("JIT optimization level 0-3"),
                                  cl::cat(runCategory));
static cl::opt<bool> approximateMath(
    "approximate-math", cl::init(true),
    cl::desc("JIT: polynomial f32 exp/log/tanh (off: libm calls)"),
    cl::cat(runCategory));
// `--threads` is spelled `num-threads` for llvm::cl: a library linked into
// this tool already registers an option named `threads`. main() rewrites
// `--threads` to it before parsing.
static cl::opt<unsigned> threads("num-threads", cl::init(0),
                                 cl::desc("Threads for ':p' scopes, also "
                                          "spelled --threads (0: the OpenMP "
                                          "default)"),
                                 cl::cat(runCategory));
static cl::opt<std::string>
    gpuChip("gpu-chip", cl::init(""),
            cl::desc("cuda: the chip to compile for (sm_80, sm_86, sm_89, "
                     "sm_90; default: the newest the device runs, sm_90 "
                     "for --gpu-bundle and --gpu-results)"),
            cl::cat(runCategory));
static cl::opt<std::string> gpuBundle(
    "gpu-bundle", cl::init(""),
    cl::desc("Write the kernel's PTX, launch plan and inputs (--seed) to "
             "this directory for perfdojo-gpu-launch on a GPU machine, and "
             "exit without running"),
    cl::value_desc("dir"), cl::cat(runCategory));
static cl::opt<bool> gpuBundleInputs(
    "gpu-bundle-inputs", cl::init(true),
    cl::desc("--gpu-bundle: write the input files (off: only the input "
             "recipe, which perfdojo-gpu-launch --generate-inputs turns into "
             "the same bytes there)"),
    cl::cat(runCategory));
static cl::opt<std::string> gpuResults(
    "gpu-results", cl::init(""),
    cl::desc("cuda: validate and report the outputs and times a "
             "perfdojo-gpu-launch run of this kernel's bundle left in this "
             "directory (outputs/, timing.json) instead of running"),
    cl::value_desc("dir"), cl::cat(runCategory));
static cl::opt<std::string> referenceKind(
    "reference-engine", cl::init("auto"),
    cl::desc("Trusted reference for validation: auto (interp when the "
             "kernel has at most --interp-limit leaf evaluations, else "
             "compiled), interp (f64 interpreter), compiled (--baseline, or "
             "this kernel, promoted to f64, modes cleared, compiled by the "
             "JIT)"),
    cl::cat(runCategory));
static cl::opt<std::string> baselineFile(
    "baseline", cl::init(""),
    cl::desc("The untransformed kernel: the kernel the f64 reference "
             "computes, and whose own outputs tell numerics from a "
             "mismatch"),
    cl::cat(runCategory));
static cl::opt<int64_t> interpLimit(
    "interp-limit", cl::init(int64_t(1) << 28),
    cl::desc("Largest leaf-evaluation count validated by the interpreter "
             "under --reference-engine=auto"),
    cl::cat(runCategory));
static cl::opt<unsigned> warmup("warmup", cl::init(1),
                                cl::desc("JIT: untimed calls before timing"),
                                cl::cat(runCategory));
static cl::opt<double> maxWarmupSeconds(
    "max-warmup-seconds", cl::init(1),
    cl::desc("JIT: once the warm-up has run this long (and made --warmup "
             "calls), the argument copies not yet used are read instead of "
             "run on, which leaves the cache in the same state (0: right "
             "after the --warmup calls; negative: always run)"),
    cl::cat(runCategory));
static cl::opt<double> stopAboveSeconds(
    "stop-above-seconds", cl::init(0),
    cl::desc("JIT: stop timing at the first call (warm-up or timed) slower "
             "than this many seconds, and report the calls timed so far "
             "(0: never; the search passes a multiple of its best time)"),
    cl::cat(runCategory));
static cl::opt<CacheState> cacheState("cache-state", cl::init(CacheState::Cold),
                                 cl::desc(kCacheFlagHelp),
                                 getCacheStateValues(), cl::cat(runCategory));
static cl::opt<PageBacking> pages("pages", cl::init(PageBacking::Huge),
                                  cl::desc(kPagesFlagHelp),
                                  getPageBackingValues(), cl::cat(runCategory));
static cl::opt<double> peakGflops(
    "peak-gflops", cl::init(0),
    cl::desc("Machine peak GFLOP/s, to report the roofline percentage"),
    cl::cat(runCategory));
static cl::opt<double> peakGBps(
    "peak-gbps", cl::init(0),
    cl::desc("Machine peak memory GB/s, to report the roofline percentage"),
    cl::cat(runCategory));
static cl::opt<uint64_t> seed("seed", cl::init(0),
                              cl::desc("Seed of the input generator"),
                              cl::cat(runCategory));
static cl::opt<unsigned> reps("reps", cl::init(0),
                              cl::desc("Timed repetitions, median and min "
                                       "reported (0: 3 for interp, 10 for "
                                       "jit)"),
                              cl::cat(runCategory));
static cl::opt<bool>
    validate("validate", cl::init(true),
             cl::desc("Compare outputs with the trusted reference"),
             cl::cat(runCategory));
static cl::opt<bool> reference("reference", cl::init(false),
                               cl::desc("interp: run the f64 reference mode "
                                        "itself"),
                               cl::cat(runCategory));
static cl::opt<bool> printKernel("print-kernel", cl::init(false),
                                 cl::desc("Print the kernel as .dojo text"),
                                 cl::cat(runCategory));
static cl::opt<bool> json("json", cl::init(false),
                          cl::desc("Print one JSON object instead of text"),
                          cl::cat(runCategory));
static cl::opt<std::string>
    dumpOutputs("dump-outputs", cl::init(""),
                cl::desc("Write every output element as text to this file"),
                cl::cat(runCategory));
static cl::opt<std::string> saveOutputs(
    "save-outputs", cl::init(""),
    cl::desc("After a successful validation, save the f64 reference "
             "outputs and this run's own outputs to this binary file, a "
             "reference for --reference-outputs"),
    cl::cat(runCategory));
static cl::opt<std::string> referenceOutputs(
    "reference-outputs", cl::init(""),
    cl::desc("Validate against the f64 reference outputs saved by "
             "--save-outputs (same --seed) instead of computing a reference; "
             "the saving run's own outputs are the original kernel's"),
    cl::cat(runCategory));
static cl::opt<std::string> timingLock(
    "timing-lock", cl::init(""),
    cl::desc("Hold an exclusive lock on this file while touching data "
             "(running, timing, validating), so concurrent runs compile in "
             "parallel but time one at a time (perfdojo-search --jobs)"),
    cl::cat(runCategory));
static cl::opt<std::string> dumpInputs(
    "dump-inputs", cl::init(""),
    cl::desc("Write every input element (in and inout buffers, before the "
             "run) as text to this file, in the --dump-outputs format"),
    cl::cat(runCategory));

static cl::opt<std::string> inputsFile(
    "inputs", cl::init(""),
    cl::desc("Run on these inputs (the --dump-inputs text format: a "
             "'# name type [shape]' line per in/inout buffer, then one value "
             "per line) instead of generated ones"),
    cl::cat(runCategory));

/// Prints `error` (ReportedError: already on stderr) and returns 1.
static int fail(llvm::Error error) {
  printRunError(std::move(error), "perfdojo-run");
  return 1;
}

/// The RunOptions the flags ask for.
static llvm::Expected<RunOptions> getRunOptions() {
  RunOptions options;
  llvm::Expected<RunEngine> parsedEngine = parseRunEngine(engine);
  if (!parsedEngine)
    return parsedEngine.takeError();
  llvm::Expected<ReferenceEngine> parsedReference =
      parseReferenceEngine(referenceKind);
  if (!parsedReference)
    return parsedReference.takeError();
  options.engine = *parsedEngine;
  options.referenceMode = reference;
  options.validate = validate;
  options.referenceEngine = *parsedReference;
  options.interpLimit = interpLimit;
  options.referenceOutputs = referenceOutputs;
  options.seed = seed;
  options.optLevel = optLevel;
  options.approximateMath = approximateMath;
  options.threads = threads;
  options.gpuChip = gpuChip;
  options.gpuResults = gpuResults;
  // A bundle is for the CUDA engine on another machine.
  if (!gpuBundle.empty())
    options.engine = RunEngine::Cuda;
  options.warmup = warmup;
  options.maxWarmupSeconds = maxWarmupSeconds;
  options.repetitions = reps;
  options.cache = cacheState;
  options.pages = pages;
  options.stopAboveSeconds = stopAboveSeconds;
  options.timingLock = timingLock;
  options.peakGflops = peakGflops;
  options.peakGBps = peakGBps;
  if (llvm::Error error = options.check())
    return std::move(error);
  return options;
}

/// `--gpu-bundle`: what a GPU machine without LLVM needs to run the kernel.
static int writeGpuBundle(dojo::KernelOp kernel, dojo::KernelOp baseline,
                          const RunOptions &options) {
  GpuCompileOptions gpuOptions;
  gpuOptions.chip = options.gpuChip.empty() ? "sm_90" : options.gpuChip;
  gpuOptions.approximateMath = options.approximateMath;
  auto compiled = GpuKernel::compile(kernel, gpuOptions);
  if (!compiled)
    return fail(compiled.takeError());
  GpuBundleOptions bundle;
  bundle.seed = options.seed;
  bundle.inputFiles = gpuBundleInputs;
  if (llvm::Error error = (*compiled)->writeBundle(
          gpuBundle, kernel, baseline ? baseline : kernel, bundle))
    return fail(std::move(error));
  const gpu::LaunchPlan &plan = (*compiled)->getPlan();
  llvm::outs() << "wrote " << gpuBundle << ": " << plan.kernel << ".plan, "
               << plan.kernel << "." << plan.binaryFormat
               << ", inputs.recipe, check.json"
               << (bundle.inputFiles ? ", inputs/" : "") << " (seed "
               << options.seed << ")\n"
               << "run there:  perfdojo-gpu-launch " << plan.kernel
               << ".plan " << plan.kernel << "." << plan.binaryFormat
               << (bundle.inputFiles ? " --inputs inputs"
                                     : " --generate-inputs inputs.recipe")
               << " --outputs outputs --json timing.json\n"
               << "then here:  perfdojo-run KERNEL --engine=cuda --gpu-chip="
               << gpuOptions.chip << " --seed=" << options.seed
               << " --gpu-results=" << gpuBundle << "\n";
  return 0;
}

static int toolMain(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  parseToolCommandLine(argc, argv, runCategory, "num-threads",
                       "PerfDojo kernel runner: execute, validate, "
                       "time\n");
  llvm::Expected<RunOptions> options = getRunOptions();
  if (!options)
    return fail(options.takeError());

  KernelFile input;
  dojo::KernelOp kernel = input.load(inputFile);
  if (!kernel)
    return 1;
  if (printKernel && !json)
    exportDojo(kernel, llvm::outs());
  OwningOpRef<ModuleOp> baselineModule;
  dojo::KernelOp baseline;
  if (!baselineFile.empty()) {
    // A source manager of its own: the importer reads its main buffer.
    baselineModule = loadKernelFile(baselineFile, &input.getContext());
    if (!baselineModule || !(baseline = getSingleKernel(*baselineModule)))
      return 1;
    if (llvm::Error error = checkBaselineArguments(kernel, baseline))
      return fail(std::move(error));
  }
  if (failed(checkArgumentSizes(kernel, "perfdojo-run")))
    return 1;
  if (!gpuBundle.empty() && !inputsFile.empty())
    return fail(llvm::createStringError(
        "--inputs cannot be combined with --gpu-bundle (the bundle "
        "generates its inputs on the GPU machine)"));
  if (!gpuBundle.empty())
    return writeGpuBundle(kernel, baseline, *options);

  std::optional<std::vector<HostBuffer>> given;
  if (!inputsFile.empty()) {
    llvm::Expected<std::vector<HostBuffer>> read =
        readBufferDump(kernel, inputsFile);
    if (!read)
      return fail(read.takeError());
    given = std::move(*read);
  }
  llvm::Expected<KernelRun> run =
      given ? runKernel(kernel, baseline, *options, *given)
            : runKernel(kernel, baseline, *options);
  if (!run)
    return fail(run.takeError());
  if (json)
    llvm::outs() << llvm::formatv("{0:2}", toJSON(run->report)) << "\n";
  else
    printRunReport(run->report, llvm::outs());
  if (!dumpOutputs.empty())
    if (llvm::Error error = run->dumpOutputs(dumpOutputs))
      return fail(std::move(error));
  if (!dumpInputs.empty())
    if (llvm::Error error = run->dumpInputs(dumpInputs))
      return fail(std::move(error));
  if (!run->report.passed()) {
    llvm::errs() << "perfdojo-run: " << describeFailure(run->report) << "\n";
    return 2;
  }
  if (!saveOutputs.empty())
    if (llvm::Error error = run->saveOutputs(saveOutputs))
      return fail(std::move(error));
  return 0;
}

int main(int argc, char **argv) {
  // Deep MLIR text must reach the nesting bound's error instead of
  // overflowing the parser's stack (Support/LargeStack.h).
  return perfdojo::runOnLargeStack([&] { return toolMain(argc, argv); });
}
