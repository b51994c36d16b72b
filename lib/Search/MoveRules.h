//===- MoveRules.h - small building blocks of rule-based strategies -------===//
//
// Private to lib/Search: the naive and heuristic strategies apply moves by
// rules ("the first legal fusion", "a move if legal") rather than by search.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_LIB_SEARCH_MOVERULES_H
#define PERFDOJO_LIB_SEARCH_MOVERULES_H

#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"
#include "perfdojo/Moves/Game.h"
#include "perfdojo/Moves/Selector.h"
#include "perfdojo/Search/Strategy.h"

#include "llvm/ADT/StringSet.h"

namespace perfdojo {

/// The request `kind location params...`.
inline MoveRequest makeMove(MoveKind kind, std::string location,
                            llvm::ArrayRef<int64_t> params = {}) {
  MoveRequest move;
  move.name = stringifyMoveKind(kind).str();
  move.location = std::move(location);
  move.params.assign(params.begin(), params.end());
  return move;
}

/// Applies `move` if it is legal; an illegal move leaves the game as it was.
inline bool tryApply(Game &game, const MoveRequest &move) {
  if (llvm::Error error = game.apply(move)) {
    llvm::consumeError(std::move(error));
    return false;
  }
  return true;
}

/// Undoes moves until `game`'s history is `mark` long again: a rule that
/// took several moves gives them all back when a later one is illegal.
inline void undoTo(Game &game, size_t mark) {
  while (game.history().size() > mark)
    game.undo();
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

/// The paper's naive pass (4.1): `join_scopes` and `reuse_dims` wherever
/// legal, first legal move first, until none is left. Each fusion removes a
/// scope and each reuse a materialized dimension, so it ends.
inline void applyNaiveRules(Game &game) {
  applyUntilExhausted(game, [](const MoveRequest &move) {
    return move.getKind() == MoveKind::JoinScopes ||
           move.getKind() == MoveKind::ReuseDims;
  });
}

/// Fusion until exhaustion: joins adjacent scopes wherever legal (and
/// `allowJoin` accepts the join), swapping siblings or the order of two
/// nested scopes (where `allowSwap` accepts the swap) when that enables a
/// fusion.
inline void fuseScopes(
    Game &game, llvm::function_ref<bool(const MoveRequest &)> allowJoin,
    llvm::function_ref<bool(const MoveRequest &)> allowSwap =
        [](const MoveRequest &) { return true; },
    unsigned maxSteps = 400) {
  auto isJoin = [&](const MoveRequest &m) {
    return m.getKind() == MoveKind::JoinScopes && allowJoin(m);
  };
  for (unsigned step = 0; step < maxSteps; ++step) {
    if (applyFirstLegal(game, isJoin))
      continue;
    // A swap of siblings, or of two nested scopes (aligning the loop order
    // of two neighbouring nests), that enables a fusion.
    bool progressed = false;
    for (const MoveRequest &swap : game.legalMoves()) {
      if ((swap.getKind() != MoveKind::SwapSiblings &&
           swap.getKind() != MoveKind::SwapNestedScopes) ||
          !allowSwap(swap) || !tryApply(game, swap))
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

/// The names of `kernel`'s buffers (to see which ones a move created).
inline llvm::StringSet<> getBufferNames(dojo::KernelOp kernel) {
  llvm::StringSet<> names;
  for (dojo::BufferOp buffer : kernel.getBuffers())
    names.insert(buffer.getName());
  return names;
}

/// The name of a buffer of `kernel` not in `before` (the one a move made
/// since `before` was taken), or "".
inline std::string getNewBuffer(dojo::KernelOp kernel,
                                const llvm::StringSet<> &before) {
  for (dojo::BufferOp buffer : kernel.getBuffers())
    if (!before.contains(buffer.getName()))
      return buffer.getName().str();
  return "";
}

/// Moves every internal buffer to registers where legal, else to the
/// stack where legal.
inline void placeInternalBuffers(Game &game) {
  llvm::SmallVector<std::string> internal;
  for (dojo::BufferOp buffer : game.getKernel().getBuffers())
    if (!buffer.isArgument())
      internal.push_back(buffer.getName().str());
  for (const std::string &name : internal) {
    auto setLocation = [&](dojo::BufferLocation location) {
      return tryApply(
          game,
          makeMove(MoveKind::SetLocation, name, {static_cast<int64_t>(location)}));
    };
    if (!setLocation(dojo::BufferLocation::reg))
      setLocation(dojo::BufferLocation::stack);
  }
}

/// Lanes of a vector register for the element type of the array `leaf`
/// writes.
inline int64_t getVectorLanes(dojo::KernelOp kernel, dojo::LeafOp leaf,
                              const MoveOptions &options) {
  return options.target.getVectorLanes(
      kernel.lookupArray(leaf.getArray()).getElementType());
}

/// The fewest lanes of a narrow vector the heuristic makes of a remainder:
/// a 128-bit register (a quarter of AVX-512's), at least two lanes. The
/// target accepts any power of two down to 2; narrower pieces cost about
/// as much as 128-bit ones and save little over scalar code.
inline int64_t getMinNarrowLanes(int64_t width) {
  return std::max<int64_t>(2, width / 4);
}

/// Whether `size` lanes of `leaf`'s output type make a vector the
/// heuristic uses: one the target accepts (the full width or a narrow one,
/// TargetDescription::findModeSizeViolation) of at least the narrowest
/// lanes above.
inline bool isLaneCount(dojo::KernelOp kernel, dojo::LeafOp leaf,
                        int64_t size, const MoveOptions &options) {
  int64_t width = getVectorLanes(kernel, leaf, options);
  mlir::Type type = kernel.lookupArray(leaf.getArray()).getElementType();
  return size >= std::min(width, getMinNarrowLanes(width)) &&
         !options.target.findModeSizeViolation(dojo::Mode::vector, size,
                                               type);
}

/// The widest lane count below `size` that isLaneCount accepts, or 0.
inline int64_t getNarrowLanes(dojo::KernelOp kernel, dojo::LeafOp leaf,
                              int64_t size, const MoveOptions &options) {
  for (int64_t lanes = size - 1; lanes > 1; --lanes)
    if (isLaneCount(kernel, leaf, lanes, options))
      return lanes;
  return 0;
}

/// The widest lane count of at most `size` that isLaneCount accepts (the
/// vector of a remainder), or 0.
inline int64_t getLanesWithin(dojo::KernelOp kernel, dojo::LeafOp leaf,
                              int64_t size, const MoveOptions &options) {
  return isLaneCount(kernel, leaf, size, options)
             ? size
             : getNarrowLanes(kernel, leaf, size, options);
}

/// Whether an index of `map` uses the variable `{depth}`.
inline bool usesDepth(mlir::AffineMap map, unsigned depth) {
  return llvm::any_of(map.getResults(), [&](mlir::AffineExpr e) {
    return e.isFunctionOfDim(depth);
  });
}

/// Whether a step of `{depth}` moves `map` by exactly one element of its
/// last dimension and not in the others (lane stride 1 in a row-major array).
inline bool isUnitStride(mlir::AffineMap map, unsigned depth) {
  auto results = map.getResults();
  if (results.empty())
    return false;
  for (mlir::AffineExpr e : results.drop_back())
    if (e.isFunctionOfDim(depth))
      return false;
  std::optional<LinearForm> last = getLinearForm(results.back());
  return last && last->coeff(depth) == 1;
}

/// The node `selector` names in `kernel`, or null where none is.
inline mlir::Operation *findNode(dojo::KernelOp kernel,
                                 llvm::StringRef selector) {
  llvm::Expected<mlir::Operation *> node = resolveNode(kernel, selector);
  if (!node) {
    llvm::consumeError(node.takeError());
    return nullptr;
  }
  return *node;
}

/// The scope a move's location names, or null.
inline dojo::ScopeOp getTargetScope(Game &game, const MoveRequest &move) {
  return llvm::dyn_cast_or_null<dojo::ScopeOp>(
      findNode(game.getKernel(), move.location));
}

/// Applies `moves` in order, skipping those that are no longer legal (an
/// edit earlier in a sequence can invalidate later selectors); returns how
/// many applied.
inline size_t replayLegal(Game &game, llvm::ArrayRef<MoveRequest> moves) {
  size_t applied = 0;
  for (const MoveRequest &move : moves)
    applied += tryApply(game, move);
  return applied;
}

} // namespace perfdojo

#endif // PERFDOJO_LIB_SEARCH_MOVERULES_H
