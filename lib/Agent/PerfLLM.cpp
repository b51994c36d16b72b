//===- PerfLLM.cpp - the learned search strategy --------------------------===//

#include "perfdojo/Agent/PerfLLM.h"
#include "perfdojo/Agent/KernelPlay.h"
#include "perfdojo/Search/ProgramFeatures.h"

#include "llvm/Support/raw_ostream.h"

using namespace perfdojo;
using namespace perfdojo::agent;

llvm::Error agent::checkModel(llvm::StringRef path) {
  llvm::Expected<std::unique_ptr<MaxQAgent>> loaded =
      MaxQAgent::load(path, getProgramFeatureSize());
  if (!loaded)
    return loaded.takeError();
  return llvm::Error::success();
}

/// The agent of a search that learns online: sized for one kernel.
static AgentOptions getOnlineOptions(uint64_t seed) {
  AgentOptions options;
  options.features = getProgramFeatureSize();
  options.hidden = 128;
  options.gamma = 0.97;
  options.targetSync = 100;
  options.seed = seed;
  return options;
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
  torch::set_num_threads(1);
  std::optional<Evaluation> original = search.evaluate({});
  if (!original || !original->ok())
    return;
  uint64_t seed = search.getRandom()();
  std::unique_ptr<MaxQAgent> agent;
  bool learn = options.model.empty();
  if (learn) {
    agent = std::make_unique<MaxQAgent>(getOnlineOptions(seed));
  } else {
    llvm::Expected<std::unique_ptr<MaxQAgent>> loaded =
        MaxQAgent::load(options.model, getProgramFeatureSize());
    if (!loaded) {
      // Drivers check the model first (checkModel); say so if it changed.
      llvm::errs() << "perfllm: " << llvm::toString(loaded.takeError())
                   << "\n";
      return;
    }
    agent = std::move(*loaded);
    agent->getRandom().seed(seed);
  }

  CostModel model(getProgramFeatureSize(), 128, seed);
  KernelPlay play(search.getOriginal(), search.getMoveOptions(), model,
                  original->seconds, options.maxWorkRatio);
  KernelPlay::Measure measure = [&](llvm::ArrayRef<MoveRequest> moves) {
    return search.evaluate(moves);
  };
  EpisodeOptions episode;
  episode.maxSteps = options.maxSteps;
  episode.learn = learn;
  // Episodes that found no program to measure, in a row: a bound for
  // budgets that count only evaluations.
  unsigned idle = 0, episodes = 0;
  while (!search.exhausted() && idle < 100) {
    episode.epsilon =
        learn ? std::max(0.05, 1.0 - episodes / 40.0) : options.epsilon;
    ++episodes;
    llvm::Expected<EpisodeResult> played =
        playEpisode(*agent, play.getGame(), play.getCosts(), episode,
                    &play.getFeatures());
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
