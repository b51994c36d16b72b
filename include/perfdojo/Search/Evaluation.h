//===- Evaluation.h - what evaluating one candidate found -------*- C++ -*-===//
//
// The result of running one candidate (Evaluator.h, WorkerJob.h): its
// status, time and what the worker said. The same JSON object is the
// evaluation cache's file, a line of perfdojo-tune's records.jsonl and the
// message an MPI rank sends back.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SEARCH_EVALUATION_H
#define PERFDOJO_SEARCH_EVALUATION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>

namespace perfdojo {

enum class EvaluationStatus {
  Ok,          ///< compiled, validated, timed
  IllegalMove, ///< a move of the sequence was refused (not run)
  Failed,      ///< the worker reported an error (lowering, compilation)
  Crashed,     ///< the worker died (signal) or produced no report
  Timeout,     ///< the worker exceeded the time limit
  Mismatch,    ///< outputs differ from the f64 reference: a legality bug
               ///< unless `Evaluation::numerics`
  Pruned,      ///< not run: far more work than the original (see
               ///< EvaluatorOptions::maxWorkRatio)
  Pending,     ///< bundled for a GPU machine, not timed yet (see
               ///< EvaluatorOptions::gpuRemoteDir); never cached
};
llvm::StringRef stringifyEvaluationStatus(EvaluationStatus status);

struct Evaluation {
  EvaluationStatus status = EvaluationStatus::Failed;
  /// Median run time in seconds (status Ok only).
  double seconds = 0;
  /// Cycles of a run on the Snitch model (status Ok, Snitch target only).
  std::optional<uint64_t> cycles;
  double compileMs = 0;
  /// Wall-clock seconds of the worker process (0 when not run).
  double workerSeconds = 0;
  /// Hash of the canonical kernel text: the cache key.
  std::string key;
  std::string message;
  /// Mismatch only: the original kernel is itself off from the f64
  /// reference on an output this candidate does not match, so the mismatch
  /// is numerics (rounding, overflow), not a legality bug.
  bool numerics = false;
  bool cached = false;
  bool ok() const { return status == EvaluationStatus::Ok; }
};

/// The evaluation as JSON: status, seconds, cycles (when known),
/// compile_ms, worker_s, message, numerics and key. `cached` is not written:
/// it says where this process got the evaluation.
llvm::json::Value toJSON(const Evaluation &evaluation);
bool fromJSON(const llvm::json::Value &value, Evaluation &evaluation,
              llvm::json::Path path);

} // namespace perfdojo

#endif // PERFDOJO_SEARCH_EVALUATION_H
