//===- ReferenceKernelTest.cpp - the f64 reference of a kernel ------------===//

#include "perfdojo/Runtime/ReferenceKernel.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

namespace {
std::string print(KernelOp kernel) {
  std::string text;
  llvm::raw_string_ostream os(text);
  exportDojo(kernel, os);
  return text;
}

TEST(ReferenceKernel, PromotesFloatBuffersAndClearsModesAndLocations) {
  MLIRContext ctx;
  // A moved kernel: a `:N` stack buffer, register lanes, modes.
  OwningOpRef<ModuleOp> module = importDojoString(
      "x f32 [8, 32] heap in\n"
      "t f32 [8:N, 32] stack\n"
      "r f32 [16] reg\n"
      "s f32 [8] heap out\n"
      "8:p 2 16:v t[{0}, {1}*16+{2}] = exp(x[{0}, {1}*16+{2}])\n"
      "| 16:v r[{1}] = 0\n"
      "| 2 16:v r[{2}] += t[{0}, {1}*16+{2}]\n"
      "| s[{0}] = 0.1\n"
      "| 16:u s[{0}] += r[{1}]\n",
      &ctx);
  ASSERT_TRUE(module);
  KernelOp kernel = getSingleKernel(*module);
  std::string before = print(kernel);
  FailureOr<OwningOpRef<KernelOp>> promoted = promoteToF64(kernel);
  ASSERT_TRUE(succeeded(promoted));
  EXPECT_EQ(print(**promoted),
            "x f64 [8, 32] heap in\n"
            "t f64 [8:N, 32] heap\n"
            "r f64 [16] heap\n"
            "s f64 [8] heap out\n"
            "8 2 16 t[{0}, {1}*16+{2}] = exp(x[{0}, {1}*16+{2}])\n"
            "| 16 r[{1}] = 0\n"
            "| 2 16 r[{2}] += t[{0}, {1}*16+{2}]\n"
            "| s[{0}] = 0.1\n"
            "| 16 s[{0}] += r[{1}]\n");
  EXPECT_TRUE(succeeded(verify(**promoted)));
  // The kernel itself is untouched.
  EXPECT_EQ(print(kernel), before);
}

TEST(ReferenceKernel, KeepsIntegerAndF64BuffersAndPromotesHalves) {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module = importDojoString("a f16 [4] heap in\n"
                                                  "b bf16 [4] heap out\n"
                                                  "c f64 [4] heap out\n"
                                                  "i i32 [4] heap out\n"
                                                  "4 c[{0}] = {0}\n"
                                                  "| i[{0}] = {0} * 3\n"
                                                  "4 b[{0}] = 1\n",
                                                  &ctx);
  ASSERT_TRUE(module);
  FailureOr<OwningOpRef<KernelOp>> promoted =
      promoteToF64(getSingleKernel(*module));
  ASSERT_TRUE(succeeded(promoted));
  EXPECT_EQ(print(**promoted), "a f64 [4] heap in\n"
                               "b f64 [4] heap out\n"
                               "c f64 [4] heap out\n"
                               "i i32 [4] heap out\n"
                               "4 c[{0}] = {0}\n"
                               "| i[{0}] = {0} * 3\n"
                               "4 b[{0}] = 1\n");
  Builder b(&ctx);
  EXPECT_TRUE(isPromotedToF64(b.getF32Type()));
  EXPECT_TRUE(isPromotedToF64(b.getBF16Type()));
  EXPECT_FALSE(isPromotedToF64(b.getF64Type()));
  EXPECT_FALSE(isPromotedToF64(b.getI8Type()));
}
} // namespace
