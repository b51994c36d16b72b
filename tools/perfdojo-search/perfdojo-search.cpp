//===- perfdojo-search.cpp - optimize a kernel automatically --------------===//
//
// Runs a search strategy on a kernel: every candidate (the original kernel
// plus a move sequence) is compiled, validated against the original and
// timed in an isolated perfdojo-run worker, with results cached by program.
// Writes the best kernel, its move script and a JSON report to --out, and
// prints the speedup over the original kernel.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Runtime/WorkCounts.h"
#include "perfdojo/Search/Strategy.h"
#include "perfdojo/Support/ToolFlags.h"
#include "perfdojo/Target/DojoText/DojoText.h"
#include "perfdojo/Target/DojoText/KernelFile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;
using namespace perfdojo;
namespace cl = llvm::cl;

static cl::OptionCategory searchCategory("perfdojo-search options");
static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<kernel.dojo>"),
                                      cl::cat(searchCategory));
static cl::opt<std::string> strategyName(
    "strategy", cl::init("random"),
    cl::desc("Search strategy: naive (fuse and reuse until exhaustion), "
             "greedy (naive, then target moves wherever legal), heuristic "
             "(the x86 expert pass), random (random sampling over seen "
             "programs), anneal (simulated annealing from the heuristic's "
             "result); random and anneal need a budget"),
    cl::cat(searchCategory));
static cl::opt<unsigned> budgetEvals("budget-evals", cl::init(0),
                                     cl::desc("Stop after this many "
                                              "evaluations (0: no limit)"),
                                     cl::cat(searchCategory));
static cl::opt<double> budgetSeconds("budget-seconds", cl::init(0),
                                     cl::desc("Stop after this many seconds "
                                              "(0: no limit)"),
                                     cl::cat(searchCategory));
// `--threads` is spelled `kernel-threads` for llvm::cl (a linked library
// registers `threads`); main() rewrites `--threads`.
static cl::opt<unsigned> threads("kernel-threads", cl::init(1),
                                 cl::desc("Threads the kernel runs on, also "
                                          "spelled --threads"),
                                 cl::cat(searchCategory));
static cl::opt<unsigned> jobs(
    "jobs", cl::init(1),
    cl::desc("Candidates evaluated at once: they compile concurrently and "
             "take turns to run and time (keep jobs + kernel threads within "
             "the cores)"),
    cl::cat(searchCategory));
static cl::opt<double> maxWorkRatio(
    "max-work-ratio", cl::init(4),
    cl::desc("Do not run candidates with more than this multiple of the "
             "original's leaf evaluations (0: run all)"),
    cl::cat(searchCategory));
static cl::opt<uint64_t> seed("seed", cl::init(0),
                              cl::desc("Seed of the strategy's choices"),
                              cl::cat(searchCategory));
static cl::opt<std::string> cacheDir(
    "cache", cl::init(""),
    cl::desc("Directory of the persistent evaluation cache"),
    cl::cat(searchCategory));
static cl::opt<std::string> outDir(
    "out", cl::init(""),
    cl::desc("Output directory (default: perfdojo-search-<kernel>)"),
    cl::cat(searchCategory));
static cl::opt<unsigned> reps("reps", cl::init(5),
                              cl::desc("Timed repetitions per evaluation"),
                              cl::cat(searchCategory));
static cl::opt<unsigned> finalCandidates(
    "final-candidates", cl::init(3),
    cl::desc("After the search, time the original and this many of the "
             "fastest distinct programs again, one after the other with "
             "--final-reps runs each; the fastest by those times is the "
             "result (0: take the search's own fastest)"),
    cl::cat(searchCategory));
static cl::opt<unsigned> finalReps(
    "final-reps", cl::init(20),
    cl::desc("Timed repetitions per program of the final selection"),
    cl::cat(searchCategory));
static cl::opt<unsigned> timeout("timeout", cl::init(60),
                                 cl::desc("Seconds one evaluation may take "
                                          "at most (candidates get at most "
                                          "max(10, 20 x the original's) x "
                                          "jobs)"),
                                 cl::cat(searchCategory));
static cl::opt<std::string> runner(
    "runner", cl::init(""),
    cl::desc("The perfdojo-run executable (default: next to this tool)"),
    cl::cat(searchCategory));
static cl::opt<bool> plot(
    "plot", cl::init(true),
    cl::desc("Write convergence.png and best-path.png (needs python3 with "
             "matplotlib)"),
    cl::cat(searchCategory));
static cl::opt<bool> timeBestPath(
    "best-path", cl::init(true),
    cl::desc("Time every prefix of the best move sequence for the report "
             "and best-path.png"),
    cl::cat(searchCategory));
static cl::opt<bool> compareTorch(
    "torch", cl::init(true),
    cl::desc("Time the libtorch operator of the same name on the same shapes "
             "and thread count for the summary (needs perfdojo-run-torch "
             "next to this tool)"),
    cl::cat(searchCategory));
static cl::opt<bool> quiet("quiet", cl::init(false),
                           cl::desc("No progress line"),
                           cl::cat(searchCategory));

namespace {

std::string movesText(llvm::ArrayRef<MoveRequest> moves) {
  std::string text;
  for (const MoveRequest &move : moves)
    text += move.str() + "\n";
  return text;
}

bool writeFile(const std::string &path, llvm::StringRef contents) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    llvm::errs() << "perfdojo-search: cannot write '" << path
                 << "': " << ec.message() << "\n";
    return false;
  }
  os << contents;
  return true;
}

/// libtorch's time for the kernel's operator, or why there is none.
struct TorchTime {
  std::optional<double> seconds;
  std::string operatorName, reason;
};

/// Runs perfdojo-run-torch (next to this tool) on the input kernel: it
/// validates libtorch's operator against the kernel, then times it like
/// perfdojo-run times a candidate.
TorchTime timeLibtorch(llvm::StringRef toolDir) {
  TorchTime result;
  std::string tool = (toolDir + "/perfdojo-run-torch").str();
  if (!llvm::sys::fs::can_execute(tool)) {
    result.reason = "this build has no libtorch (PERFDOJO_ENABLE_TORCH=OFF)";
    return result;
  }
  llvm::SmallString<128> outPath, errPath;
  llvm::sys::fs::createTemporaryFile("perfdojo-torch", "json", outPath);
  llvm::sys::fs::createTemporaryFile("perfdojo-torch", "err", errPath);
  std::string threadsArg = "--threads=" + std::to_string(threads);
  std::string repsArg = "--reps=" + std::to_string(reps);
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(""), llvm::StringRef(outPath), llvm::StringRef(errPath)};
  int rc = llvm::sys::ExecuteAndWait(
      tool, {tool, inputFile, "--json", threadsArg, repsArg}, std::nullopt,
      redirects, timeout);
  auto out = llvm::MemoryBuffer::getFile(outPath);
  auto err = llvm::MemoryBuffer::getFile(errPath);
  llvm::sys::fs::remove(outPath);
  llvm::sys::fs::remove(errPath);
  if (rc != 0) {
    llvm::StringRef message =
        err ? llvm::StringRef((*err)->getBuffer()).trim() : "";
    message.consume_front("perfdojo-run-torch: ");
    result.reason = message.empty() ? "perfdojo-run-torch failed"
                                    : message.split('\n').first.str();
    return result;
  }
  auto json = llvm::json::parse(out ? (*out)->getBuffer() : "");
  if (!json) {
    llvm::consumeError(json.takeError());
    result.reason = "perfdojo-run-torch printed no report";
    return result;
  }
  if (const llvm::json::Object *o = json->getAsObject()) {
    result.seconds = o->getNumber("time_median_s");
    result.operatorName = o->getString("operator").value_or("").str();
  }
  if (!result.seconds)
    result.reason = "perfdojo-run-torch printed no time";
  return result;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  parseToolCommandLine(argc, argv, searchCategory, "kernel-threads",
                       "PerfDojo search: optimize a kernel with moves\n");

  std::unique_ptr<Strategy> strategy = createStrategy(strategyName);
  if (!strategy) {
    llvm::errs() << "perfdojo-search: unknown strategy '" << strategyName
                 << "'; available: "
                 << llvm::join(getStrategyNames(), ", ") << "\n";
    return 1;
  }
  if (!budgetEvals && !budgetSeconds && strategy->needsBudget()) {
    llvm::errs() << "perfdojo-search: give a budget (--budget-evals and/or "
                    "--budget-seconds)\n";
    return 1;
  }

  KernelFile input;
  dojo::KernelOp kernel = input.load(inputFile);
  if (!kernel)
    return 1;

  // The worker and the plotting script are installed next to this tool.
  std::string self = llvm::sys::fs::getMainExecutable(
      argv[0], reinterpret_cast<void *>(&movesText));
  llvm::StringRef toolDir = llvm::sys::path::parent_path(self);
  EvaluatorOptions options;
  options.runner = runner;
  if (options.runner.empty())
    options.runner = (toolDir + "/perfdojo-run").str();
  if (!llvm::sys::fs::can_execute(options.runner)) {
    llvm::errs() << "perfdojo-search: cannot execute the worker '"
                 << options.runner << "' (set --runner)\n";
    return 1;
  }
  options.threads = threads;
  options.repetitions = reps;
  options.timeoutSeconds = timeout;
  options.jobs = std::max(1u, jobs.getValue());
  options.maxWorkRatio = maxWorkRatio;
  options.cacheDir = cacheDir;
  std::string out = outDir.empty()
                        ? "perfdojo-search-" + kernel.getSymName().str()
                        : outDir.getValue();
  if (std::error_code ec = llvm::sys::fs::create_directories(out)) {
    llvm::errs() << "perfdojo-search: cannot create '" << out
                 << "': " << ec.message() << "\n";
    return 1;
  }

  Evaluator evaluator(kernel, inputFile, options);
  SearchBudget budget{budgetEvals, budgetSeconds};
  SearchContext search(evaluator, kernel, budget, seed, options.moves);

  // A live progress line on a terminal; nothing when redirected.
  bool live = !quiet && llvm::sys::Process::StandardErrIsDisplayed();
  unsigned mismatches = 0;
  search.setObserver([&](const SearchContext &s) {
    const SearchRecord &last = s.getRecords().back();
    if (last.evaluation.status == EvaluationStatus::Mismatch) {
      ++mismatches;
      llvm::WithColor::error(llvm::errs(), "perfdojo-search")
          << "validation mismatch (a legality bug); reproduce with "
          << "perfdojo-opt --dojo-apply=\"";
      llvm::interleave(
          last.moves, llvm::errs(),
          [](const MoveRequest &m) { llvm::errs() << m.str(); }, "; ");
      llvm::errs() << "\" " << inputFile << "\n  " << last.evaluation.message
                   << "\n";
    }
    if (!live)
      return;
    const SearchRecord *best = s.getBest();
    const SearchRecord *base = s.getBaseline();
    llvm::errs() << "\r\033[K[" << strategyName << "] "
                 << s.getSpentEvaluations();
    if (budget.evaluations)
      llvm::errs() << "/" << budget.evaluations;
    llvm::errs() << " evaluations";
    if (best)
      llvm::errs() << ", best " << formatSeconds(best->evaluation.seconds);
    if (best && base)
      llvm::errs() << llvm::format(" (%.2fx)", base->evaluation.seconds /
                                                   best->evaluation.seconds);
    double elapsed = s.getElapsedSeconds();
    double eta = -1;
    if (budget.seconds > 0)
      eta = budget.seconds - elapsed;
    if (budget.evaluations) {
      double perEval = elapsed / std::max(1u, s.getSpentEvaluations());
      double byEvals =
          perEval * (budget.evaluations - s.getSpentEvaluations());
      eta = eta < 0 ? byEvals : std::min(eta, byEvals);
    }
    if (eta >= 0)
      llvm::errs() << llvm::format(", ETA %.0f s", std::max(0.0, eta));
    llvm::errs().flush();
  });

  strategy->run(search);
  if (live)
    llvm::errs() << "\n";

  // Counters of the search itself, before the final selection and the
  // best-path evaluations.
  unsigned workerRuns = evaluator.getWorkerRuns();
  unsigned cacheHits = evaluator.getCacheHits();
  double searchSeconds = search.getElapsedSeconds();

  // The result: the search's fastest record, or the fastest of the final
  // selection by its back-to-back times; the original's time likewise.
  const SearchRecord *best = search.getBest();
  const SearchRecord *base = search.getBaseline();
  double bestSeconds = best ? best->evaluation.seconds : 0;
  double baseSeconds = base ? base->evaluation.seconds : 0;
  std::vector<FinalTime> finals;
  if (best && finalCandidates > 0) {
    if (live)
      llvm::errs() << "final selection: timing the original and up to "
                   << finalCandidates << " fastest program(s) again ("
                   << finalReps << " runs each)...\n";
    finals = search.selectFinal(finalCandidates, finalReps);
    const FinalTime *fastest = nullptr;
    for (const FinalTime &f : finals) {
      if (!f.evaluation.ok())
        continue;
      if (f.record == base)
        baseSeconds = f.evaluation.seconds;
      if (!fastest || f.evaluation.seconds < fastest->evaluation.seconds)
        fastest = &f;
    }
    if (fastest) {
      best = fastest->record;
      bestSeconds = fastest->evaluation.seconds;
    }
  }
  double finalSeconds = search.getElapsedSeconds() - searchSeconds;

  // The run time after each move along the best sequence (cached
  // programs cost nothing; the others are evaluated outside the budget).
  llvm::json::Array bestPath;
  if (best && timeBestPath) {
    llvm::SmallVector<MoveRequest> moves = best->moves;
    for (size_t n = 0; n <= moves.size(); ++n) {
      Evaluation e = evaluator.evaluate(llvm::ArrayRef(moves).take_front(n));
      llvm::json::Object step{{"moves", int64_t(n)},
                              {"status", stringifyEvaluationStatus(e.status)}};
      if (e.ok())
        step["time_s"] = e.seconds;
      if (n > 0)
        step["move"] = moves[n - 1].str();
      bestPath.push_back(std::move(step));
    }
  }

  double bestPathSeconds =
      search.getElapsedSeconds() - searchSeconds - finalSeconds;
  TorchTime torch;
  if (compareTorch)
    torch = timeLibtorch(toolDir);
  else
    torch.reason = "not measured (--torch=false)";

  WorkCounts work = countWork(kernel);

  // Report: every evaluation, then the best program and its script.
  llvm::json::Array evaluations;
  unsigned valid = 0, pruned = 0;
  for (const SearchRecord &r : search.getRecords()) {
    valid += r.evaluation.ok();
    pruned += r.evaluation.status == EvaluationStatus::Pruned;
    llvm::json::Array moves;
    for (const MoveRequest &m : r.moves)
      moves.push_back(m.str());
    llvm::json::Object o{{"moves", std::move(moves)},
                         {"status", stringifyEvaluationStatus(
                                        r.evaluation.status)},
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
    evaluations.push_back(std::move(o));
  }
  llvm::json::Array finalTimes;
  for (const FinalTime &f : finals) {
    llvm::json::Object o{
        {"moves", int64_t(f.record->moves.size())},
        {"key", f.record->evaluation.key},
        {"search_time_s", f.record->evaluation.seconds},
        {"status", stringifyEvaluationStatus(f.evaluation.status)}};
    if (f.evaluation.ok())
      o["time_s"] = f.evaluation.seconds;
    else
      o["message"] = f.evaluation.message;
    finalTimes.push_back(std::move(o));
  }
  llvm::json::Object report{
      {"kernel", kernel.getSymName()},
      {"input", inputFile.getValue()},
      // Work of the operator, to turn times into rates.
      {"flops", work.flops},
      {"compulsory_bytes", work.compulsoryBytes},
      {"strategy", strategyName.getValue()},
      {"threads", int64_t(threads)},
      {"jobs", int64_t(options.jobs)},
      {"seed", int64_t(seed)},
      {"evaluations", int64_t(search.getSpentEvaluations())},
      {"pruned", int64_t(pruned)},
      {"worker_runs", int64_t(workerRuns)},
      {"cache_hits", int64_t(cacheHits)},
      {"elapsed_s", searchSeconds},
      {"evaluations_per_minute",
       searchSeconds > 0 ? 60 * search.getSpentEvaluations() / searchSeconds
                         : 0.0},
      {"best_path_s", bestPathSeconds},
      {"final_s", finalSeconds},
      {"final_repetitions", int64_t(finals.empty() ? 0 : finalReps)},
      {"final", std::move(finalTimes)},
      {"records", std::move(evaluations)},
      {"best_path", std::move(bestPath)}};
  if (base)
    report["naive_time_s"] = baseSeconds;
  if (torch.seconds)
    report["libtorch"] = llvm::json::Object{
        {"operator", torch.operatorName}, {"time_s", *torch.seconds}};
  else
    report["libtorch"] = llvm::json::Object{{"reason", torch.reason}};
  if (best) {
    report["best_time_s"] = bestSeconds;
    report["search_best_time_s"] = search.getBest()->evaluation.seconds;
    llvm::json::Array moves;
    for (const MoveRequest &m : best->moves)
      moves.push_back(m.str());
    report["best_moves"] = std::move(moves);
  }
  if (!writeFile(out + "/report.json",
                 llvm::formatv("{0:2}", llvm::json::Value(std::move(report)))
                     .str()))
    return 1;
  if (best) {
    auto text = evaluator.materialize(best->moves);
    if (!text) {
      llvm::errs() << "perfdojo-search: " << llvm::toString(text.takeError())
                   << "\n";
      return 1;
    }
    if (!writeFile(out + "/best.dojo", *text) ||
        !writeFile(out + "/best.moves", movesText(best->moves)))
      return 1;
  }

  llvm::outs() << "perfdojo-search " << strategyName << " on "
               << kernel.getSymName() << ": " << search.getSpentEvaluations()
               << " evaluations (" << valid << " valid, "
               << workerRuns << " compiled, " << cacheHits << " cache hits"
               << (pruned ? ", " + std::to_string(pruned) + " pruned" : "")
               << ") in " << llvm::format("%.1f", searchSeconds)
               << " s (" << llvm::format("%.0f", 60 * search.getSpentEvaluations() /
                                                    std::max(searchSeconds, 1e-9))
               << "/min), " << threads << " thread(s), " << options.jobs
               << " job(s)\n";
  if (!finals.empty())
    llvm::outs() << "  final selection: the original and "
                 << finals.size() - (base ? 1 : 0)
                 << " fastest program(s) timed again, " << finalReps
                 << " runs each, in " << llvm::format("%.1f", finalSeconds)
                 << " s\n";
  if (base)
    llvm::outs() << "  original kernel: " << formatSeconds(baseSeconds)
                 << " (naive, as written)\n";
  if (torch.seconds)
    llvm::outs() << "  libtorch:        " << formatSeconds(*torch.seconds)
                 << " (" << torch.operatorName << ", same shapes and threads)\n";
  else
    llvm::outs() << "  libtorch:        " << torch.reason << "\n";
  if (best) {
    llvm::outs() << "  best kernel:     " << formatSeconds(bestSeconds)
                 << " after " << best->moves.size() << " move(s)";
    if (base)
      llvm::outs() << llvm::format(": speedup %.2fx over the original",
                                   baseSeconds / bestSeconds);
    if (torch.seconds)
      llvm::outs() << llvm::format(", %.2fx over libtorch",
                                   *torch.seconds / bestSeconds);
    llvm::outs() << "\n";
  } else {
    llvm::outs() << "  no valid program was found\n";
  }
  if (best && timeBestPath)
    llvm::outs() << "  best path: " << best->moves.size() + 1
                 << " prefixes timed in "
                 << llvm::format("%.1f", bestPathSeconds)
                 << " s\n";
  llvm::outs() << "  wrote " << out << "/best.dojo, " << out
               << "/best.moves, " << out << "/report.json";
  if (plot) {
    std::string script = (toolDir + "/plot-search.py").str();
    std::optional<llvm::StringRef> silent[] = {llvm::StringRef(""),
                                               llvm::StringRef(""),
                                               std::nullopt};
    std::string reportPath = out + "/report.json";
    int rc = llvm::sys::ExecuteAndWait(
        "/usr/bin/python3", {"/usr/bin/python3", script, reportPath},
        std::nullopt, silent, /*SecondsToWait=*/120);
    if (rc == 0)
      llvm::outs() << ", convergence.png"
                   << (timeBestPath && best ? ", best-path.png" : "");
    else
      llvm::errs() << "perfdojo-search: plotting failed (is "
                      "python3-matplotlib installed?); the report is "
                      "complete\n";
  }
  llvm::outs() << "\n";
  if (mismatches) {
    llvm::errs() << "perfdojo-search: " << mismatches
                 << " candidate(s) did not match the original kernel\n";
    return 2;
  }
  return best ? 0 : 1;
}
