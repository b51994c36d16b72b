//===- LibraryTuner.h - tune every kernel of a manifest ---------*- C++ -*-===//
//
// perfdojo-tune's work on rank 0: each entry of the manifest at each of its
// thread counts is a unit, searched as perfdojo-search searches one kernel
// (its strategy, budget and seed; the original validated first; the final
// selection re-timing the best programs) with every worker job going
// through one WorkerPool (here, or the MPI ranks). Units run side by side
// so that every rank has work. Everything learned is appended to the
// record log as it happens; a unit the log already finished is not run
// again, and every evaluation it holds is reused.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TUNE_LIBRARYTUNER_H
#define PERFDOJO_TUNE_LIBRARYTUNER_H

#include "perfdojo/Search/WorkerJob.h"
#include "perfdojo/Support/CacheState.h"
#include "perfdojo/Support/PageBacking.h"
#include "perfdojo/Tune/Manifest.h"
#include "perfdojo/Tune/RecordLog.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <mutex>

namespace perfdojo::tune {

struct TuneOptions {
  /// The output directory (records.jsonl, report.json, entries/, objects/).
  std::string outDir;
  /// The perfdojo-run executable, as the ranks that run jobs see it.
  std::string runner;
  unsigned repetitions = 5;
  /// The cache the evaluations' timed repetitions start from.
  CacheState cache = CacheState::Cold;
  /// The pages the evaluations' arguments live on.
  PageBacking pages = PageBacking::Huge;
  unsigned timeoutSeconds = 60;
  /// Worker memory limit in MiB (0: none).
  unsigned memoryLimitMiB = 0;
  double maxWorkRatio = 4;
  int64_t interpLimit = 0;
  /// The final selection of each unit (FinalSelection.h).
  unsigned finalCandidates = 3, finalRepetitions = 20;
  /// Units searched at once, and worker jobs each unit's evaluator has in
  /// flight at once.
  unsigned concurrentUnits = 1, jobsPerUnit = 1;
  /// Where progress lines go (null: nowhere).
  llvm::raw_ostream *progress = nullptr;
  /// Progress lines at least this far apart, unless a unit finishes.
  double progressSeconds = 10;
  /// Describes the workers in progress lines ("2 worker ranks").
  std::string workersLabel = "1 process";
};

/// One entry at one thread count.
struct Unit {
  size_t entry = 0;
  unsigned threads = 1;
  /// The C function it becomes (`<name>_t<threads>`).
  std::string function;
  /// getUnitId of the request.
  std::string id;
  std::string kernelHash;
};

/// What a unit's search is asked, as an identifier: the original kernel's
/// canonical text, the threads, the strategy, its budget and seed, and the
/// timing options. A finished unit of the same id is not searched again.
std::string getUnitId(const ManifestEntry &entry, unsigned threads,
                      llvm::StringRef kernelHash, const TuneOptions &options);

class LibraryTuner {
public:
  /// Loads every kernel of `manifest` (an error names the one that does not
  /// load) and lists the units.
  static llvm::Expected<std::unique_ptr<LibraryTuner>>
  create(Manifest manifest, TuneOptions options, RecordLog &log);

  /// Tunes every unit the log has not finished, through `pool`. Units that
  /// fail (their original does not compile, run or validate) are reported
  /// and left unfinished; the others go on.
  void run(WorkerPool &pool);

  const std::vector<Unit> &getUnits() const { return units; }
  const Manifest &getManifest() const { return manifest; }
  /// Units that failed in `run`, with why.
  const std::vector<std::pair<const Unit *, std::string>> &getFailures() const {
    return failures;
  }
  /// Units the log had finished before `run`.
  unsigned getReusedUnits() const { return reusedUnits; }
  /// Evaluations run by workers during `run`, and those the log answered.
  unsigned getEvaluationsRun() const { return evaluationsRun; }
  unsigned getEvaluationsReused() const { return evaluationsReused; }
  double getElapsedSeconds() const { return elapsedSeconds; }
  /// Worker seconds of the evaluations run (their sum).
  double getWorkerSeconds() const { return workerSeconds; }

private:
  LibraryTuner(Manifest manifest, TuneOptions options, RecordLog &log)
      : manifest(std::move(manifest)), options(std::move(options)), log(log) {}
  /// Searches `unit`; an error says why it has no result.
  llvm::Error tune(const Unit &unit, WorkerPool &pool);
  void reportProgress(bool force);

  Manifest manifest;
  TuneOptions options;
  RecordLog &log;
  std::vector<Unit> units;
  /// Keys of the evaluations the log held before `run`.
  llvm::StringSet<> recordedKeys;
  std::vector<std::pair<const Unit *, std::string>> failures;
  unsigned reusedUnits = 0;
  std::atomic<unsigned> evaluationsRun{0}, evaluationsReused{0},
      unitsDone{0};
  double workerSeconds = 0, elapsedSeconds = 0;
  /// The best speedup of a finished unit, and its function.
  double bestSpeedup = 0;
  std::string bestFunction;
  double lastProgress = 0;
  std::chrono::steady_clock::time_point start;
  std::mutex mutex;
};

} // namespace perfdojo::tune

#endif // PERFDOJO_TUNE_LIBRARYTUNER_H
