//===- MaxQAgent.h - a Max-Q deep Q-learning agent (libtorch) ---*- C++ -*-===//
//
// The learned player of the move game (the paper's section 3). It scores
// every legal action of a state at once: an action is the pair (the
// state's program features, the features of the program the action leads
// to), so one network handles any number of moves; STOP is the pair
// (state, state). Training follows the paper:
//
//   * the max-Bellman target (MaxQ.h), double DQN: the online network picks
//     the next action, a target network (copied every `targetSync` steps)
//     values it;
//   * dueling heads: Q(s, a) = V(s) + A(s, a) - mean of A over the state's
//     own legal actions;
//   * uniform experience replay.
//
// States are vectors of a ProgramEmbedding (Search/ProgramEmbedding.h: the
// program features by default, or the language model's); the agent sees
// nothing else of the program, and nothing of the hardware but its rewards.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_AGENT_MAXQAGENT_H
#define PERFDOJO_AGENT_MAXQAGENT_H

#include "perfdojo/Agent/MaxQ.h"
#include "perfdojo/Search/ProgramEmbedding.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <torch/torch.h>

#include <memory>
#include <optional>
#include <random>

namespace perfdojo::agent {

struct AgentOptions {
  /// Length of a state's feature vector.
  int64_t features = 0;
  /// The embedding the vectors come from: its name and version (saved
  /// models are refused by another).
  std::string embedding = "features";
  int64_t embeddingVersion = 0;
  /// Sets the three fields above from `embedding`.
  void setEmbedding(const ProgramEmbedding &embedding);
  /// Width of the hidden layers.
  int64_t hidden = 256;
  double gamma = 0.99;
  BellmanTarget target = BellmanTarget::Max;
  double learningRate = 1e-3;
  /// Transitions per gradient step.
  unsigned batch = 32;
  /// Transitions the replay keeps; a full replay overwrites a random one.
  unsigned replayCapacity = 20000;
  /// Gradient steps between copies of the online network into the target.
  unsigned targetSync = 250;
  /// Successors kept per remembered state (the chosen action's always):
  /// bounds replay memory on kernels with hundreds of legal moves.
  unsigned maxSuccessors = 32;
  uint64_t seed = 0;
};
llvm::json::Value toJSON(const AgentOptions &options);
bool fromJSON(const llvm::json::Value &value, AgentOptions &options,
              llvm::json::Path path);

/// The network: V(s) from the state, A(s, a) from (state, successor).
class DuelingQNetworkImpl : public torch::nn::Module {
public:
  DuelingQNetworkImpl(int64_t features, int64_t hidden);
  /// Q of each action of one state: `state` [F], `successors` [n, F] (the
  /// state after each action; STOP's row is the state itself) -> [n].
  torch::Tensor forward(const torch::Tensor &state,
                        const torch::Tensor &successors);
  /// The same for several states in one pass: `states` [B, F], the
  /// successors of all of them [N, F], `owner` [N] (kLong) the state of
  /// each successor row -> [N].
  torch::Tensor forwardBatch(const torch::Tensor &states,
                             const torch::Tensor &successors,
                             const torch::Tensor &owner);

private:
  torch::nn::Sequential value{nullptr};
  /// The advantage's first layer on (state, successor), split in its two
  /// halves so the state's is computed once per state, not per action.
  torch::nn::Linear stateIn{nullptr}, successorIn{nullptr};
  torch::nn::Sequential advantage{nullptr};
};
TORCH_MODULE(DuelingQNetwork);

/// One step of play.
struct Transition {
  torch::Tensor state;      ///< [F]
  torch::Tensor successors; ///< [n, F], one row per legal action
  int64_t action = 0;       ///< the row played
  double reward = 0;
  torch::Tensor nextState;      ///< [F]
  torch::Tensor nextSuccessors; ///< [n', F]; undefined when terminal
  bool terminal = false;
};

class MaxQAgent {
public:
  explicit MaxQAgent(const AgentOptions &options);

  const AgentOptions &getOptions() const { return options; }

  /// Q of every action of `state` (online network, no gradient).
  torch::Tensor evaluate(const torch::Tensor &state,
                         const torch::Tensor &successors);
  /// The action to play: uniformly random with probability `epsilon`, else
  /// the best by evaluate().
  int64_t choose(const torch::Tensor &state, const torch::Tensor &successors,
                 double epsilon);

  /// Stores `transition`, its successor sets thinned to maxSuccessors.
  void remember(Transition transition);
  size_t getReplaySize() const { return replay.size(); }
  llvm::ArrayRef<Transition> getReplay() const { return replay; }

  /// One gradient step on a uniformly sampled batch of the replay: the
  /// mean Huber loss against the Bellman targets, or nullopt while the
  /// replay holds fewer than a batch.
  std::optional<double> learn();
  unsigned getLearnSteps() const { return learnSteps; }

  /// Writes the networks and the optimizer to `path` (a libtorch archive)
  /// and the options and feature version to `path`.json.
  llvm::Error save(llvm::StringRef path);
  /// The options `path`.json records (its embedding among them), to know
  /// which embedding to create before loading.
  static llvm::Expected<AgentOptions> readOptions(llvm::StringRef path);
  /// Reads what save wrote. When `embedding` is given, refuses a model of
  /// another embedding, embedding version or size.
  static llvm::Expected<std::unique_ptr<MaxQAgent>>
  load(llvm::StringRef path, const ProgramEmbedding *embedding = nullptr);

  std::mt19937_64 &getRandom() { return random; }

private:
  /// `rows` thinned to maxSuccessors rows, `keep` among them; returns the
  /// new index of `keep` (or -1 when keep < 0).
  torch::Tensor thin(const torch::Tensor &rows, int64_t keep,
                     int64_t &newIndex);

  AgentOptions options;
  DuelingQNetwork online, target;
  std::unique_ptr<torch::optim::Adam> optimizer;
  std::vector<Transition> replay;
  unsigned learnSteps = 0;
  std::mt19937_64 random;
};

} // namespace perfdojo::agent

#endif // PERFDOJO_AGENT_MAXQAGENT_H
