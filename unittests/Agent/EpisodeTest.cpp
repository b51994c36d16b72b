//===- EpisodeTest.cpp - the agent playing a real kernel's game -----------===//

#include "SyntheticCost.h"
#include "perfdojo/Agent/Episode.h"
#include "perfdojo/Search/ProgramFeatures.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace perfdojo;
using namespace perfdojo::agent;

namespace {
/// The synthetic cost of the game's program (SyntheticCost.h).
std::optional<double> syntheticSeconds(Game &game) {
  return syntheticKernelSeconds(game.getKernel());
}

struct Softmax {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      loadKernelFile("kernels/small/softmax.dojo", &context);
  dojo::KernelOp kernel = module ? getSingleKernel(*module) : nullptr;
};

AgentOptions smallAgent(uint64_t seed) {
  AgentOptions options;
  options.setEmbedding(getProgramFeatureEmbedding());
  options.hidden = 64;
  options.gamma = 0.95;
  options.batch = 16;
  options.targetSync = 50;
  options.seed = seed;
  return options;
}

TEST(Episode, RewardsAreSpeedupsAndTheGameIsRestored) {
  Softmax k;
  ASSERT_TRUE(k.kernel);
  Game game(k.kernel, MoveOptions{true, TargetDescription::getCpu()});
  std::string start = game.print();
  MaxQAgent agent(smallAgent(0));
  ProgramCosts costs(syntheticSeconds);
  EpisodeOptions options;
  options.maxSteps = 6;
  options.epsilon = 1;
  llvm::Expected<EpisodeResult> result =
      playEpisode(agent, game, costs, options);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_LE(result->steps, 6u);
  EXPECT_GE(result->bestSpeedup, 1.0);
  EXPECT_EQ(game.print(), start);
  EXPECT_EQ(agent.getReplaySize(), result->steps + (result->steps < 6));
  // The best moves replay to a program of that speedup.
  for (const MoveRequest &move : result->bestMoves)
    ASSERT_FALSE(llvm::errorToBool(game.apply(move)));
  double original = *syntheticSeconds(*std::make_unique<Game>(k.kernel));
  EXPECT_NEAR(original / *syntheticSeconds(game), result->bestSpeedup, 1e-9);
  // Every program was evaluated once.
  EXPECT_EQ(costs.getEvaluations() + costs.getHits(), result->steps + 1 +
                                                          (result->steps < 6));
}

TEST(Episode, AnOriginalThatDoesNotRunIsAnError) {
  Softmax k;
  Game game(k.kernel);
  MaxQAgent agent(smallAgent(0));
  ProgramCosts costs([](Game &) { return ProgramCost(); });
  llvm::Expected<EpisodeResult> result =
      playEpisode(agent, game, costs, EpisodeOptions());
  ASSERT_FALSE(bool(result));
  EXPECT_NE(llvm::toString(result.takeError()).find("does not run"),
            std::string::npos);
}

/// The end-to-end check: a few dozen training episodes on the synthetic
/// cost, then greedy play beats random play of the same length.
TEST(Episode, TrainedAgentBeatsRandomPlay) {
  Softmax k;
  ASSERT_TRUE(k.kernel);
  Game game(k.kernel, MoveOptions{true, TargetDescription::getCpu()});
  MaxQAgent agent(smallAgent(7));
  ProgramCosts costs(syntheticSeconds);
  EpisodeOptions training;
  training.maxSteps = 6;
  for (int episode = 0; episode < 20; ++episode) {
    training.epsilon = std::max(0.1, 1.0 - episode / 12.0);
    ASSERT_TRUE(bool(playEpisode(agent, game, costs, training)));
  }
  EpisodeOptions play = training;
  play.learn = false;
  play.epsilon = 0;
  llvm::Expected<EpisodeResult> greedy = playEpisode(agent, game, costs, play);
  ASSERT_TRUE(bool(greedy));
  double random = 0;
  MaxQAgent untrained(smallAgent(11));
  play.epsilon = 1;
  for (int i = 0; i < 10; ++i) {
    llvm::Expected<EpisodeResult> r = playEpisode(untrained, game, costs, play);
    ASSERT_TRUE(bool(r));
    random += r->bestSpeedup / 10;
  }
  EXPECT_GT(greedy->bestSpeedup, random)
      << "greedy " << greedy->bestSpeedup << ", random mean " << random;
}
} // namespace
