//===- Game.cpp - the optimization game: state, legal moves, undo --------===//

#include "perfdojo/Moves/Game.h"
#include "perfdojo/Target/DojoText/DojoText.h"

using namespace mlir;
using namespace perfdojo;

Game::Game(dojo::KernelOp original, MoveOptions options)
    : kernel(original.clone()), state(*kernel, options) {}

SmallVector<MoveRequest> Game::legalMoves() {
  return enumerateLegalMoves(state);
}

llvm::Error Game::apply(const MoveRequest &move) {
  DiagnosedSilenceableFailure why = DiagnosedSilenceableFailure::success();
  FailureOr<MoveRequest> inverse =
      applyMove(state, move, getKernel().getLoc(), &why);
  if (failed(inverse)) {
    std::string message = why.succeeded() ? "'" + move.str() + "' failed"
                                          : why.getMessage();
    if (!why.succeeded())
      (void)why.silence();
    return llvm::createStringError(message);
  }
  applied.push_back(move);
  inverses.push_back(std::move(*inverse));
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
  applied.pop_back();
  return true;
}

std::string Game::print() {
  std::string text;
  llvm::raw_string_ostream os(text);
  exportDojo(getKernel(), os);
  return text;
}
