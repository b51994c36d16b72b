//===- NaiveStrategy.cpp - fuse and reuse until exhaustion ----------------===//
//
// The paper's naive pass (4.1): apply `join_scopes` (fusion) and
// `reuse_dims` (shrinking temporaries) wherever legal, first legal move
// first, until none is left; evaluate the original and the result.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Search/RuleCandidates.h"
#include "perfdojo/Search/Strategies.h"

using namespace perfdojo;

namespace {
class NaiveStrategy : public Strategy {
public:
  llvm::StringRef getName() const override { return "naive"; }
  void run(SearchContext &context) override {
    context.evaluate({});
    context.evaluateBatch(proposeRuleCandidates(
        RuleSet::Naive, context.getOriginal(), context.getMoveOptions()));
  }
};
} // namespace

std::unique_ptr<Strategy> perfdojo::createNaiveStrategy() {
  return std::make_unique<NaiveStrategy>();
}
