//===- WorkerJob.h - one candidate's run in a worker process ----*- C++ -*-===//
//
// The evaluator runs every candidate in a `perfdojo-run` child process
// with a time and a memory limit, so that a crash or a hang costs only that
// candidate. A WorkerJob is that run written down as values: the
// candidate's text, the worker's flags, and the files it reads and writes.
// It runs here (runWorkerJob) or through a WorkerPool, which may ship it to
// another process (perfdojo-tune's MPI ranks, Tune/MpiWorkerPool.h): the
// pool then carries the contents of the files the job names and rewrites
// their paths where it runs.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SEARCH_WORKERJOB_H
#define PERFDOJO_SEARCH_WORKERJOB_H

#include "perfdojo/Search/Evaluation.h"

#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace perfdojo {

struct WorkerJob {
  /// The `perfdojo-run` executable.
  std::string runner;
  /// The candidate's canonical `.dojo` text and its evaluation key.
  std::string text, key;
  /// The original kernel itself: validated against the f64 reference, and
  /// the one job that may save the reference outputs.
  bool isOriginal = false;
  /// Worker flags that name no file (engine, threads, repetitions, ...:
  /// getRunFlags of the run options without paths).
  std::vector<std::string> flags;
  /// The original kernel's file, the worker's `--baseline`.
  std::string baselinePath;
  /// Reference outputs to validate against (`--reference-outputs`); empty
  /// when there are none yet.
  std::string referencePath;
  /// Original only: where the worker saves the reference outputs
  /// (`--save-outputs`); empty for none.
  std::string saveReferencePath;
  /// The lock file runs take turns on to time (`--timing-lock`); empty for
  /// none.
  std::string timingLock;
  unsigned timeoutSeconds = 60;
  /// RLIMIT_DATA of the worker in MiB; 0 for none.
  unsigned memoryLimitMiB = 0;
  /// When set, the worker does not run the candidate: it writes its GPU
  /// bundle (`perfdojo-run --gpu-bundle`, inputs as a recipe) and the
  /// candidate's text (`kernel.dojo`) to this directory for a GPU machine,
  /// and the evaluation is Pending (EvaluatorOptions::gpuRemoteDir).
  std::string gpuBundleDir;
};

llvm::json::Value toJSON(const WorkerJob &job);
bool fromJSON(const llvm::json::Value &value, WorkerJob &job,
              llvm::json::Path path);

/// Runs `job` in a child process here and reads its report. Never fails:
/// whatever goes wrong is the evaluation's status and message.
Evaluation runWorkerJob(const WorkerJob &job);

/// Where an evaluator's worker jobs run. `run` is called from several
/// threads at once (up to the evaluator's jobs) and blocks until its job is
/// done.
class WorkerPool {
public:
  virtual ~WorkerPool();
  virtual Evaluation run(const WorkerJob &job) = 0;
};

/// Runs every job here, in the calling thread (the evaluator's default).
class LocalWorkerPool : public WorkerPool {
public:
  Evaluation run(const WorkerJob &job) override { return runWorkerJob(job); }
};

} // namespace perfdojo

#endif // PERFDOJO_SEARCH_WORKERJOB_H
