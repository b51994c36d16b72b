//===- MoveFuzzerTest.cpp - the move fuzzer's API ------------------------===//
//
// The walks, the replay, the limits and the bookkeeping of
// Testing/MoveFuzzer.h on a small kernel. The tool's output format is
// checked by the lit tests (test/Moves/fuzz-*.test).
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Testing/MoveFuzzer.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace perfdojo;

namespace {
/// Two 8x16 loop nests through a temporary: 3 buffers, 4 scopes, 2 leaves.
constexpr const char *kTwoNests = "x f32 [8, 16] heap in\n"
                                  "t f32 [8, 16] heap\n"
                                  "y f32 [8, 16] heap out\n"
                                  "8 16 t[{0}, {1}] = exp(x[{0}, {1}])\n"
                                  "8 16 y[{0}, {1}] = t[{0}, {1}] * 2\n";

struct Fixture {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  dojo::KernelOp kernel;
  /// Collects the diagnostics of illegal moves instead of printing them.
  std::string diagnostics;
  ScopedDiagnosticHandler handler;

  explicit Fixture(StringRef text)
      : handler(&context, [this](Diagnostic &diag) {
          diagnostics += diag.str() + "\n";
          return success();
        }) {
    module = importDojoString(text, &context);
    kernel = module ? getSingleKernel(*module) : nullptr;
  }
};

SmallVector<MoveRequest> parse(StringRef script) {
  auto moves = parseMoveScript(script);
  EXPECT_TRUE(bool(moves)) << llvm::toString(moves.takeError());
  return moves ? std::move(*moves) : SmallVector<MoveRequest>{};
}

std::string printKernel(dojo::KernelOp kernel) {
  std::string text;
  llvm::raw_string_ostream os(text);
  exportDojo(kernel, os);
  return text;
}

std::string print(const MoveFuzzResult &result) {
  std::string text;
  llvm::raw_string_ostream os(text);
  result.print(os);
  return text;
}

TEST(MoveFuzzer, CountsTheKernelsSize) {
  Fixture f(kTwoNests);
  ASSERT_TRUE(f.kernel);
  EXPECT_EQ(countKernelNodes(f.kernel), 9u);
  EXPECT_EQ(countLeafEvaluations(f.kernel), 2 * 8 * 16);
  EXPECT_EQ(countBufferElements(f.kernel), 3 * 8 * 16);
  // The defaults' floors apply to a kernel this small.
  FuzzLimits limits = FuzzLimits::getDefaults(f.kernel);
  EXPECT_EQ(limits.maxNodes, 64u);
  EXPECT_EQ(limits.maxEvaluations, 65536);
  EXPECT_EQ(limits.maxElements, int64_t(1) << 20);
  EXPECT_TRUE(limits.admits(f.kernel));
  EXPECT_FALSE((FuzzLimits{8, 0, 0}.admits(f.kernel)));
  EXPECT_TRUE((FuzzLimits{0, 0, 0}.admits(f.kernel)));
}

TEST(MoveFuzzer, ReusedDimensionsCountOnce) {
  Fixture f("x f32 [8, 16] heap in\n"
            "t f32 [8:N, 16] heap\n"
            "y f32 [8, 16] heap out\n"
            "8 16 t[{0}, {1}] = exp(x[{0}, {1}])\n"
            "| 16 y[{0}, {1}] = t[{0}, {1}] * 2\n");
  ASSERT_TRUE(f.kernel) << f.diagnostics;
  EXPECT_EQ(countBufferElements(f.kernel), 128 + 16 + 128);
}

TEST(MoveFuzzer, ShortWalksFindNoMismatch) {
  Fixture f(kTwoNests);
  ASSERT_TRUE(f.kernel);
  MoveFuzzOptions options;
  options.walks = 3;
  options.length = 6;
  options.seed = 5;
  auto fuzzer = MoveFuzzer::create(*f.module, options);
  ASSERT_TRUE(succeeded(fuzzer));
  MoveFuzzResult result = fuzzer->runWalks();
  EXPECT_TRUE(result.passed()) << print(result);
  EXPECT_EQ(result.walks, 3u);
  EXPECT_EQ(result.moves, 18u);
  EXPECT_EQ(result.mismatches, 0u);
  EXPECT_EQ(result.inverseFailures, 0u);
  EXPECT_GE(result.largest, 9u);
  // Walks play on copies: the original is untouched.
  EXPECT_EQ(printKernel(f.kernel), kTwoNests);
}

TEST(MoveFuzzer, WalksAreReproducibleFromTheSeed) {
  Fixture f(kTwoNests);
  ASSERT_TRUE(f.kernel);
  MoveFuzzOptions options;
  options.walks = 2;
  options.length = 5;
  std::string first, second;
  llvm::raw_string_ostream firstOs(first), secondOs(second);
  options.trace = &firstOs;
  ASSERT_TRUE(succeeded(MoveFuzzer::create(*f.module, options)));
  MoveFuzzer::create(*f.module, options)->runWalks();
  options.trace = &secondOs;
  MoveFuzzer::create(*f.module, options)->runWalks();
  EXPECT_EQ(first, second);
  EXPECT_EQ(first.rfind("walk 0 step 0: ", 0), 0u) << first;
  EXPECT_NE(first.find("walk 1 step 4: "), std::string::npos) << first;
}

TEST(MoveFuzzer, LimitsSkipMoves) {
  Fixture f(kTwoNests);
  ASSERT_TRUE(f.kernel);
  MoveFuzzOptions options;
  options.walks = 2;
  options.length = 5;
  // No move shrinks the kernel below its own leaf evaluations.
  options.maxEvaluations = 1;
  auto fuzzer = MoveFuzzer::create(*f.module, options);
  ASSERT_TRUE(succeeded(fuzzer));
  EXPECT_EQ(fuzzer->getLimits().maxEvaluations, 1);
  EXPECT_EQ(fuzzer->getLimits().maxNodes, 64u);
  MoveFuzzResult result = fuzzer->runWalks();
  EXPECT_TRUE(result.passed()) << print(result);
  EXPECT_EQ(result.moves, 0u);
  EXPECT_GT(result.skipped, 0u);
  EXPECT_EQ(result.largest, 9u);
}

TEST(MoveFuzzer, ReplayChecksEveryPrefix) {
  Fixture f(kTwoNests);
  ASSERT_TRUE(f.kernel);
  std::string trace;
  llvm::raw_string_ostream os(trace);
  MoveFuzzOptions options;
  options.trace = &os;
  auto fuzzer = MoveFuzzer::create(*f.module, options);
  ASSERT_TRUE(succeeded(fuzzer));
  MoveFuzzResult result =
      fuzzer->replay(parse("join_scopes t@0; reuse_dims t.0"));
  EXPECT_TRUE(result.passed()) << print(result) << f.diagnostics;
  EXPECT_EQ(result.moves, 2u);
  EXPECT_EQ(trace, "step 0: join_scopes t@0\nstep 1: reuse_dims t.0\n");
  EXPECT_EQ(print(result),
            "walks=1 moves=2 mismatches=0 inverse-failures=0 illegal=0\n"
            "script: all 2 moves legal; every prefix matches the original\n");
}

TEST(MoveFuzzer, ReplayReportsTheIllegalStep) {
  Fixture f(kTwoNests);
  ASSERT_TRUE(f.kernel);
  auto fuzzer = MoveFuzzer::create(*f.module, MoveFuzzOptions{});
  ASSERT_TRUE(succeeded(fuzzer));
  // reuse_dims t.0 is illegal before the nests are joined; the replay stops
  // there, so the third move is never made.
  MoveFuzzResult result = fuzzer->replay(
      parse("split_scope t@0 2; reuse_dims t.0; join_scopes t@0"));
  ASSERT_FALSE(result.passed());
  EXPECT_EQ(result.moves, 2u);
  EXPECT_EQ(result.illegal, 1u);
  EXPECT_EQ(result.shortestWhy, "the script's move is illegal");
  ASSERT_EQ(result.shortest->size(), 2u);
  EXPECT_EQ((*result.shortest)[1].str(), "reuse_dims t.0");
  EXPECT_NE(f.diagnostics.find("reuse_dims t.0"), std::string::npos)
      << f.diagnostics;
  EXPECT_EQ(print(result),
            "walks=1 moves=2 mismatches=0 inverse-failures=0 illegal=1\n"
            "shortest reproducer (the script's move is illegal):\n"
            "  perfdojo-opt --dojo-apply=\"split_scope t@0 2; reuse_dims "
            "t.0\"\n");
}

TEST(MoveFuzzer, ResultsPrintTheWalkSummary) {
  MoveFuzzResult result;
  result.walks = 4;
  result.moves = 7;
  result.mismatches = 1;
  result.skipped = 3;
  result.largest = 21;
  result.shortest = std::vector<MoveRequest>{};
  result.shortestWhy = "outputs differ from the original kernel: x";
  EXPECT_EQ(print(result),
            "walks=4 moves=7 mismatches=1 inverse-failures=0 skipped=3 "
            "largest=21\n"
            "shortest reproducer (outputs differ from the original kernel: "
            "x):\n"
            "  perfdojo-opt --dojo-apply=\"\"\n");
}

TEST(MoveFuzzer, ReadsScriptFiles) {
  SmallString<128> path;
  ASSERT_FALSE(
      llvm::sys::fs::createTemporaryFile("fuzz", "moves", path).value());
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << "# a comment\njoin_scopes t@0 # joins\n\nreuse_dims t.0; "
          "swap_siblings y@1\n";
  }
  auto script = readMoveScriptFile(path);
  llvm::sys::fs::remove(path);
  ASSERT_TRUE(bool(script)) << llvm::toString(script.takeError());
  ASSERT_EQ(script->size(), 3u);
  EXPECT_EQ((*script)[0].str(), "join_scopes t@0");
  EXPECT_EQ((*script)[2].str(), "swap_siblings y@1");

  auto missing = readMoveScriptFile(path);
  ASSERT_FALSE(bool(missing));
  EXPECT_EQ(llvm::toString(missing.takeError()).rfind("cannot read '", 0), 0u);
}
} // namespace
