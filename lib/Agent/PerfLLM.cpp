//===- PerfLLM.cpp - the learned search strategy --------------------------===//

#include "perfdojo/Agent/PerfLLM.h"
#include "perfdojo/Agent/KernelPlay.h"
#include "perfdojo/Agent/LanguageModelEmbedding.h"
#include "perfdojo/TorchReference/LibtorchThreads.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace perfdojo;
using namespace perfdojo::agent;

namespace {
/// What a search plays with: the embedding and the agent.
struct Player {
  std::unique_ptr<ProgramEmbedding> embedding;
  std::unique_ptr<MaxQAgent> agent;
};
} // namespace

/// The agent of a search that learns online: sized for one kernel.
static AgentOptions getOnlineOptions(const ProgramEmbedding &embedding,
                                     uint64_t seed) {
  AgentOptions options;
  options.setEmbedding(embedding);
  options.hidden = 128;
  options.gamma = 0.97;
  options.targetSync = 100;
  options.seed = seed;
  return options;
}

/// The embedding `options` name (or the model's own) and the agent: the
/// model's, or a new one to learn online seeded with `seed`.
static llvm::Expected<Player> createPlayer(const PerfLLMOptions &options,
                                           uint64_t seed) {
  std::string name = options.embedding;
  if (name.empty() && !options.model.empty()) {
    llvm::Expected<AgentOptions> saved = MaxQAgent::readOptions(options.model);
    if (!saved)
      return saved.takeError();
    name = saved->embedding;
  }
  llvm::Expected<std::unique_ptr<ProgramEmbedding>> embedding =
      createProgramEmbedding(name.empty() ? "features" : name,
                             options.embeddingModel);
  if (!embedding)
    return embedding.takeError();
  Player player{std::move(*embedding), nullptr};
  if (options.model.empty()) {
    player.agent = std::make_unique<MaxQAgent>(
        getOnlineOptions(*player.embedding, seed));
    return player;
  }
  llvm::Expected<std::unique_ptr<MaxQAgent>> loaded =
      MaxQAgent::load(options.model, player.embedding.get());
  if (!loaded)
    return loaded.takeError();
  player.agent = std::move(*loaded);
  player.agent->getRandom().seed(seed);
  return player;
}

llvm::Error agent::checkOptions(const PerfLLMOptions &options) {
  if (llvm::Error error = KernelPlay::checkEliteStarts(options.fromElite))
    return error;
  llvm::Expected<Player> player = createPlayer(options, 0);
  return player ? llvm::Error::success() : player.takeError();
}

namespace {
class PerfLLMStrategy : public Strategy {
public:
  explicit PerfLLMStrategy(PerfLLMOptions options)
      : options(std::move(options)) {}
  llvm::StringRef getName() const override { return "perfllm"; }
  bool needsBudget() const override { return true; }
  void run(SearchContext &search) override;

private:
  PerfLLMOptions options;
};
} // namespace

void PerfLLMStrategy::run(SearchContext &search) {
  // One thread: the networks are small, and results then depend on the
  // seed alone.
  setLibtorchThreads(1);
  std::optional<Evaluation> original = search.evaluate({});
  if (!original || !original->ok())
    return;
  uint64_t seed = search.getRandom()();
  // Learning from scratch explores widely at first; a trained model
  // explores a little (it learns from this kernel's rewards either way).
  bool fromScratch = options.model.empty();
  llvm::Expected<Player> player = createPlayer(options, seed);
  if (!player) {
    // Drivers check the options first (checkOptions); say so if the model
    // changed since.
    llvm::errs() << "perfllm: " << llvm::toString(player.takeError()) << "\n";
    return;
  }
  MaxQAgent *agent = player->agent.get();
  CostModel model(player->embedding->getSize(), 128, seed);
  // A trained model's cost model knows its training kernels' programs: a
  // prior for this one, whose own measurements weigh as much.
  std::string costPath = options.model + ".cost";
  if (!fromScratch && llvm::sys::fs::exists(costPath)) {
    if (llvm::Error error = model.load(costPath)) {
      llvm::errs() << "perfllm: " << llvm::toString(std::move(error)) << "\n";
      return;
    }
    model.markPrior();
  }
  KernelPlay play(search.getOriginal(), search.getMoveOptions(), model,
                  original->seconds, options.maxWorkRatio,
                  *player->embedding);
  if (options.fromHeuristic) {
    // Started as annealing is: the heuristic pass's candidates are the
    // search's first records after the original.
    llvm::Expected<size_t> proposed = play.startFromHeuristic(
        [&](llvm::ArrayRef<llvm::SmallVector<MoveRequest>> candidates) {
          return search.evaluateBatch(candidates);
        });
    if (!proposed) {
      llvm::errs() << "perfllm: " << llvm::toString(proposed.takeError())
                   << "\n";
      return;
    }
    model.fit(options.costModelSteps);
  }
  KernelPlay::Measure measure = [&](llvm::ArrayRef<MoveRequest> moves) {
    return search.evaluate(moves);
  };
  EpisodeOptions episode;
  episode.maxSteps = options.maxSteps;
  // Episodes that found no program to measure, in a row: a bound for
  // budgets that count only evaluations.
  unsigned idle = 0, episodes = 0;
  while (!search.exhausted() && idle < 100) {
    episode.epsilon =
        fromScratch ? std::max(0.05, 1.0 - episodes / 40.0) : options.epsilon;
    ++episodes;
    llvm::Expected<EpisodeResult> played =
        play.play(*agent, episode, options.fromElite);
    if (!played) {
      llvm::errs() << "perfllm: " << llvm::toString(played.takeError())
                   << "\n";
      return;
    }
    for (const std::string &refused : played->refused)
      llvm::errs() << "perfllm: warning: a listed move failed to apply "
                      "(please report): "
                   << refused << "\n";
    // The visited program the model rates best is measured.
    KernelPlay::Outcome outcome = play.measureBest(*played, measure);
    if (outcome == KernelPlay::Outcome::BudgetSpent)
      return;
    if (outcome == KernelPlay::Outcome::NothingNew) {
      ++idle;
      continue;
    }
    idle = 0;
    model.fit(options.costModelSteps);
    play.getCosts().forgetEstimates();
  }
}

std::unique_ptr<Strategy>
agent::createPerfLLMStrategy(const PerfLLMOptions &options) {
  return std::make_unique<PerfLLMStrategy>(options);
}

void agent::registerPerfLLMStrategy(const PerfLLMOptions &options) {
  registerStrategy("perfllm",
                   [options] { return createPerfLLMStrategy(options); });
}
