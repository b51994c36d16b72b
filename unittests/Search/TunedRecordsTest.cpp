//===- TunedRecordsTest.cpp - which recorded program a kernel gets --------===//

#include "perfdojo/Search/TunedRecords.h"
#include "perfdojo/Support/FileIO.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

using namespace perfdojo;

namespace {

constexpr const char *kHash = "0123456789abcdef";

/// A search report of the kernel `kHash` at `threads` threads whose best
/// program is the single move `move`.
std::string makeReport(unsigned threads, double bestSeconds,
                       llvm::StringRef move) {
  return llvm::formatv(R"({{"threads": {0}, "best_time_s": {1},
    "best_moves": ["{2}"],
    "records": [{{"moves": [], "key": "{3}-t{0}"}, {{"moves": ["{2}"], "key": "x"}]})",
                       threads, bestSeconds, move, kHash)
      .str();
}

class TunedRecordsTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tuned", dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }
  void write(llvm::StringRef relative, llvm::StringRef contents) {
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, relative);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path));
    ASSERT_FALSE(bool(writeFile(path, contents)));
  }
  llvm::SmallString<128> dir;
};

TEST_F(TunedRecordsTest, FastestReportAtTheAskedThreads) {
  write("a/report.json", makeReport(1, 2.0, "set_parallel y@0"));
  write("b/report.json", makeReport(1, 1.0, "set_unroll y@1"));
  write("c/nested/report.json", makeReport(2, 0.5, "set_vector y@1"));
  auto records = TunedRecords::load(dir);
  ASSERT_TRUE(bool(records)) << llvm::toString(records.takeError());
  EXPECT_EQ(records->size(), 1u);
  const TunedProgram *any = records->lookup(kHash);
  ASSERT_NE(any, nullptr);
  EXPECT_EQ(any->moves.front().str(), "set_vector y@1");
  const TunedProgram *one = records->lookup(kHash, 1);
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(one->moves.front().str(), "set_unroll y@1");
  EXPECT_EQ(records->lookup(kHash, 4), nullptr);
  EXPECT_EQ(records->lookup("fedcba9876543210"), nullptr);
}

TEST_F(TunedRecordsTest, AttachedScriptWins) {
  write("a/report.json", makeReport(1, 1.0, "set_parallel y@0"));
  write(std::string(kHash) + ".moves", "# by hand\nsplit_scope y@0 4\n");
  // Only scripts directly in the directory, named by a hash, count.
  write("a/" + std::string(kHash) + ".moves", "set_unroll y@1\n");
  write("notes.moves", "not a move\n");
  auto records = TunedRecords::load(dir);
  ASSERT_TRUE(bool(records)) << llvm::toString(records.takeError());
  const TunedProgram *program = records->lookup(kHash, 1);
  ASSERT_NE(program, nullptr);
  EXPECT_TRUE(program->attached);
  EXPECT_EQ(program->moves.front().str(), "split_scope y@0 4");
}

TEST_F(TunedRecordsTest, MalformedFilesAreNamed) {
  write("r/report.json", "{\"records\": [], \"best_moves\": [\"x\"]}");
  auto records = TunedRecords::load(dir);
  ASSERT_FALSE(bool(records));
  std::string message = llvm::toString(records.takeError());
  EXPECT_NE(message.find("r/report.json"), std::string::npos) << message;
  EXPECT_NE(message.find("no record of the original kernel"),
            std::string::npos)
      << message;
  EXPECT_FALSE(bool(TunedRecords::load(std::string(dir) + "/missing")));
}

} // namespace
