//===- GpuExpertRulesTest.cpp - the GPU expert pass on the library --------===//
//
// Every library kernel mapped by the GPU expert rules, in every variant: it
// gets a grid and threads, computes what the original computes (the
// interpreter on the same inputs), and lowers to PTX with its launch plan. Running the PTX
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

/// Expects `mapped` to compute the outputs `expected` of `original` (the
/// interpreter on the same inputs, within the reduction's tolerance).
void expectSameOutputs(dojo::KernelOp original,
                       const std::vector<HostBuffer> &expected,
                       dojo::KernelOp mapped) {
  int64_t reduction = getMaxReductionLength(original);
  std::vector<HostBuffer> actual = runInterpreter(mapped);
  ASSERT_EQ(actual.size(), expected.size());
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
}

int countModes(dojo::KernelOp kernel, dojo::Mode mode) {
  int n = 0;
  kernel.walk([&](dojo::ScopeOp scope) { n += scope.getMode() == mode; });
  return n;
}

/// The program the expert rules (with `variant`) make of the kernel `text`.
std::string mapKernel(llvm::StringRef text,
                      const GpuExpertVariant &variant = {}) {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module = importDojoString(text, &ctx);
  EXPECT_TRUE(module) << text.str();
  if (!module)
    return "";
  TargetDescription target = *TargetDescription::getGpu("sm_90");
  Game game(getSingleKernel(*module), MoveOptions{true, target});
  applyGpuExpertRules(game, target, variant);
  return game.print();
}

class GpuExpertRulesTest : public testing::TestWithParam<std::string> {};

TEST_P(GpuExpertRulesTest, MapsComputesTheSameAndLowersToPtx) {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module = loadKernelFile(GetParam(), &ctx);
  ASSERT_TRUE(module);
  dojo::KernelOp original = getSingleKernel(*module);
  TargetDescription target = *TargetDescription::getGpu("sm_90");
  std::vector<HostBuffer> expected = runInterpreter(original);
  // Every variant the heuristic strategy times, and each with register
  // tiles allowed at these small sizes (they would leave too few threads
  // on a real GPU, but must compute the same).
  std::vector<GpuExpertVariant> variants = getGpuExpertVariants();
  size_t real = variants.size();
  for (size_t v = 0; v < real; ++v) {
    variants.push_back(variants[v]);
    variants.back().minTileThreads = 2;
  }
  for (size_t v = 0; v < variants.size(); ++v) {
    Game game(original, MoveOptions{true, target});
    applyGpuExpertRules(game, target, variants[v]);
    dojo::KernelOp mapped = game.getKernel();
    SCOPED_TRACE("variant " + std::to_string(v) + ":\n" + game.print());
    EXPECT_GE(countModes(mapped, dojo::Mode::gpu_grid), 1);
    // A small tile may take every iteration (no thread left).
    if (v < real)
      EXPECT_GE(countModes(mapped, dojo::Mode::gpu_block), 1);

    expectSameOutputs(original, expected, mapped);

    auto compiled =
        GpuKernel::compile(mapped, GpuCompileOptions{"sm_90", true});
    ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
    EXPECT_NE((*compiled)->getBinary().find(".entry"), std::string::npos);
    bool parallelLaunch = false;
    for (const gpu::PlanLaunch *launch : (*compiled)->getPlan().getLaunches())
      parallelLaunch |=
          launch->grid[0] > 1 && launch->getThreadsPerBlock() > 1;
    EXPECT_TRUE(parallelLaunch || v >= real);
  }
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

TEST(GpuExpertRules, GemmGetsRegisterTilesOfTheVariant) {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module =
      importDojoString("a f32 [768, 1024] heap in\n"
                       "b f32 [1024, 1024] heap in\n"
                       "c f32 [768, 1024] heap out\n"
                       "768 1024 c[{0}, {1}] = 0\n"
                       "| | 1024 c[{0}, {1}] += a[{0}, {2}] * b[{2}, {1}]\n",
                       &ctx);
  ASSERT_TRUE(module);
  TargetDescription target = *TargetDescription::getGpu("sm_90");
  Game game(getSingleKernel(*module), MoveOptions{true, target});
  applyGpuExpertRules(game, target);
  // 4 rows x 4 lanes per thread, the reduction outside the tile: one
  // 128-bit load of b and 4 scalars of a per 16 FMAs.
  EXPECT_NE(game.print().find(
                "192:g 256:b 4:u 4:v c[{0}*4+{2}, {1}*4+{3}] = 0\n"
                "| | 1024 4:u 4:v c[{0}*4+{3}, {1}*4+{4}] += "
                "a[{0}*4+{3}, {2}] * b[{2}, {1}*4+{4}]"),
            std::string::npos)
      << game.print();
  Game plain(getSingleKernel(*module), MoveOptions{true, target});
  GpuExpertVariant untiled;
  untiled.tileRows = 0;
  applyGpuExpertRules(plain, target, untiled);
  EXPECT_NE(plain.print().find("768:g 1024:b c[{0}, {1}] = 0"),
            std::string::npos)
      << plain.print();
}

TEST(GpuExpertRules, SmallBlocksTakeASecondThreadDimension) {
  MLIRContext ctx;
  // 13 column tiles per row: 16 rows of tiles join them in the block.
  OwningOpRef<ModuleOp> module = loadKernelFile("kernels/conv_large_c.dojo",
                                                &ctx);
  ASSERT_TRUE(module);
  TargetDescription target = *TargetDescription::getGpu("sm_90");
  Game game(getSingleKernel(*module), MoveOptions{true, target});
  applyGpuExpertRules(game, target);
  EXPECT_NE(game.print().find("8:g 54:g 16:b 13:b 4:u 4:v y["),
            std::string::npos)
      << game.print();
  Game narrow(getSingleKernel(*module), MoveOptions{true, target});
  GpuExpertVariant oneDimension;
  oneDimension.minBlockThreads = 0;
  applyGpuExpertRules(narrow, target, oneDimension);
  EXPECT_NE(narrow.print().find("8:g 54:g 16:g 13:b 4:u 4:v y["),
            std::string::npos)
      << narrow.print();
}

TEST(GpuExpertRules, ARowsPhasesFuseIntoOneLaunchOfOneBlockShape) {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module = loadKernelFile("kernels/layernorm.dojo", &ctx);
  ASSERT_TRUE(module);
  TargetDescription target = *TargetDescription::getGpu("sm_90");
  Game game(getSingleKernel(*module), MoveOptions{true, target});
  applyGpuExpertRules(game, target);
  std::string text = game.print();
  // One launch: the row's statistics stay in block-shared memory, and
  // every phase has the reductions' 32 threads (the elementwise ones as 8
  // steps of 32 threads x 4 lanes).
  EXPECT_NE(text.find("m f32 [16384:N] gpu_shared"), std::string::npos)
      << text;
  EXPECT_NE(text.find("| 8 32:b 4:v y[{0}, {1}*128+{2}*4+{3}] = x["),
            std::string::npos)
      << text;
  auto compiled =
      GpuKernel::compile(game.getKernel(), GpuCompileOptions{"sm_90", true});
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  EXPECT_EQ((*compiled)->getPlan().getLaunches().size(), 1u);

  GpuExpertVariant unfused;
  unfused.fuseLaunches = false;
  Game separate(getSingleKernel(*module), MoveOptions{true, target});
  applyGpuExpertRules(separate, target, unfused);
  compiled =
      GpuKernel::compile(separate.getKernel(), GpuCompileOptions{"sm_90", true});
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  EXPECT_EQ((*compiled)->getPlan().getLaunches().size(), 4u);
}

TEST(GpuExpertRules, NoRegisterTilesThatLeaveTooFewThreads) {
  // 256 x 448 outputs: 4 x 4 tiles would leave 7,168 threads (the
  // reduction not split across blocks here).
  GpuExpertVariant unsplit;
  unsplit.splitThreads = 0;
  std::string text =
      mapKernel("x f32 [256, 4096] heap in\n"
                "w f32 [4096, 448] heap in\n"
                "y f32 [256, 448] heap out\n"
                "256 448 y[{0}, {1}] = 0\n"
                "| | 4096 y[{0}, {1}] += x[{0}, {2}] * w[{2}, {1}]\n",
                unsplit);
  EXPECT_NE(text.find("256:g 448:b y[{0}, {1}] = 0"), std::string::npos)
      << text;
}

TEST(GpuExpertRules, ReductionsWithFewOutputsAreSplitAcrossBlocks) {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module =
      importDojoString("x f32 [4, 1024] heap in\n"
                       "w f32 [1024, 8] heap in\n"
                       "y f32 [4, 8] heap out\n"
                       "4 8 y[{0}, {1}] = 0\n"
                       "| | 1024 y[{0}, {1}] += x[{0}, {2}] * w[{2}, {1}]\n",
                       &ctx);
  ASSERT_TRUE(module);
  dojo::KernelOp original = getSingleKernel(*module);
  TargetDescription target = *TargetDescription::getGpu("sm_90");
  // 32 outputs; with 128 threads wanted, 4 slices of 256 terms.
  GpuExpertVariant variant;
  variant.splitThreads = 128;
  Game game(original, MoveOptions{true, target});
  applyGpuExpertRules(game, target, variant);
  std::string text = game.print();
  EXPECT_NE(text.find("y_p f32 [4, 8, 4] stack"), std::string::npos) << text;
  EXPECT_NE(text.find("4:g 4:g 8:b y_p[{1}, {2}, {0}] = 0\n"
                      "| | | 256 y_p[{1}, {2}, {0}] += x[{1}, {0}*256+{3}] * "
                      "w[{0}*256+{3}, {2}]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("4 y[{0}, {1}] += y_p[{0}, {1}, {2}]"), std::string::npos)
      << text;

  std::vector<HostBuffer> expected = runInterpreter(original);
  std::vector<HostBuffer> actual = runInterpreter(game.getKernel());
  Comparison comparison = compareBuffers(
      actual[2], expected[2],
      getRelativeTolerance(original.lookupArray("y").getElementType(), 1024));
  EXPECT_TRUE(comparison.passed()) << describe(comparison);
  auto compiled =
      GpuKernel::compile(game.getKernel(), GpuCompileOptions{"sm_90", true});
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());

  // Not where the outputs alone are enough threads.
  variant.splitThreads = 32;
  Game whole(original, MoveOptions{true, target});
  applyGpuExpertRules(whole, target, variant);
  EXPECT_EQ(whole.print().find("y_p"), std::string::npos) << whole.print();
}

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

TEST(GpuExpertRules, RowReductionsShareFewPartialsInBlockSharedMemory) {
  std::string text = mapKernel("x f32 [16384, 1024] heap in\n"
                               "m f32 [16384] heap out\n"
                               "16384 m[{0}] = 0\n"
                               "| 1024 m[{0}] += x[{0}, {1}]\n");
  // 1024 terms: 32 threads (about sqrt(1024), one warp) of 32 coalesced
  // terms each; the partials in block-shared memory, one copy per block
  // (the grid's dimension reused), combined by the block's threads (a
  // block reduction: warp shuffles).
  EXPECT_NE(text.find("m_p f32 [16384:N, 32] gpu_shared"), std::string::npos)
      << text;
  EXPECT_NE(text.find("| 32 32:b m_p[{0}, {2}] += x[{0}, {1}*32+{2}]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("| 32:b m[{0}] += m_p[{0}, {1}]"), std::string::npos)
      << text;
}

TEST(GpuExpertRules, PartialsCombineOnThreadZeroWithoutBlockCombine) {
  GpuExpertVariant serial;
  serial.blockCombine = false;
  std::string text = mapKernel("x f32 [16384, 1024] heap in\n"
                               "m f32 [16384] heap out\n"
                               "16384 m[{0}] = 0\n"
                               "| 1024 m[{0}] += x[{0}, {1}]\n",
                               serial);
  EXPECT_NE(text.find("| 32 m[{0}] += m_p[{0}, {1}]"), std::string::npos)
      << text;
}

TEST(GpuExpertRules, ReductionsOverSeveralScopesSplitIntoBlocks) {
  // 64 channels of 8 x 300 x 300 terms: too few outputs for threads, and
  // no split of the batch reaches 2^18 of them, so each of the 8 batch
  // iterations is a slice and slices x channels the grid (512 blocks);
  // each block's 300 threads share a slice's 300 x 300 terms. They
  // combine their 300 partials as a block reduction over 320 lanes (the
  // block padded to 10 whole warps, TargetDescription::
  // getBlockReductionLanes); the 8 slices of a channel combine as another.
  std::string text =
      mapKernel("x f32 [8, 64, 300, 300] heap in\n"
                "m f32 [64] heap out\n"
                "64 m[{0}] = 0\n"
                "| 8 300 300 m[{0}] += x[{1}, {0}, {2}, {3}]\n");
  EXPECT_NE(text.find("8:g 64:g m_p[{1}, {0}] = 0"), std::string::npos)
      << text;
  EXPECT_NE(text.find("| | 300 300:b m_p_p[{1}, {0}, {3}] += "
                      "x[{0}, {1}, {2}, {3}]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("| | 300:b m_p[{1}, {0}] += m_p_p[{1}, {0}, {2}]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("| 8:b m[{0}] += m_p1[{0}, {1}]"), std::string::npos)
      << text;
  MLIRContext ctx;
  OwningOpRef<ModuleOp> mapped = importDojoString(text, &ctx);
  ASSERT_TRUE(mapped);
  auto compiled = GpuKernel::compile(getSingleKernel(*mapped),
                                     GpuCompileOptions{"sm_90", true});
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  EXPECT_NE((*compiled)->getBinary().find(".maxntid 320, 1, 1"),
            std::string::npos);
}

TEST(GpuExpertRules, ReductionLanesBecome128BitLoads) {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module =
      importDojoString("x f32 [4096, 4096] heap in\n"
                       "y f32 [4096] heap out\n"
                       "4096 y[{0}] = 0\n"
                       "| 4096 y[{0}] += x[{0}, {1}]\n",
                       &ctx);
  ASSERT_TRUE(module);
  TargetDescription target = *TargetDescription::getGpu("sm_90");
  GpuExpertVariant lanes;
  lanes.reductionLanes = 4;
  Game game(getSingleKernel(*module), MoveOptions{true, target});
  applyGpuExpertRules(game, target, lanes);
  // 64 threads, each taking 4 adjacent terms per step (unrolled).
  EXPECT_NE(game.print().find(
                "| 16 64:b 4:u y_p[{0}, {2}] += x[{0}, {1}*256+{2}*4+{3}]"),
            std::string::npos)
      << game.print();
  // The kernel's buffers are 16-byte aligned: the 4 loads merge.
  auto compiled =
      GpuKernel::compile(game.getKernel(), GpuCompileOptions{"sm_90", true});
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  EXPECT_NE((*compiled)->getBinary().find("ld.global.nc.v4.b32"),
            std::string::npos);
}

TEST(GpuExpertRules, NestedReductionsTakeUpToABlockOfPartials) {
  // Without the split across blocks: 8 x 300 x 300 terms per channel, 300
  // of them innermost: every iteration of the innermost scope a thread (no
  // multiple of the warp divides 300), each accumulating over the 8 x 300
  // outer ones; the 300 partials combine as a block reduction (320 lanes).
  GpuExpertVariant noSplit;
  noSplit.splitThreads = 0;
  std::string text =
      mapKernel("x f32 [8, 64, 300, 300] heap in\n"
                "m f32 [64] heap out\n"
                "64 m[{0}] = 0\n"
                "| 8 300 300 m[{0}] += x[{1}, {0}, {2}, {3}]\n",
                noSplit);
  EXPECT_NE(text.find("| 300:b m[{0}] += m_p[{0}, {1}]"), std::string::npos)
      << text;
  EXPECT_NE(text.find("m_p f32 [64:N, 300] gpu_shared"), std::string::npos)
      << text;
  EXPECT_NE(text.find("| 8 300 300:b m_p[{0}, {3}] += x[{1}, {0}, {2}, {3}]"),
            std::string::npos)
      << text;
}

/// Maps the kernel `text` with `variant` (rule 1s's tiles), expects the
/// program to compute what the original computes and to lower to PTX with
/// no local memory (the accumulators in registers), and hands the printed
/// program and the compiled kernel to `check`.
void expectTiledMapping(
    llvm::StringRef text, const GpuExpertVariant &variant,
    llvm::function_ref<void(const std::string &, const GpuKernel &)> check) {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module = importDojoString(text, &ctx);
  ASSERT_TRUE(module);
  dojo::KernelOp original = getSingleKernel(*module);
  TargetDescription target = *TargetDescription::getGpu("sm_90");
  Game game(original, MoveOptions{true, target});
  applyGpuExpertRules(game, target, variant);
  std::string program = game.print();
  SCOPED_TRACE(program);
  expectSameOutputs(original, runInterpreter(original), game.getKernel());
  auto compiled =
      GpuKernel::compile(game.getKernel(), GpuCompileOptions{"sm_90", true});
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  EXPECT_EQ((*compiled)->getBinary().find(".local"), std::string::npos);
  check(program, **compiled);
}

TEST(GpuExpertRules, GemmsGetBlockSharedTilesAndRegisterAccumulators) {
  // Rule 1s: blocks of 4x8 threads computing 16x32 outputs of each batch,
  // 4x4 per thread, k tiles of 8 of both operands in block-shared memory.
  GpuExpertVariant tiled;
  tiled.sharedTile = {4, 8, 16, 32, 8};
  expectTiledMapping(
      "a f32 [2, 64, 48] heap in\n"
      "b f32 [2, 48, 96] heap in\n"
      "c f32 [2, 64, 96] heap out\n"
      "2 64 96 c[{0}, {1}, {2}] = 0\n"
      "| | | 48 c[{0}, {1}, {2}] += a[{0}, {1}, {3}] * b[{0}, {3}, {2}]\n",
      tiled, [](const std::string &text, const GpuKernel &compiled) {
        // The accumulators: the grid's dimensions reused, each thread's
        // 4x4 its own.
        EXPECT_NE(text.find("c_s f32 [2:N, 4:N, 4, 4, 3:N, 8, 4] gpu_local"),
                  std::string::npos);
        EXPECT_NE(text.find("a_t f32 [1:N, 16, 8] gpu_shared"),
                  std::string::npos);
        EXPECT_NE(text.find("b_t f32 [1:N, 8, 32] gpu_shared"),
                  std::string::npos);
        EXPECT_NE(text.find("2:g 4:g 3:g 4:b 8:b 4:u 4:v c_s[{0}, {1}, {3}, "
                            "{5}, {2}, {4}, {6}] = 0\n"),
                  std::string::npos);
        // Both tiles filled by every thread (b's by 128-bit vectors), then
        // the k tile's 8 steps of 4x4 FMAs per thread.
        EXPECT_NE(text.find("| | | 6 1 4 4:b 8:b a_t["), std::string::npos);
        EXPECT_NE(text.find("| | | | 1 2 4:b 8:b 4:v b_t["),
                  std::string::npos);
        EXPECT_NE(text.find("| | | | 4:b 8:b 8:u 4:u 4:v c_s[{0}, {1}, {4}, "
                            "{7}, {2}, {5}, {8}] += a_t[0, {4}*4+{7}, {6}] * "
                            "b_t[0, {6}, {5}*4+{8}]"),
                  std::string::npos);
        EXPECT_NE(text.find("| | | 4:b 8:b 4:u 4:v c[{0}, {1}*16+{3}*4+{5}, "
                            "{2}*32+{4}*4+{6}] = c_s["),
                  std::string::npos);
        // One launch of 2x4x3 blocks of 32 threads, both tiles in its
        // dynamic shared memory.
        std::vector<const gpu::PlanLaunch *> launches =
            compiled.getPlan().getLaunches();
        ASSERT_EQ(launches.size(), 1u);
        EXPECT_EQ(launches[0]->getThreadsPerBlock(), 32u);
        EXPECT_EQ(launches[0]->grid[0] * launches[0]->grid[1] *
                      launches[0]->grid[2],
                  24u);
        EXPECT_EQ(launches[0]->sharedBytes, (16u * 8 + 8 * 32) * 4);
        EXPECT_NE(compiled.getBinary().find("bar.sync"), std::string::npos);
      });
}

TEST(GpuExpertRules, SharedTilesOfAReductionSplitAcrossBlocks) {
  // 32x64 outputs, fewer than the variant's split threads: rule 1 splits
  // the 512 terms into 4 slices of partials c_p[i, j, s] first, then rule
  // 1s tiles the partials' nest with the slices as a batch (the staged
  // copy's dimensions and the copy-out's scopes in the nest's order).
  GpuExpertVariant tiled;
  tiled.sharedTile = {4, 8, 16, 32, 8};
  tiled.splitThreads = 4 * 32 * 64;
  expectTiledMapping(
      "a f32 [32, 512] heap in\n"
      "b f32 [512, 64] heap in\n"
      "c f32 [32, 64] heap out\n"
      "32 64 c[{0}, {1}] = 0\n"
      "| | 512 c[{0}, {1}] += a[{0}, {2}] * b[{2}, {1}]\n",
      tiled, [](const std::string &text, const GpuKernel &) {
        EXPECT_NE(text.find("c_p f32 [32, 64, 4] stack"), std::string::npos);
        EXPECT_NE(text.find("c_p_s f32 [4:N, 2:N, 4, 4, 2:N, 8, 4] gpu_local"),
                  std::string::npos);
        EXPECT_NE(text.find("4:g 2:g 2:g 4:b 8:b 4:u 4:v c_p_s["),
                  std::string::npos);
        EXPECT_NE(text.find("| | | 4:b 8:b 4:u 4:u c_p[{1}*16+{3}*4+{5}, "
                            "{2}*32+{4}*4+{6}, {0}] = c_p_s["),
                  std::string::npos);
      });
}

TEST(GpuExpertRules, SharedTilesOnlyWhereTheyDivide) {
  // 100 rows: no whole 16-row tiles, so rule 1s leaves the GEMM to the
  // other rules (register tiles here, at this size with none left as
  // threads: a plain mapping).
  GpuExpertVariant tiled;
  tiled.sharedTile = {4, 8, 16, 32, 8};
  std::string text =
      mapKernel("a f32 [100, 48] heap in\n"
                "b f32 [48, 96] heap in\n"
                "c f32 [100, 96] heap out\n"
                "100 96 c[{0}, {1}] = 0\n"
                "| | 48 c[{0}, {1}] += a[{0}, {2}] * b[{2}, {1}]\n",
                tiled);
  EXPECT_EQ(text.find("gpu_shared"), std::string::npos) << text;
  EXPECT_EQ(text.find("c_s"), std::string::npos) << text;
  EXPECT_NE(text.find(":g"), std::string::npos) << text;
  // The variants the search times include rule 1s's tiles.
  EXPECT_TRUE(llvm::any_of(getGpuExpertVariants(),
                           [](const GpuExpertVariant &v) {
                             return v.sharedTile.isSet();
                           }));
}

} // namespace
