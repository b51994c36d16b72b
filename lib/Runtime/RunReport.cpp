//===- RunReport.cpp - the result of one kernel run, as text and JSON -----===//
//
// The JSON field names here are the schema of docs/run-report.md; change
// both together (and kRunReportSchemaVersion when a field changes meaning).
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Runtime/RunReport.h"
#include "perfdojo/Support/ToolFlags.h"

#include "llvm/Support/Format.h"

#include <cmath>
#include <limits>

using namespace perfdojo;

bool OutputSummary::passed() const {
  if (!comparison || comparison->passed())
    return true;
  return isOriginalOff() && againstOriginal && againstOriginal->passed();
}

bool RunReport::passed() const {
  return llvm::all_of(outputs,
                      [](const OutputSummary &o) { return o.passed(); });
}

void perfdojo::computeChecksums(const HostBuffer &buffer, double &sum,
                                double &l2) {
  sum = 0;
  l2 = 0;
  for (int64_t i = 0; i < buffer.size(); ++i) {
    double v = buffer.get(i);
    sum += v;
    l2 += v * v;
  }
  l2 = std::sqrt(l2);
}

std::optional<RooflineSummary>
perfdojo::computeRoofline(const WorkCounts &counts, double seconds,
                          double peakGflops, double peakGBps) {
  if (peakGflops <= 0 || peakGBps <= 0)
    return std::nullopt;
  RooflineSummary roofline;
  roofline.intensity = double(counts.flops) / double(counts.compulsoryBytes);
  roofline.attainableGflops =
      std::min<double>(peakGflops, roofline.intensity * peakGBps);
  roofline.percent =
      100 * (counts.flops / seconds / 1e9) / roofline.attainableGflops;
  return roofline;
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

/// A JSON number, or the string "inf", "-inf" or "nan": JSON has no
/// spelling for non-finite numbers, and printing them raw makes the whole
/// document unparsable.
static llvm::json::Value jsonNumber(double v) {
  if (std::isfinite(v))
    return v;
  if (std::isnan(v))
    return "nan";
  return v < 0 ? "-inf" : "inf";
}

/// The inverse of jsonNumber.
static std::optional<double> readNumber(const llvm::json::Value *v) {
  if (!v)
    return std::nullopt;
  if (std::optional<double> number = v->getAsNumber())
    return number;
  std::optional<llvm::StringRef> text = v->getAsString();
  if (text == "inf")
    return std::numeric_limits<double>::infinity();
  if (text == "-inf")
    return -std::numeric_limits<double>::infinity();
  if (text == "nan")
    return std::numeric_limits<double>::quiet_NaN();
  return std::nullopt;
}

llvm::json::Value perfdojo::toJSON(const RunReport &report) {
  llvm::json::Array outputs;
  for (const OutputSummary &output : report.outputs) {
    llvm::json::Object o{{"name", output.name},
                         {"type", output.type},
                         {"sum", jsonNumber(output.sum)},
                         {"l2", jsonNumber(output.l2)}};
    if (output.comparison) {
      o["valid"] = output.passed();
      o["matches_reference"] = output.comparison->passed();
      o["max_scaled_error"] = jsonNumber(output.comparison->maxScaledError);
      if (output.comparison->neverWritten)
        o["never_written"] = output.comparison->neverWritten;
    }
    if (output.original) {
      o["original_valid"] = output.original->passed();
      o["original_max_scaled_error"] =
          jsonNumber(output.original->maxScaledError);
    }
    if (output.againstOriginal)
      o["matches_original"] = output.againstOriginal->passed();
    if (!output.note.empty())
      o["note"] = output.note;
    outputs.push_back(std::move(o));
  }
  llvm::json::Object result{{"schema_version", kRunReportSchemaVersion},
                            {"kernel", report.kernel},
                            {"engine", stringifyRunEngine(report.engine)},
                            {"reference_mode", report.referenceMode},
                            {"leaf_evaluations", report.counts.leafEvaluations},
                            {"flops", report.counts.flops},
                            {"compulsory_bytes", report.counts.compulsoryBytes},
                            {"time_median_s", report.medianSeconds},
                            {"time_min_s", report.minSeconds},
                            {"repetitions", int64_t(report.repetitions)},
                            {"input_copies", int64_t(report.inputCopies)},
                            {"cache_state", getCacheStateName(report.cache)},
                            {"pages", getPageBackingName(report.pages)},
                            {"stopped_early", report.stoppedEarly},
                            {"gflops", report.gflops},
                            {"gbps", report.gbps},
                            {"outputs", std::move(outputs)}};
  if (!report.reference.empty())
    result["reference"] = report.reference;
  if (report.roofline)
    result["roofline_percent"] = report.roofline->percent;
  if (const std::optional<CompileSummary> &compile = report.compile) {
    result["threads"] = int64_t(compile->threads);
    result["opt_level"] = int64_t(compile->optLevel);
    result["compile_ms"] =
        llvm::json::Object{{"lower", compile->lowerMs},
                           {"translate", compile->translateMs},
                           {"codegen", compile->codegenMs},
                           {"total", compile->totalMs}};
  }
  if (const std::optional<SnitchSummary> &snitch = report.snitch)
    result["snitch"] =
        llvm::json::Object{{"cycles", int64_t(snitch->cycles)},
                           {"fpu_utilization", snitch->fpuUtilization},
                           {"fp_ops_per_cycle", snitch->fpOpsPerCycle},
                           {"peak_share", snitch->peakShare}};
  return result;
}

llvm::Expected<RunReport> perfdojo::parseRunReport(llvm::StringRef json) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  if (!parsed)
    return llvm::createStringError("the run report is not JSON: " +
                                   toString(parsed.takeError()));
  const llvm::json::Object *o = parsed->getAsObject();
  if (!o)
    return llvm::createStringError("the run report is not a JSON object");
  std::optional<int64_t> version = o->getInteger("schema_version");
  if (version != kRunReportSchemaVersion)
    return llvm::createStringError(
        "the run report has schema version " +
        (version ? std::to_string(*version) : std::string("(none)")) +
        ", expected " + std::to_string(kRunReportSchemaVersion));
  std::optional<double> median = o->getNumber("time_median_s");
  std::optional<llvm::StringRef> engineName = o->getString("engine");
  if (!median || !engineName)
    return llvm::createStringError(
        "the run report has no time_median_s or engine");
  llvm::Expected<RunEngine> engine = parseRunEngine(*engineName);
  if (!engine)
    return engine.takeError();

  RunReport report;
  report.kernel = o->getString("kernel").value_or("").str();
  report.engine = *engine;
  report.referenceMode = o->getBoolean("reference_mode").value_or(false);
  report.counts.leafEvaluations = o->getInteger("leaf_evaluations").value_or(0);
  report.counts.flops = o->getInteger("flops").value_or(0);
  report.counts.compulsoryBytes = o->getInteger("compulsory_bytes").value_or(0);
  report.medianSeconds = *median;
  report.minSeconds = o->getNumber("time_min_s").value_or(0);
  report.repetitions = o->getInteger("repetitions").value_or(0);
  report.inputCopies = o->getInteger("input_copies").value_or(1);
  report.cache = parseCacheState(o->getString("cache_state").value_or("cold"))
                     .value_or(CacheState::Cold);
  report.pages = parsePageBacking(o->getString("pages").value_or("huge"))
                     .value_or(PageBacking::Huge);
  report.stoppedEarly = o->getBoolean("stopped_early").value_or(false);
  report.gflops = o->getNumber("gflops").value_or(0);
  report.gbps = o->getNumber("gbps").value_or(0);
  report.reference = o->getString("reference").value_or("").str();
  if (const llvm::json::Array *outputs = o->getArray("outputs")) {
    for (const llvm::json::Value &value : *outputs) {
      const llvm::json::Object *out = value.getAsObject();
      if (!out)
        continue;
      OutputSummary output;
      output.name = out->getString("name").value_or("").str();
      output.type = out->getString("type").value_or("").str();
      output.sum = readNumber(out->get("sum")).value_or(0);
      output.l2 = readNumber(out->get("l2")).value_or(0);
      // Comparisons keep their verdict and their largest scaled error.
      auto readComparison =
          [&](llvm::StringRef validKey,
              llvm::StringRef errorKey) -> std::optional<Comparison> {
        std::optional<bool> valid = out->getBoolean(validKey);
        if (!valid)
          return std::nullopt;
        Comparison comparison;
        comparison.mismatches = *valid ? 0 : 1;
        if (!errorKey.empty())
          comparison.maxScaledError =
              readNumber(out->get(errorKey)).value_or(0);
        return comparison;
      };
      output.comparison =
          out->get("matches_reference")
              ? readComparison("matches_reference", "max_scaled_error")
              : readComparison("valid", "max_scaled_error");
      if (output.comparison)
        output.comparison->neverWritten =
            out->getInteger("never_written").value_or(0);
      output.original =
          readComparison("original_valid", "original_max_scaled_error");
      output.againstOriginal = readComparison("matches_original", "");
      output.note = out->getString("note").value_or("").str();
      report.outputs.push_back(std::move(output));
    }
  }
  if (std::optional<double> percent = o->getNumber("roofline_percent"))
    report.roofline = RooflineSummary{*percent, 0, 0};
  if (const llvm::json::Object *compileMs = o->getObject("compile_ms")) {
    CompileSummary compile;
    compile.threads = o->getInteger("threads").value_or(0);
    compile.optLevel = o->getInteger("opt_level").value_or(3);
    compile.lowerMs = compileMs->getNumber("lower").value_or(0);
    compile.translateMs = compileMs->getNumber("translate").value_or(0);
    compile.codegenMs = compileMs->getNumber("codegen").value_or(0);
    compile.totalMs = compileMs->getNumber("total").value_or(0);
    report.compile = compile;
  }
  if (const llvm::json::Object *snitch = o->getObject("snitch")) {
    SnitchSummary summary;
    summary.cycles = snitch->getInteger("cycles").value_or(0);
    summary.fpuUtilization = snitch->getNumber("fpu_utilization").value_or(0);
    summary.fpOpsPerCycle = snitch->getNumber("fp_ops_per_cycle").value_or(0);
    summary.peakShare = snitch->getNumber("peak_share").value_or(0);
    report.snitch = summary;
  }
  return report;
}

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

std::string perfdojo::describeFailure(const RunReport &report) {
  std::string text = "outputs do not match " + report.reference;
  for (const OutputSummary &output : report.outputs)
    if (!output.passed() && !output.note.empty())
      text += "\n  " + output.name + ": " + output.note;
  return text;
}

void perfdojo::printRunReport(const RunReport &report, llvm::raw_ostream &os) {
  os << "kernel " << report.kernel << ": " << report.numArguments
     << " argument(s), " << report.counts.leafEvaluations
     << " leaf evaluations, engine " << stringifyRunEngine(report.engine)
     << (report.referenceMode ? " (f64 reference mode)" : "") << "\n";
  if (const std::optional<CompileSummary> &compile = report.compile)
    os << "compile: " << llvm::format("%.1f", compile->totalMs) << " ms (lower "
       << llvm::format("%.1f", compile->lowerMs) << ", translate "
       << llvm::format("%.1f", compile->translateMs) << ", LLVM -O"
       << compile->optLevel << " + codegen "
       << llvm::format("%.1f", compile->codegenMs) << ")\n";
  for (const OutputSummary &output : report.outputs) {
    os << "output " << output.name << " " << output.type << ": sum "
       << llvm::format("%.9g", output.sum) << ", l2 "
       << llvm::format("%.9g", output.l2) << "\n";
    if (output.comparison) {
      os << "  ";
      if (output.comparison->passed())
        os << "matches";
      else if (output.passed())
        os << "matches the original kernel, which is itself off from";
      else
        os << "MISMATCH against";
      os << " " << report.reference << ": " << describe(*output.comparison)
         << "\n";
    }
    if (output.original && output.original->passed())
      os << "  the original kernel matches it too: "
         << describe(*output.original) << "\n";
    if (!output.note.empty())
      os << "  note: " << output.note << "\n";
  }
  printTimeLine(os, report.medianSeconds, report.minSeconds,
                report.repetitions, report.inputCopies, report.cache);
  if (report.stoppedEarly)
    os << ", stopped early: a call took longer than the limit";
  os << "\nrate: " << llvm::format("%.2f", report.gflops) << " GFLOP/s, "
     << llvm::format("%.2f", report.gbps) << " GB/s compulsory traffic, "
     << llvm::format("%.1f",
                     report.counts.leafEvaluations / report.minSeconds / 1e6)
     << " M leaf evaluations/s\n";
  if (const std::optional<SnitchSummary> &snitch = report.snitch)
    os << "snitch: " << snitch->cycles << " cycles, FPU utilization "
       << llvm::format("%.3f", snitch->fpuUtilization) << ", "
       << llvm::format("%.3f", snitch->fpOpsPerCycle)
       << " FP ops per cycle (" << llvm::format("%.1f", 100 * snitch->peakShare)
       << "% of the compute peak)\n";
  if (const std::optional<RooflineSummary> &roofline = report.roofline)
    os << "roofline: " << llvm::format("%.1f", roofline->percent) << "% of "
       << llvm::format("%.1f", roofline->attainableGflops)
       << " GFLOP/s attainable at " << llvm::format("%.3f", roofline->intensity)
       << " flop/byte\n";
}
