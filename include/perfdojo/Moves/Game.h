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

  /// Every legal move in the current state.
  llvm::SmallVector<MoveRequest> legalMoves();

  /// Checks and applies `move`. On failure the state is unchanged and the
  /// reason is returned (the diagnostics are not printed).
  llvm::Error apply(const MoveRequest &move);
  /// Parses and applies one move (`split_scope y@0 16`).
  llvm::Error apply(llvm::StringRef move);

  /// Undoes the last applied move; false if there is none.
  bool undo();

  /// The moves applied so far, in order.
  llvm::ArrayRef<MoveRequest> history() const { return applied; }

  /// The current kernel as canonical `.dojo` text.
  std::string print();

private:
  mlir::OwningOpRef<dojo::KernelOp> kernel;
  MoveState state;
  llvm::SmallVector<MoveRequest> applied, inverses;
};

} // namespace perfdojo

#endif // PERFDOJO_MOVES_GAME_H
