//===- perfdojo-fuzz-moves.cpp - random legal walks, checked -------------===//
//
// The command line of the move fuzzer (Testing/MoveFuzzer.h): random walks
// of legal moves from a kernel, or the replay of a move script, with the
// interpreter's outputs, the inverse and the re-application checked after
// every move. Prints `walks=N moves=M mismatches=K inverse-failures=J` and
// exits non-zero with the shortest reproducing move script if K or J is
// non-zero (or a scripted move is illegal).
//
// `--max-nodes`, `--max-evaluations` and `--max-elements` bound the kernels
// a walk reaches (FuzzLimits; -1 takes the default, 0 turns a bound off):
// a move whose result exceeds one is undone and counted in `skipped=`, and
// `largest=` is the largest kernel size a walk reached. `--script=FILE`
// replays a move script (kernels/scripts/*.moves) instead of random walks,
// so every prefix of the script is validated against the original kernel.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Support/LargeStack.h"
#include "perfdojo/Target/DojoText/KernelFile.h"
#include "perfdojo/Testing/MoveFuzzer.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

using namespace mlir;
using namespace perfdojo;
namespace cl = llvm::cl;

static cl::OptionCategory fuzzCategory("perfdojo-fuzz-moves options");
static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<kernel.dojo|kernel.mlir>"),
                                      cl::cat(fuzzCategory));
static cl::opt<unsigned> walks("walks", cl::init(10),
                               cl::desc("Number of random walks"),
                               cl::cat(fuzzCategory));
static cl::opt<unsigned> length("length", cl::init(20),
                                cl::desc("Moves per walk"),
                                cl::cat(fuzzCategory));
static cl::opt<uint64_t> seed("seed", cl::init(1), cl::desc("Random seed"),
                              cl::cat(fuzzCategory));
static cl::opt<bool> reassociate("reassociate", cl::init(true),
                                 cl::desc("Reassociation policy of the moves"),
                                 cl::cat(fuzzCategory));
static cl::opt<bool> verbose("verbose", cl::init(false),
                             cl::desc("Print every move"),
                             cl::cat(fuzzCategory));
static cl::opt<int>
    maxNodesOption("max-nodes", cl::init(-1),
                   cl::desc("Skip moves whose result has more than this many "
                            "buffers, scopes and leaves (0: no limit; "
                            "default: twice the kernel's, at least 64)"),
                   cl::cat(fuzzCategory));
static cl::opt<int64_t> maxEvaluationsOption(
    "max-evaluations", cl::init(-1),
    cl::desc("Skip moves whose result runs more than this many leaf "
             "instances (0: no limit; default: 64 times the kernel's, at "
             "least 65536)"),
    cl::cat(fuzzCategory));
static cl::opt<int64_t> maxElementsOption(
    "max-elements", cl::init(-1),
    cl::desc("Skip moves whose result allocates more than this many buffer "
             "elements in all (0: no limit; default: 64 times the kernel's, "
             "at least 2^20)"),
    cl::cat(fuzzCategory));
static cl::opt<std::string>
    scriptFile("script", cl::init(""),
               cl::desc("Replay this move script instead of random walks, "
                        "checking after every move"),
               cl::value_desc("file"), cl::cat(fuzzCategory));

static int toolMain(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(fuzzCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "PerfDojo move fuzzer: random legal walks "
                              "checked by the interpreter\n");
  KernelFile input;
  if (!input.load(inputFile))
    return 1;

  MoveFuzzOptions options;
  options.walks = walks;
  options.length = length;
  options.seed = seed;
  options.reassociate = reassociate;
  if (maxNodesOption >= 0)
    options.maxNodes = unsigned(maxNodesOption);
  if (maxEvaluationsOption >= 0)
    options.maxEvaluations = int64_t(maxEvaluationsOption);
  if (maxElementsOption >= 0)
    options.maxElements = int64_t(maxElementsOption);
  if (verbose)
    options.trace = &llvm::outs();
  auto fuzzer = MoveFuzzer::create(input.getModule(), options);
  if (failed(fuzzer))
    return 1;

  MoveFuzzResult result;
  if (!scriptFile.empty()) {
    auto script = readMoveScriptFile(scriptFile);
    if (!script) {
      llvm::errs() << llvm::toString(script.takeError()) << "\n";
      return 1;
    }
    result = fuzzer->replay(*script);
  } else {
    result = fuzzer->runWalks();
  }
  result.print(llvm::outs());
  return result.passed() ? 0 : 1;
}

int main(int argc, char **argv) {
  // Deep MLIR text must reach the nesting bound's error instead of
  // overflowing the parser's stack (Support/LargeStack.h).
  return perfdojo::runOnLargeStack([&] { return toolMain(argc, argv); });
}
