//===- RecordLogTest.cpp - records.jsonl survives kills -------------------===//

#include "perfdojo/Tune/RecordLog.h"
#include "perfdojo/Support/FileIO.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace perfdojo;
using namespace perfdojo::tune;

namespace {

class RecordLogTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("records", dir));
    path = (dir + "/records.jsonl").str();
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }
  std::string contents() {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    return buffer ? (*buffer)->getBuffer().str() : "<unreadable>";
  }
  EvaluationRecord makeRecord(llvm::StringRef key, double seconds) {
    EvaluationRecord record;
    record.kernelHash = "0123456789abcdef";
    record.threads = 2;
    record.moves.push_back(*parseMoveRequest("set_parallel y#0@0"));
    record.evaluation.status = EvaluationStatus::Ok;
    record.evaluation.seconds = seconds;
    record.evaluation.key = key.str();
    return record;
  }
  llvm::SmallString<128> dir;
  std::string path;
};

TEST_F(RecordLogTest, WritesAndReadsBack) {
  {
    llvm::Expected<std::unique_ptr<RecordLog>> log = RecordLog::open(path);
    ASSERT_TRUE(bool(log)) << llvm::toString(log.takeError());
    EXPECT_TRUE((*log)->getEvaluations().empty());
    ASSERT_FALSE(bool((*log)->append(makeRecord("k1-t2", 1e-3))));
    UnitResult result;
    result.unit = "u1";
    result.function = "f_t2";
    result.threads = 2;
    result.bestSeconds = 1e-3;
    result.originalSeconds = 4e-3;
    result.validated = true;
    result.moves = makeRecord("", 0).moves;
    ASSERT_FALSE(bool((*log)->append(result)));
    EXPECT_EQ((*log)->getResults().count("u1"), 1u);
  }
  llvm::Expected<std::unique_ptr<RecordLog>> log = RecordLog::open(path);
  ASSERT_TRUE(bool(log)) << llvm::toString(log.takeError());
  ASSERT_EQ((*log)->getEvaluations().size(), 1u);
  const EvaluationRecord &record = (*log)->getEvaluations()[0];
  EXPECT_EQ(record.evaluation.key, "k1-t2");
  EXPECT_EQ(record.evaluation.seconds, 1e-3);
  EXPECT_EQ(record.threads, 2u);
  ASSERT_EQ(record.moves.size(), 1u);
  EXPECT_EQ(record.moves[0].str(), "set_parallel y#0@0");
  const UnitResult &result = (*log)->getResults().lookup("u1");
  EXPECT_EQ(result.function, "f_t2");
  EXPECT_EQ(result.originalSeconds, 4e-3);
  EXPECT_TRUE(result.validated);
  EXPECT_FALSE((*log)->droppedTornLine());
}

TEST_F(RecordLogTest, DropsAndCutsATornLastLine) {
  {
    auto log = RecordLog::open(path);
    ASSERT_TRUE(bool(log));
    ASSERT_FALSE(bool((*log)->append(makeRecord("k1-t2", 1))));
  }
  std::string whole = contents();
  ASSERT_FALSE(bool(writeFile(path, whole + "{\"kind\":\"evaluation\",\"ev")));
  {
    auto log = RecordLog::open(path);
    ASSERT_TRUE(bool(log)) << llvm::toString(log.takeError());
    EXPECT_TRUE((*log)->droppedTornLine());
    EXPECT_EQ((*log)->getEvaluations().size(), 1u);
    EXPECT_EQ(contents(), whole); // cut before appending
    ASSERT_FALSE(bool((*log)->append(makeRecord("k2-t2", 2))));
  }
  auto log = RecordLog::open(path);
  ASSERT_TRUE(bool(log)) << llvm::toString(log.takeError());
  EXPECT_EQ((*log)->getEvaluations().size(), 2u);
}

TEST_F(RecordLogTest, KeepsALastRecordThatLostOnlyItsNewline) {
  {
    auto log = RecordLog::open(path);
    ASSERT_TRUE(bool(log));
    ASSERT_FALSE(bool((*log)->append(makeRecord("k1-t2", 1))));
  }
  std::string whole = contents();
  ASSERT_FALSE(bool(writeFile(path, llvm::StringRef(whole).drop_back())));
  {
    auto log = RecordLog::open(path);
    ASSERT_TRUE(bool(log));
    EXPECT_FALSE((*log)->droppedTornLine());
    EXPECT_EQ((*log)->getEvaluations().size(), 1u);
    ASSERT_FALSE(bool((*log)->append(makeRecord("k2-t2", 2))));
  }
  auto log = RecordLog::open(path);
  ASSERT_TRUE(bool(log)) << llvm::toString(log.takeError());
  EXPECT_EQ((*log)->getEvaluations().size(), 2u);
}

TEST_F(RecordLogTest, DamageBeforeTheLastLineIsAnError) {
  ASSERT_FALSE(bool(writeFile(path, "{\"kind\": \"nonsense\"}\n{}\n")));
  auto log = RecordLog::open(path);
  ASSERT_FALSE(bool(log));
  std::string message = llvm::toString(log.takeError());
  EXPECT_NE(message.find("records.jsonl:1: not a record"), std::string::npos)
      << message;
}

} // namespace
