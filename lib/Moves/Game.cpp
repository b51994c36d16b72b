//===- Game.cpp - the optimization game: state, legal moves, undo --------===//

#include "perfdojo/Moves/Game.h"
#include "perfdojo/Moves/Selector.h"
#include "perfdojo/Target/DojoText/DojoText.h"

using namespace mlir;
using namespace perfdojo;

Game::Game(dojo::KernelOp original, MoveOptions options)
    : kernel(original.clone()), state(*kernel, options) {}

SmallVector<MoveRequest> Game::legalMoves() {
  return enumerateLegalMoves(state);
}

/// The error of a failed check or apply: `why`'s message (silenced), or
/// a generic one where it holds none.
static llvm::Error toError(DiagnosedSilenceableFailure &why,
                           const MoveRequest &move) {
  if (!why.isSilenceableFailure())
    return llvm::createStringError("'" + move.str() + "' failed");
  std::string message = StringRef(why.getMessage()).rtrim().str();
  (void)why.silence();
  return llvm::createStringError(message);
}

llvm::Error Game::check(const MoveRequest &move) {
  DiagnosedSilenceableFailure why =
      checkMove(state, move, getKernel().getLoc());
  if (why.succeeded())
    return llvm::Error::success();
  return toError(why, move);
}

llvm::Error Game::check(StringRef move) {
  llvm::Expected<MoveRequest> request = parseMoveRequest(move);
  if (!request)
    return request.takeError();
  return check(*request);
}

llvm::Error Game::apply(const MoveRequest &move) {
  DiagnosedSilenceableFailure why = DiagnosedSilenceableFailure::success();
  FailureOr<MoveRequest> inverse =
      applyMove(state, move, getKernel().getLoc(), &why);
  if (failed(inverse))
    return toError(why, move);
  applied.push_back(move);
  inverses.push_back(std::move(*inverse));
  redoable.clear();
  return llvm::Error::success();
}

llvm::Error Game::apply(StringRef move) {
  llvm::Expected<MoveRequest> request = parseMoveRequest(move);
  if (!request)
    return request.takeError();
  return apply(*request);
}

bool Game::undo() {
  if (inverses.empty())
    return false;
  DiagnosedSilenceableFailure why = DiagnosedSilenceableFailure::success();
  // The inverse of a move is legal right after it by construction.
  if (failed(applyMove(state, inverses.back(), getKernel().getLoc(), &why))) {
    if (!why.succeeded())
      (void)why.silence();
    return false;
  }
  inverses.pop_back();
  redoable.push_back(applied.pop_back_val());
  return true;
}

bool Game::redo() {
  if (redoable.empty())
    return false;
  SmallVector<MoveRequest> later = std::move(redoable);
  MoveRequest move = later.pop_back_val();
  // Legal again: the state is the one it was applied in before.
  if (llvm::Error error = apply(move)) {
    llvm::consumeError(std::move(error));
    redoable = std::move(later);
    redoable.push_back(std::move(move));
    return false;
  }
  redoable = std::move(later);
  return true;
}

std::unique_ptr<Game> Game::fork() {
  auto copy = std::make_unique<Game>(getKernel(), getOptions());
  copy->applied = applied;
  copy->inverses = inverses;
  copy->redoable = redoable;
  copy->cursors = cursors;
  return copy;
}

/// The discardable attribute that marks the node a cursor follows: moves
/// keep it on a node they move or re-index, drop it with a node they
/// remove, and copy it with a node they clone. The printers ignore it.
static std::string getCursorAttrName(Game::Cursor cursor) {
  return "dojo.cursor" + std::to_string(cursor);
}

llvm::Expected<Game::Cursor> Game::track(StringRef selector) {
  llvm::Expected<Operation *> node = resolveNode(getKernel(), selector);
  if (!node)
    return node.takeError();
  Cursor cursor = cursors++;
  (*node)->setAttr(getCursorAttrName(cursor),
                   UnitAttr::get(getKernel().getContext()));
  return cursor;
}

std::optional<std::string> Game::getSelector(Cursor cursor) {
  std::string name = getCursorAttrName(cursor);
  Operation *found = nullptr;
  unsigned count = 0;
  getKernel().walk([&](Operation *op) {
    if (op->hasAttr(name)) {
      found = op;
      ++count;
    }
  });
  if (count != 1)
    return std::nullopt;
  return getNodeSelector(found);
}

std::string Game::print() {
  std::string text;
  llvm::raw_string_ostream os(text);
  exportDojo(getKernel(), os);
  return text;
}
