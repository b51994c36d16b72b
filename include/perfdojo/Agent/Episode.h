//===- Episode.h - the agent playing the move game --------------*- C++ -*-===//
//
// One episode: from the original kernel, the agent picks among the legal
// moves and STOP, step after step; the reward after each step is the
// speedup of the program over the original (the paper's c / runtime with c
// the original's time), read from ProgramCosts, which evaluates each
// program once. Training remembers every step and learns as it plays;
// evaluation plays greedily. The best program visited is the episode's
// result.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_AGENT_EPISODE_H
#define PERFDOJO_AGENT_EPISODE_H

#include "perfdojo/Agent/MaxQAgent.h"
#include "perfdojo/Moves/Game.h"
#include "perfdojo/Search/ProgramFeatures.h"

#include "llvm/ADT/StringMap.h"

#include <functional>

namespace perfdojo::agent {

/// The seconds of a program: measured (or synthetic), or estimated by a
/// model that may change; nullopt when it does not run (fails, is pruned,
/// times out).
struct ProgramCost {
  ProgramCost(std::optional<double> seconds = std::nullopt,
              bool estimate = false)
      : seconds(seconds), estimate(estimate) {}
  std::optional<double> seconds;
  bool estimate;
};

/// The cost of programs, each asked for once (by canonical text).
class ProgramCosts {
public:
  using CostFunction = std::function<ProgramCost(Game &game)>;
  explicit ProgramCosts(CostFunction cost) : cost(std::move(cost)) {}

  /// The cost of `game`'s current program.
  ProgramCost get(Game &game);
  std::optional<double> getSeconds(Game &game) { return get(game).seconds; }
  /// Drops the estimates, for a model that has learned since.
  void forgetEstimates();
  /// Programs asked for, and lookups the cache answered.
  unsigned getEvaluations() const { return evaluations; }
  unsigned getHits() const { return hits; }

private:
  CostFunction cost;
  llvm::StringMap<ProgramCost> costs;
  unsigned evaluations = 0, hits = 0;
};

struct EpisodeOptions {
  unsigned maxSteps = 30;
  /// Probability of a uniformly random action.
  double epsilon = 0.1;
  /// Remember every step and take a gradient step after it.
  bool learn = true;
  /// A program that does not run ends the episode (reward 0).
  bool endOnFailure = true;
  /// The seconds every reward is a speedup against; unset: the seconds of
  /// the program play starts from. An episode that starts from a program
  /// other than the original passes the original's, so rewards keep one
  /// scale whatever the start.
  std::optional<double> referenceSeconds;
};

/// A program an episode reached: after its first `moves` moves.
struct Visit {
  size_t moves = 0;
  double speedup = 0;
  /// The speedup is a model's estimate, not a measurement.
  bool estimate = false;
};

struct EpisodeResult {
  unsigned steps = 0;
  /// Every program reached after a move, in order, and the moves played
  /// (the prefixes of `moves` lead to the visits).
  std::vector<Visit> visits;
  llvm::SmallVector<MoveRequest> moves;
  /// The fastest program visited (the start itself: no moves).
  double bestSpeedup = 1;
  llvm::SmallVector<MoveRequest> bestMoves;
  /// The speedup where the episode ended (0 for a program that fails).
  double finalSpeedup = 1;
  /// The mean loss of the gradient steps taken, when any.
  std::optional<double> meanLoss;
  /// Listed moves that failed to apply, with the reason: a move whose
  /// check passed where its rewrite broke the kernel (the post-apply
  /// verifier refused it, so no program changed). Play went on without
  /// them; each is a bug of that move's check to report.
  std::vector<std::string> refused;
};

/// Plays one episode from `game`'s current state: the original kernel,
/// whose time is then the reward's reference, or any program reached from
/// it with the original's time as `options.referenceSeconds`. The game is
/// back in that state afterwards. Fails when the start does not run.
/// `features`, when given, caches the programs' features across episodes.
llvm::Expected<EpisodeResult>
playEpisode(MaxQAgent &agent, Game &game, ProgramCosts &costs,
            const EpisodeOptions &options,
            ProgramEmbeddingCache *features = nullptr);

} // namespace perfdojo::agent

#endif // PERFDOJO_AGENT_EPISODE_H
