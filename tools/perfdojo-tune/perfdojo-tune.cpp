//===- perfdojo-tune.cpp - tune a library of kernels, on MPI ranks --------===//
//
// `perfdojo-tune MANIFEST --out DIR`, as one process or under `mpirun -n N`:
// rank 0 reads the manifest, runs the searches and writes the records and
// the library; the other ranks evaluate candidates. The logic lives in the
// Tune library (docs/distributed.md).
//
//===----------------------------------------------------------------------===//

#ifdef PERFDOJO_WITH_AGENT
#include "perfdojo/Agent/PerfLLM.h"
#endif
#include "perfdojo/Runtime/RunOptions.h"
#include "perfdojo/Search/Evaluator.h"
#include "perfdojo/Support/ToolFlags.h"
#include "perfdojo/Tune/LibraryOutput.h"
#include "perfdojo/Tune/LibraryTuner.h"
#include "perfdojo/Tune/Manifest.h"
#include "perfdojo/Tune/RankGroup.h"
#include "perfdojo/Tune/RecordLog.h"
#ifdef PERFDOJO_WITH_MPI
#include "perfdojo/Tune/MpiWorkerPool.h"
#endif

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/RandomNumberGenerator.h"

#include <sys/resource.h>

#include <atomic>
#include <random>
#include <thread>

using namespace perfdojo;
using namespace perfdojo::tune;
namespace cl = llvm::cl;

static cl::OptionCategory tuneCategory("perfdojo-tune options");
static cl::opt<std::string> manifestPath(cl::Positional, cl::Required,
                                         cl::desc("<manifest.json>"),
                                         cl::cat(tuneCategory));
static cl::opt<std::string> outDir(
    "out", cl::Required,
    cl::desc("Output directory: records.jsonl, report.json, objects/, "
             "perfdojo_library.h, entries/ (a rerun over it resumes)"),
    cl::cat(tuneCategory));
static cl::opt<unsigned> jobs(
    "jobs", cl::init(1),
    cl::desc("Without MPI ranks: candidates evaluated at once (they compile "
             "concurrently and take turns to time)"),
    cl::cat(tuneCategory));
static cl::opt<unsigned> reps("reps", cl::init(5),
                              cl::desc("Timed repetitions per evaluation"),
                              cl::cat(tuneCategory));
static cl::opt<CacheState> cacheState("cache-state", cl::init(CacheState::Cold),
                                 cl::desc(kCacheFlagHelp),
                                 getCacheStateValues(), cl::cat(tuneCategory));
static cl::opt<PageBacking> pages("pages", cl::init(PageBacking::Huge),
                                  cl::desc(kPagesFlagHelp),
                                  getPageBackingValues(),
                                  cl::cat(tuneCategory));
static cl::opt<unsigned> timeout(
    "timeout", cl::init(60),
    cl::desc("Seconds one evaluation may take at most"),
    cl::cat(tuneCategory));
static cl::opt<unsigned> workerMemory(
    "worker-memory-mib", cl::init(0),
    cl::desc("Memory limit of each evaluation worker in MiB (default 0: the "
             "host's memory divided by the workers that share it: --jobs, "
             "or the MPI ranks on that host)"),
    cl::cat(tuneCategory));
static cl::opt<double> maxWorkRatio(
    "max-work-ratio", cl::init(4),
    cl::desc("Do not run candidates with more than this multiple of the "
             "original's leaf evaluations (0: run all)"),
    cl::cat(tuneCategory));
static cl::opt<int64_t> interpLimit(
    "interp-limit", cl::init(RunOptions().interpLimit),
    cl::desc("Largest leaf-evaluation count whose f64 reference the "
             "interpreter computes"),
    cl::cat(tuneCategory));
static cl::opt<unsigned> finalCandidates(
    "final-candidates", cl::init(3),
    cl::desc("Per unit, time the original and this many fastest programs "
             "again back to back; the fastest by those times is the result"),
    cl::cat(tuneCategory));
static cl::opt<unsigned> finalReps(
    "final-reps", cl::init(20),
    cl::desc("Timed repetitions per program of the final selection"),
    cl::cat(tuneCategory));
static cl::opt<std::string> objectTarget(
    "object-target", cl::init("host"),
    cl::desc("Target of the library's objects (a perfdojo-translate "
             "--target; default: this machine's CPU)"),
    cl::cat(tuneCategory));
static cl::opt<std::string> runner(
    "runner", cl::init(""),
    cl::desc("The perfdojo-run executable, at the same path on every host "
             "(default: next to this tool)"),
    cl::cat(tuneCategory));
static cl::opt<double> progressSeconds(
    "progress-seconds", cl::init(10),
    cl::desc("Seconds between progress lines (also one per finished unit)"),
    cl::cat(tuneCategory));
static cl::opt<bool> quiet("quiet", cl::init(false),
                           cl::desc("No progress lines"),
                           cl::cat(tuneCategory));

static void anchor() {}

/// This process's CPU time (its threads, not its children: the local
/// workers are children).
static double getCpuSeconds() {
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0)
    return 0;
  auto seconds = [](const timeval &t) { return t.tv_sec + t.tv_usec * 1e-6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

static int fail(const llvm::Twine &message) {
  llvm::errs() << "perfdojo-tune: " << message << "\n";
  return 1;
}

/// "rank 0 on a; ranks 1-2 on a, b" from each rank's host.
static std::string describeRanks(const std::vector<std::string> &hosts) {
  if (hosts.size() <= 1)
    return "1 process on " + (hosts.empty() ? std::string("?") : hosts[0]);
  std::string text = std::to_string(hosts.size()) +
                     " ranks (rank 0 coordinating on " + hosts[0] + "; ";
  llvm::StringMap<llvm::SmallVector<int>> byHost;
  std::vector<std::string> order;
  for (size_t rank = 1; rank < hosts.size(); ++rank) {
    if (!byHost.count(hosts[rank]))
      order.push_back(hosts[rank]);
    byHost[hosts[rank]].push_back(int(rank));
  }
  std::vector<std::string> parts;
  for (const std::string &host : order) {
    std::vector<std::string> ranks;
    for (int rank : byHost[host])
      ranks.push_back(std::to_string(rank));
    parts.push_back((byHost[host].size() == 1 ? "rank " : "ranks ") +
                    llvm::join(ranks, ",") + " on " + host);
  }
  return text + "evaluating: " + llvm::join(parts, "; ") + ")";
}

static void printSummary(const LibraryTuner &tuner, const RecordLog &log,
                         const RunFacts &facts, llvm::raw_ostream &os) {
  os << "perfdojo-tune: " << tuner.getUnits().size() << " unit(s) of "
     << tuner.getManifest().entries.size() << " entr"
     << (tuner.getManifest().entries.size() == 1 ? "y" : "ies") << " on "
     << describeRanks(facts.hosts) << "\n";
  os << llvm::format("  %-28s %7s %12s %12s %8s %6s  %s\n", "function",
                     "threads", "original", "best", "speedup", "evals",
                     "validated");
  for (const Unit &unit : tuner.getUnits()) {
    auto it = log.getResults().find(unit.id);
    if (it == log.getResults().end()) {
      os << llvm::format("  %-28s %7u %12s %12s %8s %6s  %s\n",
                         unit.function.c_str(), unit.threads, "-", "-", "-",
                         "-", "failed");
      continue;
    }
    const UnitResult &r = it->second;
    os << llvm::format("  %-28s %7u %12s %12s %7.2fx %6u  %s\n",
                       unit.function.c_str(), unit.threads,
                       formatSeconds(r.originalSeconds).c_str(),
                       formatSeconds(r.bestSeconds).c_str(),
                       r.bestSeconds > 0 ? r.originalSeconds / r.bestSeconds
                                         : 0.0,
                       r.evaluations, r.validated ? "yes" : "no");
  }
  os << "  " << tuner.getEvaluationsRun() << " evaluation(s) run"
     << llvm::format(" (%.1f/min)", facts.evaluationsPerMinute) << ", "
     << tuner.getEvaluationsReused() << " reused from records.jsonl, "
     << tuner.getReusedUnits() << " unit(s) finished earlier";
  if (facts.coordinatorSecondsPerResult > 0)
    os << "; coordinator "
       << formatSeconds(facts.coordinatorSecondsPerResult)
       << " CPU per result, "
       << formatSeconds(facts.workerSecondsPerEvaluation)
       << " per evaluation on a rank: one coordinator keeps about "
       << llvm::format("%.0f", facts.saturationRanks()) << " ranks busy";
  os << "\n";
}

/// A name for this run's host-wide files (timing locks, rank copies).
static std::string makeRunId() {
  std::random_device device;
  return llvm::utohexstr((uint64_t(device()) << 32) ^ device() ^
                             uint64_t(llvm::sys::Process::getProcessId()),
                         /*LowerCase=*/true);
}

/// Rank 0: everything up to the searches, checked before any rank starts.
struct Setup {
  std::unique_ptr<RecordLog> log;
  std::unique_ptr<LibraryTuner> tuner;
  TuneOptions options;
};

static llvm::Expected<Setup> prepare(const RankGroup &group,
                                     llvm::StringRef toolDir) {
  Setup setup;
  // Options first: a bad one fails before anything is written.
  if (progressSeconds < 0)
    return llvm::createStringError("--progress-seconds must not be negative");
  EvaluatorOptions limits;
  limits.timeoutSeconds = timeout;
  if (llvm::Error error = checkEvaluatorOptions(limits))
    return error;
  llvm::Expected<Manifest> manifest = readManifest(manifestPath);
  if (!manifest)
    return manifest.takeError();
  if (std::error_code ec = llvm::sys::fs::create_directories(outDir))
    return llvm::createStringError("cannot create '" + outDir +
                                   "': " + ec.message());
  llvm::Expected<std::unique_ptr<RecordLog>> log =
      RecordLog::open((outDir + "/" + kRecordsFile).str());
  if (!log)
    return log.takeError();
  setup.log = std::move(*log);
  if (setup.log->droppedTornLine())
    llvm::errs() << "perfdojo-tune: dropped the torn last line of " << outDir
                 << "/" << kRecordsFile << " (a run was killed while "
                 << "writing it)\n";

  TuneOptions &options = setup.options;
  options.outDir = outDir;
  options.runner = runner.empty() ? (toolDir + "/perfdojo-run").str()
                                  : runner.getValue();
  if (!llvm::sys::fs::can_execute(options.runner))
    return llvm::createStringError("cannot execute the worker '" +
                                   options.runner + "' (set --runner)");
  options.repetitions = reps;
  options.cache = cacheState;
  options.pages = pages;
  options.timeoutSeconds = timeout;
  options.maxWorkRatio = maxWorkRatio;
  options.interpLimit = interpLimit;
  options.finalCandidates = finalCandidates;
  options.finalRepetitions = finalReps;
  options.progress = quiet ? nullptr : &llvm::errs();
  options.progressSeconds = progressSeconds;
  unsigned workers = group.getSize() > 1 ? unsigned(group.getSize() - 1)
                                         : std::max(1u, jobs.getValue());
  // Across ranks, every unit may keep every rank busy; units run side by
  // side so that strategies which evaluate one candidate at a time do too.
  options.jobsPerUnit = workers;
  options.concurrentUnits = group.getSize() > 1 ? workers : 1;
  // Under MPI, 0 lets each rank divide its host's memory among the ranks
  // there (serveWorkerJobs).
  options.memoryLimitMiB =
      workerMemory ? workerMemory.getValue()
                   : group.getSize() > 1 ? 0 : getDefaultWorkerMemoryMiB(workers);
  options.workersLabel =
      group.getSize() > 1
          ? std::to_string(workers) + " worker rank" + (workers == 1 ? "" : "s")
          : std::to_string(workers) + " local worker" +
                (workers == 1 ? "" : "s");
  llvm::Expected<std::unique_ptr<LibraryTuner>> tuner =
      LibraryTuner::create(std::move(*manifest), options, *setup.log);
  if (!tuner)
    return tuner.takeError();
  setup.tuner = std::move(*tuner);
  return std::move(setup);
}

int main(int argc, char **argv) {
  // MPI first: it may take its own arguments off the command line.
  RankGroup group(argc, argv);
  llvm::InitLLVM init(argc, argv);
  parseToolCommandLine(argc, argv, tuneCategory, "threads",
                       "PerfDojo library tuner: search every kernel of a "
                       "manifest at each thread count, as one process or "
                       "across MPI ranks, and write a linkable library\n");
#ifdef PERFDOJO_WITH_AGENT
  agent::registerPerfLLMStrategy(agent::PerfLLMOptions());
#endif

  std::string runId;
  if (!group.isCoordinator()) {
    if (!group.start(false, runId))
      return 1; // rank 0 reported why
#ifdef PERFDOJO_WITH_MPI
    serveWorkerJobs(group, runId);
#endif
    return 0;
  }

  std::string self = llvm::sys::fs::getMainExecutable(
      argv[0], reinterpret_cast<void *>(&anchor));
  llvm::Expected<Setup> setup =
      prepare(group, llvm::sys::path::parent_path(self));
  runId = makeRunId();
  if (!group.start(bool(setup), runId)) {
    if (!setup)
      return fail(llvm::toString(setup.takeError()));
    return 1;
  }
  LibraryTuner &tuner = *setup->tuner;
  RunFacts facts;
  facts.ranks = group.getSize();
  facts.hosts = group.getHosts();
  double cpuBefore = getCpuSeconds();
  unsigned jobsRun = 0;
  if (group.getSize() == 1) {
    LocalWorkerPool pool;
    tuner.run(pool);
    jobsRun = tuner.getEvaluationsRun();
  } else {
#ifdef PERFDOJO_WITH_MPI
    MpiWorkerPool pool(group);
    std::atomic<bool> done{false};
    std::thread searches([&] {
      tuner.run(pool);
      done = true;
    });
    pool.serve([&] { return done.load(); });
    searches.join();
    jobsRun = pool.getResults();
    if (jobsRun)
      facts.dispatchSecondsPerResult =
          pool.getCoordinatorSeconds() / jobsRun;
#endif
  }
  if (jobsRun)
    facts.coordinatorSecondsPerResult =
        (getCpuSeconds() - cpuBefore) / jobsRun;
  if (tuner.getEvaluationsRun())
    facts.workerSecondsPerEvaluation =
        tuner.getWorkerSeconds() / tuner.getEvaluationsRun();
  if (tuner.getElapsedSeconds() > 0)
    facts.evaluationsPerMinute =
        tuner.getEvaluationsRun() * 60.0 / tuner.getElapsedSeconds();

  if (llvm::Error error =
          writeLibrary(tuner, *setup->log, facts, outDir, objectTarget))
    return fail(llvm::toString(std::move(error)));
  printSummary(tuner, *setup->log, facts, llvm::outs());
  // Without any result there is no header (writeLibrary says why).
  std::string header = (outDir + "/" + kHeaderFile).str();
  llvm::outs() << "  wrote " << outDir << "/" << kReportFile << ", "
               << (llvm::sys::fs::exists(header) ? header + ", " : "")
               << outDir << "/objects/, " << outDir << "/" << kRecordsFile
               << "\n";
  size_t missing = llvm::count_if(tuner.getUnits(), [&](const Unit &unit) {
    return !setup->log->getResults().count(unit.id);
  });
  if (missing)
    return fail(std::to_string(missing) +
                " unit(s) have no result (see above); rerun to retry them");
  return 0;
}
