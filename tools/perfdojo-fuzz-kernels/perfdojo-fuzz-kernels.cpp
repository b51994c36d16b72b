//===- perfdojo-fuzz-kernels.cpp - differential runs of random kernels ----===//
//
// The command line of the kernel generator (Testing/KernelGenerator.h) and
// the differential check (Testing/DifferentialRun.h): generates random
// valid kernels from consecutive seeds and runs each through the verifier,
// the round trip, the interpreter (f64 reference and element types) and the
// JIT, comparing every output with the reference. Prints a summary line
// `kernels=N failed=F generator-bugs=G ...` with the counts by element type
// and feature, and exits non-zero if any kernel failed or did not verify.
//
// `--replay=FILE` checks one kernel file instead (a saved failure, say);
// `--print` prints the generated kernels instead of checking them.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Testing/DifferentialRun.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"

#include "mlir/IR/MLIRContext.h"

using namespace perfdojo;
namespace cl = llvm::cl;

static cl::OptionCategory fuzzCategory("perfdojo-fuzz-kernels options");
static cl::opt<uint64_t> seed("seed", cl::init(1),
                              cl::desc("Seed of the first kernel (kernel i "
                                       "uses seed + i)"),
                              cl::cat(fuzzCategory));
static cl::opt<uint64_t> count("count", cl::init(100),
                               cl::desc("Number of kernels"),
                               cl::cat(fuzzCategory));
static cl::opt<double>
    seconds("seconds", cl::init(0),
            cl::desc("Stop after this many seconds (0: after --count)"),
            cl::cat(fuzzCategory));
static cl::opt<int64_t> maxElements(
    "max-elements", cl::init(4096),
    cl::desc("Largest buffer and largest leaf iteration box, in elements"),
    cl::cat(fuzzCategory));
static cl::list<std::string>
    dtypes("dtypes", cl::CommaSeparated,
           cl::desc("Element types to generate (default: every type the "
                    "interpreter executes)"),
           cl::cat(fuzzCategory));
static cl::opt<double> gpuFraction(
    "gpu-fraction", cl::init(0.15),
    cl::desc("Share of kernels mapped with GPU modes and locations (checked "
             "by the interpreters only)"),
    cl::cat(fuzzCategory));
static cl::opt<unsigned>
    walkLength("walk-length", cl::init(8),
               cl::desc("Moves of a random legal walk on each kernel, "
                        "checked by the move fuzzer (0: none)"),
               cl::cat(fuzzCategory));
static cl::opt<bool> jit("jit", cl::init(true),
                         cl::desc("Run the JIT stage"), cl::cat(fuzzCategory));
static cl::opt<unsigned>
    timeout("timeout", cl::init(300),
            cl::desc("Seconds before a kernel's JIT child is killed"),
            cl::cat(fuzzCategory));
static cl::opt<std::string>
    saveFailures("save-failures", cl::init(""),
                 cl::desc("Directory for failing kernels, each with its "
                          "failures and reproduce command"),
                 cl::value_desc("dir"), cl::cat(fuzzCategory));
static cl::opt<unsigned>
    progress("progress", cl::init(100),
             cl::desc("A progress line every N kernels (0: none)"),
             cl::cat(fuzzCategory));
static cl::opt<std::string>
    replay("replay", cl::init(""),
           cl::desc("Check this kernel file instead of generating kernels"),
           cl::value_desc("file"), cl::cat(fuzzCategory));
static cl::opt<bool> print("print", cl::init(false),
                           cl::desc("Print the generated kernels, unchecked"),
                           cl::cat(fuzzCategory));
static cl::opt<bool> plantFailure(
    "plant-failure", cl::init(false), cl::Hidden,
    cl::desc("Self-test: perturb the JIT's outputs so that every kernel "
             "with a JIT run must be reported"),
    cl::cat(fuzzCategory));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(fuzzCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "PerfDojo kernel fuzzer: random valid kernels "
                              "checked by every engine\n");
  DifferentialOptions check;
  check.jit = jit;
  check.timeoutSeconds = timeout;
  check.walkLength = walkLength;
  check.plantFailure = plantFailure;
  check.inputSeed = seed;

  if (!replay.empty()) {
    auto buffer = llvm::MemoryBuffer::getFile(replay);
    if (!buffer) {
      llvm::errs() << "cannot read '" << replay
                   << "': " << buffer.getError().message() << "\n";
      return 1;
    }
    DifferentialResult result = checkKernel((*buffer)->getBuffer(), check);
    for (const std::string &f : result.failures)
      llvm::outs() << "failure: " << f << "\n";
    llvm::outs() << (result.passed() ? "passed" : "FAILED")
                 << " jit-runs=" << result.jitRuns
                 << " moves=" << result.moves << "\n";
    return result.passed() ? 0 : 1;
  }

  {
    mlir::MLIRContext context;
    std::vector<std::string> known;
    for (mlir::Type t : getDojoElementTypes(&context)) {
      known.push_back(getElementTypeName(t));
    }
    for (const std::string &name : dtypes)
      if (!llvm::is_contained(known, name)) {
        llvm::errs() << "perfdojo-fuzz-kernels: unknown element type '" << name
                     << "'; expected some of " << llvm::join(known, ", ")
                     << "\n";
        return 1;
      }
  }
  if (maxElements < 1) {
    llvm::errs() << "perfdojo-fuzz-kernels: --max-elements must be at least "
                    "1\n";
    return 1;
  }

  CampaignOptions options;
  options.seed = seed;
  options.count = count;
  options.seconds = seconds;
  options.dtypes.assign(dtypes.begin(), dtypes.end());
  options.generator.maxElements = maxElements;
  options.generator.gpuFraction = gpuFraction;
  options.check = check;
  options.saveFailures = saveFailures;
  options.progressEvery = progress;
  options.reproduceFlags = "--max-elements=" + std::to_string(maxElements) +
                           " --gpu-fraction=" + llvm::formatv("{0}", double(gpuFraction)).str();
  if (!options.dtypes.empty())
    options.reproduceFlags += " --dtypes=" + llvm::join(options.dtypes, ",");
  if (walkLength)
    options.reproduceFlags += " --walk-length=" + std::to_string(walkLength);

  if (print) {
    std::vector<std::string> typeNames = options.dtypes.empty()
                                             ? getExecutableTypeNames()
                                             : options.dtypes;
    for (uint64_t i = 0; i < count; ++i) {
      mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
      KernelGenOptions genOptions = options.generator;
      for (mlir::Type t : getDojoElementTypes(&context)) {
        std::string name = getElementTypeName(t);
        if (llvm::is_contained(typeNames, name))
          genOptions.dtypes.push_back(t);
      }
      GeneratedKernel kernel =
          KernelGenerator(&context, genOptions).generate(seed + i);
      llvm::outs() << "# seed " << seed + i
                   << (kernel.verified() ? "" : " (does not verify)") << "\n"
                   << kernel.text << kernel.error;
    }
    return 0;
  }

  CampaignSummary summary = runCampaign(options, llvm::errs());
  summary.print(llvm::outs());
  return summary.passed() ? 0 : 1;
}
