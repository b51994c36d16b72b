//===- TargetDescriptionTest.cpp - targets by name ------------------------===//

#include "perfdojo/Dialect/Dojo/IR/TargetDescription.h"

#include "gtest/gtest.h"

using namespace perfdojo;

namespace {
TEST(TargetDescription, LookupKnowsEveryNameItLists) {
  for (llvm::StringRef name : TargetDescription::getNames()) {
    std::optional<TargetDescription> target = TargetDescription::lookup(name);
    ASSERT_TRUE(target) << name.str();
    // An alias names the chip it stands for.
    if (name != "default")
      EXPECT_EQ(target->name,
                TargetDescription::resolveGpuAlias(name).str());
  }
  EXPECT_EQ(TargetDescription::lookup("cuda")->name, "sm_90");
  EXPECT_EQ(TargetDescription::lookup("rocm")->name, "gfx942");
  EXPECT_TRUE(TargetDescription::lookup("cpu")->supports(dojo::Mode::vector));
  EXPECT_FALSE(TargetDescription::lookup("cpu")->supports(dojo::Mode::gpu_block));
  EXPECT_TRUE(TargetDescription::lookup("sm_90")->supports(dojo::Mode::gpu_block));
  EXPECT_TRUE(TargetDescription::lookup("snitch")->supports(dojo::Mode::frep));
  EXPECT_FALSE(TargetDescription::lookup("sm_1"));
  EXPECT_FALSE(TargetDescription::lookup(""));
}
} // namespace
