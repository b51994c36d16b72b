//===- DifferentialRun.cpp - one kernel through every engine --------------===//
//
// The JIT runs in a forked child: the parent fills the inputs and computes
// the reference, forks, and the child compiles and runs each variant,
// writing the outputs (as doubles) into memory shared with the parent. The
// parent compares them after the child exits; a signal, a non-zero exit or
// the alarm of the timeout is a failure of the variant the child had
// reached. The parent never runs compiled code, so no OpenMP runtime is
// live in it when it forks, and its MLIR context has no thread pool.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Testing/DifferentialRun.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"
#include "perfdojo/ExecutionEngine/JitKernel.h"
#include "perfdojo/Runtime/HostBuffer.h"
#include "perfdojo/Runtime/Interpreter.h"
#include "perfdojo/Runtime/Validation.h"
#include "perfdojo/Target/DojoText/DojoText.h"
#include "perfdojo/Testing/MoveFuzzer.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir;
using namespace perfdojo;

namespace {

/// Collects the context's diagnostics as text.
class DiagnosticText {
public:
  explicit DiagnosticText(MLIRContext &context)
      : handler(&context, [this](Diagnostic &d) {
          llvm::raw_string_ostream os(text);
          os << d << "\n";
          return success();
        }) {}
  std::string take() { return std::exchange(text, ""); }

private:
  std::string text;
  ScopedDiagnosticHandler handler;
};

std::string printKernel(dojo::KernelOp kernel) {
  std::string text;
  llvm::raw_string_ostream os(text);
  exportDojo(kernel, os);
  return text;
}

std::string printMLIR(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, OpPrintingFlags().useLocalScope());
  return text;
}

bool isOutput(dojo::KernelOp kernel, const HostBuffer &arg) {
  return kernel.lookupArray(arg.getName()).getRole() != dojo::Role::in;
}

/// One compiled configuration of the JIT stage.
struct Variant {
  unsigned optLevel, threads;
  std::string str() const {
    return "-O" + std::to_string(optLevel) + " threads=" +
           std::to_string(threads);
  }
};

/// The head of the memory shared with the JIT child.
struct ChildReport {
  int reached = -1; ///< the variant being compiled or run
  int finished = 0; ///< variants whose outputs are written
  char message[2048] = {0};
};

/// Runs the JIT variants in a child process; returns the outputs of each
/// finished variant (all arguments, as allocated), and a failure message
/// if the child did not finish them all.
std::vector<std::vector<HostBuffer>>
runJitChild(dojo::KernelOp kernel, const std::vector<HostBuffer> &inputs,
            ArrayRef<Variant> variants, unsigned timeoutSeconds,
            std::string &failure) {
  int64_t elements = 0;
  for (const HostBuffer &b : inputs)
    elements += b.size();
  size_t bytes = sizeof(ChildReport) +
                 sizeof(double) * size_t(elements) * variants.size();
  void *shared = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) {
    failure = "cannot map memory for the JIT child";
    return {};
  }
  auto *report = new (shared) ChildReport();
  double *values = reinterpret_cast<double *>(report + 1);
  llvm::outs().flush();
  llvm::errs().flush();
  pid_t pid = fork();
  if (pid == 0) {
    // The child: default signal actions (no stack dumps), a deadline.
    for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGALRM})
      std::signal(sig, SIG_DFL);
    alarm(timeoutSeconds);
    DiagnosticText diagnostics(*kernel.getContext());
    auto fail = [&](const std::string &what) {
      std::strncpy(report->message, what.c_str(), sizeof(report->message) - 1);
      _exit(2);
    };
    std::unique_ptr<JitKernel> jit;
    unsigned compiledLevel = ~0u;
    for (auto [v, variant] : llvm::enumerate(variants)) {
      report->reached = v;
      if (variant.optLevel != compiledLevel) {
        JitOptions jitOptions;
        jitOptions.optLevel = variant.optLevel;
        auto compiled = JitKernel::compile(kernel, jitOptions);
        if (!compiled)
          fail("does not compile: " + llvm::toString(compiled.takeError()) +
               "\n" + diagnostics.take());
        jit = std::move(*compiled);
        compiledLevel = variant.optLevel;
      }
      setJitThreads(variant.threads);
      std::vector<HostBuffer> args = inputs;
      if (llvm::Error err = jit->run(args))
        fail("does not run: " + llvm::toString(std::move(err)));
      // Raw bytes, 8 per element at most: a round trip through double
      // would turn bool's undefined byte 0xA5 into 1 and round i64 values
      // beyond 2^53.
      double *out = values + v * elements;
      for (const HostBuffer &b : args) {
        std::memcpy(out, b.data(), b.size() * b.getElementBytes());
        out += b.size();
      }
      report->finished = v + 1;
    }
    _exit(0);
  }
  std::vector<std::vector<HostBuffer>> results;
  if (pid < 0) {
    failure = "cannot fork the JIT child";
  } else {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
      ;
    std::string variant =
        report->reached >= 0 && report->reached < int(variants.size())
            ? " (" + variants[report->reached].str() + ")"
            : "";
    if (WIFSIGNALED(status))
      failure = WTERMSIG(status) == SIGALRM
                    ? "timed out after " + std::to_string(timeoutSeconds) +
                          " s" + variant
                    : "crashed with signal " +
                          std::to_string(WTERMSIG(status)) + " (" +
                          strsignal(WTERMSIG(status)) + ")" + variant;
    else if (WEXITSTATUS(status) != 0)
      failure = std::string(report->message) + variant;
    for (int v = 0; v < report->finished; ++v) {
      const double *in = values + v * elements;
      std::vector<HostBuffer> args = inputs;
      for (HostBuffer &b : args) {
        std::memcpy(b.data(), in, b.size() * b.getElementBytes());
        in += b.size();
      }
      results.push_back(std::move(args));
    }
  }
  munmap(shared, bytes);
  return results;
}

/// Compares the outputs among `args` with the reference; one failure per
/// mismatching output.
void compareOutputs(dojo::KernelOp kernel, ArrayRef<HostBuffer> args,
                    ArrayRef<HostBuffer> reference, const std::string &stage,
                    DifferentialResult &result) {
  int64_t reductionLength = getMaxReductionLength(kernel);
  for (auto [arg, ref] : llvm::zip(args, reference)) {
    if (!isOutput(kernel, arg))
      continue;
    Type type = kernel.lookupArray(arg.getName()).getElementType();
    Comparison c = compareBuffers(
        arg, ref, getOutputTolerance(kernel, type, reductionLength));
    if (!c.passed())
      result.failures.push_back(stage + ": output '" + arg.getName() +
                                "' differs from the f64 reference: " +
                                describe(c));
  }
}

} // namespace

DifferentialResult perfdojo::checkKernel(StringRef text,
                                         const DifferentialOptions &options) {
  DifferentialResult result;
  MLIRContext context(MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  DiagnosticText diagnostics(context);

  // 1-2. Import, verify, round trip.
  OwningOpRef<ModuleOp> module = importDojoString(text, &context, "k.dojo");
  if (!module) {
    result.failures.push_back("import: " + diagnostics.take());
    return result;
  }
  dojo::KernelOp kernel = getSingleKernel(*module);
  std::string exported = printKernel(kernel);
  OwningOpRef<ModuleOp> again = importDojoString(exported, &context, "k.dojo");
  if (!again) {
    result.failures.push_back("round trip: the exported text does not "
                              "import: " +
                              diagnostics.take());
    return result;
  }
  if (printKernel(getSingleKernel(*again)) != exported)
    result.failures.push_back("round trip: export is not a fixed point");
  if (printMLIR(*module) != printMLIR(*again))
    result.failures.push_back(
        "round trip: the re-imported kernel prints different MLIR");

  // 3. The interpreter: the f64 reference, then the element types.
  result.executable = llvm::all_of(kernel.getBuffers(), [](dojo::BufferOp b) {
    return getScalarType(b.getElementType()).has_value();
  });
  if (!result.executable)
    return result;
  std::vector<HostBuffer> inputs = allocateArguments(kernel);
  fillInputs(kernel, inputs, options.inputSeed);
  std::vector<HostBuffer> reference = allocateArguments(kernel, ScalarType::f64);
  for (auto [ref, in] : llvm::zip(reference, inputs))
    ref.assign(in);
  auto run = [&](InterpreterOptions interpOptions,
                 std::vector<HostBuffer> &args) -> std::optional<std::string> {
    auto interp = Interpreter::create(kernel, interpOptions);
    if (failed(interp))
      return diagnostics.take();
    if (llvm::Error err = interp->run(args))
      return llvm::toString(std::move(err));
    return std::nullopt;
  };
  if (auto error = run(InterpreterOptions{true}, reference)) {
    result.failures.push_back("interpreter (f64 reference): " + *error);
    return result;
  }
  std::vector<HostBuffer> interpreted = inputs;
  if (auto error = run(InterpreterOptions{false}, interpreted))
    result.failures.push_back("interpreter: " + *error);
  else
    compareOutputs(kernel, interpreted, reference, "interpreter", result);

  // 4. The JIT, isolated.
  bool gpu = !isCpuExecutable(kernel);
  result.jitSkipped = gpu || !options.jit;
  if (!result.jitSkipped) {
    bool parallel = llvm::any_of(collectScopes(kernel), [](dojo::ScopeOp s) {
      return s.getMode() == dojo::Mode::parallel;
    });
    SmallVector<Variant, 4> variants = {{0, 1}, {3, 1}};
    if (parallel)
      variants.append({{0, 2}, {3, 2}});
    std::string failure;
    auto outputs = runJitChild(kernel, inputs, variants,
                               options.timeoutSeconds, failure);
    if (!failure.empty())
      result.failures.push_back("jit: " + failure);
    for (auto [v, args] : llvm::enumerate(outputs)) {
      ++result.jitRuns;
      if (options.plantFailure)
        for (HostBuffer &arg : args)
          if (isOutput(kernel, arg) && arg.size()) {
            // An element left unwritten is NaN in every engine.
            double v = arg.get(0);
            arg.set(0, std::isnan(v) ? 0 : v + 1 + std::abs(v));
            break;
          }
      compareOutputs(kernel, args, reference, "jit " + variants[v].str(),
                     result);
    }
  }

  // 5. Moves on the generated kernel.
  if (options.walkLength) {
    MoveFuzzOptions walk;
    walk.walks = 1;
    walk.length = options.walkLength;
    walk.seed = options.inputSeed;
    std::string errors;
    llvm::raw_string_ostream errorStream(errors);
    walk.errors = &errorStream;
    auto fuzzer = MoveFuzzer::create(*module, walk);
    if (failed(fuzzer)) {
      result.failures.push_back("moves: the kernel does not run: " + errors +
                                diagnostics.take());
    } else {
      MoveFuzzResult walked = fuzzer->runWalks();
      result.moves = walked.moves;
      if (!walked.passed()) {
        std::string summary;
        llvm::raw_string_ostream os(summary);
        walked.print(os);
        result.failures.push_back("moves: " + summary + errors);
      }
    }
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Campaigns
//===----------------------------------------------------------------------===//

std::vector<std::string> perfdojo::getExecutableTypeNames() {
  MLIRContext context;
  std::vector<std::string> names;
  for (Type t : getDojoElementTypes(&context)) {
    if (!getScalarType(t))
      continue;
    std::string name = getElementTypeName(t);
    names.push_back(name);
  }
  return names;
}

void CampaignSummary::print(llvm::raw_ostream &os) const {
  os << "kernels=" << kernels << " failed=" << failed
     << " generator-bugs=" << generatorBugs << " gpu=" << gpuKernels
     << " not-executable=" << notExecutable << " jit-runs=" << jitRuns
     << " moves=" << moves << " dropped-modes=" << droppedModes
     << " dropped-locations=" << droppedLocations
     << " dropped-reuse=" << droppedReuse << "\n";
  auto list = [&](StringRef title, const std::map<std::string, uint64_t> &m) {
    os << title << ":";
    for (const auto &[name, n] : m)
      os << " " << name << "=" << n;
    os << "\n";
  };
  list("dtypes", dtypes);
  list("features", features);
  for (const std::string &f : failures)
    os << "failure: " << f << "\n";
}

/// Writes the failing kernel with its failures and the reproduce commands
/// as `#` comments (the file is a kernel `--replay` reads back).
static std::string saveFailure(const CampaignOptions &options, uint64_t seed,
                               StringRef text,
                               ArrayRef<std::string> failures,
                               llvm::raw_ostream &log) {
  std::string reproduce = "perfdojo-fuzz-kernels --seed=" +
                          std::to_string(seed) + " --count=1 " +
                          options.reproduceFlags;
  if (options.saveFailures.empty())
    return "seed " + std::to_string(seed) + ": " + reproduce;
  llvm::sys::fs::create_directories(options.saveFailures);
  SmallString<128> path(options.saveFailures);
  llvm::sys::path::append(path, "kernel-" + std::to_string(seed) + ".dojo");
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    log << "cannot write '" << path << "': " << ec.message() << "\n";
    return std::string(path);
  }
  os << "# perfdojo-fuzz-kernels failure, kernel seed " << seed << "\n";
  for (const std::string &f : failures) {
    SmallVector<StringRef> lines;
    StringRef(f).split(lines, '\n', -1, false);
    for (StringRef line : lines)
      os << "#   " << line << "\n";
  }
  os << "# reproduce: " << reproduce << "\n";
  os << "# replay:    perfdojo-fuzz-kernels --replay=" << path << "\n";
  os << text;
  return std::string(path);
}

CampaignSummary perfdojo::runCampaign(const CampaignOptions &options,
                                      llvm::raw_ostream &log) {
  CampaignSummary summary;
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  std::vector<std::string> typeNames =
      options.dtypes.empty() ? getExecutableTypeNames() : options.dtypes;
  for (uint64_t i = 0; i < options.count; ++i) {
    if (options.seconds > 0 && elapsed() >= options.seconds)
      break;
    uint64_t seed = options.seed + i;
    // A fresh context per kernel keeps uniqued attributes from piling up.
    MLIRContext context(MLIRContext::Threading::DISABLED);
    KernelGenOptions genOptions = options.generator;
    genOptions.dtypes.clear();
    for (Type t : getDojoElementTypes(&context)) {
      std::string name = getElementTypeName(t);
      if (llvm::is_contained(typeNames, name))
        genOptions.dtypes.push_back(t);
    }
    KernelGenerator generator(&context, genOptions);
    GeneratedKernel kernel = generator.generate(seed);
    ++summary.kernels;
    for (const std::string &t : kernel.dtypes)
      ++summary.dtypes[t];
    for (const auto &[feature, n] : kernel.features)
      ++summary.features[feature];
    summary.droppedModes += kernel.droppedModes;
    summary.droppedLocations += kernel.droppedLocations;
    summary.droppedReuse += kernel.droppedReuse;
    summary.gpuKernels += kernel.gpu;
    if (!kernel.verified()) {
      ++summary.generatorBugs;
      std::string where =
          saveFailure(options, seed, kernel.text,
                      {"generator bug: the kernel does not verify",
                       kernel.error},
                      log);
      summary.failures.push_back(where);
      log << "generator bug (seed " << seed << "): " << kernel.error
          << kernel.text << "saved: " << where << "\n";
      continue;
    }
    DifferentialOptions check = options.check;
    check.inputSeed = seed;
    DifferentialResult result = checkKernel(kernel.text, check);
    summary.notExecutable += !result.executable;
    summary.jitRuns += result.jitRuns;
    summary.moves += result.moves;
    if (!result.passed()) {
      ++summary.failed;
      std::string where =
          saveFailure(options, seed, kernel.text, result.failures, log);
      summary.failures.push_back(where);
      log << "FAILED (seed " << seed << "):\n";
      for (const std::string &f : result.failures)
        log << "  " << f << "\n";
      log << "saved: " << where << "\n";
    }
    if (options.progressEvery && summary.kernels % options.progressEvery == 0)
      (log << "progress: kernels=" << summary.kernels
           << " failed=" << summary.failed
           << " generator-bugs=" << summary.generatorBugs
           << " jit-runs=" << summary.jitRuns
           << " seconds=" << llvm::format("%.0f", elapsed()) << "\n")
          .flush();
  }
  summary.seconds = elapsed();
  return summary;
}
