//===- GreedyStrategy.cpp - naive, then target moves wherever legal -------===//
//
// The paper's naive pass followed by the target's moves applied wherever
// they are legal, with no cost model:
//
//   1. fuse and reuse until exhaustion (the naive strategy's rules);
//   2. split every innermost scope whose size is a multiple of the vector
//      width W (larger than W) by W, so vector moves have W-scopes to take;
//   3. move each internal buffer to registers, else the stack, then apply
//      the CPU mode moves until none is legal: set_vector, set_unroll on
//      scopes of at most kUnrollSize iterations, set_parallel.
//
// On a Snitch target, phases 2-3 are the Snitch greedy rules instead
// (SnitchExpertRules.h): accumulators in registers, SSR streams and FREP
// wherever legal.
//
// It evaluates the original kernel and the result of each phase; the best
// of them is the result (without timing, in the `dojo-greedy` pass, the
// last phase's). The heuristic strategy is the cost-aware sibling.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Search/RuleCandidates.h"
#include "perfdojo/Search/Strategies.h"

#include "MoveRules.h"
#include "perfdojo/Search/SnitchExpertRules.h"

using namespace perfdojo;
using namespace perfdojo::dojo;

namespace {
/// Largest scope the greedy pass unrolls: unrolling large scopes only grows
/// the code.
constexpr int64_t kUnrollSize = 8;

/// Whether `move` is one of the CPU mode moves of phase 3 that `game`'s
/// state should take. Each turns a sequential scope into a mode, so
/// applying them until none is legal ends.
bool isModeMove(Game &game, const MoveRequest &move) {
  if (move.getKind() == MoveKind::SetVector ||
      move.getKind() == MoveKind::SetParallel)
    return true;
  if (move.getKind() != MoveKind::SetUnroll)
    return false;
  ScopeOp scope = getTargetScope(game, move);
  return scope && static_cast<int64_t>(scope.getSize()) <= kUnrollSize;
}

void splitByVectorWidth(Game &game, const MoveOptions &options) {
  llvm::SmallVector<MoveRequest> splits;
  game.getKernel().walk([&](ScopeOp scope) {
    if (!llvm::all_of(scope.getBlock(), [](mlir::Operation &op) {
          return llvm::isa<LeafOp>(op);
        }))
      return;
    auto leaf = llvm::cast<LeafOp>(scope.getBlock().front());
    int64_t width = getVectorLanes(game.getKernel(), leaf, options);
    int64_t size = scope.getSize();
    if (size > width && size % width == 0)
      splits.push_back(
          makeMove(MoveKind::SplitScope, getNodeSelector(scope), {width}));
  });
  // Splitting one scope does not move the selectors of other innermost
  // scopes (they name leaves and depths), so all apply in one go.
  for (const MoveRequest &split : splits)
    tryApply(game, split);
}

class GreedyStrategy : public Strategy {
public:
  llvm::StringRef getName() const override { return "greedy"; }
  void run(SearchContext &context) override {
    context.evaluate({});
    // Evaluated in phase order: the naive pass's result, then the full one.
    std::vector<MoveSequence> candidates = proposeGreedyCandidates(
        context.getOriginal(), context.getMoveOptions());
    std::reverse(candidates.begin(), candidates.end());
    context.evaluateBatch(candidates);
  }
};
} // namespace

std::vector<MoveSequence>
perfdojo::proposeGreedyCandidates(KernelOp original,
                                  const MoveOptions &options,
                                  unsigned maxCandidates) {
  Game game(original, options);
  applyNaiveRules(game);
  MoveSequence naive(game.history().begin(), game.history().end());
  if (isSnitchTarget(options.target)) {
    // Snitch: SSR and FREP wherever legal (SnitchExpertRules.h).
    applySnitchGreedyRules(game);
  } else {
    splitByVectorWidth(game, options);
    placeInternalBuffers(game);
    applyUntilExhausted(game, [&](const MoveRequest &move) {
      return isModeMove(game, move);
    });
  }
  std::vector<MoveSequence> candidates;
  if (game.history().size() != naive.size())
    candidates.emplace_back(game.history().begin(), game.history().end());
  if (!naive.empty() && (!maxCandidates || candidates.size() < maxCandidates))
    candidates.push_back(std::move(naive));
  return candidates;
}

std::unique_ptr<Strategy> perfdojo::createGreedyStrategy() {
  return std::make_unique<GreedyStrategy>();
}
