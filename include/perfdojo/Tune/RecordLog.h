//===- RecordLog.h - perfdojo-tune's records.jsonl --------------*- C++ -*-===//
//
// Everything a tuning run learned, one JSON object per line, appended and
// flushed as it happens so that a killed run loses only what was in
// flight: an `evaluation` line per candidate a worker ran (the original
// kernel's hash, threads, moves, status, time) and a `result` line per
// finished entry and thread count (what report.json says of it). A rerun
// over the same directory reads the log back, reuses every evaluation and
// skips every finished unit. A kill can only tear the last line: it is
// detected, dropped and cut from the file before appending resumes.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TUNE_RECORDLOG_H
#define PERFDOJO_TUNE_RECORDLOG_H

#include "perfdojo/Moves/Move.h"
#include "perfdojo/Search/Evaluation.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace perfdojo::tune {

/// One candidate a worker evaluated.
struct EvaluationRecord {
  /// hashKernelText of the original kernel (canonical text).
  std::string kernelHash;
  unsigned threads = 1;
  llvm::SmallVector<MoveRequest> moves;
  /// Its key is the candidate's (text hash and threads).
  Evaluation evaluation;
};

/// The outcome of tuning one entry at one thread count.
struct UnitResult {
  /// Identifies the request (getUnitId): a finished unit is skipped on a
  /// rerun only while the manifest asks exactly the same.
  std::string unit;
  std::string kernel, function, kernelHash, strategy;
  unsigned threads = 1;
  /// The best program's moves (empty: the original is the fastest).
  llvm::SmallVector<MoveRequest> moves;
  double bestSeconds = 0, originalSeconds = 0;
  /// The best program passed validation against the f64 reference.
  bool validated = false;
  /// Evaluations the strategy spent (cache hits included).
  unsigned evaluations = 0;
};

llvm::json::Value toJSON(const UnitResult &result);

class RecordLog {
public:
  /// Opens `path` for appending, reading back what it holds (a missing
  /// file is an empty log). A torn last line is dropped and cut; any other
  /// line that is not a record is an error naming its line number.
  static llvm::Expected<std::unique_ptr<RecordLog>> open(llvm::StringRef path);

  const std::vector<EvaluationRecord> &getEvaluations() const {
    return evaluations;
  }
  /// Finished units by id, from the file and from this run. Not to be read
  /// while another thread appends.
  const llvm::StringMap<UnitResult> &getResults() const { return results; }
  /// Whether opening dropped a torn last line.
  bool droppedTornLine() const { return torn; }

  /// Appends one line and flushes it (a result also joins getResults).
  /// Safe to call from several threads.
  llvm::Error append(const EvaluationRecord &record);
  llvm::Error append(const UnitResult &result);

private:
  RecordLog() = default;
  llvm::Error appendLine(llvm::json::Value line);
  llvm::Error readLine(llvm::StringRef line);

  std::string path;
  std::vector<EvaluationRecord> evaluations;
  llvm::StringMap<UnitResult> results;
  bool torn = false;
  std::mutex mutex;
  std::unique_ptr<llvm::raw_fd_ostream> os;
};

} // namespace perfdojo::tune

#endif // PERFDOJO_TUNE_RECORDLOG_H
