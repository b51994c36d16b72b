//===- perfdojo-search.cpp - optimize a kernel automatically --------------===//
//
// Runs a search strategy on a kernel: every candidate (the original kernel
// plus a move sequence) is compiled, validated against the original and
// timed in an isolated perfdojo-run worker, with results cached by program.
// Writes the best kernel, its move script and a JSON report to --out, and
// prints the speedup over the original kernel. The final selection and the
// report are the library's (perfdojo/Search/FinalSelection.h,
// SearchReport.h; docs/search-report.md for report.json).
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Dialect/Dojo/IR/TargetDescription.h"
#ifdef PERFDOJO_WITH_AGENT
#include "perfdojo/Agent/PerfLLM.h"
#endif
#include "perfdojo/Search/GpuExpertRules.h"
#include "perfdojo/Search/SearchReport.h"
#include "perfdojo/Search/Strategy.h"
#include "perfdojo/Support/FileIO.h"
#include "perfdojo/Support/LargeStack.h"
#include "perfdojo/Support/ToolFlags.h"
#include "perfdojo/Target/DojoText/DojoText.h"
#include "perfdojo/Target/DojoText/KernelFile.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
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
             "result), perfllm (the learned Max-Q agent, in builds with "
             "libtorch: --model, else it learns online); random, anneal and "
             "perfllm need a budget"),
    cl::cat(searchCategory));
static cl::opt<std::string> modelPath(
    "model", cl::init(""),
    cl::desc("perfllm: the agent perfdojo-train saved (default: learn "
             "online on this kernel)"),
    cl::cat(searchCategory));
static cl::opt<unsigned> episodeSteps(
    "episode-steps", cl::init(30),
    cl::desc("perfllm: moves per episode"), cl::cat(searchCategory));
static cl::opt<double> eliteStarts(
    "elite-starts", cl::init(0.0),
    cl::desc("perfllm: probability that an episode starts from one of the "
             "fastest programs measured so far rather than the original"),
    cl::cat(searchCategory));
#ifdef PERFDOJO_WITH_AGENT
static cl::opt<agent::AgentStart> agentStart(
    "start", cl::init(agent::AgentStart::Original),
    cl::desc("perfllm: where the search starts"), agent::getAgentStartValues(),
    cl::cat(searchCategory));
#endif
static cl::opt<std::string> embeddingName(
    "embedding", cl::init(""),
    cl::desc("perfllm: how the agent sees a program: features (the "
             "program features), minilm (the all-MiniLM-L6-v2 sentence "
             "embedding of its lines) or minilm-text (of its whole text); "
             "default: the model's own, else features"),
    cl::cat(searchCategory));
static cl::opt<std::string> embeddingModel(
    "embedding-model", cl::init(""),
    cl::desc("perfllm: the all-MiniLM-L6-v2 model directory (default: "
             "$PERFDOJO_MINILM_DIR, else the one in the project's .venv)"),
    cl::cat(searchCategory));
static cl::opt<std::string> targetName(
    "target", cl::init("cpu"),
    cl::desc("What the kernel is optimized for: cpu (this machine, default), "
             "snitch (one Snitch core: candidates run on its executable "
             "model, perfdojo-run --engine=snitch, and cost their cycles) "
             "or a GPU chip (sm_80, sm_86, sm_89, sm_90: candidates run "
             "through the CUDA driver, perfdojo-run --engine=cuda; cuda "
             "stands for sm_90, rocm for gfx942)"),
    cl::cat(searchCategory));
static cl::opt<std::string> gpuRemote(
    "gpu-remote", cl::init(""),
    cl::desc("With a GPU --target on a machine without that GPU: bundle "
             "the candidates whose times are not known into this directory "
             "and stop; run DIR/run-all.sh where the GPU is (written by "
             "scripts/gpu-write-run-all.sh), bring DIR back, run the same "
             "search again, until it ends (docs/gpu.md, \"Search on a remote "
             "GPU\"). A time budget (--budget-seconds) would end every round "
             "elsewhere: not allowed"),
    cl::cat(searchCategory));
static cl::opt<bool> mapOnly(
    "map-only", cl::init(false),
    cl::desc("With a GPU --target: apply the GPU expert rules, write "
             "mapped.dojo and mapped.moves to --out, evaluate nothing (no "
             "GPU needed; perfdojo-run --gpu-bundle takes it from there)"),
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
static cl::opt<double> stopAboveBest(
    "stop-above-best", cl::init(EvaluatorOptions().stopAboveBest),
    cl::desc("Stop timing a candidate at its first call slower than this "
             "many times the fastest valid time so far (0: time every "
             "candidate fully; the final selection always does)"),
    cl::cat(searchCategory));
static cl::opt<CacheState> cacheState("cache-state", cl::init(CacheState::Cold),
                                 cl::desc(kCacheFlagHelp),
                                 getCacheStateValues(),
                                 cl::cat(searchCategory));
static cl::opt<PageBacking> pages("pages", cl::init(PageBacking::Huge),
                                  cl::desc(kPagesFlagHelp),
                                  getPageBackingValues(),
                                  cl::cat(searchCategory));
static cl::opt<int64_t> interpLimit(
    "interp-limit", cl::init(RunOptions().interpLimit),
    cl::desc("Largest leaf-evaluation count whose f64 reference the "
             "interpreter computes; above it the original kernel is "
             "promoted to f64 and compiled"),
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
static cl::opt<unsigned> workerMemory(
    "worker-memory-mib", cl::init(0),
    cl::desc("Memory limit of each evaluation worker in MiB (its heap and "
             "private mappings); a worker over it fails and costs only its "
             "candidate (default 0: the machine's memory divided by --jobs)"),
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

/// A candidate's mismatch means a move was offered where it changes the
/// kernel's meaning (or the candidate was miscompiled): said at once, with
/// a command that rebuilds the candidate from the input and validates it.
/// Where the original kernel is itself off from the f64 reference, it is
/// numerics, said as a warning. The original never gets here
/// (SearchContext::checkOriginal).
static void reportMismatch(const SearchRecord &record) {
  bool numerics = record.evaluation.numerics;
  (numerics ? llvm::WithColor::warning(llvm::errs(), "perfdojo-search")
            : llvm::WithColor::error(llvm::errs(), "perfdojo-search"))
      << "a candidate after " << record.moves.size() << " move(s) "
      << (numerics ? "does not match the f64 reference where the original "
                     "kernel is itself off from it (numerics, not a legality "
                     "bug); "
                   : "does not match the original kernel (a legality bug or "
                     "a miscompilation); ")
      << "reproduce with\n  " << getReproduceCommand(inputFile, record.moves)
      << "\n  " << record.evaluation.message << "\n";
}

/// The live progress line: evaluations, best time, speedup, ETA.
static void printProgress(const SearchContext &s) {
  const SearchBudget &budget = s.getBudget();
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
    double byEvals = perEval * (budget.evaluations - s.getSpentEvaluations());
    eta = eta < 0 ? byEvals : std::min(eta, byEvals);
  }
  if (eta >= 0)
    llvm::errs() << llvm::format(", ETA %.0f s", std::max(0.0, eta));
  llvm::errs().flush();
}

/// Draws convergence.png and best-path.png next to the report with
/// plot-search.py (installed next to this tool).
static bool plotReport(llvm::StringRef toolDir, const std::string &out) {
  std::string script = (toolDir + "/plot-search.py").str();
  std::optional<llvm::StringRef> silent[] = {llvm::StringRef(""),
                                             llvm::StringRef(""), std::nullopt};
  std::string reportPath = out + "/report.json";
  return llvm::sys::ExecuteAndWait("/usr/bin/python3",
                                   {"/usr/bin/python3", script, reportPath},
                                   std::nullopt, silent,
                                   /*SecondsToWait=*/120) == 0;
}

/// `--map-only`: the GPU expert rules' program, unevaluated.
static int writeGpuMapping() {
  std::optional<TargetDescription> gpu = TargetDescription::getGpu(targetName);
  if (!gpu) {
    llvm::errs() << "perfdojo-search: --map-only needs a GPU --target ("
                 << llvm::join(TargetDescription::getGpuChips(), ", ") << ")\n";
    return 1;
  }
  KernelFile input;
  dojo::KernelOp kernel = input.load(inputFile);
  if (!kernel)
    return 1;
  std::string out = outDir.empty()
                        ? "perfdojo-search-" + kernel.getSymName().str()
                        : outDir.getValue();
  // The default variant as mapped.*, every other distinct program as
  // mapped-v<K>.* (K its index in getGpuExpertVariants).
  std::vector<GpuExpertVariant> variants = getGpuExpertVariants();
  llvm::StringSet<> programs;
  std::string firstText, others;
  size_t firstMoves = 0;
  for (size_t k = 0; k < variants.size(); ++k) {
    Game game(kernel, MoveOptions{true, *gpu});
    applyGpuExpertRules(game, *gpu, variants[k]);
    if (!programs.insert(game.print()).second)
      continue;
    std::string script;
    for (const MoveRequest &move : game.history())
      script += move.str() + "\n";
    std::string base = out + (k ? "/mapped-v" + std::to_string(k) : "/mapped");
    auto written = [&]() -> llvm::Error {
      if (std::error_code ec = llvm::sys::fs::create_directories(out))
        return llvm::createStringError("cannot create '" + out +
                                       "': " + ec.message());
      if (llvm::Error error = writeFile(base + ".dojo", game.print()))
        return error;
      return writeFile(base + ".moves", script);
    }();
    if (written) {
      llvm::errs() << "perfdojo-search: " << llvm::toString(std::move(written))
                   << "\n";
      return 1;
    }
    if (k == 0) {
      firstText = game.print();
      firstMoves = game.history().size();
    } else {
      others += (others.empty() ? "" : ", ") +
                llvm::sys::path::filename(base).str() + ".dojo";
    }
  }
  llvm::outs() << firstText << "  " << firstMoves << " move(s); wrote " << out
               << "/mapped.dojo, " << out << "/mapped.moves"
               << (others.empty() ? "" : "; variants " + others) << "\n";
  return 0;
}

/// The exit status: 2 when candidates did not match the original kernel
/// (a legality bug or a miscompilation), else `status`.
static int reportMismatches(unsigned mismatches, int status) {
  if (!mismatches)
    return status;
  llvm::errs() << "perfdojo-search: " << mismatches
               << " candidate(s) did not match the original kernel\n";
  return 2;
}

/// `--gpu-remote`: the round ended at candidates whose times the GPU
/// machine has not measured yet. Lists their keys in `pendingList` (a
/// script runs rounds while it exists) and says what to do next.
static int reportPendingRound(const SearchContext &search,
                              const std::string &pendingList) {
  std::string keys;
  llvm::StringSet<> listed;
  for (const SearchRecord &r : search.getRecords())
    if (r.evaluation.status == EvaluationStatus::Pending &&
        listed.insert(r.evaluation.key).second)
      keys += r.evaluation.key + "\n";
  size_t pending = listed.size();
  if (llvm::Error error = writeFile(pendingList, keys)) {
    llvm::errs() << "perfdojo-search: " << llvm::toString(std::move(error))
                 << "\n";
    return 1;
  }
  llvm::outs() << "perfdojo-search: " << search.getSpentEvaluations();
  if (search.getBudget().evaluations)
    llvm::outs() << "/" << search.getBudget().evaluations;
  llvm::outs() << " evaluations; " << pending
               << " candidate(s) wait for the GPU in " << gpuRemote
               << " (listed in " << pendingList << ").\n"
               << "  next: run " << gpuRemote
               << "/run-all.sh on the GPU machine "
               << "(scripts/gpu-write-run-all.sh " << gpuRemote
               << " writes it), bring " << gpuRemote
               << " back, and run this search again\n";
  return 0;
}

/// An address in this executable, to find its path.
static void anchor() {}

static int toolMain(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  parseToolCommandLine(argc, argv, searchCategory, "kernel-threads",
                       "PerfDojo search: optimize a kernel with moves\n");
  targetName = TargetDescription::resolveGpuAlias(targetName).str();

#ifdef PERFDOJO_WITH_AGENT
  agent::PerfLLMOptions perfllm;
  perfllm.model = modelPath;
  perfllm.maxSteps = std::max(1u, episodeSteps.getValue());
  perfllm.maxWorkRatio = maxWorkRatio;
  perfllm.fromHeuristic = agentStart == agent::AgentStart::Heuristic;
  perfllm.fromElite = agent::getEliteStarts(
      agentStart, eliteStarts.getNumOccurrences()
                      ? std::optional<double>(eliteStarts)
                      : std::nullopt);
  perfllm.embedding = embeddingName;
  perfllm.embeddingModel = embeddingModel;
  agent::registerPerfLLMStrategy(perfllm);
  if (strategyName == "perfllm")
    if (llvm::Error error = agent::checkOptions(perfllm)) {
      llvm::errs() << "perfdojo-search: perfllm: "
                   << llvm::toString(std::move(error)) << "\n";
      return 1;
    }
#endif
  std::unique_ptr<Strategy> strategy = createStrategy(strategyName);
  if (!strategy) {
    llvm::errs() << "perfdojo-search: unknown strategy '" << strategyName
                 << "'; available: "
                 << llvm::join(getStrategyNames(), ", ") << "\n";
    return 1;
  }
  if (mapOnly)
    return writeGpuMapping();
  if (budgetSeconds < 0) {
    llvm::errs() << "perfdojo-search: --budget-seconds must not be negative "
                    "(0: no time budget)\n";
    return 1;
  }
  if (!budgetEvals && !budgetSeconds && strategy->needsBudget()) {
    llvm::errs() << "perfdojo-search: give a budget (--budget-evals and/or "
                    "--budget-seconds)\n";
    return 1;
  }

  if (!gpuRemote.empty() &&
      (!TargetDescription::getGpu(targetName) || budgetSeconds > 0)) {
    llvm::errs() << "perfdojo-search: --gpu-remote needs a GPU --target ("
                 << llvm::join(TargetDescription::getGpuChips(), ", ")
                 << ") and no --budget-seconds (a time budget would end "
                    "every round elsewhere)\n";
    return 1;
  }

  KernelFile input;
  dojo::KernelOp kernel = input.load(inputFile);
  if (!kernel)
    return 1;

  // The worker and the plotting script are installed next to this tool.
  std::string self = llvm::sys::fs::getMainExecutable(
      argv[0], reinterpret_cast<void *>(&anchor));
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
  options.cache = cacheState;
  options.pages = pages;
  options.stopAboveBest = stopAboveBest;
  options.timeoutSeconds = timeout;
  options.interpLimit = interpLimit;
  options.jobs = std::max(1u, jobs.getValue());
  options.memoryLimitMiB = workerMemory ? workerMemory.getValue()
                                        : getDefaultWorkerMemoryMiB(options.jobs);
  options.maxWorkRatio = maxWorkRatio;
  options.cacheDir = cacheDir;
  options.gpuRemoteDir = gpuRemote;
  // Every round replays the search from the cache of the earlier ones.
  if (!gpuRemote.empty() && cacheDir.empty())
    options.cacheDir = gpuRemote + "/cache";
  if (llvm::Error error = setEvaluatorTarget(options, targetName)) {
    llvm::errs() << "perfdojo-search: --target: "
                 << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  if (llvm::Error error = checkEvaluatorOptions(options)) {
    llvm::errs() << "perfdojo-search: " << llvm::toString(std::move(error))
                 << "\n";
    return 1;
  }
  std::string out = outDir.empty()
                        ? "perfdojo-search-" + kernel.getSymName().str()
                        : outDir.getValue();

  Evaluator evaluator(kernel, inputFile, options);
  SearchBudget budget{budgetEvals, budgetSeconds};
  SearchContext search(evaluator, kernel, budget, seed, options.moves);

  // The original first: without a valid baseline there is nothing to
  // compare, and nothing is written (no output directory, no stale files).
  if (llvm::Error error = search.checkOriginal()) {
    llvm::errs() << "perfdojo-search: " << inputFile << ": "
                 << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  if (std::error_code ec = llvm::sys::fs::create_directories(out)) {
    llvm::errs() << "perfdojo-search: cannot create '" << out
                 << "': " << ec.message() << "\n";
    return 1;
  }

  // A live progress line on a terminal; nothing when redirected.
  bool live = !quiet && llvm::sys::Process::StandardErrIsDisplayed();
  unsigned mismatches = 0;
  search.setObserver([&](const SearchContext &s) {
    const SearchRecord &last = s.getRecords().back();
    if (last.evaluation.status == EvaluationStatus::Mismatch) {
      mismatches += !last.evaluation.numerics;
      reportMismatch(last);
    }
    if (live)
      printProgress(s);
  });

  strategy->run(search);
  if (live)
    llvm::errs() << "\n";
  if (!gpuRemote.empty()) {
    std::string pendingList = gpuRemote + "/pending.txt";
    if (search.getPendingEvaluations())
      return reportMismatches(mismatches,
                              reportPendingRound(search, pendingList));
    llvm::sys::fs::remove(pendingList);
  }

  // Counters of the search itself, before the final selection and the
  // best-path evaluations.
  SearchConclusion conclusion;
  conclusion.input = inputFile;
  conclusion.strategy = strategyName;
  conclusion.threads = threads;
  conclusion.seed = seed;
  // A remote GPU's times are a run of 20 after 3 warm-up calls, one
  // candidate after another on an otherwise idle device: nothing to re-time.
  conclusion.finalCandidates = gpuRemote.empty() ? finalCandidates : 0;
  conclusion.finalRepetitions = finalReps;
  conclusion.timeBestPath = timeBestPath && gpuRemote.empty();
  conclusion.repetitions = reps;
  conclusion.timeoutSeconds = timeout;
  if (options.snitch)
    conclusion.libtorchReason =
        "not measured (libtorch does not run on Snitch)";
  else if (!options.gpuChip.empty())
    conclusion.libtorchReason = "not measured here (PyTorch on the GPU: "
                                "scripts/gpu-torch-check.py there)";
  else if (compareTorch)
    conclusion.libtorchTool = (toolDir + "/perfdojo-run-torch").str();
  else
    conclusion.libtorchReason = "not measured (--torch=false)";

  if (live && search.getBest() && finalCandidates > 0)
    llvm::errs() << "final selection: timing the original and up to "
                 << finalCandidates << " fastest program(s) again ("
                 << finalReps << " runs each, in " << getFinalRounds(finalReps)
                 << " alternating round(s))...\n";
  SearchReport report = concludeSearch(search, evaluator, conclusion);
  const SearchRecord *best = report.result.best;

  if (llvm::Error error = writeSearchOutputs(report, evaluator, out)) {
    llvm::errs() << "perfdojo-search: " << llvm::toString(std::move(error))
                 << "\n";
    return 1;
  }
  if (!cacheDir.empty())
    if (llvm::Error error = writeCachedReport(report, cacheDir)) {
      llvm::errs() << "perfdojo-search: " << llvm::toString(std::move(error))
                   << "\n";
      return 1;
    }
  printSearchSummary(report, llvm::outs());
  llvm::outs() << "  wrote " << out << "/best.dojo, " << out
               << "/best.moves, " << out << "/report.json";
  if (plot) {
    if (plotReport(toolDir, out))
      llvm::outs() << ", convergence.png"
                   << (conclusion.timeBestPath && best ? ", best-path.png"
                                                       : "");
    else
      llvm::errs() << "perfdojo-search: plotting failed (is "
                      "python3-matplotlib installed?); the report is "
                      "complete\n";
  }
  llvm::outs() << "\n";
  return reportMismatches(mismatches, best ? 0 : 1);
}

int main(int argc, char **argv) {
  // Deep MLIR text must reach the nesting bound's error instead of
  // overflowing the parser's stack (Support/LargeStack.h).
  return perfdojo::runOnLargeStack([&] { return toolMain(argc, argv); });
}
