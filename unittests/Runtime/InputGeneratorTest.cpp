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

TEST(InputGenerator, ReferenceModeAllocatesF64) {
  MLIRContext ctx;
  auto module = parse(ctx, kKernel);
  ASSERT_TRUE(module);
  auto args = allocateArguments(getSingleKernel(*module), ScalarType::f64);
  ASSERT_EQ(args.size(), 4u);
  for (const HostBuffer &arg : args)
    EXPECT_EQ(arg.getType(), ScalarType::f64);
}
} // namespace
