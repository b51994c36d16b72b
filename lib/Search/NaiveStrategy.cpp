//===- NaiveStrategy.cpp - fuse and reuse until exhaustion ----------------===//
//
// The paper's naive pass (4.1): apply `join_scopes` (fusion) and
// `reuse_dims` (shrinking temporaries) wherever legal, first legal move
// first, until none is left; evaluate the original and the result.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Search/Strategies.h"

using namespace perfdojo;

namespace {
class NaiveStrategy : public Strategy {
public:
  llvm::StringRef getName() const override { return "naive"; }
  void run(SearchContext &context) override {
    context.evaluate({});
    Game game(context.getOriginal(), context.getMoveOptions());
    // Every applied move removes a scope or a materialized dimension, so
    // the loop ends; the bound is a guard against a bug, not a budget.
    for (unsigned step = 0; step < 10000; ++step) {
      llvm::SmallVector<MoveRequest> moves = game.legalMoves();
      const MoveRequest *pick = nullptr;
      for (const MoveRequest &move : moves)
        if (move.name == "join_scopes" || move.name == "reuse_dims") {
          pick = &move;
          break;
        }
      if (!pick || game.apply(*pick))
        break;
    }
    if (!game.history().empty())
      context.evaluate(game.history());
  }
};
} // namespace

std::unique_ptr<Strategy> perfdojo::createNaiveStrategy() {
  return std::make_unique<NaiveStrategy>();
}
