//===- perfdojo-run-torch.cpp - time a kernel's libtorch operator --------===//
//
// The command line of the libtorch baseline (TorchReference/TorchBaseline.h):
// picks the operator of a kernel, validates it against the kernel itself
// (JIT-compiled as given) on perfdojo-run's seeded inputs, times it, and
// prints the result as text or (--json) the object perfdojo-search reads.
// Exit codes: 1 for unusable input (unknown operator, shapes libtorch
// rejects), 2 when the operator does not compute this kernel.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Support/LargeStack.h"
#include "perfdojo/Support/ToolFlags.h"
#include "perfdojo/Target/DojoText/KernelFile.h"
#include "perfdojo/TorchReference/TorchBaseline.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"

using namespace mlir;
using namespace perfdojo;
namespace cl = llvm::cl;

static cl::OptionCategory torchCategory("perfdojo-run-torch options");
static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<kernel.dojo|kernel.mlir>"),
                                      cl::cat(torchCategory));
static cl::opt<std::string> operatorName(
    "operator", cl::init(""),
    cl::desc("libtorch operator to time (default: the kernel's name, else "
             "the file stem)"),
    cl::cat(torchCategory));
// `--threads` is spelled `num-threads` for llvm::cl: a library linked into
// this tool already registers an option named `threads`. main() rewrites
// `--threads` to it before parsing.
static cl::opt<unsigned> threads("num-threads", cl::init(1),
                                 cl::desc("libtorch intra-op threads "
                                          "(at::set_num_threads), also "
                                          "spelled --threads"),
                                 cl::cat(torchCategory));
static cl::opt<unsigned> reps("reps", cl::init(10),
                              cl::desc("Timed repetitions, median and min "
                                       "reported"),
                              cl::cat(torchCategory));
static cl::opt<unsigned> warmup("warmup", cl::init(1),
                                cl::desc("Untimed calls before timing (at "
                                         "least one per argument copy)"),
                                cl::cat(torchCategory));
static cl::opt<CacheState> cacheState("cache-state", cl::init(CacheState::Cold),
                                 cl::desc(kCacheFlagHelp),
                                 getCacheStateValues(),
                                 cl::cat(torchCategory));
static cl::opt<uint64_t> seed("seed", cl::init(0),
                              cl::desc("Seed of the input generator (the "
                                       "same data as perfdojo-run's)"),
                              cl::cat(torchCategory));
static cl::opt<bool> json("json", cl::init(false),
                          cl::desc("Print one JSON object instead of text"),
                          cl::cat(torchCategory));

namespace {
constexpr llvm::StringLiteral kTool = "perfdojo-run-torch: ";

/// Prints a baseline's error and returns its exit code.
int reportError(llvm::Error error) {
  int code = int(TorchBaselineFailure::Unusable);
  llvm::handleAllErrors(
      std::move(error),
      [&](const TorchBaselineError &failure) {
        if (!failure.getMessage().empty())
          llvm::errs() << kTool << failure.getMessage() << "\n";
        code = int(failure.getKind());
      },
      [&](const llvm::ErrorInfoBase &other) {
        llvm::errs() << kTool << other.message() << "\n";
      });
  return code;
}
} // namespace

static int toolMain(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  parseToolCommandLine(argc, argv, torchCategory, "num-threads",
                       "PerfDojo libtorch baseline: validate and time "
                       "a kernel's libtorch operator\n");
  if (threads == 0) {
    llvm::errs() << kTool << "--threads must be at least 1\n";
    return 1;
  }

  KernelFile input;
  dojo::KernelOp kernel = input.load(inputFile);
  if (!kernel)
    return 1;
  auto name = selectTorchOperator(kernel, operatorName, inputFile);
  if (!name)
    return reportError(name.takeError());

  TorchBaselineOptions options;
  options.threads = threads;
  options.warmup = warmup;
  options.repetitions = reps;
  options.cache = cacheState;
  options.seed = seed;
  auto result = runTorchBaseline(kernel, *name, options);
  if (!result)
    return reportError(result.takeError());
  if (json)
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(result->toJSON()))
                 << "\n";
  else
    result->print(llvm::outs());
  return 0;
}

int main(int argc, char **argv) {
  // Deep MLIR text must reach the nesting bound's error instead of
  // overflowing the parser's stack (Support/LargeStack.h).
  return perfdojo::runOnLargeStack([&] { return toolMain(argc, argv); });
}
