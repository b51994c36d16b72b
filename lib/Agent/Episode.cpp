//===- Episode.cpp - the agent playing the move game ----------------------===//

#include "perfdojo/Agent/Episode.h"
#include "perfdojo/Search/ProgramFeatures.h"

using namespace perfdojo;
using namespace perfdojo::agent;

ProgramCost ProgramCosts::get(Game &game) {
  std::string text = game.print();
  auto found = costs.find(text);
  if (found != costs.end()) {
    ++hits;
    return found->second;
  }
  ++evaluations;
  ProgramCost result = cost(game);
  if (result.seconds && !(*result.seconds > 0))
    result.seconds.reset();
  costs.try_emplace(text, result);
  return result;
}

void ProgramCosts::forgetEstimates() {
  llvm::SmallVector<llvm::StringRef> stale;
  for (const auto &entry : costs)
    if (entry.second.estimate)
      stale.push_back(entry.first());
  for (llvm::StringRef text : stale)
    costs.erase(text);
}

namespace {
/// A state as the agent sees it: its features and every action's result
/// (the legal moves, then STOP: the state itself).
struct Observation {
  torch::Tensor state, successors;
  llvm::SmallVector<MoveRequest> moves;
  /// Listed moves that failed to apply, with the reason (a move whose
  /// check passed where its rewrite broke the kernel: a bug to report).
  std::vector<std::string> refused;
};
} // namespace

static torch::Tensor toTensor(const std::vector<float> &row) {
  return torch::tensor(row);
}

static llvm::Expected<Observation> observe(Game &game,
                                           ProgramEmbeddingCache *cache) {
  Observation o;
  std::string text = game.print();
  o.state = toTensor(cache ? cache->get(game.getKernel(), text)
                           : computeProgramFeatures(game.getKernel(), text));
  o.moves = game.legalMoves();
  std::vector<torch::Tensor> successors;
  for (const std::vector<float> &row :
       computeAppliedSuccessorFeatures(game, o.moves, o.refused, cache))
    successors.push_back(toTensor(row));
  successors.push_back(o.state);
  o.successors = torch::stack(successors);
  return o;
}

llvm::Expected<EpisodeResult>
agent::playEpisode(MaxQAgent &agent, Game &game, ProgramCosts &costs,
                   const EpisodeOptions &options,
                   ProgramEmbeddingCache *features) {
  size_t start = game.history().size();
  std::optional<double> startSeconds = costs.getSeconds(game);
  if (!startSeconds)
    return llvm::createStringError(
        "the program play starts from does not run: there is no speedup to "
        "reward");
  double original = options.referenceSeconds.value_or(*startSeconds);
  EpisodeResult result;
  result.bestSpeedup = result.finalSpeedup = original / *startSeconds;
  double lossSum = 0;
  unsigned losses = 0;
  llvm::Expected<Observation> first = observe(game, features);
  if (!first)
    return first.takeError();
  Observation now = std::move(*first);
  llvm::append_range(result.refused, now.refused);
  while (true) {
    int64_t action = agent.choose(now.state, now.successors, options.epsilon);
    bool stop = action == int64_t(now.moves.size());
    if (!stop) {
      if (llvm::Error error = game.apply(now.moves[action]))
        return std::move(error);
      ++result.steps;
    }
    ProgramCost cost = costs.get(game);
    std::optional<double> seconds = cost.seconds;
    double reward = seconds ? original / *seconds : 0;
    if (!stop)
      result.visits.push_back(
          Visit{game.history().size() - start, reward, cost.estimate});
    if (reward > result.bestSpeedup) {
      result.bestSpeedup = reward;
      result.bestMoves.assign(game.history().begin() + start,
                              game.history().end());
    }
    bool terminal = stop || (options.endOnFailure && !seconds);
    std::optional<Observation> next;
    if (!terminal) {
      llvm::Expected<Observation> observed = observe(game, features);
      if (!observed)
        return observed.takeError();
      next = std::move(*observed);
      llvm::append_range(result.refused, next->refused);
    }
    if (options.learn) {
      Transition t;
      t.state = now.state;
      t.successors = now.successors;
      t.action = action;
      t.reward = reward;
      t.terminal = terminal;
      t.nextState = next ? next->state : now.state;
      if (next)
        t.nextSuccessors = next->successors;
      agent.remember(std::move(t));
      if (std::optional<double> loss = agent.learn()) {
        lossSum += *loss;
        ++losses;
      }
    }
    result.finalSpeedup = reward;
    if (terminal || result.steps >= options.maxSteps)
      break;
    now = std::move(*next);
  }
  result.moves.assign(game.history().begin() + start, game.history().end());
  while (game.history().size() > start)
    game.undo();
  if (losses)
    result.meanLoss = lossSum / losses;
  return result;
}
