//===- MoveFuzzer.cpp - random legal move walks, checked ------------------===//
//
// One walk, move by move:
//   1. print the kernel (the text the inverse must restore);
//   2. take the script's next move, or draw legal moves at random until one
//      keeps the kernel within the limits (undoing each that does not);
//   3. run the interpreter and compare with the original's outputs;
//   4. apply the inverse (the text must be the one of step 1), then the
//      move again (the text must be the one after step 2).
// Every failure ends its walk and competes for the shortest reproducer.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Testing/MoveFuzzer.h"
#include "perfdojo/Moves/Selector.h"
#include "perfdojo/Runtime/Interpreter.h"
#include "perfdojo/Runtime/Validation.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace perfdojo;

namespace {
std::string printKernel(dojo::KernelOp kernel) {
  std::string text;
  llvm::raw_string_ostream os(text);
  exportDojo(kernel, os);
  return text;
}

/// Runs `kernel` in f64 reference mode on `inputs`; returns its arguments.
FailureOr<std::vector<HostBuffer>> run(dojo::KernelOp kernel,
                                       const std::vector<HostBuffer> &inputs,
                                       llvm::raw_ostream &errors) {
  auto interp = Interpreter::create(kernel, InterpreterOptions{true});
  if (failed(interp))
    return failure();
  std::vector<HostBuffer> args = inputs;
  if (llvm::Error err = interp->run(args)) {
    errors << llvm::toString(std::move(err)) << "\n";
    return failure();
  }
  return args;
}

/// Keeps the shortest failing path of a run.
void recordFailure(MoveFuzzResult &result, const std::vector<MoveRequest> &path,
                   std::string why) {
  if (!result.shortest || path.size() < result.shortest->size()) {
    result.shortest = path;
    result.shortestWhy = std::move(why);
  }
}

std::string inverseFailure(const MoveRequest &inverse) {
  return "inverse '" + inverse.str() + "' does not restore the previous kernel";
}
} // namespace

//===----------------------------------------------------------------------===//
// Kernel sizes and limits
//===----------------------------------------------------------------------===//

unsigned perfdojo::countKernelNodes(dojo::KernelOp kernel) {
  unsigned n = 0;
  kernel.getBody().walk([&](Operation *) { ++n; });
  return n;
}

int64_t perfdojo::countLeafEvaluations(dojo::KernelOp kernel) {
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

int64_t perfdojo::countBufferElements(dojo::KernelOp kernel) {
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

FuzzLimits FuzzLimits::getDefaults(dojo::KernelOp kernel) {
  FuzzLimits limits;
  limits.maxNodes = std::max(64u, 2 * countKernelNodes(kernel));
  limits.maxEvaluations =
      std::max<int64_t>(65536, 64 * countLeafEvaluations(kernel));
  limits.maxElements = std::max<int64_t>(int64_t(1) << 20,
                                         64 * countBufferElements(kernel));
  return limits;
}

bool FuzzLimits::admits(dojo::KernelOp kernel) const {
  return (maxNodes == 0 || countKernelNodes(kernel) <= maxNodes) &&
         (maxEvaluations == 0 ||
          countLeafEvaluations(kernel) <= maxEvaluations) &&
         (maxElements == 0 || countBufferElements(kernel) <= maxElements);
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

void MoveFuzzResult::print(llvm::raw_ostream &os) const {
  os << "walks=" << walks << " moves=" << moves
     << " mismatches=" << mismatches
     << " inverse-failures=" << inverseFailures;
  if (replay)
    os << " illegal=" << illegal;
  else
    os << " skipped=" << skipped << " largest=" << largest;
  os << "\n";
  if (replay && !shortest)
    os << "script: all " << scriptLength
       << " moves legal; every prefix matches the original\n";
  if (shortest) {
    std::string script;
    for (const MoveRequest &m : *shortest)
      script += (script.empty() ? "" : "; ") + m.str();
    os << "shortest reproducer (" << shortestWhy << "):\n"
       << "  perfdojo-opt --dojo-apply=\"" << script << "\"\n";
  }
}

//===----------------------------------------------------------------------===//
// Walks
//===----------------------------------------------------------------------===//

/// One walk's kernel (a copy of the original), its move state and the moves
/// made so far.
struct MoveFuzzer::Walk {
  OwningOpRef<ModuleOp> module;
  dojo::KernelOp kernel;
  MoveState state;
  std::vector<MoveRequest> path;
  /// The kernel's text before the current move.
  std::string before;

  Walk(ModuleOp original, bool reassociate)
      : module(original.clone()), kernel(getSingleKernel(*module)),
        state(kernel, getMoveOptions(reassociate)) {}

  static MoveOptions getMoveOptions(bool reassociate) {
    MoveOptions options;
    options.reassociate = reassociate;
    return options;
  }
};

FailureOr<MoveFuzzer> MoveFuzzer::create(ModuleOp module,
                                         const MoveFuzzOptions &options) {
  MoveFuzzer fuzzer(module, options);
  dojo::KernelOp kernel = getSingleKernel(module);
  fuzzer.inputs = allocateArguments(kernel, ScalarType::f64);
  fillInputs(kernel, fuzzer.inputs, options.seed);
  auto expected = run(kernel, fuzzer.inputs, *options.errors);
  if (failed(expected))
    return failure();
  fuzzer.expected = std::move(*expected);
  int64_t reductionLength = getMaxReductionLength(kernel);
  for (const HostBuffer &input : fuzzer.inputs) {
    Type type = kernel.lookupArray(input.getName()).getElementType();
    fuzzer.tolerances.push_back(getOutputTolerance(
        kernel,
        isa<FloatType>(type) ? Float64Type::get(module.getContext()) : type,
        reductionLength));
  }
  FuzzLimits defaults = FuzzLimits::getDefaults(kernel);
  fuzzer.limits.maxNodes = options.maxNodes.value_or(defaults.maxNodes);
  fuzzer.limits.maxEvaluations =
      options.maxEvaluations.value_or(defaults.maxEvaluations);
  fuzzer.limits.maxElements =
      options.maxElements.value_or(defaults.maxElements);
  return fuzzer;
}

bool MoveFuzzer::drawMove(Walk &walk, std::mt19937_64 &rng, MoveRequest &move,
                          MoveRequest &inverse, MoveFuzzResult &result) {
  Location loc = walk.kernel.getLoc();
  SmallVector<MoveRequest> legal = enumerateLegalMoves(walk.state);
  while (!legal.empty()) {
    unsigned pick = rng() % legal.size();
    move = legal[pick];
    FailureOr<MoveRequest> applied = applyMove(walk.state, move, loc);
    if (failed(applied)) {
      walk.path.push_back(move);
      ++result.moves;
      ++result.inverseFailures;
      recordFailure(result, walk.path, "a listed move failed to apply");
      return false;
    }
    inverse = *applied;
    if (limits.admits(walk.kernel)) {
      result.largest =
          std::max(result.largest, countKernelNodes(walk.kernel));
      return true;
    }
    // Over a limit: undo, and draw among the remaining legal moves.
    ++result.skipped;
    if (failed(applyMove(walk.state, inverse, loc)) ||
        printKernel(walk.kernel) != walk.before) {
      walk.path.push_back(move);
      ++result.moves;
      ++result.inverseFailures;
      recordFailure(result, walk.path, inverseFailure(inverse));
      return false;
    }
    legal.erase(legal.begin() + pick);
  }
  return false;
}

bool MoveFuzzer::checkMove(Walk &walk, const MoveRequest &move,
                           const MoveRequest &inverse,
                           MoveFuzzResult &result) {
  Location loc = walk.kernel.getLoc();
  std::string after = printKernel(walk.kernel);

  auto outputs = run(walk.kernel, inputs, *options.errors);
  bool same = succeeded(outputs);
  std::string detail = "the moved kernel no longer runs";
  for (size_t i = 0; same && i < inputs.size(); ++i) {
    Comparison c = compareBuffers((*outputs)[i], expected[i], tolerances[i]);
    if (!c.passed()) {
      same = false;
      detail = "output '" + inputs[i].getName() + "': " + describe(c);
    }
  }
  if (!same) {
    ++result.mismatches;
    recordFailure(result, walk.path,
                  "outputs differ from the original kernel: " + detail);
    return false;
  }

  // The inverse restores the exact text; the move re-applies identically.
  if (failed(applyMove(walk.state, inverse, loc)) ||
      printKernel(walk.kernel) != walk.before) {
    ++result.inverseFailures;
    recordFailure(result, walk.path, inverseFailure(inverse));
    return false;
  }
  if (failed(applyMove(walk.state, move, loc)) ||
      printKernel(walk.kernel) != after) {
    ++result.inverseFailures;
    recordFailure(result, walk.path,
                  "re-applying the move after its inverse gives a "
                  "different kernel");
    return false;
  }
  return true;
}

MoveFuzzResult MoveFuzzer::runWalks() {
  MoveFuzzResult result;
  result.walks = options.walks;
  result.largest = countKernelNodes(getSingleKernel(module));
  std::mt19937_64 rng(options.seed);
  for (unsigned w = 0; w < options.walks; ++w) {
    Walk walk(module, options.reassociate);
    for (unsigned step = 0; step < options.length; ++step) {
      walk.before = printKernel(walk.kernel);
      MoveRequest move, inverse;
      if (!drawMove(walk, rng, move, inverse, result))
        break;
      walk.path.push_back(move);
      ++result.moves;
      if (options.trace)
        (*options.trace << "walk " << w << " step " << step << ": "
                        << move.str() << "\n")
            .flush();
      if (!checkMove(walk, move, inverse, result))
        break;
    }
  }
  return result;
}

MoveFuzzResult MoveFuzzer::replay(llvm::ArrayRef<MoveRequest> script) {
  MoveFuzzResult result;
  result.replay = true;
  result.scriptLength = script.size();
  result.walks = 1;
  result.largest = countKernelNodes(getSingleKernel(module));
  Walk walk(module, options.reassociate);
  for (auto [step, move] : llvm::enumerate(script)) {
    walk.before = printKernel(walk.kernel);
    walk.path.push_back(move);
    if (options.trace)
      *options.trace << "step " << step << ": " << move.str() << "\n";
    FailureOr<MoveRequest> inverse =
        applyMove(walk.state, move, walk.kernel.getLoc());
    ++result.moves;
    if (failed(inverse)) {
      ++result.illegal;
      recordFailure(result, walk.path, "the script's move is illegal");
      break;
    }
    if (!checkMove(walk, move, *inverse, result))
      break;
  }
  return result;
}
