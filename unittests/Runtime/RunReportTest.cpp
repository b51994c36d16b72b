//===- RunReportTest.cpp - the run report's JSON schema and text ----------===//

#include "perfdojo/Runtime/RunReport.h"

#include "gtest/gtest.h"

#include <limits>

using namespace perfdojo;

namespace {
/// A validated JIT run with one output and the roofline.
RunReport makeReport() {
  RunReport report;
  report.kernel = "softmax";
  report.engine = RunEngine::Jit;
  report.numArguments = 2;
  report.counts = WorkCounts{100, 200, 800};
  report.medianSeconds = 2e-6;
  report.minSeconds = 1e-6;
  report.repetitions = 10;
  report.inputCopies = 4;
  report.gflops = 0.2;
  report.gbps = 0.8;
  report.reference = "the f64 reference (interpreter)";
  report.roofline = RooflineSummary{50, 0.4, 0.25};
  report.compile = CompileSummary{3, 2, 1.5, 0.5, 2.0, 4.0};
  OutputSummary y;
  y.name = "y";
  y.type = "f32 [4, 16]";
  y.sum = 64;
  y.l2 = 8;
  Comparison cmp;
  cmp.maxScaledError = 1e-7;
  cmp.tolerance = 1e-5;
  y.comparison = cmp;
  report.outputs.push_back(y);
  return report;
}

std::string print(const RunReport &report) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printRunReport(report, os);
  return text;
}

TEST(RunReport, JsonCarriesTheSchemaVersionAndEveryDocumentedField) {
  llvm::json::Value json = toJSON(makeReport());
  const llvm::json::Object *o = json.getAsObject();
  ASSERT_TRUE(o);
  EXPECT_EQ(o->getInteger("schema_version"), kRunReportSchemaVersion);
  EXPECT_EQ(kRunReportSchemaVersion, 2);
  // docs/run-report.md, in its order.
  for (llvm::StringRef key :
       {"kernel", "engine", "reference_mode", "leaf_evaluations", "flops",
        "compulsory_bytes", "time_median_s", "time_min_s", "repetitions",
        "input_copies", "cache_state", "pages", "stopped_early", "gflops",
        "gbps", "outputs", "reference",
        "roofline_percent", "threads", "opt_level", "compile_ms"})
    EXPECT_TRUE(o->get(key)) << key.str();
  EXPECT_EQ(o->size(), 22u);
  EXPECT_EQ(o->getString("cache_state"), "cold");
  EXPECT_EQ(o->getString("pages"), "huge");
  EXPECT_EQ(o->getString("engine"), "jit");
  EXPECT_EQ(o->getInteger("input_copies"), 4);
  EXPECT_EQ(o->getObject("compile_ms")->getNumber("total"), 4.0);
  const llvm::json::Object *y = (*o->getArray("outputs"))[0].getAsObject();
  ASSERT_TRUE(y);
  EXPECT_EQ(y->getString("type"), "f32 [4, 16]");
  EXPECT_EQ(y->getBoolean("valid"), true);
  EXPECT_EQ(y->getNumber("max_scaled_error"), 1e-7);
}

TEST(RunReport, OptionalFieldsAreLeftOut) {
  // An unvalidated interpreter run without peaks.
  RunReport report = makeReport();
  report.engine = RunEngine::Interp;
  report.compile.reset();
  report.roofline.reset();
  report.reference.clear();
  report.outputs[0].comparison.reset();
  llvm::json::Value json = toJSON(report);
  const llvm::json::Object *o = json.getAsObject();
  for (llvm::StringRef key :
       {"reference", "roofline_percent", "threads", "opt_level", "compile_ms"})
    EXPECT_FALSE(o->get(key)) << key.str();
  const llvm::json::Object *y = (*o->getArray("outputs"))[0].getAsObject();
  EXPECT_FALSE(y->get("valid"));
  EXPECT_FALSE(y->get("max_scaled_error"));
  EXPECT_TRUE(report.passed());
}

TEST(RunReport, NonFiniteChecksumsAreStrings) {
  RunReport report = makeReport();
  report.outputs[0].sum = -std::numeric_limits<double>::infinity();
  report.outputs[0].l2 = std::numeric_limits<double>::quiet_NaN();
  std::string text = llvm::formatv("{0}", toJSON(report)).str();
  EXPECT_NE(text.find("\"sum\":\"-inf\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"l2\":\"nan\""), std::string::npos) << text;
  llvm::Expected<RunReport> parsed = parseRunReport(text);
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(parsed->outputs[0].sum, -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(parsed->outputs[0].l2));
}

TEST(RunReport, ParsesWhatItPrints) {
  RunReport report = makeReport();
  report.outputs[0].comparison->mismatches = 3;
  report.cache = CacheState::Warm;
  report.pages = PageBacking::Small;
  report.stoppedEarly = true;
  std::string text = llvm::formatv("{0:2}", toJSON(report)).str();
  llvm::Expected<RunReport> parsed = parseRunReport(text);
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(parsed->kernel, "softmax");
  EXPECT_EQ(parsed->cache, CacheState::Warm);
  EXPECT_EQ(parsed->pages, PageBacking::Small);
  EXPECT_TRUE(parsed->stoppedEarly);
  EXPECT_EQ(parsed->engine, RunEngine::Jit);
  EXPECT_EQ(parsed->counts.flops, 200);
  EXPECT_EQ(parsed->medianSeconds, 2e-6);
  EXPECT_EQ(parsed->repetitions, 10u);
  EXPECT_EQ(parsed->inputCopies, 4u);
  EXPECT_EQ(parsed->reference, report.reference);
  ASSERT_TRUE(parsed->compile);
  EXPECT_EQ(parsed->compile->totalMs, 4.0);
  EXPECT_EQ(parsed->compile->threads, 2u);
  ASSERT_EQ(parsed->outputs.size(), 1u);
  EXPECT_FALSE(parsed->passed());
  // Printing the parsed report gives the same document.
  EXPECT_EQ(llvm::formatv("{0:2}", toJSON(*parsed)).str(), text);
}

TEST(RunReport, RefusesOtherSchemaVersions) {
  llvm::json::Value json = toJSON(makeReport());
  (*json.getAsObject())["schema_version"] = kRunReportSchemaVersion + 1;
  llvm::Expected<RunReport> parsed =
      parseRunReport(llvm::formatv("{0}", json).str());
  ASSERT_FALSE(bool(parsed));
  EXPECT_EQ(llvm::toString(parsed.takeError()),
            "the run report has schema version 3, expected 2");

  json.getAsObject()->erase("schema_version");
  parsed = parseRunReport(llvm::formatv("{0}", json).str());
  ASSERT_FALSE(bool(parsed));
  EXPECT_EQ(llvm::toString(parsed.takeError()),
            "the run report has schema version (none), expected 2");

  parsed = parseRunReport("");
  EXPECT_FALSE(bool(parsed));
  llvm::consumeError(parsed.takeError());
}

TEST(RunReport, TextForm) {
  std::string text = print(makeReport());
  EXPECT_EQ(text,
            "kernel softmax: 2 argument(s), 100 leaf evaluations, engine jit\n"
            "compile: 4.0 ms (lower 1.5, translate 0.5, LLVM -O3 + codegen "
            "2.0)\n"
            "output y f32 [4, 16]: sum 64, l2 8\n"
            "  matches the f64 reference (interpreter): max scaled error "
            "1e-07 (tolerance 1e-05)\n"
            "time: median 2.000 us, min 1.000 us over 10 run(s) rotating 4 "
            "input copies\n"
            "rate: 0.20 GFLOP/s, 0.80 GB/s compulsory traffic, 100.0 M leaf "
            "evaluations/s\n"
            "roofline: 50.0% of 0.4 GFLOP/s attainable at 0.250 flop/byte\n");
}

TEST(RunReport, Roofline) {
  // 200 flops over 800 bytes: 0.25 flop/byte; 10 GB/s bound it to 2.5
  // GFLOP/s under a 100 GFLOP/s peak; 200 flops in 1 us are 0.2 GFLOP/s.
  std::optional<RooflineSummary> roofline =
      computeRoofline(WorkCounts{100, 200, 800}, 1e-6, 100, 10);
  ASSERT_TRUE(roofline);
  EXPECT_DOUBLE_EQ(roofline->intensity, 0.25);
  EXPECT_DOUBLE_EQ(roofline->attainableGflops, 2.5);
  EXPECT_DOUBLE_EQ(roofline->percent, 8);
  EXPECT_FALSE(computeRoofline(WorkCounts{100, 200, 800}, 1e-6, 100, 0));
}
} // namespace

namespace {
TEST(RunReport, NumericsNoteFieldsRoundTrip) {
  // An output that misses the f64 reference but reproduces an original
  // that is itself off: valid, with the original's own error and a note.
  RunReport report = makeReport();
  OutputSummary &y = report.outputs[0];
  y.comparison->mismatches = 1;
  y.comparison->maxScaledError = 0.33;
  Comparison original;
  original.mismatches = 1;
  original.maxScaledError = 0.33;
  y.original = original;
  y.againstOriginal = Comparison();
  y.note = "the original kernel itself is off by 33% from the f64 reference";
  EXPECT_TRUE(y.passed());
  EXPECT_TRUE(report.passed());

  llvm::json::Value json = toJSON(report);
  const llvm::json::Object *o =
      (*json.getAsObject()->getArray("outputs"))[0].getAsObject();
  ASSERT_TRUE(o);
  EXPECT_EQ(o->getBoolean("valid"), true);
  EXPECT_EQ(o->getBoolean("matches_reference"), false);
  EXPECT_EQ(o->getBoolean("original_valid"), false);
  EXPECT_EQ(o->getNumber("original_max_scaled_error"), 0.33);
  EXPECT_EQ(o->getBoolean("matches_original"), true);
  EXPECT_EQ(o->getString("note"), y.note);

  std::string text;
  llvm::raw_string_ostream os(text);
  os << json;
  llvm::Expected<RunReport> parsed = parseRunReport(text);
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  const OutputSummary &back = parsed->outputs[0];
  EXPECT_TRUE(back.passed());
  EXPECT_FALSE(back.comparison->passed());
  EXPECT_TRUE(back.isOriginalOff());
  EXPECT_EQ(back.note, y.note);

  // Without the original's match, the same output is a mismatch; the
  // failure names it with the note.
  y.againstOriginal->mismatches = 1;
  EXPECT_FALSE(report.passed());
  EXPECT_EQ(describeFailure(report),
            "outputs do not match the f64 reference (interpreter)\n  y: " +
                y.note);
  EXPECT_NE(print(report).find("MISMATCH against"), std::string::npos);
}

TEST(RunReport, NeverWrittenElementsAreCounted) {
  RunReport report = makeReport();
  report.outputs[0].comparison->mismatches = 2;
  report.outputs[0].comparison->neverWritten = 2;
  llvm::json::Value json = toJSON(report);
  const llvm::json::Object *o =
      (*json.getAsObject()->getArray("outputs"))[0].getAsObject();
  EXPECT_EQ(o->getInteger("never_written"), 2);
  EXPECT_EQ(o->getBoolean("valid"), false);
}
} // namespace
