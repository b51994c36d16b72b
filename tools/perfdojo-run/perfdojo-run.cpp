//===- perfdojo-run.cpp - execute, validate and time a dojo kernel -------===//
//
// Loads a kernel (`.dojo` text or MLIR), fills its inputs deterministically,
// runs it with the JIT (default) or the interpreter, validates the outputs
// against a trusted reference (the interpreter's f64 mode on small kernels,
// the untransformed baseline compiled the same way on large ones), and
// prints per-output checksums, compile time, run time and achieved rates.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/ExecutionEngine/JitKernel.h"
#include "perfdojo/ExecutionEngine/Timer.h"
#include "perfdojo/Runtime/Interpreter.h"
#include "perfdojo/Runtime/OutputFile.h"
#include "perfdojo/Runtime/WorkCounts.h"
#include "perfdojo/Support/ToolFlags.h"
#include "perfdojo/Runtime/Validation.h"
#include "perfdojo/Target/DojoText/DojoText.h"
#include "perfdojo/Target/DojoText/KernelFile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <algorithm>
#include <chrono>
#include <cmath>

using namespace mlir;
using namespace perfdojo;
namespace cl = llvm::cl;

static cl::OptionCategory runCategory("perfdojo-run options");
static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<kernel.dojo|kernel.mlir>"),
                                      cl::cat(runCategory));
static cl::opt<std::string>
    engine("engine", cl::init("jit"),
           cl::desc("Execution engine: jit (compile for this CPU, default) "
                    "or interp (the reference interpreter)"),
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
static cl::opt<std::string> referenceKind(
    "reference-engine", cl::init("auto"),
    cl::desc("Trusted reference for validation: auto (interp when the "
             "kernel has at most --interp-limit leaf evaluations, else "
             "baseline), interp (f64 interpreter), baseline (--baseline "
             "compiled by the JIT, or this kernel with every mode cleared)"),
    cl::cat(runCategory));
static cl::opt<std::string> baselineFile(
    "baseline", cl::init(""),
    cl::desc("The untransformed kernel, the reference on large shapes"),
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
    cl::desc("After a successful validation, save the outputs to this "
             "binary file, a reference for --reference-outputs"),
    cl::cat(runCategory));
static cl::opt<std::string> referenceOutputs(
    "reference-outputs", cl::init(""),
    cl::desc("Validate against the outputs saved by --save-outputs (same "
             "--seed) instead of computing a reference"),
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

namespace {
struct Checksum {
  double sum = 0, l2 = 0;
};

/// A JSON number, or the string "inf", "-inf" or "nan": JSON has no
/// spelling for non-finite numbers, and printing them raw makes the whole
/// document unparsable.
llvm::json::Value jsonNumber(double v) {
  if (std::isfinite(v))
    return v;
  if (std::isnan(v))
    return "nan";
  return v < 0 ? "-inf" : "inf";
}

Checksum checksum(const HostBuffer &buffer) {
  Checksum c;
  for (int64_t i = 0; i < buffer.size(); ++i) {
    double v = buffer.get(i);
    c.sum += v;
    c.l2 += v * v;
  }
  c.l2 = std::sqrt(c.l2);
  return c;
}

std::string shapeOf(dojo::BufferOp buffer) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << buffer.getElementType() << " [";
  llvm::interleaveComma(buffer.getShape(), os);
  os << "]";
  return s;
}

/// Writes every argument whose role is not `skip` to `path` as text: a
/// `# name type [shape]` line, then one element per line.
LogicalResult writeBuffers(dojo::KernelOp kernel,
                           llvm::ArrayRef<HostBuffer> args, dojo::Role skip,
                           llvm::StringRef path) {
  std::string error;
  auto file = openOutputFile(path, &error);
  if (!file) {
    llvm::errs() << "perfdojo-run: cannot write '" << path << "': " << error
                 << "\n";
    return failure();
  }
  llvm::raw_ostream &os = file->os();
  for (const HostBuffer &arg : args) {
    dojo::BufferOp buffer = kernel.lookupArray(arg.getName());
    if (buffer.getRole() == skip)
      continue;
    os << "# " << arg.getName() << " " << shapeOf(buffer) << "\n";
    const char *fmt = arg.getType() == ScalarType::f32 ? "%.9g\n" : "%.17g\n";
    for (int64_t i = 0; i < arg.size(); ++i)
      os << llvm::format(fmt, arg.get(i));
  }
  file->keep();
  return success();
}

/// `--dump-outputs`: the `out` and `inout` arguments after the run.
LogicalResult writeOutputs(dojo::KernelOp kernel,
                           llvm::ArrayRef<HostBuffer> args) {
  return writeBuffers(kernel, args, dojo::Role::in, dumpOutputs);
}

/// `--dump-inputs`: the `in` and `inout` arguments as the kernel receives
/// them, in the --dump-outputs format, so that a program calling compiled
/// kernels (perfdojo-translate --emit=obj) can run on the same data.
LogicalResult writeInputs(dojo::KernelOp kernel,
                          llvm::ArrayRef<HostBuffer> inputs) {
  return writeBuffers(kernel, inputs, dojo::Role::out, dumpInputs);
}

/// The same tree with every scope mode cleared: the sequential program the
/// moves started from, as far as modes go.
void clearModes(dojo::KernelOp kernel) {
  kernel.walk([](dojo::ScopeOp scope) { scope.setMode(dojo::Mode::seq); });
}

/// Checks that `baseline` takes the same arguments as `kernel`.
LogicalResult checkSameArguments(dojo::KernelOp kernel,
                                 dojo::KernelOp baseline) {
  auto args = [](dojo::KernelOp k) {
    std::vector<std::string> list;
    for (dojo::BufferOp b : k.getBuffers())
      if (b.isArgument())
        list.push_back(b.getName().str() + " " + shapeOf(b) + " " +
                       dojo::stringifyRole(b.getRole()).str());
    return list;
  };
  if (args(kernel) == args(baseline))
    return success();
  llvm::errs() << "perfdojo-run: the baseline's arguments differ from the "
                  "kernel's (names, types, shapes and roles must match)\n";
  return failure();
}

void printError(llvm::Error error) {
  llvm::errs() << "perfdojo-run: " << llvm::toString(std::move(error)) << "\n";
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  parseToolCommandLine(argc, argv, runCategory, "num-threads",
                       "PerfDojo kernel runner: execute, validate, "
                       "time\n");
  if (engine != "interp" && engine != "jit") {
    llvm::errs() << "perfdojo-run: unknown engine '" << engine
                 << "'; available: jit, interp\n";
    return 1;
  }
  if (referenceKind != "auto" && referenceKind != "interp" &&
      referenceKind != "baseline") {
    llvm::errs() << "perfdojo-run: unknown reference engine '"
                 << referenceKind << "'; available: auto, interp, baseline\n";
    return 1;
  }
  if (reference && engine != "interp") {
    llvm::errs() << "perfdojo-run: --reference is a mode of the interpreter; "
                    "add --engine=interp\n";
    return 1;
  }
  KernelFile input;
  dojo::KernelOp kernel = input.load(inputFile);
  if (!kernel)
    return 1;
  if (printKernel && !json)
    exportDojo(kernel, llvm::outs());

  // The baseline, when given, defines the work counts (moves may add
  // initialization leaves that are not part of the operator).
  OwningOpRef<ModuleOp> baselineModule;
  dojo::KernelOp baseline;
  if (!baselineFile.empty()) {
    // A source manager of its own: the importer reads its main buffer.
    baselineModule = loadKernelFile(baselineFile, &input.getContext());
    if (!baselineModule || !(baseline = getSingleKernel(*baselineModule)) ||
        failed(checkSameArguments(kernel, baseline)))
      return 1;
  }
  WorkCounts counts = countWork(baseline ? baseline : kernel);

  if (failed(checkArgumentSizes(kernel, "perfdojo-run")))
    return 1;

  std::optional<Interpreter> interp;
  if (engine == "interp") {
    auto created = Interpreter::create(kernel, InterpreterOptions{reference});
    if (failed(created))
      return 1;
    interp.emplace(std::move(*created));
  }
  // Which trusted reference validates the outputs.
  std::string kind;
  if (validate && !reference && !referenceOutputs.empty()) {
    kind = "file";
  } else if (validate && !reference) {
    kind = referenceKind;
    if (kind == "auto")
      kind = engine == "interp" || counts.leafEvaluations <= interpLimit
                 ? "interp"
                 : "baseline";
  }

  // Compile first (the kernel, and the baseline when it is the reference):
  // compilation does not touch kernel data, so concurrent runs overlap it.
  JitOptions jitOptions;
  jitOptions.optLevel = std::min(optLevel.getValue(), 3u);
  jitOptions.approximateMath = approximateMath;
  std::unique_ptr<JitKernel> jit, referenceJit;
  std::string referenceName;
  OwningOpRef<dojo::KernelOp> sequential;
  if (engine == "jit") {
    setJitThreads(threads);
    auto compiled = JitKernel::compile(kernel, jitOptions);
    if (!compiled) {
      printError(compiled.takeError());
      return 1;
    }
    jit = std::move(*compiled);
  }
  if (kind == "baseline") {
    dojo::KernelOp trusted = baseline;
    if (!trusted) {
      sequential = cast<dojo::KernelOp>(kernel->clone());
      clearModes(*sequential);
      trusted = *sequential;
      referenceName = "this kernel with modes cleared (JIT)";
    } else {
      referenceName = "the baseline kernel (JIT)";
    }
    auto compiled = JitKernel::compile(trusted, jitOptions);
    if (!compiled) {
      printError(compiled.takeError());
      return 1;
    }
    referenceJit = std::move(*compiled);
  }

  // Everything from here touches data: serialized under --timing-lock.
  // Error returns leave the lock to the exit, which releases it.
  std::optional<llvm::sys::fs::file_t> lockFile;
  if (!timingLock.empty()) {
    llvm::Expected<llvm::sys::fs::file_t> opened =
        llvm::sys::fs::openNativeFileForReadWrite(
            timingLock, llvm::sys::fs::CD_OpenAlways, llvm::sys::fs::OF_None);
    if (!opened) {
      llvm::errs() << "perfdojo-run: cannot open the timing lock '"
                   << timingLock << "': " << toString(opened.takeError())
                   << "\n";
      return 1;
    }
    lockFile = *opened;
    if (std::error_code ec = llvm::sys::fs::lockFile(*lockFile)) {
      llvm::errs() << "perfdojo-run: cannot lock '" << timingLock
                   << "': " << ec.message() << "\n";
      return 1;
    }
  }

  std::optional<ScalarType> argType;
  if (reference)
    argType = ScalarType::f64;
  std::vector<HostBuffer> args = allocateArguments(kernel, argType);
  fillInputs(kernel, args, seed);
  std::vector<HostBuffer> inputs = args;

  unsigned repetitions = reps ? reps : engine == "interp" ? 3 : 10;
  std::vector<double> times;
  double med = 0, best = 0;
  CompileTimes compileTimes;
  unsigned copies = 1;
  if (engine == "interp") {
    // Every repetition starts from the same inputs (inout buffers included).
    for (unsigned r = 0; r < repetitions; ++r) {
      for (size_t i = 0; i < args.size(); ++i)
        args[i].assign(inputs[i]);
      auto start = std::chrono::steady_clock::now();
      if (llvm::Error err = interp->run(args)) {
        printError(std::move(err));
        return 1;
      }
      times.push_back(std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - start)
                          .count());
    }
    TimingResult summary = summarizeTimes(times);
    med = summary.medianSeconds;
    best = summary.minSeconds;
  } else {
    compileTimes = jit->getCompileTimes();
    if (llvm::Error err = jit->run(args)) {
      printError(std::move(err));
      return 1;
    }
    TimingOptions timing;
    timing.warmup = warmup;
    timing.maxWarmupSeconds = maxWarmupSeconds;
    timing.repetitions = repetitions;
    auto measured = timeKernel(*jit, inputs, timing);
    if (!measured) {
      printError(measured.takeError());
      return 1;
    }
    med = measured->medianSeconds;
    best = measured->minSeconds;
    copies = measured->copies;
    times.assign(measured->repetitions, 0);
  }

  // Validation against the trusted reference on the same inputs.
  std::vector<HostBuffer> refArgs;
  double toleranceScale = 1;
  int64_t reductionLength = getMaxReductionLength(baseline ? baseline : kernel);
  if (kind == "interp") {
    referenceName = "the f64 reference (interpreter)";
    auto ref = Interpreter::create(kernel, InterpreterOptions{true});
    if (failed(ref))
      return 1;
    refArgs = allocateArguments(kernel, ScalarType::f64);
    for (size_t i = 0; i < args.size(); ++i)
      refArgs[i].assign(inputs[i]);
    if (llvm::Error err = ref->run(refArgs)) {
      printError(std::move(err));
      return 1;
    }
  } else if (kind == "file") {
    // Saved outputs of the JIT-compiled original: as for the baseline, both
    // sides carry rounding errors.
    toleranceScale = 2;
    referenceName = "the saved reference outputs";
    auto saved = readOutputFile(referenceOutputs, seed);
    if (!saved) {
      printError(saved.takeError());
      return 1;
    }
    refArgs.resize(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
      if (kernel.lookupArray(args[i].getName()).getRole() == dojo::Role::in)
        continue;
      auto it = llvm::find_if(*saved, [&](const HostBuffer &b) {
        return b.getName() == args[i].getName();
      });
      if (it == saved->end() || it->size() != args[i].size()) {
        llvm::errs() << "perfdojo-run: '" << referenceOutputs
                     << "' has no output '" << args[i].getName() << "' of "
                     << args[i].size() << " elements\n";
        return 1;
      }
      refArgs[i] = std::move(*it);
    }
  } else if (kind == "baseline") {
    // The baseline is compiled by the same JIT: both results carry
    // rounding errors, so the tolerance doubles.
    toleranceScale = 2;
    refArgs = inputs;
    if (llvm::Error err = referenceJit->run(refArgs)) {
      printError(std::move(err));
      return 1;
    }
  }
  if (lockFile) {
    (void)llvm::sys::fs::unlockFile(*lockFile);
    llvm::sys::fs::closeFile(*lockFile);
  }

  bool allPassed = true;
  llvm::json::Array outputs;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "kernel " << kernel.getSymName() << ": " << args.size()
     << " argument(s), " << counts.leafEvaluations
     << " leaf evaluations, engine " << engine
     << (reference ? " (f64 reference mode)" : "") << "\n";
  if (engine == "jit")
    os << "compile: " << llvm::format("%.1f", compileTimes.totalMs())
       << " ms (lower " << llvm::format("%.1f", compileTimes.lowerMs)
       << ", translate " << llvm::format("%.1f", compileTimes.translateMs)
       << ", LLVM -O" << jitOptions.optLevel << " + codegen "
       << llvm::format("%.1f", compileTimes.codegenMs) << ")\n";
  for (size_t i = 0; i < args.size(); ++i) {
    dojo::BufferOp buffer = kernel.lookupArray(args[i].getName());
    if (buffer.getRole() == dojo::Role::in)
      continue;
    Checksum c = checksum(args[i]);
    llvm::json::Object out{{"name", args[i].getName()},
                           {"type", shapeOf(buffer)},
                           {"sum", jsonNumber(c.sum)},
                           {"l2", jsonNumber(c.l2)}};
    os << "output " << args[i].getName() << " " << shapeOf(buffer)
       << ": sum " << llvm::format("%.9g", c.sum) << ", l2 "
       << llvm::format("%.9g", c.l2) << "\n";
    if (!refArgs.empty()) {
      double tol = toleranceScale * getRelativeTolerance(
                                        buffer.getElementType(),
                                        reductionLength);
      Comparison cmp = compareBuffers(args[i], refArgs[i], tol);
      allPassed &= cmp.passed();
      out["valid"] = cmp.passed();
      out["max_scaled_error"] = jsonNumber(cmp.maxScaledError);
      os << "  " << (cmp.passed() ? "matches" : "MISMATCH against") << " "
         << referenceName << ": " << describe(cmp) << "\n";
    }
    outputs.push_back(std::move(out));
  }
  double gflops = counts.flops / best / 1e9;
  double gbps = counts.compulsoryBytes / best / 1e9;
  os << "time: median " << formatSeconds(med) << ", min "
     << formatSeconds(best) << " over " << times.size() << " run(s)";
  if (copies > 1)
    os << " rotating " << copies << " input copies";
  os << "\nrate: " << llvm::format("%.2f", gflops) << " GFLOP/s, "
     << llvm::format("%.2f", gbps) << " GB/s compulsory traffic, "
     << llvm::format("%.1f", counts.leafEvaluations / best / 1e6)
     << " M leaf evaluations/s\n";
  std::optional<double> roofline;
  if (peakGflops > 0 && peakGBps > 0) {
    double intensity = double(counts.flops) / double(counts.compulsoryBytes);
    double attainable = std::min<double>(peakGflops, intensity * peakGBps);
    roofline = 100 * gflops / attainable;
    os << "roofline: " << llvm::format("%.1f", *roofline) << "% of "
       << llvm::format("%.1f", attainable) << " GFLOP/s attainable at "
       << llvm::format("%.3f", intensity) << " flop/byte\n";
  }

  if (json) {
    llvm::json::Object result{{"kernel", kernel.getSymName()},
                              {"engine", engine.getValue()},
                              {"reference_mode", reference.getValue()},
                              {"leaf_evaluations", counts.leafEvaluations},
                              {"flops", counts.flops},
                              {"compulsory_bytes", counts.compulsoryBytes},
                              {"time_median_s", med},
                              {"time_min_s", best},
                              {"repetitions", int64_t(times.size())},
                              {"input_copies", int64_t(copies)},
                              {"gflops", gflops},
                              {"gbps", gbps},
                              {"outputs", std::move(outputs)}};
    if (!referenceName.empty())
      result["reference"] = referenceName;
    if (roofline)
      result["roofline_percent"] = *roofline;
    if (engine == "jit") {
      result["threads"] = int64_t(threads);
      result["opt_level"] = int64_t(jitOptions.optLevel);
      result["compile_ms"] = llvm::json::Object{
          {"lower", compileTimes.lowerMs},
          {"translate", compileTimes.translateMs},
          {"codegen", compileTimes.codegenMs},
          {"total", compileTimes.totalMs()}};
    }
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(result)))
                 << "\n";
  } else {
    llvm::outs() << text;
  }
  if (!dumpOutputs.empty() && failed(writeOutputs(kernel, args)))
    return 1;
  if (!dumpInputs.empty() && failed(writeInputs(kernel, inputs)))
    return 1;
  if (!allPassed) {
    llvm::errs() << "perfdojo-run: outputs do not match " << referenceName
                 << "\n";
    return 2;
  }
  if (!saveOutputs.empty()) {
    std::vector<const HostBuffer *> outputs;
    for (const HostBuffer &arg : args)
      if (kernel.lookupArray(arg.getName()).getRole() != dojo::Role::in)
        outputs.push_back(&arg);
    if (llvm::Error error = writeOutputFile(saveOutputs, seed, outputs)) {
      printError(std::move(error));
      return 1;
    }
  }
  return 0;
}
