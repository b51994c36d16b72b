//===- RandomStrategy.cpp - global random sampling over seen programs -----===//
//
// The paper's random sampling (4.2.2): keep every valid program evaluated so
// far; pick a parent with probability proportional to its speed (1 / run
// time), extend its move sequence by one to three random legal moves, and
// evaluate the child. Good programs get explored more, every program keeps
// a chance.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Search/Strategies.h"

using namespace perfdojo;

namespace {
/// Longest move sequence the strategy builds; deeper walks mostly grow the
/// tree (cut/add scopes) without new schedules.
constexpr size_t kMaxSequence = 64;

class RandomStrategy : public Strategy {
public:
  llvm::StringRef getName() const override { return "random"; }
  bool needsBudget() const override { return true; }
  void run(SearchContext &context) override {
    context.evaluate({});
    unsigned fruitless = 0;
    while (!context.exhausted() && fruitless < 1000) {
      // One child per job, each from its own parent, evaluated together.
      std::vector<llvm::SmallVector<MoveRequest>> children;
      for (unsigned attempt = 0;
           children.size() < context.getJobs() && attempt < 100; ++attempt) {
        std::optional<llvm::SmallVector<MoveRequest>> child =
            makeChild(context);
        if (!child)
          return;
        if (child->empty())
          ++fruitless;
        else
          children.push_back(std::move(*child));
      }
      if (children.empty())
        continue;
      for (const std::optional<Evaluation> &e : context.evaluateBatch(children))
        fruitless = e && e->cached ? fruitless + 1 : 0;
    }
  }

private:
  /// A parent's sequence extended by one to three random legal moves; an
  /// empty sequence when the parent has no legal move left, nullopt when
  /// there is no parent at all.
  static std::optional<llvm::SmallVector<MoveRequest>>
  makeChild(SearchContext &context) {
    std::mt19937_64 &random = context.getRandom();
    // Parents: every valid record, weighted by speed.
    std::vector<const SearchRecord *> parents;
    std::vector<double> weights;
    for (const SearchRecord &r : context.getRecords())
      if (r.evaluation.ok() && r.moves.size() < kMaxSequence) {
        parents.push_back(&r);
        weights.push_back(1.0 / std::max(r.evaluation.seconds, 1e-9));
      }
    if (parents.empty())
      return std::nullopt;
    std::discrete_distribution<size_t> pickParent(weights.begin(),
                                                  weights.end());
    const llvm::SmallVector<MoveRequest> &moves =
        parents[pickParent(random)]->moves;
    Game game(context.getOriginal(), context.getMoveOptions());
    for (const MoveRequest &move : moves)
      if (llvm::Error error = game.apply(move)) {
        // A recorded valid sequence always replays.
        llvm::consumeError(std::move(error));
        return std::nullopt;
      }
    unsigned steps = std::uniform_int_distribution<unsigned>(1, 3)(random);
    for (unsigned s = 0; s < steps; ++s) {
      llvm::SmallVector<MoveRequest> legal = context.getTargetMoves(game);
      if (legal.empty())
        break;
      MoveRequest move = legal[std::uniform_int_distribution<size_t>(
          0, legal.size() - 1)(random)];
      if (llvm::Error error = game.apply(move)) {
        llvm::consumeError(std::move(error));
        break;
      }
    }
    if (game.history().size() == moves.size())
      return llvm::SmallVector<MoveRequest>();
    return llvm::SmallVector<MoveRequest>(game.history());
  }
};
} // namespace

std::unique_ptr<Strategy> perfdojo::createRandomStrategy() {
  return std::make_unique<RandomStrategy>();
}
