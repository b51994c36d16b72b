//===- Game.h - the optimization game: state, legal moves, undo -*- C++ -*-===//
//
// The API search strategies, agents and the Python bindings play through:
// a kernel state, the legal moves in it, apply (which records the inverse)
// and undo (which replays it), and the canonical `.dojo` text of the state
// (a stable key for caches and a readable observation).
//
// Apply and undo rewrite the kernel in place; nothing is reparsed.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_MOVES_GAME_H
#define PERFDOJO_MOVES_GAME_H

#include "perfdojo/Moves/Move.h"

#include "mlir/IR/OwningOpRef.h"

namespace perfdojo {

class Game {
public:
  /// Plays on a copy of `kernel`; the original is never changed.
  explicit Game(dojo::KernelOp kernel, MoveOptions options = {});

  dojo::KernelOp getKernel() { return *kernel; }
  /// The options every move is checked with.
  const MoveOptions &getOptions() { return state.getOptions(); }

  /// Every legal move in the current state.
  llvm::SmallVector<MoveRequest> legalMoves();

  /// Whether `move` is legal now: success, or the reason it is not (as
  /// apply would give it). Never changes the state.
  llvm::Error check(const MoveRequest &move);
  llvm::Error check(llvm::StringRef move);

  /// Checks and applies `move`. On failure the state is unchanged and the
  /// reason is returned (the diagnostics are not printed).
  llvm::Error apply(const MoveRequest &move);
  /// Parses and applies one move (`split_scope y@0 16`).
  llvm::Error apply(llvm::StringRef move);

  /// Undoes the last applied move; false if there is none.
  bool undo();
  /// Applies again the move the last undo took back; false if there is
  /// none (applying any move forgets what was undone, as editors do).
  bool redo();
  /// Moves undo took back that redo can apply again, the next one last.
  llvm::ArrayRef<MoveRequest> undone() const { return redoable; }

  /// The moves applied so far, in order.
  llvm::ArrayRef<MoveRequest> history() const { return applied; }

  /// An independent game in the same state: a copy of the current kernel
  /// (cursors included) with the same history, undo and redo. Playing the
  /// same moves on both gives the same text.
  std::unique_ptr<Game> fork();

  /// The current kernel as canonical `.dojo` text.
  std::string print();

  /// A node followed across moves, as Exo's cursors are. A selector is a
  /// position in the current tree: once a move re-nests the node
  /// (split_scope turns `y@1` into `y@2`) or renumbers the writers of its
  /// array (cut_scope duplicates a writer, so `t#1` becomes `t#2`), the old
  /// text names another node or none. A cursor marks the node itself; after
  /// every move it gives the node's current selector, and it is invalid
  /// once a move removed the node or duplicated it.
  using Cursor = unsigned;
  /// Starts following the node `selector` names now.
  llvm::Expected<Cursor> track(llvm::StringRef selector);
  /// The current selector of the node `cursor` follows, or nullopt if a
  /// move removed or duplicated it.
  std::optional<std::string> getSelector(Cursor cursor);

private:
  mlir::OwningOpRef<dojo::KernelOp> kernel;
  MoveState state;
  llvm::SmallVector<MoveRequest> applied, inverses, redoable;
  unsigned cursors = 0;
};

} // namespace perfdojo

#endif // PERFDOJO_MOVES_GAME_H
