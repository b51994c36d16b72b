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
    module = importDojoString(text, &context);
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

TEST(Game, RedoReappliesWhatUndoTookBackUntilTheNextMove) {
  Fixture f(kFig6);
  ASSERT_TRUE(f.kernel);
  Game game(f.kernel);
  std::string start = game.print();
  EXPECT_FALSE(game.redo());
  ASSERT_FALSE(llvm::errorToBool(game.apply("join_scopes t@0")));
  ASSERT_FALSE(llvm::errorToBool(game.apply("reuse_dims t.0")));
  std::string end = game.print();
  ASSERT_TRUE(game.undo());
  ASSERT_TRUE(game.undo());
  ASSERT_EQ(game.undone().size(), 2u);
  EXPECT_EQ(game.undone().back().str(), "join_scopes t@0");
  EXPECT_TRUE(game.redo());
  EXPECT_TRUE(game.redo());
  EXPECT_FALSE(game.redo());
  EXPECT_EQ(game.print(), end);
  EXPECT_EQ(game.history().size(), 2u);
  // A new move forgets the undone ones.
  ASSERT_TRUE(game.undo());
  ASSERT_FALSE(llvm::errorToBool(game.apply("join_scopes t@1")));
  EXPECT_TRUE(game.undone().empty());
  EXPECT_FALSE(game.redo());
  while (game.undo()) {
  }
  EXPECT_EQ(game.print(), start);
}

TEST(Game, ForkIsIndependentAndDeterministic) {
  Fixture f(kFig6);
  ASSERT_TRUE(f.kernel);
  Game game(f.kernel);
  ASSERT_FALSE(llvm::errorToBool(game.apply("join_scopes t@0")));
  llvm::Expected<Game::Cursor> cursor = game.track("t@1");
  ASSERT_TRUE(bool(cursor));
  std::unique_ptr<Game> copy = game.fork();
  EXPECT_EQ(copy->print(), game.print());
  EXPECT_EQ(copy->history().size(), 1u);
  EXPECT_EQ(copy->getSelector(*cursor), game.getSelector(*cursor));
  // The same moves give the same text; moves on one leave the other.
  ASSERT_FALSE(llvm::errorToBool(game.apply("reuse_dims t.0")));
  ASSERT_FALSE(llvm::errorToBool(copy->apply("reuse_dims t.0")));
  EXPECT_EQ(copy->print(), game.print());
  ASSERT_TRUE(copy->undo());
  ASSERT_TRUE(copy->undo());
  EXPECT_NE(copy->print(), game.print());
  EXPECT_EQ(copy->print(), kFig6);
  EXPECT_EQ(game.history().size(), 2u);
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
  llvm::Error checked = game.check("reuse_dims t.0");
  ASSERT_TRUE(bool(checked));
  EXPECT_NE(llvm::toString(std::move(checked)).find("NM4"), std::string::npos);
  EXPECT_FALSE(llvm::errorToBool(game.check("join_scopes t@0")));
  EXPECT_TRUE(llvm::errorToBool(game.check("split_scope")));
  EXPECT_EQ(game.print(), start);
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

TEST(GameCursor, FollowsANodeThatAMoveReNests) {
  Fixture f(kFig6);
  ASSERT_TRUE(f.kernel);
  Game game(f.kernel);
  llvm::Expected<Game::Cursor> leaf = game.track("y@2");
  ASSERT_TRUE(bool(leaf));
  EXPECT_EQ(game.getSelector(*leaf), "y@2");
  // Splitting the 16 scope puts the leaf one level deeper: the old text now
  // names the new inner scope, the cursor the leaf.
  ASSERT_FALSE(llvm::errorToBool(game.apply("split_scope y@1 4")));
  EXPECT_EQ(game.getSelector(*leaf), "y@3");
  // Undo is a move like any other.
  ASSERT_TRUE(game.undo());
  EXPECT_EQ(game.getSelector(*leaf), "y@2");
  EXPECT_EQ(game.print(), kFig6); // cursors do not show in the text
}

TEST(GameCursor, FollowsRenumberedWritersAndDropsDuplicatedNodes) {
  Fixture f("x f32 [8] heap in\n"
            "t f32 [8] heap\n"
            "y f32 [8] heap out\n"
            "8 t[{0}] = x[{0}]\n"
            "8 t[{0}] *= 2\n"
            "8 y[{0}] = t[{0}]\n");
  ASSERT_TRUE(f.kernel);
  Game game(f.kernel);
  llvm::Expected<Game::Cursor> second = game.track("t#1@1");
  llvm::Expected<Game::Cursor> first = game.track("t#0@1");
  ASSERT_TRUE(bool(second) && bool(first));
  // Cutting the first scope duplicates its writer: the second writer is
  // now t#2, and the cut leaf exists twice, so its cursor is invalid.
  ASSERT_FALSE(llvm::errorToBool(game.apply("cut_scope t#0@0 4")));
  EXPECT_EQ(game.getSelector(*second), "t#2@1");
  EXPECT_EQ(game.getSelector(*first), std::nullopt);
  // An unknown selector is an error, not a cursor.
  llvm::Expected<Game::Cursor> unknown = game.track("z@0");
  EXPECT_FALSE(bool(unknown));
  llvm::consumeError(unknown.takeError());
}

namespace {
/// Non-temporal stores are a CPU lowering's: on a target without parallel
/// CPU code (Snitch) set_nontemporal is refused with the target's name and
/// never offered, while the host CPU offers and applies it.
TEST(Game, NontemporalStoresAreRefusedOffTheCpu) {
  Fixture f("x f32 [16] heap in\n"
            "y f32 [16] heap out\n"
            "16:v y[{0}] = x[{0}]\n");
  ASSERT_TRUE(f.kernel);
  MoveOptions snitch;
  snitch.target = TargetDescription::getSnitch();
  Game refused(f.kernel, snitch);
  llvm::Error error = refused.check("set_nontemporal y");
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error))
                .find("the target 'snitch' has no non-temporal stores"),
            std::string::npos);
  for (const MoveRequest &move : refused.legalMoves())
    EXPECT_NE(move.name, "set_nontemporal");

  MoveOptions cpu;
  cpu.target = TargetDescription::getCpu();
  Game game(f.kernel, cpu);
  EXPECT_FALSE(llvm::errorToBool(game.apply("set_nontemporal y")));
  EXPECT_NE(game.print().find("y f32 [16] heap out nontemporal"),
            std::string::npos);
}
} // namespace
