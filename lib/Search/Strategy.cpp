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

namespace {
/// Strategies registered at run time, after the built-in ones.
struct Registered {
  std::string name;
  std::function<std::unique_ptr<Strategy>()> create;
};
std::vector<Registered> &getRegistered() {
  static std::vector<Registered> registered;
  return registered;
}
llvm::SmallVector<llvm::StringRef> &getNames() {
  static llvm::SmallVector<llvm::StringRef> names = [] {
    llvm::SmallVector<llvm::StringRef> list;
    for (const StrategyEntry &entry : kStrategies)
      list.push_back(entry.name);
    return list;
  }();
  return names;
}
} // namespace

std::unique_ptr<Strategy> perfdojo::createStrategy(llvm::StringRef name) {
  for (const StrategyEntry &entry : kStrategies)
    if (entry.name == name)
      return entry.create();
  for (const Registered &entry : getRegistered())
    if (entry.name == name)
      return entry.create();
  return nullptr;
}

void perfdojo::registerStrategy(
    llvm::StringRef name, std::function<std::unique_ptr<Strategy>()> create) {
  for (Registered &entry : getRegistered())
    if (entry.name == name) {
      entry.create = std::move(create);
      return;
    }
  // The name list refers into the registry: rebuilt after it grows.
  getRegistered().push_back(Registered{name.str(), std::move(create)});
  getNames().clear();
  for (const StrategyEntry &entry : kStrategies)
    getNames().push_back(entry.name);
  for (const Registered &entry : getRegistered())
    getNames().push_back(entry.name);
}

llvm::ArrayRef<llvm::StringRef> perfdojo::getStrategyNames() {
  return getNames();
}
