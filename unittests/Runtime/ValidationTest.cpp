//===- ValidationTest.cpp - tolerance and comparison of outputs -----------===//

#include "perfdojo/Runtime/Validation.h"
#include "perfdojo/Target/DojoText/DojoText.h"

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
double inf = std::numeric_limits<double>::infinity();
double nan = std::numeric_limits<double>::quiet_NaN();

TEST(Validation, ExpectedValuesAreRoundedToTheOutputType) {
  MLIRContext ctx;
  Builder b(&ctx);
  // Beyond the type's range: an infinity of the same sign.
  EXPECT_EQ(roundToElementType(6e38, b.getF32Type()), inf);
  EXPECT_EQ(roundToElementType(-6e38, b.getF32Type()), -inf);
  EXPECT_EQ(roundToElementType(6e38, b.getF64Type()), 6e38);
  EXPECT_EQ(roundToElementType(65520, b.getF16Type()), inf);
  EXPECT_EQ(roundToElementType(65504, b.getF16Type()), 65504);
  // bf16 has f32's range with 8 bits of precision.
  EXPECT_EQ(roundToElementType(1e39, b.getBF16Type()), inf);
  EXPECT_EQ(roundToElementType(3e38, b.getBF16Type()), 0x1.c4p+127);
  // Below it: the type's subnormals, then zero.
  EXPECT_EQ(roundToElementType(1e-40, b.getF32Type()),
            static_cast<double>(1e-40f));
  EXPECT_GT(roundToElementType(1e-40, b.getF32Type()), 0);
  EXPECT_EQ(roundToElementType(1e-50, b.getF32Type()), 0);
  EXPECT_EQ(roundToElementType(1e-8, b.getF16Type()), 0);
  // Within it: nearest, ties to even.
  EXPECT_EQ(roundToElementType(1 + 0x1.0p-24, b.getF32Type()), 1);
  EXPECT_EQ(roundToElementType(1 + 0x1.8p-10, b.getF16Type()), 1 + 0x1.0p-9);
  // Integers are exact.
  EXPECT_EQ(roundToElementType(7, b.getI32Type()), 7);
}

TEST(Validation, OverflowInTheOutputTypeMatchesInfinity) {
  MLIRContext ctx;
  Builder b(&ctx);
  // A true 6e38 is inf in f32: the f32 kernel's inf matches it.
  HostBuffer actual = make({inf, -inf, 1.0}, ScalarType::f32);
  Comparison c =
      compareBuffers(actual, make({6e38, -6e38, 1.0}), 1e-6, b.getF32Type());
  EXPECT_TRUE(c.passed()) << describe(c);
  // Both infinities are the computation's own: counted, and said in words.
  EXPECT_EQ(c.nonFiniteExpected, 2);
  EXPECT_EQ(c.firstNonFiniteExpected, 0);
  EXPECT_EQ(describeNumerics(c, b.getF32Type(), 1),
            "leaves the range of f32: 2 element(s) are inf or NaN, as the f64 "
            "reference rounded to f32 is (first at element 0); they match "
            "only the same value");
  // The type comes from the buffer when none is given.
  EXPECT_TRUE(compareBuffers(actual, make({6e38, -6e38, 1.0}), 1e-6).passed());
  // Compared as f64 the same values mismatch.
  EXPECT_FALSE(
      compareBuffers(make({inf, -inf, 1.0}), make({6e38, -6e38, 1.0}), 1e-6)
          .passed());
  // An infinity of the other sign, or where the type holds the value, is a
  // mismatch; the first overflow is recorded.
  c = compareBuffers(make({1.0, inf, -inf}, ScalarType::f32),
                     make({1.0, 3e38, 6e38}), 1e-6, b.getF32Type());
  EXPECT_EQ(c.mismatches, 2);
  EXPECT_EQ(c.overflows, 1);
  EXPECT_EQ(c.firstOverflow, 1);
  EXPECT_EQ(c.overflowExpected, 3e38);
}

TEST(Validation, TinyValuesFlushLikeTheType) {
  MLIRContext ctx;
  Builder b(&ctx);
  // 1e-50 is 0 in f32; next to an RMS of about 1 the difference is nothing
  // either way, and an exact 0 expected stays exact.
  HostBuffer actual = make({0.0, 1.0}, ScalarType::f32);
  Comparison c = compareBuffers(actual, make({1e-50, 1.0}), 0, b.getF32Type());
  EXPECT_TRUE(c.passed()) << describe(c);
  EXPECT_EQ(c.maxScaledError, 0);
}

TEST(Validation, UnwrittenReferenceElementsMatchNothing) {
  double unwritten = getUnwrittenValue();
  EXPECT_TRUE(std::isnan(unwritten));
  EXPECT_TRUE(isUnwrittenValue(unwritten));
  EXPECT_FALSE(isUnwrittenValue(nan));
  // Arithmetic on it keeps the payload: a value computed from an unwritten
  // element is unwritten too.
  volatile double operand = unwritten;
  EXPECT_TRUE(isUnwrittenValue(operand + 1.0));
  EXPECT_TRUE(isUnwrittenValue(-operand));

  // The NaN the run's outputs start with does not match an element the
  // reference never wrote; a computed NaN matches a computed NaN.
  Comparison c = compareBuffers(make({nan, nan, 2.0}, ScalarType::f32),
                                make({unwritten, nan, 2.0}), 1e-6);
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_EQ(c.neverWritten, 1);
  EXPECT_EQ(c.firstNeverWritten, 0);
  EXPECT_NE(describe(c).find("1 never written by the reference (first at 0)"),
            std::string::npos)
      << describe(c);
  // The RMS ignores it.
  EXPECT_DOUBLE_EQ(c.rms, 2.0);
}

TEST(Validation, NumericsAreDescribedInWords) {
  MLIRContext ctx;
  Builder b(&ctx);
  Comparison overflow = compareBuffers(make({1.0, inf}, ScalarType::f32),
                                       make({1.0, 3e38}), 1e-6, b.getF32Type());
  EXPECT_EQ(describeNumerics(overflow, b.getF32Type(), 1),
            "overflows to inf at element 1 (the f64 reference is 3e+38)");
  Comparison off = compareBuffers(make({0.67}, ScalarType::f32), make({1.0}),
                                  1e-3, b.getF32Type());
  EXPECT_EQ(describeNumerics(off, b.getF32Type(), 25165824),
            "is off by 33% from the f64 reference (f32 rounding of a "
            "reduction of 25165824 terms)");
  EXPECT_EQ(describeNumerics(Comparison(), b.getF32Type(), 1), "");
}

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

  // 2^53 + 2 and 2^53 + 3 differ by one; as doubles they would be equal.
  // Integers compare exactly at tolerance 0 (getOutputTolerance's for any
  // kernel that converts no computed float).
  actual.setInt(2, big + 1);
  actual.setInt(3, big + 4);
  Comparison c = compareBuffers(actual, expected, /*tolerance=*/0);
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

namespace {
TEST(Validation, IntegersFromComputedFloatsMatchWithinOneUnit) {
  // Without a tolerance, integers compare exactly.
  Comparison exact = compareExactly(make({1000001, 5}, ScalarType::i32),
                                    make({1000000, 5}, ScalarType::i32));
  EXPECT_EQ(exact.mismatches, 1);
  // With one, an element may be one unit plus the tolerance off.
  Comparison within = compareExactly(make({1000001, 5}, ScalarType::i32),
                                     make({1000000, 5}, ScalarType::i32), 1e-6);
  EXPECT_TRUE(within.passed()) << describe(within);
  EXPECT_GT(within.maxScaledError, 0);
  EXPECT_NE(describe(within).find("match within one unit"), std::string::npos)
      << describe(within);
  Comparison beyond = compareExactly(make({1000003, 5}, ScalarType::i32),
                                     make({1000000, 5}, ScalarType::i32), 1e-6);
  EXPECT_EQ(beyond.mismatches, 1);
  EXPECT_NE(describe(beyond).find("within one unit and the converted "
                                  "float's tolerance"),
            std::string::npos)
      << describe(beyond);
}

TEST(Validation, OnlyConvertedComputedFloatsLoosenIntegerOutputs) {
  MLIRContext ctx;
  Builder b(&ctx);
  auto kernelOf = [&](const char *text) {
    OwningOpRef<ModuleOp> module = importDojoString(text, &ctx);
    EXPECT_TRUE(module);
    return module;
  };
  // An input converted: the reference sees the kernel's very values.
  OwningOpRef<ModuleOp> input = kernelOf("x f32 [4] heap in\n"
                                         "y i32 [4] heap out\n"
                                         "4 y[{0}] = x[{0}]\n");
  EXPECT_EQ(getOutputTolerance(getSingleKernel(*input), b.getI32Type(), 1), 0);
  // A computed float converted: the f32 tolerance, for integer outputs.
  OwningOpRef<ModuleOp> computed = kernelOf("x f32 [4] heap in\n"
                                            "t f32 [4] heap\n"
                                            "y i32 [4] heap out\n"
                                            "z bool [4] heap out\n"
                                            "4 t[{0}] = x[{0}] * 1000\n"
                                            "| y[{0}] = t[{0}]\n"
                                            "| z[{0}] = t[{0}]\n");
  dojo::KernelOp kernel = getSingleKernel(*computed);
  EXPECT_EQ(getOutputTolerance(kernel, b.getI32Type(), 1),
            getRelativeTolerance(b.getF32Type(), 1));
  EXPECT_EQ(getOutputTolerance(kernel, b.getI1Type(), 1), 0);
  EXPECT_EQ(getOutputTolerance(kernel, b.getF32Type(), 1),
            getRelativeTolerance(b.getF32Type(), 1));
}
} // namespace
