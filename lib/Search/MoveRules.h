//===- MoveRules.h - small building blocks of rule-based strategies -------===//
//
// Private to lib/Search: the naive and heuristic strategies apply moves by
// rules ("the first legal fusion", "a move if legal") rather than by search.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_LIB_SEARCH_MOVERULES_H
#define PERFDOJO_LIB_SEARCH_MOVERULES_H

#include "perfdojo/Moves/Game.h"

namespace perfdojo {

/// Applies `move` if it is legal; an illegal move leaves the game as it was.
inline bool tryApply(Game &game, const MoveRequest &move) {
  if (llvm::Error error = game.apply(move)) {
    llvm::consumeError(std::move(error));
    return false;
  }
  return true;
}

/// Applies the first legal move (in listing order) that `accept` takes;
/// false if there is none.
inline bool applyFirstLegal(
    Game &game, llvm::function_ref<bool(const MoveRequest &)> accept) {
  for (const MoveRequest &move : game.legalMoves())
    if (accept(move))
      return tryApply(game, move);
  return false;
}

/// Applies first-legal moves that `accept` takes until none is left. Every
/// rule set used with it shrinks the tree, so it ends; `maxSteps` guards
/// against a bug in that reasoning, it is not a budget.
inline void applyUntilExhausted(
    Game &game, llvm::function_ref<bool(const MoveRequest &)> accept,
    unsigned maxSteps = 10000) {
  for (unsigned step = 0; step < maxSteps; ++step)
    if (!applyFirstLegal(game, accept))
      return;
}

} // namespace perfdojo

#endif // PERFDOJO_LIB_SEARCH_MOVERULES_H
