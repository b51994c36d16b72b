//===- SearchReport.cpp - what a search writes and prints -----------------===//
//
// The JSON field names here are the schema of docs/search-report.md; change
// both together (and kSearchReportSchemaVersion when a field changes
// meaning).
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Search/SearchReport.h"
#include "perfdojo/Search/FinalSelection.h"
#include "perfdojo/Support/FileIO.h"
#include "perfdojo/Support/ToolFlags.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace perfdojo;

std::vector<BestPathStep>
perfdojo::evaluateBestPath(Evaluator &evaluator,
                           llvm::ArrayRef<MoveRequest> moves) {
  std::vector<BestPathStep> steps;
  for (size_t n = 0; n <= moves.size(); ++n) {
    BestPathStep step;
    step.moves = n;
    if (n > 0)
      step.move = moves[n - 1].str();
    step.evaluation = evaluator.evaluate(moves.take_front(n));
    steps.push_back(std::move(step));
  }
  return steps;
}

SearchReport perfdojo::startSearchReport(const SearchContext &search,
                                         const Evaluator &evaluator) {
  SearchReport report;
  report.kernel = search.getOriginal().getSymName().str();
  report.work = countWork(search.getOriginal());
  report.jobs = evaluator.getJobs();
  report.cache = evaluator.getCacheState();
  report.pages = evaluator.getPageBacking();
  report.records = search.getRecords();
  report.evaluations = search.getSpentEvaluations();
  report.workerRuns = evaluator.getWorkerRuns();
  report.cacheHits = evaluator.getCacheHits();
  report.searchBest = search.getBest();
  report.searchSeconds = search.getElapsedSeconds();
  return report;
}

SearchReport perfdojo::concludeSearch(SearchContext &search,
                                      Evaluator &evaluator,
                                      const SearchConclusion &conclusion) {
  SearchReport report = startSearchReport(search, evaluator);
  report.input = conclusion.input;
  report.strategy = conclusion.strategy;
  report.threads = conclusion.threads;
  report.seed = conclusion.seed;
  report.finalRepetitions = conclusion.finalRepetitions;
  report.result = selectResult(search, conclusion.finalCandidates,
                               conclusion.finalRepetitions);
  report.finalSeconds = search.getElapsedSeconds() - report.searchSeconds;
  const SearchRecord *best = report.result.best;
  if (best && conclusion.timeBestPath)
    report.bestPath = evaluateBestPath(evaluator, best->moves);
  report.bestPathSeconds =
      search.getElapsedSeconds() - report.searchSeconds - report.finalSeconds;
  if (conclusion.libtorchTool.empty())
    report.libtorch.reason = conclusion.libtorchReason;
  else
    report.libtorch = timeLibtorch(conclusion.libtorchTool, conclusion.input,
                                   conclusion.threads, conclusion.repetitions,
                                   report.cache, conclusion.timeoutSeconds);
  return report;
}

static llvm::json::Array jsonMoves(llvm::ArrayRef<MoveRequest> moves) {
  llvm::json::Array array;
  for (const MoveRequest &m : moves)
    array.push_back(m.str());
  return array;
}

llvm::json::Value perfdojo::toJSON(const SearchReport &report) {
  llvm::json::Array records;
  unsigned pruned = 0;
  for (const SearchRecord &r : report.records) {
    pruned += r.evaluation.status == EvaluationStatus::Pruned;
    llvm::json::Object o{
        {"moves", jsonMoves(r.moves)},
        {"status", stringifyEvaluationStatus(r.evaluation.status)},
        {"key", r.evaluation.key},
        {"cached", r.evaluation.cached},
        {"elapsed_s", r.elapsedSeconds}};
    if (r.evaluation.ok()) {
      o["time_s"] = r.evaluation.seconds;
      o["compile_ms"] = r.evaluation.compileMs;
    }
    if (r.evaluation.workerSeconds > 0)
      o["worker_s"] = r.evaluation.workerSeconds;
    if (!r.evaluation.message.empty())
      o["message"] = r.evaluation.message;
    if (r.evaluation.numerics)
      o["numerics"] = true;
    records.push_back(std::move(o));
  }
  llvm::json::Array finals;
  for (const FinalTime &f : report.result.finals) {
    llvm::json::Object o{
        {"moves", int64_t(f.record->moves.size())},
        {"key", f.record->evaluation.key},
        {"search_time_s", f.record->evaluation.seconds},
        {"status", stringifyEvaluationStatus(f.evaluation.status)}};
    if (f.evaluation.ok()) {
      o["time_s"] = f.evaluation.seconds;
      o["round_times_s"] = llvm::json::Array(f.roundSeconds);
    } else {
      o["message"] = f.evaluation.message;
    }
    finals.push_back(std::move(o));
  }
  llvm::json::Array bestPath;
  for (const BestPathStep &step : report.bestPath) {
    llvm::json::Object o{
        {"moves", int64_t(step.moves)},
        {"status", stringifyEvaluationStatus(step.evaluation.status)}};
    if (step.evaluation.ok())
      o["time_s"] = step.evaluation.seconds;
    if (step.moves > 0)
      o["move"] = step.move;
    bestPath.push_back(std::move(o));
  }
  double perMinute = report.searchSeconds > 0
                         ? 60 * report.evaluations / report.searchSeconds
                         : 0.0;
  llvm::json::Object json{
      {"schema_version", kSearchReportSchemaVersion},
      {"kernel", report.kernel},
      {"input", report.input},
      {"flops", report.work.flops},
      {"compulsory_bytes", report.work.compulsoryBytes},
      {"strategy", report.strategy},
      {"threads", int64_t(report.threads)},
      {"jobs", int64_t(report.jobs)},
      {"cache_state", getCacheStateName(report.cache)},
      {"pages", getPageBackingName(report.pages)},
      {"seed", int64_t(report.seed)},
      {"evaluations", int64_t(report.evaluations)},
      {"pruned", int64_t(pruned)},
      {"worker_runs", int64_t(report.workerRuns)},
      {"cache_hits", int64_t(report.cacheHits)},
      {"elapsed_s", report.searchSeconds},
      {"evaluations_per_minute", perMinute},
      {"best_path_s", report.bestPathSeconds},
      {"final_s", report.finalSeconds},
      {"final_repetitions",
       int64_t(report.result.finals.empty() ? 0 : report.finalRepetitions)},
      {"final", std::move(finals)},
      {"records", std::move(records)},
      {"best_path", std::move(bestPath)}};
  const SearchResult &result = report.result;
  if (result.baseline)
    json["naive_time_s"] = result.baselineSeconds;
  if (report.libtorch.seconds)
    json["libtorch"] =
        llvm::json::Object{{"operator", report.libtorch.operatorName},
                           {"time_s", *report.libtorch.seconds}};
  else
    json["libtorch"] = llvm::json::Object{{"reason", report.libtorch.reason}};
  if (result.baseline && result.baseline->evaluation.cycles)
    json["original_cycles"] = int64_t(*result.baseline->evaluation.cycles);
  if (result.best && result.best->evaluation.cycles)
    json["best_cycles"] = int64_t(*result.best->evaluation.cycles);
  if (result.best) {
    json["best_time_s"] = result.bestSeconds;
    if (report.searchBest)
      json["search_best_time_s"] = report.searchBest->evaluation.seconds;
    json["best_moves"] = jsonMoves(result.best->moves);
  }
  return json;
}

llvm::ArrayRef<llvm::StringRef> perfdojo::getSearchOutputFiles() {
  static const llvm::StringRef files[] = {"report.json", "best.dojo",
                                          "best.moves", "convergence.png",
                                          "best-path.png"};
  return files;
}

llvm::Error perfdojo::writeSearchOutputs(const SearchReport &report,
                                         Evaluator &evaluator,
                                         llvm::StringRef dir) {
  std::string prefix = dir.str() + "/";
  for (llvm::StringRef file : getSearchOutputFiles())
    if (std::error_code ec = llvm::sys::fs::remove(prefix + file.str()))
      return llvm::createStringError("cannot replace '" + prefix + file.str() +
                                     "': " + ec.message());
  if (llvm::Error error = writeFile(
          prefix + "report.json", llvm::formatv("{0:2}", toJSON(report)).str()))
    return error;
  const SearchRecord *best = report.result.best;
  if (!best)
    return llvm::Error::success();
  llvm::Expected<std::string> text = evaluator.materialize(best->moves);
  if (!text)
    return text.takeError();
  if (llvm::Error error = writeFile(prefix + "best.dojo", *text))
    return error;
  std::string script;
  for (const MoveRequest &move : best->moves)
    script += move.str() + "\n";
  return writeFile(prefix + "best.moves", script);
}

llvm::Error perfdojo::writeCachedReport(const SearchReport &report,
                                        llvm::StringRef cacheDir) {
  for (const SearchRecord &record : report.records)
    if (record.moves.empty() && !record.evaluation.key.empty())
      return writeFile(cacheDir + "/" + record.evaluation.key + "-" +
                           report.strategy + ".report.json",
                       llvm::formatv("{0:2}", toJSON(report)).str());
  return llvm::Error::success();
}

std::string perfdojo::getReproduceCommand(llvm::StringRef input,
                                          llvm::ArrayRef<MoveRequest> moves) {
  std::string script;
  for (const MoveRequest &move : moves)
    script += (script.empty() ? "" : "; ") + move.str();
  std::string apply = "perfdojo-opt --dojo-apply=\"" + script + "\"";
  std::string candidate = " -o candidate.mlir && perfdojo-run candidate.mlir "
                          "--baseline=" + input.str();
  if (input.ends_with(".mlir"))
    return apply + " " + input.str() + candidate;
  return "perfdojo-translate --import-dojo " + input.str() + " | " + apply +
         candidate;
}

void perfdojo::printSearchSummary(const SearchReport &report,
                                  llvm::raw_ostream &os) {
  unsigned valid = 0, pruned = 0;
  for (const SearchRecord &r : report.records) {
    valid += r.evaluation.ok();
    pruned += r.evaluation.status == EvaluationStatus::Pruned;
  }
  const SearchResult &result = report.result;
  os << "perfdojo-search " << report.strategy << " on " << report.kernel << ": "
     << report.evaluations << " evaluations (" << valid << " valid, "
     << report.workerRuns << " compiled, " << report.cacheHits << " cache hits"
     << (pruned ? ", " + std::to_string(pruned) + " pruned" : "") << ") in "
     << llvm::format("%.1f", report.searchSeconds) << " s ("
     << llvm::format("%.0f", 60 * report.evaluations /
                                 std::max(report.searchSeconds, 1e-9))
     << "/min), " << report.threads << " thread(s), " << report.jobs
     << " job(s), " << getCacheStateName(report.cache) << " cache, "
     << getPageBackingName(report.pages) << " pages\n";
  if (!result.finals.empty())
    os << "  final selection: the original and "
       << result.finals.size() - (result.baseline ? 1 : 0)
       << " fastest program(s) timed again, " << report.finalRepetitions
       << " runs each in " << getFinalRounds(report.finalRepetitions)
       << " alternating round(s), in "
       << llvm::format("%.1f", report.finalSeconds)
       << " s\n";
  if (result.baseline) {
    os << "  original kernel: " << formatSeconds(result.baselineSeconds);
    if (result.baseline->evaluation.cycles)
      os << " (" << *result.baseline->evaluation.cycles << " cycles)";
    os << " (naive, as written)\n";
    // A valid original's message is what it says about numerics (its own
    // error against the f64 reference).
    if (!result.baseline->evaluation.message.empty())
      os << "    numerics: " << result.baseline->evaluation.message << "\n";
  }
  const LibtorchTime &torch = report.libtorch;
  if (torch.seconds)
    os << "  libtorch:        " << formatSeconds(*torch.seconds) << " ("
       << torch.operatorName << ", same shapes and threads)\n";
  else
    os << "  libtorch:        " << torch.reason << "\n";
  if (result.best) {
    os << "  best kernel:     " << formatSeconds(result.bestSeconds);
    if (result.best->evaluation.cycles)
      os << " (" << *result.best->evaluation.cycles << " cycles)";
    os << " after " << result.best->moves.size() << " move(s)";
    if (result.baseline)
      os << llvm::format(": speedup %.2fx over the original",
                         result.baselineSeconds / result.bestSeconds);
    if (torch.seconds)
      os << llvm::format(", %.2fx over libtorch",
                         *torch.seconds / result.bestSeconds);
    os << "\n";
  } else {
    os << "  no valid program was found\n";
  }
  if (result.best && !report.bestPath.empty())
    os << "  best path: " << result.best->moves.size() + 1
       << " prefixes timed in " << llvm::format("%.1f", report.bestPathSeconds)
       << " s\n";
}
