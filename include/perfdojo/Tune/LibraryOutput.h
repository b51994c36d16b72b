//===- LibraryOutput.h - what a tuning run leaves behind --------*- C++ -*-===//
//
// After the units are tuned, rank 0 writes the library: DIR/report.json
// (per entry and thread count: kernel, threads, best and original times,
// speedup, validation, evaluations; then the run's ranks, hosts and
// rates), one ahead-of-time object per unit, `objects/<function>.o`, whose
// one C function `<name>_t<threads>` is the best program found, and
// `perfdojo_library.h` declaring them all (Target/LLVM/Emit.h's ABI).
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TUNE_LIBRARYOUTPUT_H
#define PERFDOJO_TUNE_LIBRARYOUTPUT_H

#include "perfdojo/Tune/LibraryTuner.h"

namespace perfdojo::tune {

/// What report.json says of the run besides its units.
struct RunFacts {
  int ranks = 1;
  /// Host of each rank.
  std::vector<std::string> hosts;
  /// Evaluations per minute across the workers during this run.
  double evaluationsPerMinute = 0;
  /// Rank 0's CPU seconds per worker job while tuning: its strategies,
  /// building candidates, records and, under MPI, the dispatch loop (0
  /// when nothing ran).
  double coordinatorSecondsPerResult = 0;
  /// The part of it in the MPI dispatch loop (0 without ranks).
  double dispatchSecondsPerResult = 0;
  /// Mean wall-clock seconds of a worker job (compile, validate, time).
  double workerSecondsPerEvaluation = 0;
  /// Worker ranks one coordinator keeps busy: a rank returns a result every
  /// workerSecondsPerEvaluation, and each result costs the coordinator
  /// coordinatorSecondsPerResult (0 when not measured).
  double saturationRanks() const {
    return coordinatorSecondsPerResult > 0
               ? workerSecondsPerEvaluation / coordinatorSecondsPerResult
               : 0;
  }
};

/// The report.json file name, objects directory and header file name.
constexpr llvm::StringLiteral kReportFile = "report.json";
constexpr llvm::StringLiteral kHeaderFile = "perfdojo_library.h";
constexpr llvm::StringLiteral kRecordsFile = "records.jsonl";

/// Writes report.json for every unit of `tuner` the log has a result for
/// (in manifest order), the objects of those units for `objectTarget`
/// (a perfdojo-translate --target name) and the header. A unit without a
/// result is listed in the report with `"validated": false` and the reason
/// from `tuner.getFailures()`, and has no object.
llvm::Error writeLibrary(const LibraryTuner &tuner, const RecordLog &log,
                         const RunFacts &facts, llvm::StringRef outDir,
                         llvm::StringRef objectTarget);

} // namespace perfdojo::tune

#endif // PERFDOJO_TUNE_LIBRARYOUTPUT_H
