//===- PerfLLM.h - the learned search strategy ------------------*- C++ -*-===//
//
// `perfdojo-search --strategy=perfllm`: the Max-Q agent plays the move game
// on the kernel under the search's budget. Rewards between real evaluations
// come from a cost model fit to the real ones (CostModel.h); each episode
// spends one real evaluation, on the program it visited whose estimated
// speedup is best, and that result refits the model. The search records
// every real evaluation, so its best program and final selection are the
// usual ones. With a trained model (perfdojo-train) the agent plays greedily
// with a little exploration and goes on learning from this kernel's
// rewards, its cost model starting from the one trained with it; without
// one it learns online on this kernel from scratch. Episodes start from the
// original or, with a probability the options give, from one of the
// fastest programs measured so far (KernelPlay.h); with `fromHeuristic`
// the heuristic pass's programs are measured first and are the first of
// those.
//
// This header is free of libtorch, so drivers built without exceptions can
// register the strategy.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_AGENT_PERFLLM_H
#define PERFDOJO_AGENT_PERFLLM_H

#include "perfdojo/Search/Strategy.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

#include <optional>

#include <string>

namespace perfdojo::agent {

/// Where the agent's search or training starts (`--start`).
enum class AgentStart {
  Original,  ///< the original kernel (the paper's agent)
  Heuristic, ///< the heuristic pass's programs, measured first
};

/// The `--start` option's values, for the tools that offer it.
inline auto getAgentStartValues() {
  return llvm::cl::values(
      clEnumValN(AgentStart::Original, "original",
                 "the original kernel (the paper's agent)"),
      clEnumValN(AgentStart::Heuristic, "heuristic",
                 "the heuristic pass's programs are measured first (real "
                 "evaluations) and are the first elites, as annealing starts "
                 "from them (--elite-starts then defaults to 0.5)"));
}

/// The probability of an elite start (KernelPlay::play) for `start`:
/// `given` where the user gave one; else, from the heuristic, 0.5 (half
/// the episodes build on its programs, half explore from the original),
/// and 0 from the original.
inline double getEliteStarts(AgentStart start, std::optional<double> given) {
  if (given)
    return *given;
  return start == AgentStart::Heuristic ? 0.5 : 0;
}

struct PerfLLMOptions {
  /// A model perfdojo-train saved; "" learns online on the kernel.
  std::string model;
  /// The program embedding (LanguageModelEmbedding.h's names); "" takes
  /// the model's own, or the program features when learning online.
  std::string embedding;
  /// The language model's directory ("" : the default one).
  std::string embeddingModel;
  /// Moves per episode.
  unsigned maxSteps = 30;
  /// Exploration when playing a trained model.
  double epsilon = 0.05;
  /// Probability that an episode starts from one of the fastest programs
  /// measured so far rather than from the original (off by default: see
  /// docs/agent.md, "Where episodes start", for the stall it can meet).
  double fromElite = 0;
  /// Starts the search as annealing does: the heuristic pass's candidates
  /// are measured first and are the first elites (episodes still start
  /// from an elite only with probability `fromElite`).
  bool fromHeuristic = false;
  /// Cost-model gradient steps after each real evaluation.
  unsigned costModelSteps = 40;
  /// The search's work ratio: programs above it do not run (KernelPlay).
  double maxWorkRatio = 4;
};

/// Why `options` cannot be played: a model missing or of another
/// embedding, version or size, an embedding that cannot be created.
/// Checked before a search starts.
llvm::Error checkOptions(const PerfLLMOptions &options);

std::unique_ptr<Strategy> createPerfLLMStrategy(const PerfLLMOptions &options);

/// Registers `perfllm` with `options` (Strategy.h, registerStrategy).
void registerPerfLLMStrategy(const PerfLLMOptions &options);

} // namespace perfdojo::agent

#endif // PERFDOJO_AGENT_PERFLLM_H
