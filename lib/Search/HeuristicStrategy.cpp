//===- HeuristicStrategy.cpp - the x86 expert pass ------------------------===//
//
// One deterministic pass of the rules an expert applies on a vector CPU,
// each through legal moves only (an illegal rule application is skipped):
//
//   1. fuse: join adjacent scopes wherever legal, swapping siblings when
//      that enables a fusion;
//   2. vectorize: split every innermost scope whose size is a multiple of
//      the vector width W (vector bytes / element bytes) by W, separate the
//      leaves of each W-scope, make each a `:v` scope; a reduction that
//      cannot be vectorized directly gets W lane accumulators
//      (privatize_reduction), whose combine scope is unrolled;
//   3. memory: reuse buffer dimensions until exhaustion, then move internal
//      buffers to registers (else the stack) where they fit;
//   4. parallelize every top-level scope that can run in parallel.
//
// The original kernel and the result are evaluated.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Search/Strategies.h"

#include "perfdojo/Moves/Selector.h"

#include "MoveRules.h"

#include "llvm/ADT/StringSet.h"

using namespace perfdojo;
using namespace perfdojo::dojo;

namespace {

/// Upper bound on rule applications per phase: a guard against a rule that
/// keeps applying, never reached by a terminating rule set.
constexpr unsigned kMaxSteps = 400;

MoveRequest makeMove(llvm::StringRef name, std::string location,
                     llvm::ArrayRef<int64_t> params = {}) {
  MoveRequest move;
  move.name = name.str();
  move.location = std::move(location);
  move.params.assign(params.begin(), params.end());
  return move;
}

bool hasOnlyLeaves(ScopeOp scope) {
  return llvm::all_of(scope.getBlock(),
                      [](mlir::Operation &op) { return llvm::isa<LeafOp>(op); });
}

/// Whether the reduction of `leaf` also runs over the scope enclosing its
/// lane scope `lanes` (that scope's variable is not in the output index).
bool continuesOutside(LeafOp leaf, ScopeOp lanes) {
  auto parent = llvm::dyn_cast<ScopeOp>(lanes->getParentOp());
  if (!parent)
    return false;
  unsigned depth = getNodeDepth(parent);
  for (mlir::AffineExpr e : leaf.getIndices().getResults())
    if (e.isFunctionOfDim(depth))
      return false;
  return true;
}

/// Lanes of a vector register for the leaf's output element type.
int64_t getVectorWidth(KernelOp kernel, LeafOp leaf, const MoveOptions &o) {
  mlir::Type type = kernel.lookupArray(leaf.getArray()).getElementType();
  int64_t bytes = std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
  return std::max<int64_t>(1, o.vectorBytes / bytes);
}

class HeuristicStrategy : public Strategy {
public:
  llvm::StringRef getName() const override { return "heuristic"; }
  void run(SearchContext &context) override {
    context.evaluate({});
    Game game(context.getOriginal(), context.getMoveOptions());
    fuse(game);
    vectorize(game, context.getMoveOptions());
    placeMemory(game);
    parallelize(game);
    if (!game.history().empty())
      context.evaluate(game.history());
  }

private:
  void fuse(Game &game) {
    auto isJoin = [](const MoveRequest &m) { return m.name == "join_scopes"; };
    for (unsigned step = 0; step < kMaxSteps; ++step) {
      if (applyFirstLegal(game, isJoin))
        continue;
      // A swap of siblings that enables a fusion.
      bool progressed = false;
      for (const MoveRequest &swap : game.legalMoves()) {
        if (swap.name != "swap_siblings" || !tryApply(game, swap))
          continue;
        if (applyFirstLegal(game, isJoin)) {
          progressed = true;
          break;
        }
        game.undo();
      }
      if (!progressed)
        return;
    }
  }

  void vectorize(Game &game, const MoveOptions &options) {
    llvm::StringSet<> refused;
    for (unsigned step = 0; step < kMaxSteps; ++step) {
      KernelOp kernel = game.getKernel();
      std::optional<MoveRequest> next;
      // Prefer finishing W-scopes (separate, vectorize, privatize, unroll)
      // before splitting more scopes.
      kernel.walk([&](ScopeOp scope) {
        if (next || scope.getMode() != Mode::seq || !hasOnlyLeaves(scope))
          return;
        auto leaf = llvm::cast<LeafOp>(scope.getBlock().front());
        int64_t width = getVectorWidth(kernel, leaf, options);
        if (static_cast<int64_t>(scope.getSize()) != width)
          return;
        std::string selector = getNodeSelector(scope);
        if (!llvm::hasSingleElement(scope.getBlock())) {
          MoveRequest split = makeMove(
              "split_off", getPathSelector(leaf, getNodeDepth(scope)));
          if (!refused.contains(split.str()))
            next = split;
          return;
        }
        MoveRequest vector = makeMove("set_vector", selector);
        if (!refused.contains(vector.str())) {
          next = vector;
          return;
        }
        if (leaf.getReduce() == ReduceKind::none)
          return;
        // A reduction across the lanes that continues in the enclosing
        // scope gets one accumulator per lane (init and combine placed
        // around the outermost scope they can be); one that ends with the
        // lanes (the combine of such accumulators) is unrolled.
        if (continuesOutside(leaf, scope)) {
          for (unsigned d = 0, e = getNodeDepth(scope); d <= e && !next; ++d) {
            MoveRequest move = makeMove("privatize_reduction", selector, {d});
            if (!refused.contains(move.str()))
              next = move;
          }
        }
        MoveRequest unroll = makeMove("set_unroll", selector);
        if (!next && !refused.contains(unroll.str()))
          next = unroll;
      });
      if (!next) {
        // Split an innermost scope by the vector width.
        kernel.walk([&](ScopeOp scope) {
          if (next || scope.getMode() != Mode::seq || !hasOnlyLeaves(scope))
            return;
          auto leaf = llvm::cast<LeafOp>(scope.getBlock().front());
          int64_t width = getVectorWidth(kernel, leaf, options);
          int64_t size = scope.getSize();
          if (size <= width || size % width != 0)
            return;
          MoveRequest move =
              makeMove("split_scope", getNodeSelector(scope), {width});
          if (!refused.contains(move.str()))
            next = move;
        });
      }
      if (!next)
        return;
      if (!tryApply(game, *next)) {
        refused.insert(next->str());
        continue;
      }
      // The tree changed: refusals may no longer hold (selectors shift).
      refused.clear();
    }
  }

  void placeMemory(Game &game) {
    applyUntilExhausted(
        game, [](const MoveRequest &m) { return m.name == "reuse_dims"; },
        kMaxSteps);
    llvm::SmallVector<std::string> internal;
    for (BufferOp buffer : game.getKernel().getBuffers())
      if (!buffer.isArgument())
        internal.push_back(buffer.getName().str());
    for (const std::string &name : internal)
      if (!tryApply(game, makeMove("set_location", name, {2})))
        tryApply(game, makeMove("set_location", name, {1}));
  }

  void parallelize(Game &game) {
    llvm::SmallVector<std::string> tops;
    for (mlir::Operation &op : game.getKernel().getBlock())
      if (auto scope = llvm::dyn_cast<ScopeOp>(op))
        tops.push_back(getNodeSelector(scope));
    for (const std::string &selector : tops)
      tryApply(game, makeMove("set_parallel", selector));
  }
};
} // namespace

std::unique_ptr<Strategy> perfdojo::createHeuristicStrategy() {
  return std::make_unique<HeuristicStrategy>();
}
