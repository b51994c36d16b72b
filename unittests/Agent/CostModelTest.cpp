//===- CostModelTest.cpp - the learned speedup estimate -------------------===//

#include "perfdojo/Agent/CostModel.h"

#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

using namespace perfdojo::agent;

namespace {
/// Programs whose speedup grows with their first feature: 2^x.
torch::Tensor program(double x) {
  torch::Tensor f = torch::zeros({4});
  f[0] = x;
  f[1] = 1;
  return f;
}

TEST(CostModel, LearnsTheOrderOfSpeedupsAndPersists) {
  CostModel model(4, 32, 0);
  torch::Tensor original = program(0);
  EXPECT_EQ(model.predict(original, program(2)), 1) << "no records yet";
  EXPECT_FALSE(model.fit(10));
  for (double x : {0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0})
    model.add(original, program(x), std::pow(2.0, x));
  model.add(original, program(-1), std::nullopt);
  ASSERT_EQ(model.size(), 8u);
  std::optional<double> loss = model.fit(600, 8);
  ASSERT_TRUE(loss);
  EXPECT_LT(*loss, 0.05);
  double slow = model.predict(original, program(0.25));
  double fast = model.predict(original, program(2.75));
  EXPECT_LT(slow, fast);
  EXPECT_NEAR(fast, std::pow(2.0, 2.75), 1.5);
  EXPECT_LT(model.predict(original, program(-1)), 0.5)
      << "a program that fails is learned as slow";

  llvm::SmallString<128> path;
  ASSERT_FALSE(
      llvm::sys::fs::createTemporaryFile("cost-model", "pt", path));
  ASSERT_FALSE(llvm::errorToBool(model.save(path)));
  CostModel again(4, 32, 5);
  ASSERT_FALSE(llvm::errorToBool(again.load(path)));
  EXPECT_EQ(again.size(), 8u);
  EXPECT_DOUBLE_EQ(again.predict(original, program(2.75)), fast);
  CostModel other(5, 32, 0);
  llvm::Error mismatch = other.load(path);
  ASSERT_TRUE(bool(mismatch));
  EXPECT_NE(llvm::toString(std::move(mismatch)).find("a model of 4 features, not 5"),
            std::string::npos);
  llvm::sys::fs::remove(path);
}

/// A prior of many records that disagree with a new kernel's few: after
/// markPrior the few weigh half of every minibatch; without it, a few in a
/// hundred.
TEST(CostModel, APriorDoesNotDrownNewRecords) {
  auto fitted = [](bool mark) {
    CostModel model(4, 32, 0);
    torch::Tensor original = program(0);
    for (int i = 0; i < 100; ++i) {
      model.add(original, program(0), 1);
      model.add(original, program(3), 1);
    }
    if (mark)
      model.markPrior();
    model.add(original, program(0), 1);
    model.add(original, program(3), 8);
    model.fit(400, 32);
    return model.predict(original, program(3));
  };
  double marked = fitted(true), unmarked = fitted(false);
  EXPECT_GT(marked, 2) << "about sqrt(8): half the weight on the new 8x";
  EXPECT_LT(unmarked, 1.5);
}
} // namespace
