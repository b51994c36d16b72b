//===- Strategy.cpp - the registry of search strategies -------------------===//

#include "perfdojo/Search/Strategies.h"

using namespace perfdojo;

namespace {
struct StrategyEntry {
  llvm::StringRef name;
  std::unique_ptr<Strategy> (*create)();
};
const StrategyEntry kStrategies[] = {
    {"naive", createNaiveStrategy},
    {"greedy", createGreedyStrategy},
    {"heuristic", createHeuristicStrategy},
    {"random", createRandomStrategy},
    {"anneal", createAnnealStrategy},
};
} // namespace

std::unique_ptr<Strategy> perfdojo::createStrategy(llvm::StringRef name) {
  for (const StrategyEntry &entry : kStrategies)
    if (entry.name == name)
      return entry.create();
  return nullptr;
}

llvm::ArrayRef<llvm::StringRef> perfdojo::getStrategyNames() {
  static const llvm::SmallVector<llvm::StringRef> names = [] {
    llvm::SmallVector<llvm::StringRef> list;
    for (const StrategyEntry &entry : kStrategies)
      list.push_back(entry.name);
    return list;
  }();
  return names;
}
