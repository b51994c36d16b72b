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
// `--max-nodes=N` bounds the kernel's size (its buffers, scopes and leaves;
// by default twice the original's, at least 64, and 0 turns it off):
// a move whose result would exceed it is skipped (undone by its inverse)
// and another legal move is drawn, so long walks cannot grow the tree
// without bound (add_scope, cut_scope, privatize_reduction on their own
// results). `--max-evaluations=N` bounds the leaf instances of one run (by
// default 64 times the original's, at least 65536): add_scope multiplies
// them, and the interpreter runs every state; `--max-elements=N` bounds the
// allocated buffer elements (by default 64 times the original's, at least
// 2^20): privatize_reduction on partial results multiplies them, and the
// interpreter allocates every buffer. Skipped moves are counted in
// `skipped=`, and `largest=` is the largest kernel size a walk reached.
//
// `--script=FILE` replays a move script (kernels/scripts/*.moves: one move
// per line or `;`-separated, `#` comments) instead of random walks, with
// the same three checks after every move, so every prefix of the script is
// validated against the original kernel. An illegal move is a failure.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Moves/Move.h"
#include "perfdojo/Moves/Selector.h"
#include "perfdojo/Runtime/Interpreter.h"
#include "perfdojo/Runtime/Validation.h"
#include "perfdojo/Target/DojoText/DojoText.h"
#include "perfdojo/Target/DojoText/KernelFile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
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

/// Buffers, scopes and leaves of `kernel`.
unsigned countNodes(dojo::KernelOp kernel) {
  unsigned n = 0;
  kernel.getBody().walk([&](Operation *) { ++n; });
  return n;
}

/// Leaf instances one run of `kernel` executes (saturating).
int64_t countEvaluations(dojo::KernelOp kernel) {
  int64_t total = 0;
  kernel.walk([&](dojo::LeafOp leaf) {
    int64_t box = 1;
    for (auto scope = leaf->getParentOfType<dojo::ScopeOp>(); scope;
         scope = scope->getParentOfType<dojo::ScopeOp>())
      if (llvm::MulOverflow(box, int64_t(scope.getSize()), box))
        box = INT64_MAX;
    if (llvm::AddOverflow(total, box, total))
      total = INT64_MAX;
  });
  return total;
}

/// Allocated elements of all buffers of `kernel` (`:N` dimensions count
/// once; saturating): privatize_reduction on its own partial results
/// multiplies them.
int64_t countElements(dojo::KernelOp kernel) {
  int64_t total = 0;
  for (dojo::BufferOp buffer : kernel.getBuffers()) {
    int64_t elements = 1;
    for (unsigned k = 0; k < buffer.getRank(); ++k)
      if (!buffer.getReused()[k] &&
          llvm::MulOverflow(elements, int64_t(buffer.getAllocatedExtent(k)),
                            elements))
        elements = INT64_MAX;
    if (llvm::AddOverflow(total, elements, total))
      total = INT64_MAX;
  }
  return total;
}

/// The moves of a script file: `#` comments, moves separated by newlines or
/// `;` (the syntax of perfdojo-opt --dojo-apply=file=...).
FailureOr<SmallVector<MoveRequest>> readScript(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    llvm::errs() << "cannot read '" << path
                 << "': " << buffer.getError().message() << "\n";
    return failure();
  }
  std::string text;
  SmallVector<StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n');
  for (StringRef line : lines)
    text += stripScriptComment(line).str() + ";";
  auto script = parseMoveScript(text);
  if (!script) {
    llvm::errs() << path << ": " << llvm::toString(script.takeError())
                 << "\n";
    return failure();
  }
  return std::move(*script);
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
  KernelFile input;
  dojo::KernelOp originalKernel = input.load(inputFile);
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
      Float64Type::get(&input.getContext()), getMaxReductionLength(originalKernel));

  std::optional<SmallVector<MoveRequest>> replay;
  if (!scriptFile.empty()) {
    auto moves = readScript(scriptFile);
    if (failed(moves))
      return 1;
    replay = std::move(*moves);
  }
  unsigned maxNodes =
      maxNodesOption >= 0
          ? unsigned(maxNodesOption)
          : std::max(64u, 2 * countNodes(originalKernel));
  int64_t maxEvaluations =
      maxEvaluationsOption >= 0
          ? int64_t(maxEvaluationsOption)
          : std::max<int64_t>(65536, 64 * countEvaluations(originalKernel));
  int64_t maxElements =
      maxElementsOption >= 0
          ? int64_t(maxElementsOption)
          : std::max<int64_t>(int64_t(1) << 20,
                              64 * countElements(originalKernel));
  unsigned numWalks = replay ? 1 : walks.getValue();
  unsigned numSteps = replay ? replay->size() : length.getValue();

  std::mt19937_64 rng(seed);
  unsigned totalMoves = 0, mismatches = 0, inverseFailures = 0, skipped = 0,
           illegal = 0, largest = countNodes(originalKernel);
  std::optional<std::vector<MoveRequest>> shortest;
  std::string shortestWhy;
  auto report = [&](const std::vector<MoveRequest> &path, std::string why) {
    if (!shortest || path.size() < shortest->size()) {
      shortest = path;
      shortestWhy = std::move(why);
    }
  };

  for (unsigned w = 0; w < numWalks; ++w) {
    OwningOpRef<ModuleOp> module = input.getModule().clone();
    dojo::KernelOp kernel = getSingleKernel(*module);
    MoveState state(kernel, MoveOptions{reassociate});
    std::vector<MoveRequest> path;
    for (unsigned step = 0; step < numSteps; ++step) {
      std::string before = printKernel(kernel);
      MoveRequest move;
      FailureOr<MoveRequest> inverse = failure();
      if (replay) {
        move = (*replay)[step];
        path.push_back(move);
        if (verbose)
          llvm::outs() << "step " << step << ": " << move.str() << "\n";
        // An illegal scripted move is reported with its reason.
        inverse = applyMove(state, move, kernel.getLoc());
        ++totalMoves;
        if (failed(inverse)) {
          ++illegal;
          report(path, "the script's move is illegal");
          break;
        }
      } else {
        SmallVector<MoveRequest> legal = enumerateLegalMoves(state);
        // Draw until a move keeps the kernel within --max-nodes.
        bool applied = false, broken = false;
        while (!legal.empty()) {
          unsigned pick = rng() % legal.size();
          move = legal[pick];
          inverse = applyMove(state, move, kernel.getLoc());
          if (failed(inverse)) {
            path.push_back(move);
            ++totalMoves;
            ++inverseFailures;
            report(path, "a listed move failed to apply");
            broken = true;
            break;
          }
          unsigned nodes = countNodes(kernel);
          if ((maxNodes == 0 || nodes <= maxNodes) &&
              (maxEvaluations == 0 ||
               countEvaluations(kernel) <= maxEvaluations) &&
              (maxElements == 0 || countElements(kernel) <= maxElements)) {
            largest = std::max(largest, nodes);
            applied = true;
            break;
          }
          ++skipped;
          if (failed(applyMove(state, *inverse, kernel.getLoc())) ||
              printKernel(kernel) != before) {
            path.push_back(move);
            ++totalMoves;
            ++inverseFailures;
            report(path, "inverse '" + inverse->str() +
                             "' does not restore the previous kernel");
            broken = true;
            break;
          }
          legal.erase(legal.begin() + pick);
        }
        if (broken || !applied)
          break;
        path.push_back(move);
        ++totalMoves;
        if (verbose)
          (llvm::outs() << "walk " << w << " step " << step << ": "
                        << move.str() << "\n")
              .flush();
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

  llvm::outs() << "walks=" << numWalks << " moves=" << totalMoves
               << " mismatches=" << mismatches
               << " inverse-failures=" << inverseFailures;
  if (replay)
    llvm::outs() << " illegal=" << illegal;
  else
    llvm::outs() << " skipped=" << skipped << " largest=" << largest;
  llvm::outs() << "\n";
  if (replay && !shortest)
    llvm::outs() << "script: all " << replay->size()
                 << " moves legal; every prefix matches the original\n";
  if (shortest) {
    llvm::outs() << "shortest reproducer (" << shortestWhy << "):\n"
                 << "  perfdojo-opt --dojo-apply=\"" << script(*shortest)
                 << "\"\n";
    return 1;
  }
  return 0;
}
