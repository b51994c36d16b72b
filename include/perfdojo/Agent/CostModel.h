//===- CostModel.h - a learned estimate of a program's speedup --*- C++ -*-===//
//
// Real evaluations cost about a second; a DQN needs tens of thousands of
// rewards. Between real evaluations the agent is rewarded with this
// model's estimate of a program's speedup over its original, learned from
// the real evaluations so far (refit as they arrive). Its input is the
// program's features and their difference from the original's (the same
// program features the agent reads), its output the log of the speedup, so
// kernels of any size share one scale. A program that does not run is
// learned as a speedup of kFailedSpeedup.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_AGENT_COSTMODEL_H
#define PERFDOJO_AGENT_COSTMODEL_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <torch/torch.h>

#include <optional>
#include <random>

namespace perfdojo::agent {

/// The speedup a program that fails to run is learned as.
constexpr double kFailedSpeedup = 0.1;

class CostModel {
public:
  CostModel(int64_t features, int64_t hidden = 128, uint64_t seed = 0);

  /// Records a real evaluation: `speedup` of the program of features
  /// `program` over the original of features `original` (nullopt: it
  /// does not run).
  void add(const torch::Tensor &original, const torch::Tensor &program,
           std::optional<double> speedup);
  size_t size() const { return targets.size(); }

  /// Makes the records so far a prior (those of the kernels a model was
  /// trained on): from now on, while there are newer records, half of each
  /// minibatch comes from them, so a few measurements of a new kernel are
  /// not lost among a training run's thousand.
  void markPrior() { prior = targets.size(); }

  /// Gradient steps on minibatches of the records (none while there are
  /// no records). Returns the last minibatch's mean squared error of the
  /// log speedup, when a step was taken.
  std::optional<double> fit(unsigned steps, unsigned batch = 64);

  /// The estimated speedup (1 before any record).
  double predict(const torch::Tensor &original, const torch::Tensor &program);

  llvm::Error save(llvm::StringRef path);
  llvm::Error load(llvm::StringRef path);

private:
  torch::Tensor input(const torch::Tensor &original,
                      const torch::Tensor &program) const;

  int64_t features;
  torch::nn::Sequential net{nullptr};
  std::unique_ptr<torch::optim::Adam> optimizer;
  std::vector<torch::Tensor> inputs;
  std::vector<float> targets;
  size_t prior = 0;
  std::mt19937_64 random;
};

} // namespace perfdojo::agent

#endif // PERFDOJO_AGENT_COSTMODEL_H
