//===- KernelPlayTest.cpp - episodes from the fastest programs measured ---===//

#include "SyntheticCost.h"
#include "perfdojo/Agent/KernelPlay.h"
#include "perfdojo/Agent/PerfLLM.h"
#include "perfdojo/Search/RuleCandidates.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace perfdojo;
using namespace perfdojo::agent;

namespace {
struct Fixture {
  explicit Fixture(llvm::StringRef path = "kernels/small/softmax.dojo")
      : module(loadKernelFile(path, &context)) {}
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  dojo::KernelOp kernel = module ? getSingleKernel(*module) : nullptr;
  MoveOptions options{true, TargetDescription::getCpu()};

  /// The program `moves` reach from the original, played on a copy.
  double secondsAfter(llvm::ArrayRef<MoveRequest> moves) {
    Game game(kernel, options);
    for (const MoveRequest &move : moves)
      EXPECT_FALSE(llvm::errorToBool(game.apply(move)));
    return syntheticKernelSeconds(game.getKernel());
  }
};

AgentOptions smallAgent(uint64_t seed) {
  AgentOptions options;
  options.setEmbedding(getProgramFeatureEmbedding());
  options.hidden = 32;
  options.batch = 16;
  options.seed = seed;
  return options;
}

TEST(KernelPlay, EpisodesStartFromTheFastestProgramsMeasured) {
  Fixture f;
  ASSERT_TRUE(f.kernel);
  double original = f.secondsAfter({});
  CostModel model(getProgramFeatureEmbedding().getSize(), 32, 0);
  KernelPlay play(f.kernel, f.options, model, original);
  std::string start = play.getGame().print();
  MaxQAgent agent(smallAgent(3));
  KernelPlay::Measure measure = [&](llvm::ArrayRef<MoveRequest> moves) {
    Evaluation result;
    result.status = EvaluationStatus::Ok;
    result.seconds = f.secondsAfter(moves);
    return std::optional<Evaluation>(result);
  };
  EpisodeOptions options;
  options.maxSteps = 5;
  options.epsilon = 1;
  options.learn = false;
  unsigned fromElites = 0;
  for (int episode = 0; episode < 16; ++episode) {
    std::vector<KernelPlay::Elite> before(play.getElites().begin(),
                                          play.getElites().end());
    llvm::Expected<EpisodeResult> played = play.play(agent, options, 0.75);
    ASSERT_TRUE(bool(played)) << llvm::toString(played.takeError());
    EXPECT_EQ(play.getGame().print(), start) << "back at the original";
    // The moves count from the original: they replay there, and an episode
    // from an elite begins with its moves.
    for (const KernelPlay::Elite &elite : before)
      if (played->moves.size() > elite.moves.size() &&
          std::equal(elite.moves.begin(), elite.moves.end(),
                     played->moves.begin()))
        ++fromElites;
    for (const Visit &visit : played->visits)
      EXPECT_LE(visit.moves, played->moves.size());
    // Rewards are the cost model's estimates here; the best moves replay.
    f.secondsAfter(played->bestMoves);
    f.secondsAfter(played->moves);
    ASSERT_NE(play.measureBest(*played, measure),
              KernelPlay::Outcome::BudgetSpent);
    model.fit(5);
    play.getCosts().forgetEstimates();
  }
  llvm::ArrayRef<KernelPlay::Elite> elites = play.getElites();
  ASSERT_FALSE(elites.empty()) << "random play finds faster programs";
  EXPECT_LE(elites.size(), KernelPlay::kElites);
  EXPECT_GT(fromElites, 0u);
  for (size_t i = 0; i < elites.size(); ++i) {
    EXPECT_GT(elites[i].speedup, 1);
    EXPECT_NEAR(elites[i].speedup, original / f.secondsAfter(elites[i].moves),
                1e-9);
    if (i)
      EXPECT_GE(elites[i - 1].speedup, elites[i].speedup) << "fastest first";
  }
}

TEST(KernelPlay, ProgramsMeasuredOutsidePlayAreRecordedAsItsOwn) {
  // Another strategy's measurements (the heuristic pass's, for a search
  // started from it) are rewards, elites and cost-model data like play's.
  Fixture f;
  ASSERT_TRUE(f.kernel);
  double original = f.secondsAfter({});
  CostModel model(getProgramFeatureEmbedding().getSize(), 32, 0);
  KernelPlay play(f.kernel, f.options, model, original);
  std::string start = play.getGame().print();
  MaxQAgent agent(smallAgent(5));
  EpisodeOptions options;
  options.maxSteps = 4;
  options.epsilon = 1;
  options.learn = false;
  llvm::Expected<EpisodeResult> played = play.play(agent, options, 0);
  ASSERT_TRUE(bool(played)) << llvm::toString(played.takeError());
  // Two programs the episode rated with estimates (the others do not run
  // for their work, and are not measured).
  std::vector<size_t> rated;
  for (const Visit &visit : played->visits)
    if (visit.estimate && visit.moves)
      rated.push_back(visit.moves);
  ASSERT_GE(rated.size(), 2u);
  llvm::ArrayRef<MoveRequest> fast =
      llvm::ArrayRef(played->moves).take_front(rated.back());
  llvm::ArrayRef<MoveRequest> broken =
      llvm::ArrayRef(played->moves).take_front(rated.front());

  Evaluation twice;
  twice.status = EvaluationStatus::Ok;
  twice.seconds = original / 2;
  std::optional<double> speedup;
  ASSERT_FALSE(llvm::errorToBool(play.record(fast, twice, &speedup)));
  ASSERT_TRUE(speedup.has_value());
  EXPECT_DOUBLE_EQ(*speedup, 2);
  Evaluation crashed;
  crashed.status = EvaluationStatus::Crashed;
  ASSERT_FALSE(llvm::errorToBool(play.record(broken, crashed, &speedup)));
  EXPECT_FALSE(speedup.has_value());
  EXPECT_EQ(play.getGame().print(), start) << "back at the original";
  EXPECT_EQ(play.getMeasured(), 3u) << "the original and the two";

  ASSERT_EQ(play.getElites().size(), 1u) << "only the faster one";
  EXPECT_DOUBLE_EQ(play.getElites()[0].speedup, 2);
  EXPECT_TRUE(llvm::equal(play.getElites()[0].moves, fast));

  // Rewards: the measurements, not estimates (the episode's estimates
  // forgotten, as after every refit).
  play.getCosts().forgetEstimates();
  Game &game = play.getGame();
  for (const MoveRequest &move : fast)
    ASSERT_FALSE(llvm::errorToBool(game.apply(move)));
  ProgramCost cost = play.getCosts().get(game);
  ASSERT_TRUE(cost.seconds.has_value());
  EXPECT_DOUBLE_EQ(*cost.seconds, original / 2);
  EXPECT_FALSE(cost.estimate);
  while (game.history().size() > broken.size())
    game.undo();
  EXPECT_FALSE(play.getCosts().get(game).seconds.has_value())
      << "a program that does not run has no reward";
  while (!game.history().empty())
    game.undo();

  // Moves that do not apply record nothing.
  MoveRequest bogus{"split_scope", "no_such_scope@9", {4}};
  llvm::Error error = play.record({bogus}, twice, &speedup);
  EXPECT_TRUE(bool(error));
  llvm::consumeError(std::move(error));
  EXPECT_EQ(play.getMeasured(), 3u);
  EXPECT_EQ(play.getElites().size(), 1u);
  EXPECT_EQ(play.getGame().print(), start);
}

TEST(KernelPlay, StartsFromTheHeuristicsMeasuredCandidates) {
  // A GEMM: the heuristic proposes several register tiles.
  Fixture f("kernels/small/matmul.dojo");
  ASSERT_TRUE(f.kernel);
  double original = f.secondsAfter({});
  CostModel model(getProgramFeatureEmbedding().getSize(), 32, 0);
  KernelPlay play(f.kernel, f.options, model, original);
  std::vector<MoveSequence> expected =
      proposeHeuristicCandidates(f.kernel, f.options);
  ASSERT_GE(expected.size(), 2u);
  // The last candidate is past the budget: not measured, not recorded.
  llvm::Expected<size_t> proposed = play.startFromHeuristic(
      [&](llvm::ArrayRef<llvm::SmallVector<MoveRequest>> candidates) {
        EXPECT_EQ(candidates.size(), expected.size());
        std::vector<std::optional<Evaluation>> results;
        for (const llvm::SmallVector<MoveRequest> &moves :
             candidates.drop_back()) {
          Evaluation result;
          result.status = EvaluationStatus::Ok;
          result.seconds = f.secondsAfter(moves);
          results.push_back(result);
        }
        results.push_back(std::nullopt);
        return results;
      });
  ASSERT_TRUE(bool(proposed)) << llvm::toString(proposed.takeError());
  EXPECT_EQ(*proposed, expected.size());
  EXPECT_EQ(play.getMeasured(), expected.size()) << "the original and all "
                                                    "but the last";
  ASSERT_FALSE(play.getElites().empty()) << "vector tiles are faster here";
  for (const KernelPlay::Elite &elite : play.getElites()) {
    EXPECT_TRUE(llvm::is_contained(expected, elite.moves));
    EXPECT_FALSE(llvm::equal(elite.moves, expected.back()));
  }
}

TEST(KernelPlay, StartsFromTheHeuristicBuildOnItUnlessToldOtherwise) {
  EXPECT_EQ(getEliteStarts(AgentStart::Original, std::nullopt), 0);
  EXPECT_EQ(getEliteStarts(AgentStart::Heuristic, std::nullopt), 0.5);
  EXPECT_EQ(getEliteStarts(AgentStart::Heuristic, 0.0), 0) << "given: kept";
  EXPECT_EQ(getEliteStarts(AgentStart::Original, 0.25), 0.25);
}

TEST(KernelPlay, EliteStartsAreAProbability) {
  EXPECT_FALSE(llvm::errorToBool(KernelPlay::checkEliteStarts(0)));
  EXPECT_FALSE(llvm::errorToBool(KernelPlay::checkEliteStarts(1)));
  llvm::Error error = KernelPlay::checkEliteStarts(1.5);
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("a probability"),
            std::string::npos);
}
} // namespace
