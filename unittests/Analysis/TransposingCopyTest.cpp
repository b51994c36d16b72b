//===- TransposingCopyTest.cpp - the shape of a transposing copy ----------===//
//
// Analysis/TransposingCopy.h on small kernels: which `:v` copies transpose,
// how long a chain's run is, and the target's square side per type.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Analysis/TransposingCopy.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace perfdojo;

namespace {

class TransposingCopyTest : public ::testing::Test {
protected:
  /// The outermost scope of the kernel `text`'s first nest.
  dojo::ScopeOp parse(const std::string &text) {
    module = importDojoString(text, &context);
    EXPECT_TRUE(module) << text;
    if (!module)
      return {};
    dojo::KernelOp kernel = getSingleKernel(*module);
    for (Operation &op : kernel.getBlock())
      if (auto scope = dyn_cast<dojo::ScopeOp>(op))
        return scope;
    return {};
  }
  /// The scope `depth` levels below `top`, through first children.
  static dojo::ScopeOp below(dojo::ScopeOp top, unsigned depth) {
    for (unsigned d = 0; d < depth && top; ++d)
      top = dyn_cast<dojo::ScopeOp>(top.getBlock().front());
    return top;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  TargetDescription cpu = TargetDescription::getCpu();
};

TEST_F(TransposingCopyTest, ChainOverTheSourceRunIsTransposing) {
  // 8 x 3 x 3 = 72 consecutive elements of a row of w per lane: 9 squares.
  dojo::ScopeOp top = parse("w f32 [32, 32, 3, 3] heap in\n"
                            "t f32 [32, 3, 3, 32] heap out\n"
                            "4 4 8:u 3:u 3:u 8:v t[{1}*8+{2}, {3}, {4}, "
                            "{0}*8+{5}] = w[{0}*8+{5}, {1}*8+{2}, {3}, {4}]\n");
  ASSERT_TRUE(top);
  std::optional<TransposingCopy> copy =
      matchTransposingCopy(below(top, 2), cpu);
  ASSERT_TRUE(copy);
  EXPECT_EQ(copy->run, 72);
  EXPECT_EQ(copy->rows.size(), 3u);
  EXPECT_EQ(copy->lanes.square, 8);
  // Lanes read rows of w (288 elements) apart; the unrolled channel 9.
  unsigned laneDepth = 5;
  EXPECT_EQ(copy->lanes.getSourceStride(laneDepth), 288);
  EXPECT_EQ(copy->lanes.getSourceStride(2), 9);
  // The chain must start at an unrolled scope.
  EXPECT_FALSE(matchTransposingCopy(below(top, 1), cpu));
}

TEST_F(TransposingCopyTest, SixteenLanesAreTwoSquaresSideBySide) {
  dojo::ScopeOp top = parse("a f32 [32, 16] heap in\nb f32 [16, 32] heap out\n"
                            "2 16:u 16:v b[{1}, {0}*16+{2}] = a[{0}*16+{2}, "
                            "{1}]\n");
  ASSERT_TRUE(top);
  std::optional<TransposingCopy> copy =
      matchTransposingCopy(below(top, 1), cpu);
  ASSERT_TRUE(copy);
  EXPECT_EQ(copy->run, 16);
  EXPECT_EQ(copy->lanes.square, 8);
}

TEST_F(TransposingCopyTest, RunsNotOfWholeSquaresAndOtherCopiesAreNot) {
  // 12 rows: not a whole number of 8 x 8 squares.
  dojo::ScopeOp twelve = parse("a f32 [32, 16] heap in\n"
                               "c f32 [12, 32] heap out\n"
                               "4 12:u 8:v c[{1}, {0}*8+{2}] = a[{0}*8+{2}, "
                               "{1}]\n");
  ASSERT_TRUE(twelve);
  EXPECT_FALSE(matchTransposingCopy(below(twelve, 1), cpu));
  EXPECT_TRUE(matchTransposingLanes(below(twelve, 2), cpu));
  // Rows that do not read consecutive source elements (stride 2).
  dojo::ScopeOp strided = parse("a f32 [16, 16] heap in\n"
                                "b f32 [8, 16] heap out\n"
                                "2 8:u 8:v b[{1}, {0}*8+{2}] = a[{0}*8+{2}, "
                                "{1}*2]\n");
  ASSERT_TRUE(strided);
  EXPECT_FALSE(matchTransposingCopy(below(strided, 1), cpu));
  // Lanes that read consecutive elements copy, they do not transpose.
  dojo::ScopeOp plain = parse("a f32 [8, 8] heap in\nb f32 [8, 8] heap out\n"
                              "8:u 8:v b[{0}, {1}] = a[{0}, {1}]\n");
  ASSERT_TRUE(plain);
  EXPECT_FALSE(matchTransposingLanes(below(plain, 1), cpu));
  // Within one buffer the copy keeps its element order.
  dojo::ScopeOp inPlace = parse("a f32 [8, 8] heap inout\n"
                                "8:u 8:v a[{0}, {1}] = a[{1}, {0}]\n");
  ASSERT_TRUE(inPlace);
  EXPECT_FALSE(matchTransposingLanes(below(inPlace, 1), cpu));
  // 4 lanes are narrower than a square.
  dojo::ScopeOp narrow = parse("a f32 [8, 8] heap in\nb f32 [8, 8] heap out\n"
                               "2 8:u 4:v b[{1}, {0}*4+{2}] = a[{0}*4+{2}, "
                               "{1}]\n");
  ASSERT_TRUE(narrow);
  EXPECT_FALSE(matchTransposingLanes(below(narrow, 2), cpu));
}

TEST_F(TransposingCopyTest, SquareSidePerTypeAndTarget) {
  Builder b(&context);
  EXPECT_EQ(cpu.getTransposeLanes(b.getF32Type()), 8);
  EXPECT_EQ(cpu.getTransposeLanes(b.getF64Type()), 4);
  EXPECT_EQ(cpu.getTransposeLanes(b.getF16Type()), 16);
  // SSE-wide vectors: 4 x 4 f32 squares.
  EXPECT_EQ(TargetDescription::getCpu(16).getTransposeLanes(b.getF32Type()), 4);
  // A GPU and Snitch do not transpose through registers.
  EXPECT_EQ(
      TargetDescription::getGpu("sm_90")->getTransposeLanes(b.getF32Type()), 0);
  EXPECT_EQ(TargetDescription::getSnitch().getTransposeLanes(b.getF64Type()),
            0);
}

} // namespace
