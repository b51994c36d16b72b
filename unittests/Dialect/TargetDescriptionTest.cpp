//===- TargetDescriptionTest.cpp - targets by name ------------------------===//

#include "perfdojo/Dialect/Dojo/IR/TargetDescription.h"

#include "gtest/gtest.h"

using namespace perfdojo;

namespace {
TEST(TargetDescription, LookupKnowsEveryNameItLists) {
  for (llvm::StringRef name : TargetDescription::getNames()) {
    std::optional<TargetDescription> target = TargetDescription::lookup(name);
    ASSERT_TRUE(target) << name.str();
    if (name != "default")
      EXPECT_EQ(target->name, name.str());
  }
  EXPECT_TRUE(TargetDescription::lookup("cpu")->supports(dojo::Mode::vector));
  EXPECT_FALSE(TargetDescription::lookup("cpu")->supports(dojo::Mode::gpu_block));
  EXPECT_TRUE(TargetDescription::lookup("sm_90")->supports(dojo::Mode::gpu_block));
  EXPECT_TRUE(TargetDescription::lookup("snitch")->supports(dojo::Mode::frep));
  EXPECT_FALSE(TargetDescription::lookup("sm_1"));
  EXPECT_FALSE(TargetDescription::lookup(""));
}
} // namespace
