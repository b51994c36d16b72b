//===- KernelPlay.cpp - one kernel the agent plays and measures -----------===//

#include "perfdojo/Agent/KernelPlay.h"
#include "perfdojo/Runtime/WorkCounts.h"
#include "perfdojo/Search/ProgramFeatures.h"

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
  size_t start = game.history().size();
  for (const MoveRequest &move : moves)
    if (llvm::Error error = game.apply(move)) {
      // The episode played these moves from this state: they apply.
      llvm::consumeError(std::move(error));
      break;
    }
  std::optional<double> speedup;
  if (result->ok() && result->seconds > 0)
    speedup = originalSeconds / result->seconds;
  measured[game.print()] = speedup.value_or(0);
  if (out)
    *out = speedup;
  // Reached in play: its features are cached.
  model.add(originalFeatures,
            torch::tensor(features.get(game.getKernel(), game.print())),
            speedup);
  while (game.history().size() > start)
    game.undo();
  return Outcome::Measured;
}
