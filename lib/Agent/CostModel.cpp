//===- CostModel.cpp - a learned estimate of a program's speedup ----------===//

#include "perfdojo/Agent/CostModel.h"

#include <cmath>

using namespace perfdojo;
using namespace perfdojo::agent;

CostModel::CostModel(int64_t features, int64_t hidden, uint64_t seed)
    : features(features), random(seed) {
  torch::manual_seed(seed);
  net = torch::nn::Sequential(torch::nn::Linear(2 * features, hidden),
                              torch::nn::ReLU(),
                              torch::nn::Linear(hidden, hidden),
                              torch::nn::ReLU(), torch::nn::Linear(hidden, 1));
  optimizer = std::make_unique<torch::optim::Adam>(
      net->parameters(), torch::optim::AdamOptions(1e-3));
}

torch::Tensor CostModel::input(const torch::Tensor &original,
                               const torch::Tensor &program) const {
  return torch::cat({program, program - original});
}

void CostModel::add(const torch::Tensor &original,
                    const torch::Tensor &program,
                    std::optional<double> speedup) {
  inputs.push_back(input(original, program));
  targets.push_back(std::log(speedup && *speedup > 0 ? *speedup
                                                     : kFailedSpeedup));
}

std::optional<double> CostModel::fit(unsigned steps, unsigned batch) {
  if (targets.empty())
    return std::nullopt;
  std::optional<double> last;
  for (unsigned step = 0; step < steps; ++step) {
    std::vector<torch::Tensor> rows;
    std::vector<float> wanted;
    for (unsigned i = 0; i < std::min<size_t>(batch, targets.size()); ++i) {
      // Every other row from the records after the prior, when any.
      size_t first = i % 2 && prior < targets.size() ? prior : 0;
      size_t k = std::uniform_int_distribution<size_t>(first,
                                                       targets.size() - 1)(
          random);
      rows.push_back(inputs[k]);
      wanted.push_back(targets[k]);
    }
    torch::Tensor loss = torch::mse_loss(
        net->forward(torch::stack(rows)).squeeze(1), torch::tensor(wanted));
    optimizer->zero_grad();
    loss.backward();
    optimizer->step();
    last = loss.item<double>();
  }
  return last;
}

double CostModel::predict(const torch::Tensor &original,
                          const torch::Tensor &program) {
  if (targets.empty())
    return 1;
  torch::NoGradGuard noGrad;
  double log = net->forward(input(original, program).unsqueeze(0)).item<double>();
  // Within the range the records span, so an extrapolation cannot promise
  // an absurd reward.
  return std::exp(std::clamp(log, std::log(kFailedSpeedup), std::log(1e3)));
}

llvm::Error CostModel::save(llvm::StringRef path) {
  try {
    torch::serialize::OutputArchive archive, model, records;
    net->save(model);
    archive.write("features", torch::tensor(features));
    archive.write("model", model);
    if (!targets.empty()) {
      archive.write("inputs", torch::stack(inputs));
      archive.write("targets", torch::tensor(targets));
    }
    archive.save_to(path.str());
  } catch (const c10::Error &error) {
    return llvm::createStringError("cannot write '" + path +
                                   "': " + error.what_without_backtrace());
  }
  return llvm::Error::success();
}

llvm::Error CostModel::load(llvm::StringRef path) {
  try {
    torch::serialize::InputArchive archive, model;
    archive.load_from(path.str());
    torch::Tensor saved;
    archive.read("features", saved);
    if (saved.item<int64_t>() != features)
      return llvm::createStringError(
          "'" + path + "' is a model of " +
          std::to_string(saved.item<int64_t>()) + " features, not " +
          std::to_string(features));
    archive.read("model", model);
    net->load(model);
    inputs.clear();
    targets.clear();
    prior = 0;
    torch::Tensor savedInputs, savedTargets;
    if (archive.try_read("inputs", savedInputs) &&
        archive.try_read("targets", savedTargets)) {
      for (int64_t i = 0; i < savedInputs.size(0); ++i) {
        inputs.push_back(savedInputs[i].clone());
        targets.push_back(savedTargets[i].item<float>());
      }
    }
  } catch (const c10::Error &error) {
    return llvm::createStringError("cannot read '" + path +
                                   "': " + error.what_without_backtrace());
  }
  return llvm::Error::success();
}
