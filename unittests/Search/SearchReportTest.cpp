//===- SearchReportTest.cpp - the search's result and report.json ---------===//

#include "perfdojo/Search/SearchReport.h"

#include "gtest/gtest.h"

using namespace perfdojo;

namespace {
SearchRecord makeRecord(size_t moves, EvaluationStatus status, double seconds,
                        std::string key) {
  SearchRecord record;
  for (size_t i = 0; i < moves; ++i)
    record.moves.push_back(MoveRequest{"join_scopes", "y", {int64_t(i)}});
  record.evaluation.status = status;
  record.evaluation.seconds = seconds;
  record.evaluation.key = std::move(key);
  return record;
}

FinalTime retimed(const SearchRecord &record, EvaluationStatus status,
                  double seconds) {
  FinalTime f{&record, {}, {}};
  f.evaluation.status = status;
  f.evaluation.seconds = seconds;
  return f;
}

TEST(FinalSelection, WithoutFinalTimesTheSearchsTimesStand) {
  SearchRecord base = makeRecord(0, EvaluationStatus::Ok, 4, "a");
  SearchRecord best = makeRecord(2, EvaluationStatus::Ok, 1, "b");
  SearchResult result = chooseResult(&best, &base, {});
  EXPECT_EQ(result.best, &best);
  EXPECT_EQ(result.bestSeconds, 1);
  EXPECT_EQ(result.baselineSeconds, 4);
  EXPECT_TRUE(result.finals.empty());
}

TEST(FinalSelection, TheFastestNewTimeWins) {
  SearchRecord base = makeRecord(0, EvaluationStatus::Ok, 4, "a");
  SearchRecord lucky = makeRecord(2, EvaluationStatus::Ok, 1, "b");
  SearchRecord steady = makeRecord(3, EvaluationStatus::Ok, 1.5, "c");
  SearchResult result =
      chooseResult(&lucky, &base,
                   {retimed(base, EvaluationStatus::Ok, 3.5),
                    retimed(steady, EvaluationStatus::Ok, 1.2),
                    retimed(lucky, EvaluationStatus::Ok, 1.4)});
  EXPECT_EQ(result.best, &steady);
  EXPECT_EQ(result.bestSeconds, 1.2);
  // The original's time is its new time too.
  EXPECT_EQ(result.baselineSeconds, 3.5);
  EXPECT_EQ(result.finals.size(), 3u);
}

TEST(FinalSelection, FailedRerunsAreIgnored) {
  SearchRecord base = makeRecord(0, EvaluationStatus::Ok, 4, "a");
  SearchRecord best = makeRecord(2, EvaluationStatus::Ok, 1, "b");
  SearchResult result =
      chooseResult(&best, &base,
                   {retimed(base, EvaluationStatus::Timeout, 0),
                    retimed(best, EvaluationStatus::Crashed, 0)});
  EXPECT_EQ(result.best, &best);
  EXPECT_EQ(result.bestSeconds, 1);
  EXPECT_EQ(result.baselineSeconds, 4);

  // The original can win.
  result = chooseResult(&best, &base,
                        {retimed(base, EvaluationStatus::Ok, 0.9),
                         retimed(best, EvaluationStatus::Ok, 1.1)});
  EXPECT_EQ(result.best, &base);
  EXPECT_EQ(result.bestSeconds, 0.9);
}

TEST(SearchReport, JsonCarriesTheSchemaVersionAndEveryDocumentedField) {
  std::vector<SearchRecord> records = {
      makeRecord(0, EvaluationStatus::Ok, 4, "a"),
      makeRecord(1, EvaluationStatus::Pruned, 0, "p"),
      makeRecord(2, EvaluationStatus::Ok, 1, "b")};
  records[1].evaluation.message = "5.0x the original kernel's leaf evaluations";
  records[2].evaluation.compileMs = 30;
  records[2].evaluation.workerSeconds = 0.5;
  SearchReport report;
  report.kernel = "softmax";
  report.input = "softmax.dojo";
  report.strategy = "random";
  report.records = records;
  report.evaluations = 2;
  report.searchSeconds = 30;
  report.searchBest = &records[2];
  report.finalRepetitions = 20;
  report.result = chooseResult(&records[2], &records[0],
                               {retimed(records[0], EvaluationStatus::Ok, 3),
                                retimed(records[2], EvaluationStatus::Ok, 2)});
  report.bestPath = {BestPathStep{0, "", records[0].evaluation},
                     BestPathStep{1, "join_scopes y 0", records[0].evaluation}};
  report.libtorch.reason = "not measured (--torch=false)";

  llvm::json::Value json = toJSON(report);
  const llvm::json::Object *o = json.getAsObject();
  ASSERT_TRUE(o);
  EXPECT_EQ(o->getInteger("schema_version"), kSearchReportSchemaVersion);
  EXPECT_EQ(kSearchReportSchemaVersion, 1);
  // docs/search-report.md, in its order.
  for (llvm::StringRef key : {"kernel",
                              "input",
                              "flops",
                              "compulsory_bytes",
                              "strategy",
                              "threads",
                              "jobs",
                              "cache_state",
                              "pages",
                              "seed",
                              "evaluations",
                              "pruned",
                              "worker_runs",
                              "cache_hits",
                              "elapsed_s",
                              "evaluations_per_minute",
                              "final_s",
                              "best_path_s",
                              "final_repetitions",
                              "final",
                              "records",
                              "best_path",
                              "libtorch",
                              "naive_time_s",
                              "best_time_s",
                              "search_best_time_s",
                              "best_moves"})
    EXPECT_TRUE(o->get(key)) << key.str();
  EXPECT_EQ(o->size(), 28u);
  EXPECT_EQ(o->getInteger("pruned"), 1);
  EXPECT_EQ(o->getNumber("evaluations_per_minute"), 4);
  EXPECT_EQ(o->getNumber("best_time_s"), 2);
  EXPECT_EQ(o->getNumber("search_best_time_s"), 1);
  EXPECT_EQ(o->getNumber("naive_time_s"), 3);
  EXPECT_EQ(o->getInteger("final_repetitions"), 20);
  EXPECT_EQ(o->getArray("best_moves")->size(), 2u);

  const llvm::json::Array &rows = *o->getArray("records");
  ASSERT_EQ(rows.size(), 3u);
  const llvm::json::Object *pruned = rows[1].getAsObject();
  EXPECT_EQ(pruned->getString("status"), "pruned");
  EXPECT_FALSE(pruned->get("time_s"));
  EXPECT_TRUE(pruned->get("message"));
  const llvm::json::Object *ok = rows[2].getAsObject();
  EXPECT_EQ(ok->getNumber("time_s"), 1);
  EXPECT_EQ(ok->getNumber("compile_ms"), 30);
  EXPECT_EQ(ok->getNumber("worker_s"), 0.5);
  EXPECT_EQ(ok->getArray("moves")->size(), 2u);

  const llvm::json::Object *first = (*o->getArray("final"))[0].getAsObject();
  EXPECT_EQ(first->getInteger("moves"), 0);
  EXPECT_EQ(first->getNumber("search_time_s"), 4);
  EXPECT_EQ(first->getNumber("time_s"), 3);
  const llvm::json::Array &path = *o->getArray("best_path");
  EXPECT_FALSE(path[0].getAsObject()->get("move"));
  EXPECT_EQ(path[1].getAsObject()->getString("move"), "join_scopes y 0");
  EXPECT_EQ(o->getObject("libtorch")->getString("reason"),
            "not measured (--torch=false)");
}

TEST(SearchReport, WithoutAValidProgram) {
  std::vector<SearchRecord> records = {
      makeRecord(0, EvaluationStatus::Failed, 0, "a")};
  SearchReport report;
  report.records = records;
  report.finalRepetitions = 20;
  report.libtorch.seconds = 0.5;
  report.libtorch.operatorName = "softmax";
  llvm::json::Value json = toJSON(report);
  const llvm::json::Object *o = json.getAsObject();
  for (llvm::StringRef key :
       {"naive_time_s", "best_time_s", "search_best_time_s", "best_moves"})
    EXPECT_FALSE(o->get(key)) << key.str();
  EXPECT_EQ(o->getInteger("final_repetitions"), 0);
  EXPECT_EQ(o->getNumber("evaluations_per_minute"), 0);
  EXPECT_EQ(o->getObject("libtorch")->getNumber("time_s"), 0.5);

  std::string text;
  llvm::raw_string_ostream os(text);
  printSearchSummary(report, os);
  EXPECT_NE(text.find("  no valid program was found\n"), std::string::npos);
  EXPECT_NE(text.find("  libtorch:        500.000 ms (softmax"),
            std::string::npos);
}
} // namespace
