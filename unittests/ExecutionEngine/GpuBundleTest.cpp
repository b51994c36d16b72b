//===- GpuBundleTest.cpp - a GPU bundle's recipe regenerates its inputs ---===//
//
// The input generator has one home (Support/InputValues.h): fillInputs on
// the host and generateInputs in the standalone launcher must give the same
// bytes for every element type, positive arrays included, so a bundle
// without input files runs on the same data as one with them.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/ExecutionEngine/GpuKernel.h"
#include "perfdojo/GpuRuntime/InputRecipe.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace perfdojo;

namespace {

/// Every element type; `d` and `q` are divisors, `r` feeds rsqrt.
constexpr const char *kAllTypes =
    "a f32 [3, 5] heap in\n"
    "d f32 [5] heap in\n"
    "r f32 [5] heap in\n"
    "b f64 [7] heap in\n"
    "h f16 [7] heap in\n"
    "g bf16 [7] heap in\n"
    "i i8 [9] heap in\n"
    "j i16 [9] heap in\n"
    "k i32 [9] heap in\n"
    "q i32 [9] heap in\n"
    "l i64 [9] heap inout\n"
    "c bool [9] heap in\n"
    "y f32 [3, 5] heap out\n"
    "z f32 [5] heap out\n"
    "w i32 [9] heap out\n"
    "3 5 y[{0}, {1}] = a[{0}, {1}] / d[{1}]\n"
    "5 z[{0}] = rsqrt(r[{0}])\n"
    "9 w[{0}] = k[{0}] / q[{0}]\n";

TEST(GpuBundleTest, RecipeRegeneratesFillInputsBytes) {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module = importDojoString(kAllTypes, &ctx);
  ASSERT_TRUE(module);
  dojo::KernelOp kernel = getSingleKernel(*module);
  ASSERT_TRUE(kernel);
  auto compiled = GpuKernel::compile(kernel, GpuCompileOptions());
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  for (uint64_t seed : {0ULL, 1ULL, 123456789ULL}) {
    std::vector<HostBuffer> args = allocateArguments(kernel);
    fillInputs(kernel, args, seed);
    auto packed = (*compiled)->packArguments(args);
    ASSERT_TRUE(bool(packed)) << llvm::toString(packed.takeError());

    gpu::InputRecipe recipe;
    recipe.seed = seed;
    for (const auto &name : findPositiveArrays(kernel))
      recipe.positive.insert(name.getKey().str());
    EXPECT_EQ(recipe.positive, (std::set<std::string>{"d", "q", "r"}));
    std::vector<std::vector<char>> generated;
    std::string error;
    ASSERT_TRUE(gpu::generateInputs((*compiled)->getPlan(), recipe, generated,
                                    error))
        << error;
    const gpu::LaunchPlan &plan = (*compiled)->getPlan();
    ASSERT_EQ(generated.size(), packed->size());
    size_t argument = 0;
    for (const gpu::PlanBuffer &buffer : plan.buffers) {
      if (!buffer.isArgument())
        continue;
      size_t i = argument++;
      if (buffer.role == gpu::PlanBuffer::Role::Out)
        EXPECT_TRUE(generated[i].empty()) << buffer.name;
      else
        EXPECT_EQ(generated[i], (*packed)[i])
            << buffer.name << " (" << buffer.dtype << "), seed " << seed;
    }
  }
}

} // namespace
