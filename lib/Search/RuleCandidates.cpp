//===- RuleCandidates.cpp - the rule sets by name -------------------------===//

#include "perfdojo/Search/RuleCandidates.h"

#include "MoveRules.h"

#include "llvm/ADT/StringSwitch.h"

using namespace perfdojo;

std::optional<RuleSet> perfdojo::parseRuleSet(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<RuleSet>>(name)
      .Case("naive", RuleSet::Naive)
      .Case("greedy", RuleSet::Greedy)
      .Case("heuristic", RuleSet::Heuristic)
      .Default(std::nullopt);
}

std::vector<MoveSequence>
perfdojo::proposeRuleCandidates(RuleSet rules, dojo::KernelOp kernel,
                                const MoveOptions &options,
                                unsigned maxCandidates) {
  switch (rules) {
  case RuleSet::Naive: {
    Game game(kernel, options);
    applyNaiveRules(game);
    if (game.history().empty())
      return {};
    return {MoveSequence(game.history().begin(), game.history().end())};
  }
  case RuleSet::Greedy:
    return proposeGreedyCandidates(kernel, options, maxCandidates);
  case RuleSet::Heuristic:
    return proposeHeuristicCandidates(kernel, options, maxCandidates);
  }
  llvm_unreachable("unknown rule set");
}
