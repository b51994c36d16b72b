//===- AnnealStrategy.cpp - simulated annealing over move sequences -------===//
//
// The paper's simulated annealing (4.2.1). The state is a whole move
// sequence and its cost the measured run time of the program it builds.
// A neighbour edits the sequence at an arbitrary point:
//
//   insert   a legal move of the state at position p (the rest replays),
//   delete   the move at p,
//   replace  the move at p by another legal move there,
//   swap     the moves at p and p + 1.
//
// After an edit the rest of the sequence replays, dropping moves that are
// no longer legal, so every neighbour is a legal program. Inserted moves
// are drawn with heuristic weights that favour the moves an expert uses
// (fusion, splits by the vector width, interchange, modes, placement) over
// the ones that mostly grow the tree (add_scope, cut_scope, padding).
//
// The search starts from the heuristic strategy's sequence (or from the
// original kernel where that is faster), so annealing refines the expert
// pass. A worse neighbour is
// accepted with probability exp(-(c' - c) / (T c)); T falls linearly from
// kStartTemperature to zero over the budget. One neighbour per job is
// evaluated at a time and the best of them competes. After kRestartAfter
// rounds without a new best, the state returns to the best sequence.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Search/Strategies.h"

#include "MoveRules.h"

#include <cmath>

using namespace perfdojo;

namespace {
constexpr double kStartTemperature = 0.05;
constexpr unsigned kRestartAfter = 25;
/// Longest sequence the strategy builds.
constexpr size_t kMaxSequence = 64;

/// The weight of inserting `move` into `game`'s state.
double getInsertWeight(Game &game, const MoveRequest &move,
                       const MoveOptions &options) {
  std::optional<MoveKind> kind = move.getKind();
  if (!kind)
    return 0.5;
  switch (*kind) {
  case MoveKind::SplitScope: {
    // Splits by the vector width or a small unroll factor are the useful
    // ones; other factors are kept at a low weight.
    int64_t factor = move.params.empty() ? 0 : move.params[0];
    dojo::ScopeOp scope = getTargetScope(game, move);
    int64_t lanes =
        scope ? getVectorLanes(game.getKernel(),
                               getFirstLeaf(scope.getOperation()), options)
              : 0;
    if (factor == lanes)
      return 4;
    return factor <= 8 ? 1 : 0.25;
  }
  case MoveKind::SetUnroll: {
    dojo::ScopeOp scope = getTargetScope(game, move);
    return scope && scope.getSize() <= 16 ? 2 : 0.1;
  }
  case MoveKind::JoinScopes:
  case MoveKind::SetVector:
  case MoveKind::SetParallel:
    return 4;
  case MoveKind::SwapNestedScopes:
  case MoveKind::ReuseDims:
  case MoveKind::SetLocation:
  case MoveKind::SplitOff:
  case MoveKind::PrivatizeReduction:
  case MoveKind::SwapSiblings:
    return 2;
  case MoveKind::AddScope:
  case MoveKind::CutScope:
  case MoveKind::PadDim:
  case MoveKind::PadScope:
    return 0.1;
  default:
    return 0.5;
  }
}

class AnnealStrategy : public Strategy {
public:
  llvm::StringRef getName() const override { return "anneal"; }
  bool needsBudget() const override { return true; }

  void run(SearchContext &context) override {
    // The expert pass evaluates the original and its own result; the
    // faster of the two is the starting state.
    std::unique_ptr<Strategy> heuristic = createHeuristicStrategy();
    heuristic->run(context);
    const SearchRecord *start = context.getBest();
    if (!start)
      return;
    llvm::SmallVector<MoveRequest> current = start->moves;
    double currentCost = start->evaluation.seconds;
    double bestCost = currentCost;
    unsigned sinceBest = 0, fruitless = 0;
    std::mt19937_64 &random = context.getRandom();

    while (!context.exhausted() && fruitless < 1000) {
      std::vector<llvm::SmallVector<MoveRequest>> neighbours;
      for (unsigned i = 0; i < context.getJobs() * 4 &&
                           neighbours.size() < context.getJobs();
           ++i) {
        llvm::SmallVector<MoveRequest> next = makeNeighbour(context, current);
        if (next != current)
          neighbours.push_back(std::move(next));
      }
      if (neighbours.empty()) {
        ++fruitless;
        continue;
      }
      std::vector<std::optional<Evaluation>> results =
          context.evaluateBatch(neighbours);
      // The best valid neighbour competes with the current state.
      std::optional<size_t> pick;
      bool allCached = true;
      for (size_t i = 0; i < results.size(); ++i) {
        if (!results[i])
          continue;
        allCached &= results[i]->cached;
        if (results[i]->ok() &&
            (!pick || results[i]->seconds < results[*pick]->seconds))
          pick = i;
      }
      fruitless = allCached ? fruitless + 1 : 0;
      if (!pick)
        continue;
      double cost = results[*pick]->seconds;
      double temperature = kStartTemperature * (1 - getProgress(context));
      double accept =
          cost <= currentCost || temperature <= 0
              ? (cost <= currentCost ? 1.0 : 0.0)
              : std::exp(-(cost - currentCost) / (temperature * currentCost));
      if (std::uniform_real_distribution<double>(0, 1)(random) < accept) {
        current = neighbours[*pick];
        currentCost = cost;
      }
      if (cost < bestCost) {
        bestCost = cost;
        sinceBest = 0;
      } else if (++sinceBest >= kRestartAfter) {
        // Back to the best sequence found so far.
        const SearchRecord *best = context.getBest();
        current = best->moves;
        currentCost = best->evaluation.seconds;
        sinceBest = 0;
      }
    }
  }

private:
  /// The fraction of the budget spent, by evaluations or by time.
  static double getProgress(const SearchContext &context) {
    const SearchBudget &budget = context.getBudget();
    double progress = 0;
    if (budget.evaluations)
      progress = double(context.getSpentEvaluations()) / budget.evaluations;
    if (budget.seconds > 0)
      progress =
          std::max(progress, context.getElapsedSeconds() / budget.seconds);
    return std::min(1.0, progress);
  }

  /// A random legal move of `game`'s state drawn by insertion weight.
  static std::optional<MoveRequest> drawMove(SearchContext &context,
                                             Game &game) {
    llvm::SmallVector<MoveRequest> legal = context.getTargetMoves(game);
    if (legal.empty())
      return std::nullopt;
    std::vector<double> weights;
    for (const MoveRequest &move : legal)
      weights.push_back(
          getInsertWeight(game, move, context.getMoveOptions()));
    std::discrete_distribution<size_t> pick(weights.begin(), weights.end());
    return legal[pick(context.getRandom())];
  }

  /// `sequence` after one random edit, replayed so that every move is legal.
  static llvm::SmallVector<MoveRequest>
  makeNeighbour(SearchContext &context,
                llvm::ArrayRef<MoveRequest> sequence) {
    std::mt19937_64 &random = context.getRandom();
    enum Edit { Insert, Delete, Replace, Swap };
    Edit edit = Insert;
    if (!sequence.empty()) {
      // Shrink long sequences more often than grow them.
      std::discrete_distribution<int> pickEdit(
          {sequence.size() < kMaxSequence ? 4.0 : 0.0, 2.0, 2.0,
           sequence.size() > 1 ? 1.0 : 0.0});
      edit = static_cast<Edit>(pickEdit(random));
    }
    size_t limit = edit == Insert ? sequence.size() : sequence.size() - 1;
    if (edit == Swap)
      limit = sequence.size() - 2;
    size_t at = std::uniform_int_distribution<size_t>(0, limit)(random);

    Game game(context.getOriginal(), context.getMoveOptions());
    replayLegal(game, sequence.take_front(at));
    llvm::ArrayRef<MoveRequest> rest = sequence.drop_front(at);
    switch (edit) {
    case Insert:
      if (std::optional<MoveRequest> move = drawMove(context, game))
        tryApply(game, *move);
      break;
    case Delete:
      rest = rest.drop_front();
      break;
    case Replace:
      rest = rest.drop_front();
      if (std::optional<MoveRequest> move = drawMove(context, game))
        tryApply(game, *move);
      break;
    case Swap:
      tryApply(game, rest[1]);
      tryApply(game, rest[0]);
      rest = rest.drop_front(2);
      break;
    }
    replayLegal(game, rest);
    return llvm::SmallVector<MoveRequest>(game.history());
  }
};
} // namespace

std::unique_ptr<Strategy> perfdojo::createAnnealStrategy() {
  return std::make_unique<AnnealStrategy>();
}
