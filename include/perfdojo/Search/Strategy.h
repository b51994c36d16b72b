//===- Strategy.h - search strategies and the context they run in -*- C++ -*-===//
//
// A strategy proposes move sequences and asks the context to evaluate them;
// the context owns the evaluator, the budget, the random generator and the
// record of every evaluation. New strategies (user heuristics, the RL agent)
// implement `Strategy` and register a factory; the driver never changes.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SEARCH_STRATEGY_H
#define PERFDOJO_SEARCH_STRATEGY_H

#include "perfdojo/Moves/Game.h"
#include "perfdojo/Search/Evaluator.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <random>
#include <vector>

namespace perfdojo {

struct SearchBudget {
  /// Evaluations that ran or came from the cache (pruned candidates do not
  /// count); 0: unlimited.
  unsigned evaluations = 0;
  double seconds = 0;       ///< 0: unlimited
};

struct SearchRecord {
  llvm::SmallVector<MoveRequest> moves;
  Evaluation evaluation;
  double elapsedSeconds = 0; ///< since the search started
};

/// A program of the final selection, timed again (SearchContext::selectFinal).
struct FinalTime {
  const SearchRecord *record = nullptr;
  /// The program's final time: the median of its rounds' medians.
  Evaluation evaluation;
  /// Each round's median, in round order (one entry without rounds).
  std::vector<double> roundSeconds;
};

/// Runs of one program per round of the final selection: its repetitions
/// are taken in rounds of at most this many, the programs taking turns, so
/// that a change of the machine's load, which lasts seconds, falls on
/// every program alike instead of on the one timed then.
constexpr unsigned kFinalRunsPerRound = 5;

/// The rounds of a final selection of `repetitions` runs per program.
inline unsigned getFinalRounds(unsigned repetitions) {
  return std::max(1u, (repetitions + kFinalRunsPerRound - 1) /
                          kFinalRunsPerRound);
}

class SearchContext {
public:
  using Observer = std::function<void(const SearchContext &)>;

  SearchContext(Evaluator &evaluator, dojo::KernelOp original,
                SearchBudget budget, uint64_t seed, MoveOptions moveOptions);

  /// Evaluates `moves` applied to the original kernel and records it.
  /// Returns nullopt without evaluating once the budget is spent. The
  /// original (no moves) is evaluated and recorded once: asking again
  /// returns its first result.
  std::optional<Evaluation> evaluate(llvm::ArrayRef<MoveRequest> moves);

  /// Evaluates the original kernel, the baseline every candidate is
  /// validated and timed against, before any strategy runs. An error says
  /// why it cannot be one (it fails to compile or run, crashes, times out,
  /// or does not match its reference): a search without a baseline
  /// compares nothing, so its caller stops and writes nothing.
  llvm::Error checkOriginal();

  /// Evaluates several candidates, up to the evaluator's job count at a
  /// time, and records them in order. Candidates past the budget are not
  /// evaluated (nullopt). Strategies that can propose independent
  /// candidates use this to keep every job busy.
  std::vector<std::optional<Evaluation>>
  evaluateBatch(llvm::ArrayRef<llvm::SmallVector<MoveRequest>> candidates);

  /// Candidates `evaluateBatch` runs at once (the `--jobs` option).
  unsigned getJobs() const;

  /// Whether the budget is spent (or a stop was requested).
  bool exhausted() const;
  /// Ends the search as if its budget were spent: the strategy stops at its
  /// next evaluation (an interrupt, a caller's own limit).
  void requestStop() { stopped = true; }
  std::mt19937_64 &getRandom() { return random; }
  dojo::KernelOp getOriginal() const { return original; }
  const MoveOptions &getMoveOptions() const { return moveOptions; }
  const std::vector<SearchRecord> &getRecords() const { return records; }
  /// Records that count against the evaluation budget (all but pruned
  /// candidates and illegal sequences).
  unsigned getSpentEvaluations() const { return spent; }
  /// Candidates bundled for a remote GPU and not timed yet (Pending). The
  /// first batch with one ends the search: what the strategy does next
  /// depends on their times, so a later run with the results goes on
  /// from there (docs/gpu.md, "Search on a remote GPU").
  unsigned getPendingEvaluations() const { return pending; }
  /// The fastest valid record so far, if any.
  const SearchRecord *getBest() const;
  /// The record of the original kernel (the naive baseline), once evaluated.
  const SearchRecord *getBaseline() const;
  double getElapsedSeconds() const;
  const SearchBudget &getBudget() const { return budget; }
  void setObserver(Observer observer) { this->observer = std::move(observer); }

  /// The final selection, after the strategy: the original and the
  /// `candidates` fastest distinct valid programs of the search are timed
  /// again with `repetitions` runs each, outside the budget, in rounds of
  /// kFinalRunsPerRound runs in which every program takes its turn (a
  /// failed round drops the program; a deterministic cycle count needs one
  /// round). A search ranks on a few repetitions taken over minutes of
  /// changing machine load; these times are comparable. Returns the
  /// original's entry first (when it is valid), then the others fastest
  /// first by their new times (failed re-runs last).
  std::vector<FinalTime> selectFinal(unsigned candidates,
                                     unsigned repetitions);

  /// Legal moves of `game`'s state that the search's target
  /// (`getMoveOptions().target`) can execute: its modes and locations.
  llvm::SmallVector<MoveRequest> getTargetMoves(Game &game) const;

private:
  /// Records `evaluation`'s effect on the budget and on pending results.
  void count(const Evaluation &evaluation);

  Evaluator &evaluator;
  dojo::KernelOp original;
  SearchBudget budget;
  std::mt19937_64 random;
  MoveOptions moveOptions;
  std::vector<SearchRecord> records;
  /// Records that count against `budget.evaluations`.
  unsigned spent = 0;
  unsigned pending = 0;
  bool stopped = false;
  std::chrono::steady_clock::time_point start;
  Observer observer;
};

class Strategy {
public:
  virtual ~Strategy() = default;
  virtual llvm::StringRef getName() const = 0;
  /// Whether the strategy searches until its budget is spent (and so needs
  /// one) rather than stopping by itself.
  virtual bool needsBudget() const { return false; }
  /// Runs until done or until `context.exhausted()`.
  virtual void run(SearchContext &context) = 0;
};

/// The strategy called `name`, or null.
std::unique_ptr<Strategy> createStrategy(llvm::StringRef name);
/// Adds a strategy that lives above Search (the learned agent, which needs
/// libtorch): createStrategy and getStrategyNames know it from then on. A
/// name registered again is replaced.
void registerStrategy(llvm::StringRef name,
                      std::function<std::unique_ptr<Strategy>()> create);
/// Names `createStrategy` accepts, for help texts.
llvm::ArrayRef<llvm::StringRef> getStrategyNames();

} // namespace perfdojo

#endif // PERFDOJO_SEARCH_STRATEGY_H
