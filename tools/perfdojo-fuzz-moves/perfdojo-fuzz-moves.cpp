//===- perfdojo-fuzz-moves.cpp - random legal walks, checked -------------===//
//
// Walks random sequences of legal moves from a kernel. After every move:
//   1. the interpreter's outputs (f64 reference mode, fixed inputs) must match
//      the original kernel's within the dtype/reduction tolerance;
//   2. the returned inverse must restore the exact previous `.dojo` text, and
//      re-applying the move must give the same result again.
// Prints `walks=N moves=M mismatches=K inverse-failures=J` and exits non-zero
// with the shortest reproducing move script if K or J is non-zero.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Moves/Move.h"
#include "perfdojo/Runtime/Interpreter.h"
#include "perfdojo/Runtime/Validation.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

#include <random>

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

namespace {
std::string printKernel(dojo::KernelOp kernel) {
  std::string text;
  llvm::raw_string_ostream os(text);
  exportDojo(kernel, os);
  return text;
}

/// Runs `kernel` in f64 reference mode on `inputs`; returns its arguments.
FailureOr<std::vector<HostBuffer>> run(dojo::KernelOp kernel,
                                       const std::vector<HostBuffer> &inputs) {
  auto interp = Interpreter::create(kernel, InterpreterOptions{true});
  if (failed(interp))
    return failure();
  std::vector<HostBuffer> args = inputs;
  if (llvm::Error err = interp->run(args)) {
    llvm::errs() << llvm::toString(std::move(err)) << "\n";
    return failure();
  }
  return args;
}

std::string script(llvm::ArrayRef<MoveRequest> moves) {
  std::string text;
  for (const MoveRequest &m : moves)
    text += (text.empty() ? "" : "; ") + m.str();
  return text;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(fuzzCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "PerfDojo move fuzzer: random legal walks "
                              "checked by the interpreter\n");
  MLIRContext context;
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> original =
      loadKernelFile(sourceMgr, inputFile, &context);
  if (!original)
    return 1;
  dojo::KernelOp originalKernel = getSingleKernel(*original);
  if (!originalKernel)
    return 1;
  std::string originalText = printKernel(originalKernel);

  std::vector<HostBuffer> inputs =
      allocateArguments(originalKernel, ScalarType::f64);
  fillInputs(originalKernel, inputs, seed);
  auto expected = run(originalKernel, inputs);
  if (failed(expected))
    return 1;
  double tolerance = getRelativeTolerance(
      Float64Type::get(&context), getMaxReductionLength(originalKernel));

  std::mt19937_64 rng(seed);
  unsigned totalMoves = 0, mismatches = 0, inverseFailures = 0;
  std::optional<std::vector<MoveRequest>> shortest;
  std::string shortestWhy;
  auto report = [&](const std::vector<MoveRequest> &path, std::string why) {
    if (!shortest || path.size() < shortest->size()) {
      shortest = path;
      shortestWhy = std::move(why);
    }
  };

  for (unsigned w = 0; w < walks; ++w) {
    OwningOpRef<ModuleOp> module = original->clone();
    dojo::KernelOp kernel = getSingleKernel(*module);
    MoveState state(kernel, MoveOptions{reassociate});
    std::vector<MoveRequest> path;
    for (unsigned step = 0; step < length; ++step) {
      SmallVector<MoveRequest> legal = enumerateLegalMoves(state);
      if (legal.empty())
        break;
      MoveRequest move = legal[rng() % legal.size()];
      path.push_back(move);
      if (verbose)
        llvm::outs() << "walk " << w << " step " << step << ": " << move.str()
                     << "\n";
      std::string before = printKernel(kernel);
      FailureOr<MoveRequest> inverse =
          applyMove(state, move, kernel.getLoc());
      ++totalMoves;
      if (failed(inverse)) {
        ++inverseFailures;
        report(path, "a listed move failed to apply");
        break;
      }
      std::string after = printKernel(kernel);

      auto outputs = run(kernel, inputs);
      bool same = succeeded(outputs);
      std::string detail = "the moved kernel no longer runs";
      for (size_t i = 0; same && i < inputs.size(); ++i) {
        Comparison c = compareBuffers((*outputs)[i], (*expected)[i], tolerance);
        if (!c.passed()) {
          same = false;
          detail = "output '" + inputs[i].getName() + "': " + describe(c);
        }
      }
      if (!same) {
        ++mismatches;
        report(path, "outputs differ from the original kernel: " + detail);
        break;
      }

      // The inverse restores the exact text; the move re-applies identically.
      FailureOr<MoveRequest> back = applyMove(state, *inverse, kernel.getLoc());
      if (failed(back) || printKernel(kernel) != before) {
        ++inverseFailures;
        report(path, "inverse '" + inverse->str() +
                         "' does not restore the previous kernel");
        break;
      }
      if (failed(applyMove(state, move, kernel.getLoc())) ||
          printKernel(kernel) != after) {
        ++inverseFailures;
        report(path, "re-applying the move after its inverse gives a "
                     "different kernel");
        break;
      }
    }
  }

  llvm::outs() << "walks=" << walks << " moves=" << totalMoves
               << " mismatches=" << mismatches
               << " inverse-failures=" << inverseFailures << "\n";
  if (shortest) {
    llvm::outs() << "shortest reproducer (" << shortestWhy << "):\n"
                 << "  perfdojo-opt --dojo-apply=\"" << script(*shortest)
                 << "\"\n";
    return 1;
  }
  return 0;
}
