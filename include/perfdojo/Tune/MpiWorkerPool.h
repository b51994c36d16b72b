//===- MpiWorkerPool.h - worker jobs on the other MPI ranks -----*- C++ -*-===//
//
// Rank 0 of a perfdojo-tune run owns the strategies; its evaluators hand
// their worker jobs (Search/WorkerJob.h) to this pool, which sends each to
// an idle rank. That rank runs it as the evaluator would here, in an
// isolated perfdojo-run child, and sends the evaluation back: a candidate
// that crashes or hangs costs only itself, never a rank.
//
// Files travel with the jobs: the first job a rank gets that names a file
// of rank 0 (the original kernel, the saved reference outputs) carries its
// contents, which the rank keeps in a directory of its own for later jobs;
// the reference outputs the original's run saves come back to rank 0 with
// its evaluation. Ranks on one host take turns to time through a lock file
// named after the run, so their timings do not disturb each other.
//
// Only the thread that initialized MPI calls MPI: rank 0 runs `serve` on
// it, and its tuning threads block in `run`.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TUNE_MPIWORKERPOOL_H
#define PERFDOJO_TUNE_MPIWORKERPOOL_H

#include "perfdojo/Search/WorkerJob.h"
#include "perfdojo/Tune/RankGroup.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSet.h"

#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>

namespace perfdojo::tune {

class MpiWorkerPool : public WorkerPool {
public:
  /// Rank 0's pool over ranks 1..size-1 of `group`.
  explicit MpiWorkerPool(const RankGroup &group);

  /// Queues `job` for the next idle rank and waits for its evaluation.
  Evaluation run(const WorkerJob &job) override;

  /// The dispatch loop, on the thread that initialized MPI: sends queued
  /// jobs to idle ranks and hands back their evaluations until `finished`
  /// holds with nothing queued or in flight; then tells every rank to
  /// stop.
  void serve(llvm::function_ref<bool()> finished);

  unsigned getWorkers() const { return unsigned(idle.size() + busy.size()); }
  /// Evaluations received, and the seconds this loop spent on them
  /// (receiving, decoding, handing back, sending the next job): the
  /// coordinator's cost per result.
  unsigned getResults() const { return results; }
  double getCoordinatorSeconds() const { return coordinatorSeconds; }

private:
  struct Pending {
    WorkerJob job;
    std::promise<Evaluation> promise;
  };
  void send(int worker, Pending pending);
  void receive();

  std::mutex mutex;
  std::condition_variable queued;
  std::deque<Pending> queue;
  std::vector<int> idle;
  /// In flight, by rank.
  std::map<int, Pending> busy;
  /// Files of rank 0 each rank already holds, by rank.
  std::map<int, llvm::StringSet<>> mirrored;
  unsigned results = 0;
  double coordinatorSeconds = 0;
};

/// A worker rank's loop: runs the jobs rank 0 sends until told to stop.
/// `runId` (RankGroup::start) names the host's timing lock and the rank's
/// directory of mirrored files.
void serveWorkerJobs(const RankGroup &group, llvm::StringRef runId);

} // namespace perfdojo::tune

#endif // PERFDOJO_TUNE_MPIWORKERPOOL_H
