//===- GpuExpertRulesTest.cpp - the GPU expert pass on the library --------===//
//
// Every library kernel mapped by the GPU expert rules: it gets a grid and
// threads, computes what the original computes (the interpreter on the
// same inputs), and lowers to PTX with its launch plan. Running the PTX
// needs a GPU (docs/performance.md).
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Search/GpuExpertRules.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"
#include "perfdojo/ExecutionEngine/GpuKernel.h"
#include "perfdojo/Runtime/Interpreter.h"
#include "perfdojo/Runtime/Validation.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace perfdojo;

namespace {

std::vector<HostBuffer> runInterpreter(dojo::KernelOp kernel) {
  std::vector<HostBuffer> args = allocateArguments(kernel);
  fillInputs(kernel, args, /*seed=*/7);
  auto interp = Interpreter::create(kernel, InterpreterOptions{false});
  EXPECT_TRUE(succeeded(interp));
  if (succeeded(interp))
    if (llvm::Error err = interp->run(args))
      ADD_FAILURE() << llvm::toString(std::move(err));
  return args;
}

int countModes(dojo::KernelOp kernel, dojo::Mode mode) {
  int n = 0;
  kernel.walk([&](dojo::ScopeOp scope) { n += scope.getMode() == mode; });
  return n;
}

class GpuExpertRulesTest : public testing::TestWithParam<std::string> {};

TEST_P(GpuExpertRulesTest, MapsComputesTheSameAndLowersToPtx) {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module = loadKernelFile(GetParam(), &ctx);
  ASSERT_TRUE(module);
  dojo::KernelOp original = getSingleKernel(*module);
  TargetDescription target = *TargetDescription::getGpu("sm_90");
  Game game(original, MoveOptions{true, target});
  applyGpuExpertRules(game, target);
  dojo::KernelOp mapped = game.getKernel();
  SCOPED_TRACE(game.print());
  EXPECT_GE(countModes(mapped, dojo::Mode::gpu_grid), 1);
  EXPECT_GE(countModes(mapped, dojo::Mode::gpu_block), 1);

  std::vector<HostBuffer> expected = runInterpreter(original);
  std::vector<HostBuffer> actual = runInterpreter(mapped);
  int64_t reduction = getMaxReductionLength(original);
  for (size_t i = 0; i < actual.size(); ++i) {
    dojo::BufferOp buffer = original.lookupArray(actual[i].getName());
    if (buffer.getRole() == dojo::Role::in)
      continue;
    Comparison comparison = compareBuffers(
        actual[i], expected[i],
        getRelativeTolerance(buffer.getElementType(), reduction),
        buffer.getElementType());
    EXPECT_TRUE(comparison.passed())
        << actual[i].getName() << ": " << describe(comparison);
  }

  auto compiled = GpuKernel::compile(mapped, GpuCompileOptions{"sm_90", true});
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  EXPECT_NE((*compiled)->getBinary().find(".entry"), std::string::npos);
  bool parallelLaunch = false;
  for (const gpu::PlanLaunch *launch : (*compiled)->getPlan().getLaunches())
    parallelLaunch |= launch->grid[0] > 1 && launch->getThreadsPerBlock() > 1;
  EXPECT_TRUE(parallelLaunch);
}

/// At the paper's shapes (kernels/*.dojo, too large for the interpreter):
/// the mapping and the lowering to PTX.
class GpuExpertRulesAtScaleTest : public testing::TestWithParam<std::string> {};

TEST_P(GpuExpertRulesAtScaleTest, MapsAndLowersToPtx) {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module = loadKernelFile(GetParam(), &ctx);
  ASSERT_TRUE(module);
  TargetDescription target = *TargetDescription::getGpu("sm_90");
  Game game(getSingleKernel(*module), MoveOptions{true, target});
  applyGpuExpertRules(game, target);
  SCOPED_TRACE(game.print());
  EXPECT_GE(countModes(game.getKernel(), dojo::Mode::gpu_block), 1);
  auto compiled =
      GpuKernel::compile(game.getKernel(), GpuCompileOptions{"sm_90", true});
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  for (const gpu::PlanLaunch *launch : (*compiled)->getPlan().getLaunches())
    EXPECT_LE(launch->getThreadsPerBlock(), 1024u) << launch->function;
}

std::vector<std::string> getKernelFiles(llvm::StringRef dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end;
       !ec && it != end; it.increment(ec))
    if (llvm::StringRef(it->path()).ends_with(".dojo"))
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string getKernelName(const testing::TestParamInfo<std::string> &info) {
  return llvm::sys::path::stem(info.param).str();
}

INSTANTIATE_TEST_SUITE_P(Library, GpuExpertRulesTest,
                         testing::ValuesIn(getKernelFiles("kernels/small")),
                         getKernelName);
INSTANTIATE_TEST_SUITE_P(PaperShapes, GpuExpertRulesAtScaleTest,
                         testing::ValuesIn(getKernelFiles("kernels")),
                         getKernelName);

TEST(GpuExpertRules, ElementwiseGetsVectorLanesBlocksAndAGridNest) {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module =
      importDojoString("x f32 [6, 14336] heap in\n"
                       "y f32 [6, 14336] heap in\n"
                       "z f32 [6, 14336] heap out\n"
                       "6 14336 z[{0}, {1}] = x[{0}, {1}] * y[{0}, {1}]\n",
                       &ctx);
  ASSERT_TRUE(module);
  TargetDescription target = *TargetDescription::getGpu("sm_90");
  Game game(getSingleKernel(*module), MoveOptions{true, target});
  applyGpuExpertRules(game, target);
  // 14336 = 14 x 256 x 4: 128-bit lanes, 256 threads, a 6 x 14 grid.
  EXPECT_NE(game.print().find("6:g 14:g 256:b 4:v z["), std::string::npos)
      << game.print();
}

} // namespace
