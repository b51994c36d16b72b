//===- RulePasses.cpp - dojo-naive, dojo-greedy, dojo-heuristic -----------===//
//
// The rule sets of the search strategies as passes: each kernel gets the
// rules' first choice (RuleCandidates.h), applied move by move so every step
// is checked as in `dojo-apply`.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Search/Passes.h"

#include "PassSupport.h"
#include "perfdojo/Search/RuleCandidates.h"

namespace perfdojo {
#define GEN_PASS_DEF_DOJONAIVEPASS
#define GEN_PASS_DEF_DOJOGREEDYPASS
#define GEN_PASS_DEF_DOJOHEURISTICPASS
#include "perfdojo/Search/Passes.h.inc"
} // namespace perfdojo

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

namespace {

template <typename Derived, template <typename> class GeneratedBase>
class RulePass : public GeneratedBase<Derived> {
public:
  using GeneratedBase<Derived>::GeneratedBase;

  void runOnOperation() override {
    if (failed(forEachKernel(this->getOperation(), [&](KernelOp kernel) {
          return runOnKernel(kernel);
        })))
      this->signalPassFailure();
  }

private:
  LogicalResult runOnKernel(KernelOp kernel) {
    std::optional<TargetDescription> target =
        lookupTargetOption(kernel, this->target);
    if (!target)
      return failure();
    MoveOptions options{this->reassociate, *target};
    std::vector<MoveSequence> candidates =
        proposeRuleCandidates(Derived::kRules, kernel, options,
                              /*maxCandidates=*/1);
    if (candidates.empty())
      return success();
    return applyMoves(kernel, candidates.front(), options);
  }
};

class NaivePass : public RulePass<NaivePass, perfdojo::impl::DojoNaivePassBase> {
public:
  using RulePass::RulePass;
  static constexpr RuleSet kRules = RuleSet::Naive;
};

class GreedyPass : public RulePass<GreedyPass, perfdojo::impl::DojoGreedyPassBase> {
public:
  using RulePass::RulePass;
  static constexpr RuleSet kRules = RuleSet::Greedy;
};

class HeuristicPass
    : public RulePass<HeuristicPass, perfdojo::impl::DojoHeuristicPassBase> {
public:
  using RulePass::RulePass;
  static constexpr RuleSet kRules = RuleSet::Heuristic;
};

} // namespace
