//===- InputGeneratorTest.cpp - deterministic, op-aware input data --------===//

#include "perfdojo/Runtime/HostBuffer.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace perfdojo;

namespace {
OwningOpRef<ModuleOp> parse(MLIRContext &ctx, llvm::StringRef text) {
  return importDojoString(text, &ctx);
}

constexpr const char *kKernel = "a f32 [64] heap in\n"
                                "b f32 [64] heap in\n"
                                "c f32 [64] heap in\n"
                                "y f32 [64] heap out\n"
                                "64 y[{0}] = log(a[{0}])\n"
                                "| y[{0}] += b[{0}] / c[{0}]\n";

TEST(InputGenerator, SameSeedSameData) {
  MLIRContext ctx;
  auto module = parse(ctx, kKernel);
  ASSERT_TRUE(module);
  dojo::KernelOp kernel = getSingleKernel(*module);
  auto first = allocateArguments(kernel), second = allocateArguments(kernel);
  fillInputs(kernel, first, 7);
  fillInputs(kernel, second, 7);
  for (size_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < first[i].size(); ++j)
      EXPECT_EQ(first[i].get(j), second[i].get(j));
  auto other = allocateArguments(kernel);
  fillInputs(kernel, other, 8);
  EXPECT_NE(first[0].get(0), other[0].get(0));
}

TEST(InputGenerator, PositiveWhereTheOperationNeedsIt) {
  MLIRContext ctx;
  auto module = parse(ctx, kKernel);
  ASSERT_TRUE(module);
  dojo::KernelOp kernel = getSingleKernel(*module);
  auto args = allocateArguments(kernel);
  fillInputs(kernel, args, 0);
  bool bHasNegative = false;
  for (int64_t j = 0; j < 64; ++j) {
    EXPECT_GE(args[0].get(j), 0.5) << "log operand";
    EXPECT_GE(args[2].get(j), 0.5) << "divisor";
    EXPECT_LT(args[1].get(j), 1.0);
    bHasNegative |= args[1].get(j) < 0;
    EXPECT_TRUE(std::isnan(args[3].get(j))) << "outputs start undefined";
  }
  EXPECT_TRUE(bHasNegative) << "plain inputs span [-1, 1)";
}

TEST(InputGenerator, ReferenceModeAllocatesF64ForFloats) {
  MLIRContext ctx;
  auto module = parse(ctx, kKernel);
  ASSERT_TRUE(module);
  auto args = allocateArguments(getSingleKernel(*module), ScalarType::f64);
  ASSERT_EQ(args.size(), 4u);
  for (const HostBuffer &arg : args)
    EXPECT_EQ(arg.getType(), ScalarType::f64);
}

constexpr const char *kIntegerKernel = "a i32 [256] heap in\n"
                                       "d i32 [256] heap in\n"
                                       "p bool [256] heap in\n"
                                       "h f16 [256] heap in\n"
                                       "y i32 [256] heap out\n"
                                       "q bool [256] heap out\n"
                                       "g f16 [256] heap out\n"
                                       "256 y[{0}] = a[{0}] / d[{0}]\n"
                                       "| q[{0}] = p[{0}]\n"
                                       "| g[{0}] = h[{0}]\n";

TEST(InputGenerator, EveryTypeGetsItsOwnKindOfData) {
  MLIRContext ctx;
  auto module = parse(ctx, kIntegerKernel);
  ASSERT_TRUE(module);
  dojo::KernelOp kernel = getSingleKernel(*module);
  auto args = allocateArguments(kernel);
  ASSERT_EQ(args.size(), 7u);
  EXPECT_EQ(args[0].getType(), ScalarType::i32);
  EXPECT_EQ(args[2].getType(), ScalarType::i1);
  EXPECT_EQ(args[3].getType(), ScalarType::f16);
  fillInputs(kernel, args, 0);
  bool negative = false, zero = false, trueSeen = false, falseSeen = false;
  for (int64_t j = 0; j < 256; ++j) {
    int64_t a = args[0].getInt(j), d = args[1].getInt(j), p = args[2].getInt(j);
    EXPECT_GE(a, -8);
    EXPECT_LT(a, 8);
    negative |= a < 0;
    zero |= a == 0;
    EXPECT_GE(d, 1) << "divisors are nonzero";
    EXPECT_LT(d, 8);
    EXPECT_TRUE(p == 0 || p == 1);
    trueSeen |= p == 1;
    falseSeen |= p == 0;
    double h = args[3].get(j);
    EXPECT_GE(h, -1);
    EXPECT_LE(h, 1);
    // Outputs hold the undefined pattern.
    EXPECT_EQ(args[4].getInt(j), -1515870811);
    EXPECT_EQ(static_cast<const uint8_t *>(args[5].data())[j], 0xA5);
    EXPECT_TRUE(std::isnan(args[6].get(j)));
  }
  EXPECT_TRUE(negative && zero) << "integers span [-8, 8)";
  EXPECT_TRUE(trueSeen && falseSeen);
}

TEST(InputGenerator, ReferenceModeKeepsIntegerTypes) {
  MLIRContext ctx;
  auto module = parse(ctx, kIntegerKernel);
  ASSERT_TRUE(module);
  auto args = allocateArguments(getSingleKernel(*module), ScalarType::f64);
  EXPECT_EQ(args[0].getType(), ScalarType::i32);
  EXPECT_EQ(args[2].getType(), ScalarType::i1);
  EXPECT_EQ(args[3].getType(), ScalarType::f64);
}
} // namespace
