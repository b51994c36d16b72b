//===- SearchContext.cpp - budget, records and evaluation for strategies --===//

#include "perfdojo/Search/Strategy.h"

using namespace perfdojo;

SearchContext::SearchContext(Evaluator &evaluator, dojo::KernelOp original,
                             SearchBudget budget, uint64_t seed,
                             MoveOptions moveOptions)
    : evaluator(evaluator), original(original), budget(budget), random(seed),
      moveOptions(moveOptions), start(std::chrono::steady_clock::now()) {}

double SearchContext::getElapsedSeconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start)
      .count();
}

bool SearchContext::exhausted() const {
  if (budget.evaluations && records.size() >= budget.evaluations)
    return true;
  return budget.seconds > 0 && getElapsedSeconds() >= budget.seconds;
}

std::optional<Evaluation>
SearchContext::evaluate(llvm::ArrayRef<MoveRequest> moves) {
  if (exhausted())
    return std::nullopt;
  SearchRecord record;
  record.moves.assign(moves.begin(), moves.end());
  record.evaluation = evaluator.evaluate(moves);
  record.elapsedSeconds = getElapsedSeconds();
  records.push_back(std::move(record));
  if (observer)
    observer(*this);
  return records.back().evaluation;
}

const SearchRecord *SearchContext::getBest() const {
  const SearchRecord *best = nullptr;
  for (const SearchRecord &r : records)
    if (r.evaluation.ok() &&
        (!best || r.evaluation.seconds < best->evaluation.seconds))
      best = &r;
  return best;
}

const SearchRecord *SearchContext::getBaseline() const {
  for (const SearchRecord &r : records)
    if (r.moves.empty() && r.evaluation.ok())
      return &r;
  return nullptr;
}

llvm::SmallVector<MoveRequest> SearchContext::getCpuMoves(Game &game) {
  llvm::SmallVector<MoveRequest> moves;
  for (MoveRequest &move : game.legalMoves()) {
    if (llvm::StringRef(move.name).starts_with("set_gpu_"))
      continue;
    // Locations the CPU has: heap, stack, reg (dojo::BufferLocation 0-2).
    if (move.name == "set_location" && !move.params.empty() &&
        move.params[0] > 2)
      continue;
    moves.push_back(std::move(move));
  }
  return moves;
}
