//===- KernelPlay.cpp - one kernel the agent plays and measures -----------===//

#include "perfdojo/Agent/KernelPlay.h"
#include "perfdojo/Runtime/WorkCounts.h"
#include "perfdojo/Search/ProgramFeatures.h"
#include "perfdojo/Search/RuleCandidates.h"

using namespace perfdojo;
using namespace perfdojo::agent;

KernelPlay::KernelPlay(dojo::KernelOp kernel, const MoveOptions &options,
                       CostModel &model, double originalSeconds,
                       double maxWorkRatio, ProgramEmbedding &embedding)
    : kernel(kernel), game(kernel, options), model(model),
      originalSeconds(originalSeconds), maxWorkRatio(maxWorkRatio),
      originalWork(countWork(kernel).leafEvaluations),
      costs([this](Game &g) -> ProgramCost {
        auto found = measured.find(g.print());
        if (found != measured.end())
          return found->second > 0
                     ? ProgramCost(this->originalSeconds / found->second)
                     : ProgramCost();
        if (exceedsWorkRatio(countWork(g.getKernel()).leafEvaluations,
                             originalWork, this->maxWorkRatio))
          return ProgramCost();
        const std::vector<float> &programFeatures =
            features.get(g.getKernel(), g.print());
        double estimate = this->model.predict(originalFeatures,
                                              torch::tensor(programFeatures));
        return ProgramCost(this->originalSeconds / estimate,
                           /*estimate=*/true);
      }),
      features(embedding) {
  originalFeatures = torch::tensor(features.get(kernel, game.print()));
  measured[game.print()] = 1;
}

llvm::Error KernelPlay::checkEliteStarts(double fromElite) {
  if (fromElite >= 0 && fromElite <= 1)
    return llvm::Error::success();
  return llvm::createStringError(
      "--elite-starts must be a probability (0 to 1), not " +
      std::to_string(fromElite));
}

llvm::Expected<EpisodeResult>
KernelPlay::play(MaxQAgent &agent, EpisodeOptions options, double fromElite) {
  llvm::ArrayRef<MoveRequest> start;
  std::mt19937_64 &random = agent.getRandom();
  // No draw when starts are off: play's random stream is then the one
  // episodes from the original have always had.
  if (fromElite > 0 && !elites.empty() &&
      std::uniform_real_distribution<double>(0, 1)(random) < fromElite)
    start = elites[std::uniform_int_distribution<size_t>(
                       0, elites.size() - 1)(random)]
                .moves;
  size_t depth = game.history().size();
  auto backToOriginal = [&] {
    while (game.history().size() > depth)
      game.undo();
  };
  for (const MoveRequest &move : start)
    if (llvm::Error error = game.apply(move)) {
      // Measured from these moves: they apply.
      backToOriginal();
      return std::move(error);
    }
  options.referenceSeconds = originalSeconds;
  llvm::Expected<EpisodeResult> played =
      playEpisode(agent, game, costs, options, &features);
  backToOriginal();
  if (!played || start.empty())
    return played;
  auto prepend = [&](llvm::SmallVector<MoveRequest> &moves) {
    moves.insert(moves.begin(), start.begin(), start.end());
  };
  prepend(played->moves);
  prepend(played->bestMoves);
  for (Visit &visit : played->visits)
    visit.moves += start.size();
  return played;
}

KernelPlay::Outcome KernelPlay::measureBest(const EpisodeResult &played,
                                            const Measure &measure,
                                            std::optional<double> *out) {
  const Visit *pick = nullptr;
  for (const Visit &visit : played.visits)
    if (visit.estimate && (!pick || visit.speedup > pick->speedup))
      pick = &visit;
  if (!pick)
    return Outcome::NothingNew;
  llvm::ArrayRef<MoveRequest> moves =
      llvm::ArrayRef(played.moves).take_front(pick->moves);
  std::optional<Evaluation> result = measure(moves);
  if (!result)
    return Outcome::BudgetSpent;
  if (llvm::Error error = record(moves, *result, out))
    // The episode played these moves from the original: they apply.
    llvm::consumeError(std::move(error));
  return Outcome::Measured;
}

llvm::Error KernelPlay::record(llvm::ArrayRef<MoveRequest> moves,
                               const Evaluation &result,
                               std::optional<double> *out) {
  size_t start = game.history().size();
  auto backToStart = [&] {
    while (game.history().size() > start)
      game.undo();
  };
  for (const MoveRequest &move : moves)
    if (llvm::Error error = game.apply(move)) {
      backToStart();
      return error;
    }
  std::optional<double> speedup;
  if (result.ok() && result.seconds > 0)
    speedup = originalSeconds / result.seconds;
  measured[game.print()] = speedup.value_or(0);
  if (speedup && *speedup > 1) {
    // Each program is measured once, so an elite is never listed twice.
    auto at = llvm::find_if(
        elites, [&](const Elite &elite) { return elite.speedup < *speedup; });
    elites.insert(at, Elite{*speedup, llvm::SmallVector<MoveRequest>(moves)});
    if (elites.size() > kElites)
      elites.pop_back();
  }
  if (out)
    *out = speedup;
  model.add(originalFeatures,
            torch::tensor(features.get(game.getKernel(), game.print())),
            speedup);
  backToStart();
  return llvm::Error::success();
}

llvm::Expected<size_t>
KernelPlay::startFromHeuristic(const MeasureBatch &measure) {
  std::vector<MoveSequence> candidates =
      proposeHeuristicCandidates(kernel, game.getOptions());
  std::vector<std::optional<Evaluation>> results = measure(candidates);
  for (auto [moves, result] : llvm::zip(candidates, results))
    // A refused sequence was not run: nothing measured.
    if (result && result->status != EvaluationStatus::IllegalMove)
      if (llvm::Error error = record(moves, *result))
        return llvm::createStringError(
            "a heuristic program does not replay (please report): " +
            llvm::toString(std::move(error)));
  return candidates.size();
}
