//===- MaxQAgentTest.cpp - the Max-Q agent: targets, heads, persistence ---===//

#include "perfdojo/Agent/MaxQAgent.h"
#include "perfdojo/Search/ProgramFeatures.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <map>

using namespace perfdojo;
using namespace perfdojo::agent;

namespace {
/// A chain whose best reward comes late. From the start, branch A gives a
/// speedup of 1 at each of its five programs; branch B gives 0.1 for four
/// programs and 3 at its fifth. Every state can STOP (terminal, its own
/// reward). The discounted sum prefers A, the best reward ahead prefers B.
struct Chain {
  static constexpr int kLength = 5, kStates = 1 + 2 * kLength;
  static int a(int k) { return k; }              // A1..A5: 1..5
  static int b(int k) { return kLength + k; }    // B1..B5: 6..10
  static double reward(int s) {
    if (s == 0)
      return 0.5;
    if (s <= kLength)
      return 1.0;
    return s == b(kLength) ? 3.0 : 0.1;
  }
  /// The states each action leads to; the last action, STOP, to the state
  /// itself.
  static std::vector<int> successors(int s) {
    std::vector<int> next;
    if (s == 0)
      next = {a(1), b(1)};
    else if (s != a(kLength) && s != b(kLength))
      next = {s + 1};
    next.push_back(s);
    return next;
  }
  static torch::Tensor features(int s) {
    torch::Tensor f = torch::zeros({kStates});
    f[s] = 1;
    return f;
  }
  static torch::Tensor successorFeatures(int s) {
    std::vector<torch::Tensor> rows;
    for (int next : successors(s))
      rows.push_back(features(next));
    return torch::stack(rows);
  }
};

/// Value iteration with the agent's targets: Q(s, a) for every state.
std::map<int, std::vector<double>> solve(BellmanTarget kind, double gamma) {
  std::map<int, std::vector<double>> q;
  for (int s = 0; s < Chain::kStates; ++s)
    q[s].assign(Chain::successors(s).size(), 0);
  for (int iteration = 0; iteration < 50; ++iteration)
    for (int s = 0; s < Chain::kStates; ++s) {
      std::vector<int> next = Chain::successors(s);
      for (size_t i = 0; i < next.size(); ++i) {
        bool stop = i + 1 == next.size();
        double best = 0;
        for (double v : q[next[i]])
          best = std::max(best, v);
        q[s][i] = computeTarget(kind, Chain::reward(next[i]), stop, best, gamma);
      }
    }
  return q;
}

TEST(MaxQ, TheMaxTargetSeeksTheBestRewardTheSumDoesNot) {
  EXPECT_EQ(computeTarget(BellmanTarget::Max, 2, false, 1, 0.9), 2);
  EXPECT_DOUBLE_EQ(computeTarget(BellmanTarget::Max, 0.5, false, 3, 0.9), 2.7);
  EXPECT_DOUBLE_EQ(computeTarget(BellmanTarget::Ordinary, 0.5, false, 3, 0.9),
                   3.2);
  EXPECT_EQ(computeTarget(BellmanTarget::Max, 0.5, true, 3, 0.9), 0.5);

  auto best = [](const std::vector<double> &q) {
    return std::max_element(q.begin(), q.end()) - q.begin();
  };
  // From the start: 0 is branch A, 1 branch B, 2 STOP.
  std::map<int, std::vector<double>> max = solve(BellmanTarget::Max, 0.9);
  std::map<int, std::vector<double>> sum = solve(BellmanTarget::Ordinary, 0.9);
  EXPECT_EQ(best(max[0]), 1) << "max-Bellman goes for the late 3x";
  EXPECT_EQ(best(sum[0]), 0) << "the discounted sum collects the 1x steps";
  // The max-Bellman value of B is the discounted best reward: 3 * 0.9^4
  // from B1.
  EXPECT_NEAR(max[0][1], 3 * std::pow(0.9, 4), 1e-9);
}

/// Trains an agent on the chain with uniformly random play (Q-learning is
/// off-policy) and returns its greedy first action.
int64_t trainOnChain(BellmanTarget kind) {
  AgentOptions options;
  options.features = Chain::kStates;
  options.hidden = 32;
  options.gamma = 0.9;
  options.target = kind;
  options.batch = 32;
  options.targetSync = 25;
  options.learningRate = 3e-3;
  options.seed = 1;
  MaxQAgent agent(options);
  for (int episode = 0; episode < 150; ++episode) {
    int s = 0;
    while (true) {
      torch::Tensor successors = Chain::successorFeatures(s);
      int64_t action = agent.choose(Chain::features(s), successors, 1.0);
      int next = Chain::successors(s)[action];
      bool stop = action + 1 == successors.size(0);
      Transition t;
      t.state = Chain::features(s);
      t.successors = successors;
      t.action = action;
      t.reward = Chain::reward(next);
      t.terminal = stop;
      t.nextState = Chain::features(next);
      if (!stop)
        t.nextSuccessors = Chain::successorFeatures(next);
      agent.remember(std::move(t));
      agent.learn();
      agent.learn();
      if (stop)
        break;
      s = next;
    }
  }
  return agent.choose(Chain::features(0), Chain::successorFeatures(0), 0);
}

TEST(MaxQAgent, LearnsTheLateRewardWithTheMaxTargetOnly) {
  EXPECT_EQ(trainOnChain(BellmanTarget::Max), 1);
  EXPECT_EQ(trainOnChain(BellmanTarget::Ordinary), 0);
}

TEST(DuelingQNetwork, AdvantagesAreCenteredOverEachStatesOwnActions) {
  torch::manual_seed(0);
  DuelingQNetwork net(6, 16);
  torch::Tensor s1 = torch::rand({6}), s2 = torch::rand({6});
  torch::Tensor few = torch::rand({3, 6}), many = torch::rand({7, 6});
  // The mean Q over a state's actions is its value V(s), whichever actions
  // it has.
  EXPECT_NEAR(net->forward(s1, few).mean().item<double>(),
              net->forward(s1, many).mean().item<double>(), 1e-5);
  // In a batch each state is centered over its own actions only: the same
  // values as alone.
  torch::Tensor owner = torch::cat({torch::zeros({3}, torch::kLong),
                                    torch::ones({7}, torch::kLong)});
  torch::Tensor batch = net->forwardBatch(torch::stack({s1, s2}),
                                          torch::cat({few, many}), owner);
  EXPECT_TRUE(torch::allclose(batch.slice(0, 0, 3), net->forward(s1, few),
                              1e-5, 1e-6));
  EXPECT_TRUE(torch::allclose(batch.slice(0, 3, 10), net->forward(s2, many),
                              1e-5, 1e-6));
}

/// A stand-in embedding of 8 values, for the refusals of load.
struct TestEmbedding : ProgramEmbedding {
  TestEmbedding(llvm::StringRef name, int64_t version, size_t size)
      : name(name), version(version), size(size) {}
  llvm::StringRef getName() const override { return name; }
  int64_t getVersion() const override { return version; }
  size_t getSize() const override { return size; }
  std::vector<float> embed(dojo::KernelOp, llvm::StringRef) override {
    return std::vector<float>(size);
  }
  std::string name;
  int64_t version;
  size_t size;
};

TEST(MaxQAgent, SavesAndLoadsExactly) {
  TestEmbedding embedding("test", 3, 8);
  AgentOptions options;
  options.setEmbedding(embedding);
  options.hidden = 16;
  options.batch = 4;
  options.seed = 3;
  options.target = BellmanTarget::Ordinary;
  MaxQAgent agent(options);
  for (int i = 0; i < 6; ++i) {
    Transition t;
    t.state = torch::rand({8});
    t.successors = torch::rand({3, 8});
    t.action = i % 3;
    t.reward = i;
    t.terminal = true;
    agent.remember(std::move(t));
  }
  ASSERT_TRUE(agent.learn());
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("agent", dir));
  std::string path = (dir + "/model.pt").str();
  ASSERT_FALSE(llvm::errorToBool(agent.save(path)));

  auto loaded = MaxQAgent::load(path, &embedding);
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  EXPECT_EQ((*loaded)->getLearnSteps(), 1u);
  EXPECT_EQ((*loaded)->getOptions().target, BellmanTarget::Ordinary);
  EXPECT_EQ((*loaded)->getOptions().hidden, 16);
  torch::Tensor s = torch::rand({8}), succ = torch::rand({5, 8});
  EXPECT_TRUE(torch::equal(agent.evaluate(s, succ),
                           (*loaded)->evaluate(s, succ)));

  EXPECT_EQ((*loaded)->getOptions().embedding, "test");
  llvm::Expected<AgentOptions> saved = MaxQAgent::readOptions(path);
  ASSERT_TRUE(bool(saved)) << llvm::toString(saved.takeError());
  EXPECT_EQ(saved->embeddingVersion, 3);

  // Another embedding, size or version: refused with a reason.
  TestEmbedding other("features", 3, 8), wider("test", 3, 9),
      newer("test", 4, 8);
  auto wrongName = MaxQAgent::load(path, &other);
  ASSERT_FALSE(bool(wrongName));
  EXPECT_NE(llvm::toString(wrongName.takeError())
                .find("trained on the 'test' embedding, not 'features'"),
            std::string::npos);
  auto wrongSize = MaxQAgent::load(path, &wider);
  ASSERT_FALSE(bool(wrongSize));
  EXPECT_NE(llvm::toString(wrongSize.takeError()).find("takes 8 features"),
            std::string::npos);
  auto wrongVersion = MaxQAgent::load(path, &newer);
  ASSERT_FALSE(bool(wrongVersion));
  EXPECT_NE(llvm::toString(wrongVersion.takeError())
                .find("test of version 3; this PerfDojo computes version 4"),
            std::string::npos);
  {
    auto text = llvm::MemoryBuffer::getFile(path + ".json");
    ASSERT_TRUE(bool(text));
    std::string edited = (*text)->getBuffer().str();
    size_t at = edited.find("\"feature_version\": ");
    ASSERT_NE(at, std::string::npos);
    edited.replace(at, std::string("\"feature_version\": 3").size(),
                   "\"feature_version\": 0");
    std::error_code ec;
    llvm::raw_fd_ostream out(path + ".json", ec);
    out << edited;
  }
  auto oldVersion = MaxQAgent::load(path, &embedding);
  ASSERT_FALSE(bool(oldVersion));
  EXPECT_NE(llvm::toString(oldVersion.takeError()).find("version 0"),
            std::string::npos);
  auto missing = MaxQAgent::load(path + ".missing");
  ASSERT_FALSE(bool(missing));
  llvm::consumeError(missing.takeError());
  llvm::sys::fs::remove_directories(dir);
}

TEST(MaxQAgent, ReplayThinsLargeSuccessorSetsKeepingTheChosenAction) {
  AgentOptions options;
  options.features = 4;
  options.hidden = 8;
  options.maxSuccessors = 5;
  options.replayCapacity = 3;
  options.batch = 2;
  MaxQAgent agent(options);
  for (int i = 0; i < 10; ++i) {
    Transition t;
    t.state = torch::zeros({4});
    // Row r holds r: the chosen row's values show it survived thinning.
    t.successors = torch::arange(40, torch::kFloat).reshape({10, 4}).div(4)
                       .floor();
    t.action = 7;
    t.reward = 1;
    t.terminal = true;
    agent.remember(std::move(t));
  }
  ASSERT_EQ(agent.getReplaySize(), 3u);
  for (const Transition &t : agent.getReplay()) {
    ASSERT_EQ(t.successors.size(0), 5);
    EXPECT_TRUE(torch::equal(t.successors[t.action], torch::full({4}, 7.0)));
  }
  EXPECT_TRUE(agent.learn());
}
} // namespace
