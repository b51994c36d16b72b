//===- KernelPlay.h - one kernel the agent plays and measures ---*- C++ -*-===//
//
// What the learned strategy and perfdojo-train both do per kernel: the
// game on it, the programs measured for real (their speedups), and the
// rewards of play: measured where a program was measured, else the cost
// model's estimate. After an episode, the visited program the model rates
// best is measured, and that result is what the cost model learns from.
//
// Episodes start from the original or from one of the fastest programs
// measured so far (the elites): one episode is a few dozen moves, the
// programs worth finding are often a hundred away, and a start from an
// elite carries what earlier episodes found into the next. Rewards stay
// speedups over the original whatever the start.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_AGENT_KERNELPLAY_H
#define PERFDOJO_AGENT_KERNELPLAY_H

#include "perfdojo/Agent/CostModel.h"
#include "perfdojo/Agent/Episode.h"
#include "perfdojo/Search/Evaluator.h"

namespace perfdojo::agent {

class KernelPlay {
public:
  /// Plays `kernel` for `options`'s target; `originalSeconds` is the
  /// original's measured time. `model` estimates the unmeasured programs;
  /// those the evaluator would prune for their work (`maxWorkRatio`,
  /// exceedsWorkRatio) do not run, without an estimate or a measurement.
  /// The agent and the model see programs through `embedding`.
  KernelPlay(dojo::KernelOp kernel, const MoveOptions &options,
             CostModel &model, double originalSeconds,
             double maxWorkRatio = EvaluatorOptions().maxWorkRatio,
             ProgramEmbedding &embedding = getProgramFeatureEmbedding());

  Game &getGame() { return game; }
  ProgramCosts &getCosts() { return costs; }
  /// The embeddings of the programs played so far.
  ProgramEmbeddingCache &getFeatures() { return features; }
  dojo::KernelOp getKernel() { return kernel; }
  /// Programs measured (the original included).
  size_t getMeasured() const { return measured.size(); }

  /// Runs a real evaluation of `moves` from the original; nullopt when
  /// the budget is spent.
  using Measure =
      std::function<std::optional<Evaluation>(llvm::ArrayRef<MoveRequest>)>;

  /// Plays one episode with `agent` (Episode.h, playEpisode): from the
  /// original, or with probability `fromElite` from one of the kElites
  /// fastest programs measured so far, chosen uniformly with the agent's
  /// random stream. The result's moves, visits and best moves count from
  /// the original, the start's moves first.
  llvm::Expected<EpisodeResult> play(MaxQAgent &agent,
                                     EpisodeOptions options,
                                     double fromElite);

  /// The fastest programs measured so far that beat the original, fastest
  /// first: their speedups and moves from the original.
  struct Elite {
    double speedup;
    llvm::SmallVector<MoveRequest> moves;
  };
  static constexpr size_t kElites = 4;
  /// Why `fromElite` cannot be play's probability of an elite start.
  static llvm::Error checkEliteStarts(double fromElite);
  llvm::ArrayRef<Elite> getElites() const { return elites; }

  enum class Outcome { Measured, NothingNew, BudgetSpent };
  /// Measures the program of `played` that the model rates best among
  /// those not yet measured, and records it in the model (not refit: the
  /// caller fits, then forgets the estimates of every kernel it plays).
  /// `speedup`, when given, receives the measured speedup (nullopt for a
  /// program that does not run).
  Outcome measureBest(const EpisodeResult &played, const Measure &measure,
                      std::optional<double> *speedup = nullptr);

  /// Records `result`, a real evaluation of `moves` from the original
  /// made outside play (another strategy's candidates, as the heuristic
  /// pass's are in startFromHeuristic), as measureBest records its own: the
  /// measured speedup, the elites, the cost model (not refit). Fails,
  /// recording nothing, where `moves` do not apply.
  llvm::Error record(llvm::ArrayRef<MoveRequest> moves,
                     const Evaluation &result,
                     std::optional<double> *speedup = nullptr);

  /// Runs real evaluations of several move sequences from the original, in
  /// order (a search runs them --jobs at a time); nullopt for those past
  /// the budget.
  using MeasureBatch = std::function<std::vector<std::optional<Evaluation>>(
      llvm::ArrayRef<llvm::SmallVector<MoveRequest>>)>;

  /// Where play starts from the heuristic pass (AgentStart::Heuristic):
  /// measures its candidates for this kernel (proposeHeuristicCandidates)
  /// with `measure` and records each measured one: the first elites and the
  /// cost model's first data (not refit). Returns how many it proposed;
  /// fails where one does not replay (a bug of ours).
  llvm::Expected<size_t> startFromHeuristic(const MeasureBatch &measure);

private:
  dojo::KernelOp kernel;
  Game game;
  CostModel &model;
  double originalSeconds, maxWorkRatio;
  int64_t originalWork;
  torch::Tensor originalFeatures;
  /// Measured speedups by program text (0: it does not run).
  llvm::StringMap<double> measured;
  std::vector<Elite> elites;
  ProgramCosts costs;
  ProgramEmbeddingCache features;
};

} // namespace perfdojo::agent

#endif // PERFDOJO_AGENT_KERNELPLAY_H
