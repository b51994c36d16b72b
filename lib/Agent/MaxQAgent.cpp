//===- MaxQAgent.cpp - a Max-Q deep Q-learning agent (libtorch) -----------===//

#include "perfdojo/Agent/MaxQAgent.h"
#include "perfdojo/Support/FileIO.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <numeric>

using namespace perfdojo;
using namespace perfdojo::agent;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

static llvm::StringRef stringifyTarget(BellmanTarget target) {
  return target == BellmanTarget::Max ? "max" : "ordinary";
}

void AgentOptions::setEmbedding(const ProgramEmbedding &e) {
  features = e.getSize();
  embedding = e.getName().str();
  embeddingVersion = e.getVersion();
}

llvm::json::Value agent::toJSON(const AgentOptions &o) {
  return llvm::json::Object{
      {"features", o.features},
      {"embedding", o.embedding},
      {"hidden", o.hidden},
      {"gamma", o.gamma},
      {"target", stringifyTarget(o.target)},
      {"learning_rate", o.learningRate},
      {"batch", int64_t(o.batch)},
      {"replay_capacity", int64_t(o.replayCapacity)},
      {"target_sync", int64_t(o.targetSync)},
      {"max_successors", int64_t(o.maxSuccessors)},
      {"seed", int64_t(o.seed)},
  };
}

bool agent::fromJSON(const llvm::json::Value &value, AgentOptions &o,
                     llvm::json::Path path) {
  llvm::json::ObjectMapper map(value, path);
  std::string target;
  int64_t seed = 0;
  if (!map || !map.map("features", o.features) ||
      !map.map("hidden", o.hidden) || !map.map("gamma", o.gamma) ||
      !map.map("target", target) ||
      !map.map("learning_rate", o.learningRate) ||
      !map.map("batch", o.batch) ||
      !map.map("replay_capacity", o.replayCapacity) ||
      !map.map("target_sync", o.targetSync) ||
      !map.map("max_successors", o.maxSuccessors) || !map.map("seed", seed))
    return false;
  // Models saved before the embedding was recorded used the features.
  if (!map.mapOptional("embedding", o.embedding))
    return false;
  o.seed = seed;
  if (target != "max" && target != "ordinary") {
    path.field("target").report("expected 'max' or 'ordinary'");
    return false;
  }
  o.target = target == "max" ? BellmanTarget::Max : BellmanTarget::Ordinary;
  return true;
}

//===----------------------------------------------------------------------===//
// The network
//===----------------------------------------------------------------------===//

DuelingQNetworkImpl::DuelingQNetworkImpl(int64_t features, int64_t hidden) {
  value = register_module(
      "value", torch::nn::Sequential(torch::nn::Linear(features, hidden),
                                     torch::nn::ReLU(),
                                     torch::nn::Linear(hidden, 1)));
  stateIn = register_module(
      "state_in",
      torch::nn::Linear(torch::nn::LinearOptions(features, hidden).bias(false)));
  successorIn = register_module("successor_in",
                                torch::nn::Linear(features, hidden));
  advantage = register_module(
      "advantage",
      torch::nn::Sequential(torch::nn::ReLU(),
                            torch::nn::Linear(hidden, hidden),
                            torch::nn::ReLU(), torch::nn::Linear(hidden, 1)));
}

torch::Tensor DuelingQNetworkImpl::forward(const torch::Tensor &state,
                                           const torch::Tensor &successors) {
  return forwardBatch(state.unsqueeze(0), successors,
                      torch::zeros({successors.size(0)}, torch::kLong));
}

torch::Tensor DuelingQNetworkImpl::forwardBatch(const torch::Tensor &states,
                                                const torch::Tensor &successors,
                                                const torch::Tensor &owner) {
  // The first layer on the pair (state, successor) as the sum of its halves.
  torch::Tensor first = stateIn->forward(states).index_select(0, owner) +
                        successorIn->forward(successors);
  torch::Tensor a = advantage->forward(first).squeeze(1);
  // The mean over each state's own actions only: states with different
  // numbers of legal moves share one network.
  int64_t b = states.size(0);
  torch::Tensor sums = torch::zeros({b}, a.options()).index_add(0, owner, a);
  torch::Tensor counts = torch::zeros({b}, a.options())
                             .index_add(0, owner, torch::ones_like(a));
  torch::Tensor mean = sums / counts;
  torch::Tensor v = value->forward(states).squeeze(1);
  return v.index_select(0, owner) + a - mean.index_select(0, owner);
}

//===----------------------------------------------------------------------===//
// The agent
//===----------------------------------------------------------------------===//

MaxQAgent::MaxQAgent(const AgentOptions &options)
    : options(options), online(options.features, options.hidden),
      target(options.features, options.hidden), random(options.seed) {
  // Initial weights from the seed: the same options give the same agent.
  torch::manual_seed(options.seed);
  online = DuelingQNetwork(options.features, options.hidden);
  target = DuelingQNetwork(options.features, options.hidden);
  torch::NoGradGuard noGrad;
  auto from = online->parameters(), to = target->parameters();
  for (size_t i = 0; i < from.size(); ++i)
    to[i].copy_(from[i]);
  optimizer = std::make_unique<torch::optim::Adam>(
      online->parameters(), torch::optim::AdamOptions(options.learningRate));
}

torch::Tensor MaxQAgent::evaluate(const torch::Tensor &state,
                                  const torch::Tensor &successors) {
  torch::NoGradGuard noGrad;
  return online->forward(state, successors);
}

int64_t MaxQAgent::choose(const torch::Tensor &state,
                          const torch::Tensor &successors, double epsilon) {
  int64_t n = successors.size(0);
  if (std::uniform_real_distribution<double>(0, 1)(random) < epsilon)
    return std::uniform_int_distribution<int64_t>(0, n - 1)(random);
  return evaluate(state, successors).argmax().item<int64_t>();
}

torch::Tensor MaxQAgent::thin(const torch::Tensor &rows, int64_t keep,
                              int64_t &newIndex) {
  int64_t n = rows.size(0), limit = options.maxSuccessors;
  newIndex = keep;
  if (n <= limit)
    return rows;
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), random);
  order.resize(limit);
  if (keep >= 0 && std::find(order.begin(), order.end(), keep) == order.end())
    order[0] = keep;
  std::sort(order.begin(), order.end());
  if (keep >= 0)
    newIndex = std::find(order.begin(), order.end(), keep) - order.begin();
  return rows.index_select(0, torch::tensor(order, torch::kLong));
}

void MaxQAgent::remember(Transition t) {
  t.successors = thin(t.successors, t.action, t.action);
  if (!t.terminal) {
    int64_t unused;
    t.nextSuccessors = thin(t.nextSuccessors, -1, unused);
  }
  if (replay.size() < options.replayCapacity) {
    replay.push_back(std::move(t));
    return;
  }
  replay[std::uniform_int_distribution<size_t>(0, replay.size() - 1)(random)] =
      std::move(t);
}

/// Several transitions' states and successor sets as one batch.
namespace {
struct Batch {
  torch::Tensor states, successors, owner;
  /// The first successor row of each state.
  std::vector<int64_t> offsets;
};
} // namespace

static Batch makeBatch(llvm::ArrayRef<const torch::Tensor *> states,
                       llvm::ArrayRef<const torch::Tensor *> successors) {
  Batch batch;
  std::vector<torch::Tensor> stateRows, successorRows, owners;
  int64_t offset = 0;
  for (size_t i = 0; i < states.size(); ++i) {
    stateRows.push_back(*states[i]);
    successorRows.push_back(*successors[i]);
    int64_t n = successors[i]->size(0);
    owners.push_back(torch::full({n}, int64_t(i), torch::kLong));
    batch.offsets.push_back(offset);
    offset += n;
  }
  batch.offsets.push_back(offset);
  batch.states = torch::stack(stateRows);
  batch.successors = torch::cat(successorRows);
  batch.owner = torch::cat(owners);
  return batch;
}

std::optional<double> MaxQAgent::learn() {
  if (replay.size() < options.batch)
    return std::nullopt;
  std::vector<const Transition *> sample;
  for (unsigned i = 0; i < options.batch; ++i)
    sample.push_back(&replay[std::uniform_int_distribution<size_t>(
        0, replay.size() - 1)(random)]);

  // Double DQN: the online network picks each next action, the target
  // network values it.
  std::vector<double> bootstrap(sample.size(), 0);
  std::vector<const torch::Tensor *> nextStates, nextSuccessors;
  std::vector<size_t> live;
  for (size_t i = 0; i < sample.size(); ++i)
    if (!sample[i]->terminal) {
      live.push_back(i);
      nextStates.push_back(&sample[i]->nextState);
      nextSuccessors.push_back(&sample[i]->nextSuccessors);
    }
  if (!live.empty()) {
    torch::NoGradGuard noGrad;
    Batch next = makeBatch(nextStates, nextSuccessors);
    torch::Tensor picks =
        online->forwardBatch(next.states, next.successors, next.owner)
            .contiguous();
    torch::Tensor values =
        target->forwardBatch(next.states, next.successors, next.owner)
            .contiguous();
    const float *pick = picks.data_ptr<float>();
    const float *value = values.data_ptr<float>();
    for (size_t k = 0; k < live.size(); ++k) {
      int64_t best = next.offsets[k];
      for (int64_t r = best + 1; r < next.offsets[k + 1]; ++r)
        if (pick[r] > pick[best])
          best = r;
      bootstrap[live[k]] = value[best];
    }
  }

  std::vector<const torch::Tensor *> states, successors;
  std::vector<int64_t> taken;
  std::vector<float> targets;
  for (size_t i = 0; i < sample.size(); ++i) {
    states.push_back(&sample[i]->state);
    successors.push_back(&sample[i]->successors);
    targets.push_back(computeTarget(options.target, sample[i]->reward,
                                    sample[i]->terminal, bootstrap[i],
                                    options.gamma));
  }
  Batch now = makeBatch(states, successors);
  for (size_t i = 0; i < sample.size(); ++i)
    taken.push_back(now.offsets[i] + sample[i]->action);
  torch::Tensor q =
      online->forwardBatch(now.states, now.successors, now.owner)
          .index_select(0, torch::tensor(taken, torch::kLong));
  torch::Tensor loss = torch::smooth_l1_loss(q, torch::tensor(targets));
  optimizer->zero_grad();
  loss.backward();
  optimizer->step();
  if (++learnSteps % options.targetSync == 0) {
    torch::NoGradGuard noGrad;
    auto from = online->parameters(), to = target->parameters();
    for (size_t i = 0; i < from.size(); ++i)
      to[i].copy_(from[i]);
  }
  return loss.item<double>();
}

//===----------------------------------------------------------------------===//
// Saving and loading
//===----------------------------------------------------------------------===//

llvm::Error MaxQAgent::save(llvm::StringRef path) {
  try {
    torch::serialize::OutputArchive archive, onlineArchive, targetArchive,
        optimizerArchive;
    online->save(onlineArchive);
    target->save(targetArchive);
    optimizer->save(optimizerArchive);
    archive.write("online", onlineArchive);
    archive.write("target", targetArchive);
    archive.write("optimizer", optimizerArchive);
    archive.write("learn_steps", torch::tensor(int64_t(learnSteps)));
    archive.save_to(path.str());
  } catch (const c10::Error &error) {
    return llvm::createStringError("cannot write '" + path +
                                   "': " + error.what_without_backtrace());
  }
  llvm::json::Object meta{
      {"format", "perfdojo-maxq-agent"},
      {"feature_version", options.embeddingVersion},
      {"options", toJSON(options)},
      {"learn_steps", int64_t(learnSteps)},
  };
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(meta))) << "\n";
  return writeFile((path + ".json").str(), text);
}

llvm::Expected<AgentOptions> MaxQAgent::readOptions(llvm::StringRef path) {
  std::string metaPath = (path + ".json").str();
  llvm::Expected<llvm::json::Object> meta = readJsonObject(metaPath);
  if (!meta)
    return meta.takeError();
  const llvm::json::Object *object = &*meta;
  if (object->getString("format") != "perfdojo-maxq-agent")
    return llvm::createStringError("'" + metaPath +
                                   "' is no PerfDojo agent description");
  AgentOptions options;
  llvm::json::Path::Root root("options");
  const llvm::json::Value *optionsValue = object->get("options");
  if (!optionsValue || !fromJSON(*optionsValue, options, root))
    return llvm::createStringError("'" + metaPath +
                                   "': malformed options: " +
                                   llvm::toString(root.getError()));
  std::optional<int64_t> version = object->getInteger("feature_version");
  if (!version)
    return llvm::createStringError("'" + metaPath +
                                   "' records no feature version");
  options.embeddingVersion = *version;
  return options;
}

llvm::Expected<std::unique_ptr<MaxQAgent>>
MaxQAgent::load(llvm::StringRef path, const ProgramEmbedding *embedding) {
  llvm::Expected<AgentOptions> read = readOptions(path);
  if (!read)
    return read.takeError();
  AgentOptions &options = *read;
  if (embedding && options.embedding != embedding->getName())
    return llvm::createStringError(
        "'" + path + "' was trained on the '" + options.embedding +
        "' embedding, not '" + embedding->getName() + "'");
  if (embedding && options.embeddingVersion != embedding->getVersion())
    return llvm::createStringError(
        "'" + path + "' was trained on " + options.embedding +
        " of version " + std::to_string(options.embeddingVersion) +
        "; this PerfDojo computes version " +
        std::to_string(embedding->getVersion()) + ": train it again");
  if (embedding && options.features != int64_t(embedding->getSize()))
    return llvm::createStringError(
        "'" + path + "' takes " + std::to_string(options.features) +
        " features per state, not " + std::to_string(embedding->getSize()));
  auto agent = std::make_unique<MaxQAgent>(options);
  try {
    torch::serialize::InputArchive archive, onlineArchive, targetArchive,
        optimizerArchive;
    archive.load_from(path.str());
    archive.read("online", onlineArchive);
    archive.read("target", targetArchive);
    archive.read("optimizer", optimizerArchive);
    agent->online->load(onlineArchive);
    agent->target->load(targetArchive);
    agent->optimizer->load(optimizerArchive);
    torch::Tensor steps;
    archive.read("learn_steps", steps);
    agent->learnSteps = steps.item<int64_t>();
  } catch (const c10::Error &error) {
    return llvm::createStringError("cannot read '" + path +
                                   "': " + error.what_without_backtrace());
  }
  return std::move(agent);
}
