//===- GameTest.cpp - the C++ game API -----------------------------------===//

#include "perfdojo/Moves/Game.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace perfdojo;

namespace {
constexpr const char *kFig6 = "x f32 [8, 16] heap in\n"
                              "t f32 [8, 16] heap\n"
                              "y f32 [8, 16] heap out\n"
                              "8 16 t[{0}, {1}] = exp(x[{0}, {1}])\n"
                              "8 16 y[{0}, {1}] = t[{0}, {1}] * 2\n";

struct Fixture {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  dojo::KernelOp kernel;
  explicit Fixture(StringRef text) {
    llvm::SourceMgr sm;
    sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "k.dojo"),
                          llvm::SMLoc());
    module = importDojo(sm, &context);
    kernel = module ? getSingleKernel(*module) : nullptr;
  }
};

TEST(Game, ApplyUndoRestoresTheExactText) {
  Fixture f(kFig6);
  ASSERT_TRUE(f.kernel);
  Game game(f.kernel);
  std::string start = game.print();
  EXPECT_EQ(start, kFig6);
  ASSERT_FALSE(llvm::errorToBool(game.apply("join_scopes t@0")));
  ASSERT_FALSE(llvm::errorToBool(game.apply("reuse_dims t.0")));
  EXPECT_NE(game.print().find("t f32 [8:N, 16] heap"), std::string::npos);
  EXPECT_EQ(game.history().size(), 2u);
  EXPECT_TRUE(game.undo());
  EXPECT_TRUE(game.undo());
  EXPECT_FALSE(game.undo());
  EXPECT_EQ(game.print(), start);
}

TEST(Game, IllegalMovesLeaveTheStateAndSayWhy) {
  Fixture f(kFig6);
  ASSERT_TRUE(f.kernel);
  Game game(f.kernel);
  std::string start = game.print();
  llvm::Error err = game.apply("reuse_dims t.0");
  ASSERT_TRUE(bool(err));
  EXPECT_NE(llvm::toString(std::move(err)).find("NM4"), std::string::npos);
  EXPECT_EQ(game.print(), start);
  EXPECT_TRUE(game.history().empty());
  llvm::Error unknown = game.apply("fuse t@0");
  ASSERT_TRUE(bool(unknown));
  EXPECT_NE(llvm::toString(std::move(unknown)).find("unknown move 'fuse'"),
            std::string::npos);
}

TEST(Game, EveryListedMoveAppliesAndUndoes) {
  Fixture f(kFig6);
  ASSERT_TRUE(f.kernel);
  Game game(f.kernel);
  std::string start = game.print();
  SmallVector<MoveRequest> legal = game.legalMoves();
  ASSERT_FALSE(legal.empty());
  for (const MoveRequest &move : legal) {
    ASSERT_FALSE(llvm::errorToBool(game.apply(move))) << move.str();
    ASSERT_TRUE(game.undo()) << move.str();
    EXPECT_EQ(game.print(), start) << move.str();
  }
}

TEST(Game, PlaysOnACopy) {
  Fixture f(kFig6);
  ASSERT_TRUE(f.kernel);
  Game game(f.kernel);
  ASSERT_FALSE(llvm::errorToBool(game.apply("join_scopes t@0")));
  std::string original;
  llvm::raw_string_ostream os(original);
  exportDojo(f.kernel, os);
  EXPECT_EQ(original, kFig6);
}
} // namespace
