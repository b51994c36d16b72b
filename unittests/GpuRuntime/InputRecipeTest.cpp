//===- InputRecipeTest.cpp - regenerating inputs from a recipe ------------===//
//
// The recipe's text form (round trip, one case per parse error) and what
// generateInputs makes of a plan: values in the generator's ranges per
// element type, positive arrays, out buffers left empty, refusals. That the
// bytes equal fillInputs' is checked where both are linked
// (unittests/ExecutionEngine/GpuBundleTest.cpp).
//
//===----------------------------------------------------------------------===//

#include "perfdojo/GpuRuntime/InputRecipe.h"
#include "perfdojo/Support/Float16.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace perfdojo;
using namespace perfdojo::gpu;

namespace {

std::string parseError(const std::string &text) {
  InputRecipe recipe;
  std::string error;
  EXPECT_FALSE(InputRecipe::parse(text, recipe, error)) << text;
  return error;
}

LaunchPlan makePlan() {
  std::string error;
  std::optional<LaunchPlan> plan = LaunchPlan::parse(
      "perfdojo-launch-plan 1\n"
      "kernel k\n"
      "target sm_90 ptx\n"
      "buffer x f32 4 1000 in\n"
      "buffer d f32 4 1000 in\n"
      "buffer h f16 2 100 in\n"
      "buffer n i32 4 1000 inout\n"
      "buffer b bool 1 100 in\n"
      "buffer t f32 4 9 scratch\n"
      "buffer y f64 8 10 out\n"
      "launch k_k0 grid 1 1 1 block 1 1 1 shared 0 args buffer:0\n",
      error);
  EXPECT_TRUE(plan) << error;
  return *plan;
}

template <typename T> T element(const std::vector<char> &bytes, size_t i) {
  T value;
  std::memcpy(&value, bytes.data() + i * sizeof(T), sizeof(T));
  return value;
}

TEST(InputRecipeTest, RoundTrip) {
  InputRecipe recipe;
  recipe.seed = 18446744073709551615ULL;
  recipe.positive = {"w", "d"};
  std::string text = recipe.print();
  EXPECT_EQ(text, "perfdojo-input-recipe 1\nseed 18446744073709551615\n"
                  "positive d\npositive w\n");
  InputRecipe back;
  std::string error;
  ASSERT_TRUE(InputRecipe::parse(text, back, error)) << error;
  EXPECT_EQ(back.seed, recipe.seed);
  EXPECT_EQ(back.positive, recipe.positive);
  EXPECT_EQ(back.print(), text);
  // Comments, blank lines and spacing are read too.
  ASSERT_TRUE(InputRecipe::parse("# a recipe\n\nperfdojo-input-recipe 1\n"
                                 "  seed\t7  \n",
                                 back, error))
      << error;
  EXPECT_EQ(back.seed, 7u);
  EXPECT_TRUE(back.positive.empty());
}

TEST(InputRecipeTest, ParseErrorsNameTheLine) {
  EXPECT_EQ(parseError(""), "an empty input recipe");
  EXPECT_EQ(parseError("perfdojo-launch-plan 1\n"),
            "line 1: expected 'perfdojo-input-recipe', found "
            "'perfdojo-launch-plan'");
  EXPECT_EQ(parseError("perfdojo-input-recipe 2\nseed 1\n"),
            "line 1: this launcher reads version 1 of the input recipe");
  EXPECT_EQ(parseError("perfdojo-input-recipe 1\n"),
            "the input recipe has no seed");
  EXPECT_EQ(parseError("perfdojo-input-recipe 1\nseed -1\n"),
            "line 2: the seed '-1' is no unsigned 64-bit decimal number");
  EXPECT_EQ(parseError("perfdojo-input-recipe 1\nseed 18446744073709551616\n"),
            "line 2: the seed '18446744073709551616' is no unsigned 64-bit "
            "decimal number");
  EXPECT_EQ(parseError("perfdojo-input-recipe 1\nseed 1\nseed 2\n"),
            "line 3: a second seed");
  EXPECT_EQ(parseError("perfdojo-input-recipe 1\nseed 1\npositive a\n"
                       "positive a\n"),
            "line 4: 'a' is positive twice");
  EXPECT_EQ(parseError("perfdojo-input-recipe 1\nseed 1\nnegative a\n"),
            "line 3: unknown statement 'negative'");
  EXPECT_EQ(parseError("perfdojo-input-recipe 1\nseed 1 2\n"),
            "line 2: expected 'seed N' or 'positive NAME'");
}

TEST(InputRecipeTest, ValuesFollowTheGeneratorPerType) {
  LaunchPlan plan = makePlan();
  InputRecipe recipe;
  recipe.seed = 5;
  recipe.positive = {"d"};
  std::vector<std::vector<char>> args;
  std::string error;
  ASSERT_TRUE(generateInputs(plan, recipe, args, error)) << error;
  // One entry per argument buffer (the scratch buffer has none).
  ASSERT_EQ(args.size(), 6u);
  ASSERT_EQ(args[0].size(), 4000u);
  ASSERT_EQ(args[2].size(), 200u);
  ASSERT_EQ(args[3].size(), 4000u);
  ASSERT_EQ(args[4].size(), 100u);
  EXPECT_TRUE(args[5].empty()) << "an out buffer has no input";
  bool negative = false;
  for (size_t i = 0; i < 1000; ++i) {
    float x = element<float>(args[0], i), d = element<float>(args[1], i);
    EXPECT_TRUE(x >= -1 && x < 1) << x;
    EXPECT_TRUE(d >= 0.5 && d < 2) << d;
    negative |= x < 0;
    int32_t n = element<int32_t>(args[3], i);
    EXPECT_TRUE(n >= -8 && n < 8) << n;
  }
  EXPECT_TRUE(negative);
  for (size_t i = 0; i < 100; ++i) {
    double h = halfToDouble(element<uint16_t>(args[2], i));
    EXPECT_TRUE(h >= -1 && h <= 1) << h;
    EXPECT_LE(uint8_t(args[4][i]), 1);
  }
  // Another buffer, another stream; the same recipe, the same bytes.
  EXPECT_NE(std::memcmp(args[0].data(), args[1].data(), 400), 0);
  std::vector<std::vector<char>> again;
  ASSERT_TRUE(generateInputs(plan, recipe, again, error)) << error;
  EXPECT_EQ(again, args);
  recipe.seed = 6;
  ASSERT_TRUE(generateInputs(plan, recipe, again, error)) << error;
  EXPECT_NE(again[0], args[0]);
}

TEST(InputRecipeTest, Refusals) {
  LaunchPlan plan = makePlan();
  InputRecipe recipe;
  std::vector<std::vector<char>> args;
  std::string error;
  recipe.positive = {"y"};
  EXPECT_FALSE(generateInputs(plan, recipe, args, error));
  EXPECT_EQ(error, "the input recipe makes 'y' positive, which is no input "
                   "buffer of the plan");
  recipe.positive = {"t"};
  EXPECT_FALSE(generateInputs(plan, recipe, args, error));
  recipe.positive.clear();
  plan.buffers[0].dtype = "f8";
  EXPECT_FALSE(generateInputs(plan, recipe, args, error));
  EXPECT_EQ(error, "buffer x: the input generator has no 'f8' elements of 4 "
                   "bytes");
  plan.buffers[0].dtype = "f64";
  EXPECT_FALSE(generateInputs(plan, recipe, args, error));
  EXPECT_EQ(error, "buffer x: the input generator has no 'f64' elements of 4 "
                   "bytes");
}

} // namespace
