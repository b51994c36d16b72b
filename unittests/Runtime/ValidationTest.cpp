//===- ValidationTest.cpp - tolerance and comparison of outputs -----------===//

#include "perfdojo/Runtime/Validation.h"

#include "mlir/IR/Builders.h"
#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace perfdojo;

namespace {
HostBuffer make(std::initializer_list<double> values,
                ScalarType type = ScalarType::f64) {
  HostBuffer b("t", type, values.size());
  int64_t i = 0;
  for (double v : values)
    b.set(i++, v);
  return b;
}

TEST(Validation, ToleranceGrowsWithReductionLengthAndEpsilon) {
  MLIRContext ctx;
  Builder b(&ctx);
  double f32Short = getRelativeTolerance(b.getF32Type(), 1);
  double f32Long = getRelativeTolerance(b.getF32Type(), 1 << 20);
  double f64Long = getRelativeTolerance(b.getF64Type(), 1 << 20);
  EXPECT_NEAR(f32Short, 8 * 0x1.0p-23, 1e-15);
  EXPECT_NEAR(f32Long, 0x1.0p-23 * (4 + 4 * 1024), 1e-12);
  EXPECT_LT(f64Long, f32Long * 1e-8);
}

TEST(Validation, NearZeroValuesAreJudgedAgainstTheRms) {
  // 1e-9 off an expected 0 is tiny next to the output's RMS (about 0.8).
  Comparison c = compareBuffers(make({1.0, -1.0, 1e-9}), make({1.0, -1.0, 0}),
                                1e-6);
  EXPECT_TRUE(c.passed()) << describe(c);
  EXPECT_NEAR(c.rms, std::sqrt(2.0 / 3.0), 1e-12);
}

TEST(Validation, ReportsTheWorstMismatch) {
  Comparison c =
      compareBuffers(make({1.0, 2.0, 3.5}), make({1.0, 2.0, 3.0}), 1e-3);
  EXPECT_FALSE(c.passed());
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_EQ(c.worstIndex, 2);
  EXPECT_DOUBLE_EQ(c.worstActual, 3.5);
  EXPECT_NE(describe(c).find("1 mismatching element"), std::string::npos);
}

TEST(Validation, NonFiniteValuesMustMatchExactly) {
  double inf = std::numeric_limits<double>::infinity();
  double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(compareBuffers(make({inf, -inf, nan}), make({inf, -inf, nan}),
                             1e-6)
                  .passed());
  EXPECT_FALSE(compareBuffers(make({1.0}), make({nan}), 1e-6).passed());
  EXPECT_FALSE(compareBuffers(make({-inf}), make({inf}), 1e-6).passed());
}
} // namespace

namespace {
TEST(Validation, IntegersCompareExactlyAndReportTheFirstMismatch) {
  MLIRContext ctx;
  Builder b(&ctx);
  EXPECT_EQ(getRelativeTolerance(b.getI32Type(), 1 << 20), 0);
  EXPECT_EQ(getRelativeTolerance(b.getI1Type(), 1), 0);
  EXPECT_GT(getRelativeTolerance(b.getBF16Type(), 1),
            getRelativeTolerance(b.getF16Type(), 1));

  HostBuffer actual("y", ScalarType::i64, 4), expected("y", ScalarType::i64, 4);
  int64_t big = (int64_t(1) << 53) + 1;
  for (int i = 0; i < 4; ++i) {
    actual.setInt(i, big + i);
    expected.setInt(i, big + i);
  }
  Comparison same = compareBuffers(actual, expected, /*tolerance=*/0.5);
  EXPECT_TRUE(same.passed());
  EXPECT_TRUE(same.exact);
  EXPECT_EQ(describe(same), "exact match");

  // 2^53 + 2 and 2^53 + 3 differ by one; as doubles they would be equal,
  // and any positive tolerance would accept them.
  actual.setInt(2, big + 1);
  actual.setInt(3, big + 4);
  Comparison c = compareBuffers(actual, expected, /*tolerance=*/0.5);
  EXPECT_FALSE(c.passed());
  EXPECT_EQ(c.mismatches, 2);
  EXPECT_EQ(c.worstIndex, 2);
  EXPECT_EQ(c.firstActual, big + 1);
  EXPECT_EQ(c.firstExpected, big + 2);
  EXPECT_EQ(describe(c), "2 mismatching element(s) (exact comparison); first "
                         "at 2: got 9007199254740994, expected "
                         "9007199254740995");
}

TEST(Validation, BoolsCompareExactly) {
  HostBuffer a("p", ScalarType::i1, 3), e("p", ScalarType::i1, 3);
  for (int i = 0; i < 3; ++i) {
    a.setInt(i, i == 1);
    e.setInt(i, i != 0);
  }
  Comparison c = compareBuffers(a, e, 1.0);
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_EQ(c.worstIndex, 2);
}

TEST(Validation, HalfOutputsCompareWithinTheirEpsilon) {
  MLIRContext ctx;
  Builder b(&ctx);
  double tolerance = getRelativeTolerance(b.getF16Type(), 1);
  // One f16 ulp off at 1.0 (2^-10) passes, sixteen do not.
  Comparison near = compareBuffers(make({1.0 + 0x1.0p-10}, ScalarType::f16),
                                   make({1.0}), tolerance);
  EXPECT_TRUE(near.passed()) << describe(near);
  Comparison far = compareBuffers(make({1.0 + 0x1.0p-6}, ScalarType::f16),
                                  make({1.0}), tolerance);
  EXPECT_FALSE(far.passed()) << describe(far);
}
} // namespace
