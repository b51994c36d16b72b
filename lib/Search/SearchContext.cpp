//===- SearchContext.cpp - budget, records and evaluation for strategies --===//

#include "perfdojo/Search/Strategy.h"
#include "perfdojo/Support/Statistics.h"

#include "llvm/ADT/StringSet.h"

using namespace perfdojo;

SearchContext::SearchContext(Evaluator &evaluator, dojo::KernelOp original,
                             SearchBudget budget, uint64_t seed,
                             MoveOptions moveOptions)
    : evaluator(evaluator), original(original), budget(budget), random(seed),
      moveOptions(moveOptions), start(std::chrono::steady_clock::now()) {}

/// Pruned candidates and illegal sequences cost no worker run: they are
/// recorded but do not use up an evaluation budget.
static bool countsAgainstBudget(const Evaluation &evaluation) {
  return evaluation.status != EvaluationStatus::Pruned &&
         evaluation.status != EvaluationStatus::IllegalMove;
}

void SearchContext::count(const Evaluation &evaluation) {
  spent += countsAgainstBudget(evaluation);
  if (evaluation.status == EvaluationStatus::Pending) {
    ++pending;
    stopped = true;
  }
}

double SearchContext::getElapsedSeconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start)
      .count();
}

bool SearchContext::exhausted() const {
  if (stopped)
    return true;
  if (budget.evaluations && spent >= budget.evaluations)
    return true;
  return budget.seconds > 0 && getElapsedSeconds() >= budget.seconds;
}

std::optional<Evaluation>
SearchContext::evaluate(llvm::ArrayRef<MoveRequest> moves) {
  if (moves.empty())
    for (const SearchRecord &r : records)
      if (r.moves.empty())
        return r.evaluation;
  if (exhausted())
    return std::nullopt;
  SearchRecord record;
  record.moves.assign(moves.begin(), moves.end());
  record.evaluation = evaluator.evaluate(moves);
  count(record.evaluation);
  record.elapsedSeconds = getElapsedSeconds();
  records.push_back(std::move(record));
  if (observer)
    observer(*this);
  return records.back().evaluation;
}

std::vector<std::optional<Evaluation>> SearchContext::evaluateBatch(
    llvm::ArrayRef<llvm::SmallVector<MoveRequest>> candidates) {
  std::vector<std::optional<Evaluation>> results(candidates.size());
  size_t allowed = candidates.size();
  if (exhausted())
    allowed = 0;
  else if (budget.evaluations)
    allowed = std::min<size_t>(allowed, budget.evaluations - spent);
  std::vector<Evaluation> evaluations =
      evaluator.evaluateBatch(candidates.take_front(allowed));
  double elapsed = getElapsedSeconds();
  for (size_t i = 0; i < allowed; ++i) {
    SearchRecord record;
    record.moves = candidates[i];
    record.evaluation = evaluations[i];
    count(record.evaluation);
    record.elapsedSeconds = elapsed;
    records.push_back(std::move(record));
    results[i] = records.back().evaluation;
    if (observer)
      observer(*this);
  }
  return results;
}

llvm::Error SearchContext::checkOriginal() {
  std::optional<Evaluation> original = evaluate({});
  if (!original || original->ok() ||
      original->status == EvaluationStatus::Pending)
    return llvm::Error::success();
  llvm::StringRef why;
  switch (original->status) {
  case EvaluationStatus::Failed:
    why = "fails to compile or run";
    break;
  case EvaluationStatus::Crashed:
    why = "crashed";
    break;
  case EvaluationStatus::Timeout:
    why = "timed out";
    break;
  case EvaluationStatus::Mismatch:
    why = "does not match its reference";
    break;
  default:
    why = "cannot be evaluated";
    break;
  }
  std::string message = llvm::StringRef(original->message).trim().str();
  return llvm::createStringError(
      "the original kernel " + why + (message.empty() ? "" : ":\n" + message) +
      "\nno search without a valid original; nothing was written");
}

unsigned SearchContext::getJobs() const { return evaluator.getJobs(); }

const SearchRecord *SearchContext::getBest() const {
  const SearchRecord *best = nullptr;
  for (const SearchRecord &r : records)
    if (r.evaluation.ok() &&
        (!best || r.evaluation.seconds < best->evaluation.seconds))
      best = &r;
  return best;
}

std::vector<FinalTime> SearchContext::selectFinal(unsigned candidates,
                                                  unsigned repetitions) {
  // Valid records of changed programs, fastest first; a program reached
  // twice is timed once (`programs` holds the keys taken).
  std::vector<const SearchRecord *> fastest;
  llvm::StringSet<> programs;
  for (const SearchRecord &r : records)
    if (r.evaluation.ok() && !r.moves.empty())
      fastest.push_back(&r);
  llvm::stable_sort(fastest, [](const SearchRecord *a, const SearchRecord *b) {
    return a->evaluation.seconds < b->evaluation.seconds;
  });
  std::vector<FinalTime> result;
  if (const SearchRecord *base = getBaseline()) {
    programs.insert(base->evaluation.key);
    result.push_back({base, {}, {}});
  }
  size_t originals = result.size();
  for (const SearchRecord *r : fastest) {
    if (result.size() - originals >= candidates)
      break;
    if (programs.insert(r->evaluation.key).second)
      result.push_back({r, {}, {}});
  }
  unsigned rounds = getFinalRounds(repetitions);
  for (unsigned round = 0; round < rounds; ++round) {
    // The runs spread evenly over the rounds, the first ones taking the
    // remainder.
    unsigned runs = repetitions / rounds + (round < repetitions % rounds);
    for (FinalTime &f : result) {
      if (round > 0 && (!f.evaluation.ok() || f.evaluation.cycles))
        continue;
      Evaluation e = evaluator.retime(f.record->moves, runs);
      if (e.ok())
        f.roundSeconds.push_back(e.seconds);
      if (round == 0 || !e.ok())
        f.evaluation = std::move(e);
    }
  }
  for (FinalTime &f : result)
    if (f.evaluation.ok())
      f.evaluation.seconds = getMedianAndMin(f.roundSeconds).median;
  std::stable_sort(result.begin() + originals, result.end(),
                   [](const FinalTime &a, const FinalTime &b) {
                     if (a.evaluation.ok() != b.evaluation.ok())
                       return a.evaluation.ok();
                     return a.evaluation.seconds < b.evaluation.seconds;
                   });
  return result;
}

const SearchRecord *SearchContext::getBaseline() const {
  for (const SearchRecord &r : records)
    if (r.moves.empty() && r.evaluation.ok())
      return &r;
  return nullptr;
}

llvm::SmallVector<MoveRequest> SearchContext::getTargetMoves(Game &game) const {
  llvm::SmallVector<MoveRequest> moves;
  const TargetDescription &target = moveOptions.target;
  for (MoveRequest &move : game.legalMoves()) {
    std::optional<MoveKind> kind = move.getKind();
    // Moves that set a mode the target lacks (the GPU mappings on a CPU).
    if (kind && !getMove(*kind).isAvailableOn(target))
      continue;
    // Locations the target has.
    if (kind == MoveKind::SetLocation && !move.params.empty()) {
      std::optional<dojo::BufferLocation> location =
          move.params[0] < 0 ? std::nullopt
                             : dojo::symbolizeBufferLocation(
                                   static_cast<uint32_t>(move.params[0]));
      if (!location || !target.hasLocation(*location))
        continue;
    }
    moves.push_back(std::move(move));
  }
  return moves;
}
