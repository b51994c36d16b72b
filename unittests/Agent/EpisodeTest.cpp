//===- EpisodeTest.cpp - the agent playing a real kernel's game -----------===//

#include "perfdojo/Agent/Episode.h"
#include "perfdojo/Search/ProgramFeatures.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace perfdojo;
using namespace perfdojo::agent;

namespace {
/// A synthetic cost, not a performance model: vector scopes make a
/// program cheaper, parallel ones a little, and every scope costs a bit.
std::optional<double> syntheticSeconds(Game &game) {
  double vector = 0, parallel = 0, scopes = 0;
  game.getKernel().walk([&](dojo::ScopeOp scope) {
    ++scopes;
    vector += scope.getMode() == dojo::Mode::vector;
    parallel += scope.getMode() == dojo::Mode::parallel;
  });
  return 1.0 / (1 + vector + 0.5 * parallel) + 0.01 * scopes;
}

struct Softmax {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      loadKernelFile("kernels/small/softmax.dojo", &context);
  dojo::KernelOp kernel = module ? getSingleKernel(*module) : nullptr;
};

AgentOptions smallAgent(uint64_t seed) {
  AgentOptions options;
  options.features = getProgramFeatureSize();
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

TEST(Episode, AListedMoveThatFailsToApplyIsLeftOutAndPlayGoesOn) {
  // A state the move fuzzer found where pad_scope's check passes but the
  // rewrite reads padding nothing wrote: the post-apply verifier refuses it
  // (a check bug of pad_scope, recorded in issue 11; once fixed, the move
  // is no longer listed here and this test needs another such state).
  Softmax k;
  ASSERT_TRUE(k.kernel);
  Game game(k.kernel);
  llvm::Expected<llvm::SmallVector<MoveRequest>> prefix = parseMoveScript(
      "pad_dim s.0 2; set_unroll s#0@0; stage_region x,y#0@0 1; "
      "split_scope y#0@0 3; set_gpu_grid y#0@0; split_scope y#0@2 4; "
      "set_vector y#2@1; stage_region x,m#0@0 1; set_gpu_grid x_s1@0; "
      "pad_dim m.0 8; set_location m 4; clear_mode y#0@0; "
      "merge_scopes y#0@2; set_unroll m#1@1; stage_region x_s,x_s@0 1; "
      "add_scope x_s@0 9; set_vector x_s1@1; pad_dim x_s1.0 16; "
      "pad_dim x_s.1 16; split_scope y#0@2 4; set_gpu_grid x_s@1; "
      "pad_dim x_s1.1 1; privatize_reduction m#1@1 1; split_scope m#1@1 4; "
      "set_unroll y#0@2; split_off m_p#1@0; set_unroll m#0@0; "
      "cut_scope y#0@0 2");
  ASSERT_TRUE(bool(prefix));
  for (const MoveRequest &move : *prefix)
    ASSERT_FALSE(llvm::errorToBool(game.apply(move))) << move.str();
  std::string before = game.print();
  MaxQAgent agent(smallAgent(0));
  ProgramCosts costs(syntheticSeconds);
  EpisodeOptions options;
  options.maxSteps = 2;
  options.epsilon = 1;
  llvm::Expected<EpisodeResult> result =
      playEpisode(agent, game, costs, options);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  ASSERT_FALSE(result->refused.empty());
  llvm::StringRef refused = result->refused.front();
  EXPECT_TRUE(refused.starts_with("pad_scope m#1@0 ")) << refused.str();
  EXPECT_TRUE(refused.contains("internal error")) << refused.str();
  EXPECT_EQ(game.print(), before);
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
