//===- SearchReport.h - what a search writes and prints ---------*- C++ -*-===//
//
// The outputs of a search (docs/search.md, "Output"): report.json with every
// evaluation, the counters, the final selection and the best path; the best
// program and its move script; and the summary printed at the end. The
// JSON's schema is versioned (`schema_version`) and documented in
// docs/search-report.md.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SEARCH_SEARCHREPORT_H
#define PERFDOJO_SEARCH_SEARCHREPORT_H

#include "perfdojo/Runtime/WorkCounts.h"
#include "perfdojo/Support/CacheState.h"
#include "perfdojo/Support/PageBacking.h"
#include "perfdojo/Search/FinalSelection.h"

#include "llvm/Support/JSON.h"

namespace perfdojo {

/// The version of report.json. Bump it when a field changes meaning or
/// disappears (adding a field keeps it), and update docs/search-report.md.
constexpr int64_t kSearchReportSchemaVersion = 1;

/// One prefix of the best move sequence, evaluated.
struct BestPathStep {
  /// Moves applied; the last of them (empty for the original).
  size_t moves = 0;
  std::string move;
  Evaluation evaluation;
};

/// Evaluates every prefix of `moves` (cached programs cost nothing).
std::vector<BestPathStep> evaluateBestPath(Evaluator &evaluator,
                                           llvm::ArrayRef<MoveRequest> moves);

/// libtorch's time for the kernel's operator, or why there is none.
struct LibtorchTime {
  std::optional<double> seconds;
  std::string operatorName, reason;
};

/// Runs `tool` (perfdojo-run-torch) on the kernel file `input`: it checks
/// that libtorch's operator of the kernel's name computes the kernel, then
/// times it like perfdojo-run times a candidate.
LibtorchTime timeLibtorch(llvm::StringRef tool, llvm::StringRef input,
                          unsigned threads, unsigned repetitions,
                          CacheState cache, unsigned timeoutSeconds);

/// Everything report.json and the summary say.
struct SearchReport {
  std::string kernel, input, strategy;
  /// Work of the original (the operator), to turn times into rates.
  WorkCounts work;
  unsigned threads = 1, jobs = 1;
  /// The cache the evaluations' timed repetitions started from.
  CacheState cache = CacheState::Cold;
  /// The pages the evaluations' arguments lived on.
  PageBacking pages = PageBacking::Huge;
  uint64_t seed = 0;
  /// The search's records and counters, before the final selection.
  llvm::ArrayRef<SearchRecord> records;
  unsigned evaluations = 0, workerRuns = 0, cacheHits = 0;
  /// The search's own fastest record.
  const SearchRecord *searchBest = nullptr;
  /// Seconds spent searching, in the final selection and on the best path.
  double searchSeconds = 0, finalSeconds = 0, bestPathSeconds = 0;
  unsigned finalRepetitions = 0;
  SearchResult result;
  /// Empty when the best path was not timed.
  std::vector<BestPathStep> bestPath;
  LibtorchTime libtorch;
};

/// The report of `search` as it stands when its strategy is done: kernel,
/// work, records, counters and elapsed time. The caller adds what the
/// search was asked (input, strategy, threads, seed) and what follows the
/// strategy (result, best path, libtorch).
SearchReport startSearchReport(const SearchContext &search,
                               const Evaluator &evaluator);

/// What follows a strategy, as perfdojo-search asks for it.
struct SearchConclusion {
  /// The kernel file searched, the strategy's name, the kernel's threads
  /// and the strategy's seed (the report's record of the request).
  std::string input, strategy;
  unsigned threads = 1;
  uint64_t seed = 0;
  /// The final selection (SearchContext::selectFinal): the original and
  /// this many fastest programs timed again with `finalRepetitions` runs.
  unsigned finalCandidates = 3, finalRepetitions = 20;
  /// Evaluate every prefix of the best move sequence.
  bool timeBestPath = true;
  /// perfdojo-run-torch, to time libtorch's operator ("": not measured,
  /// with `libtorchReason` as the reason).
  std::string libtorchTool;
  std::string libtorchReason = "not measured";
  unsigned timeoutSeconds = 60, repetitions = 5;
};

/// The report of `search` once its strategy is done: startSearchReport,
/// then the final selection, the best path and libtorch's time as
/// `conclusion` asks.
SearchReport concludeSearch(SearchContext &search, Evaluator &evaluator,
                            const SearchConclusion &conclusion);

/// report.json (docs/search-report.md).
llvm::json::Value toJSON(const SearchReport &report);

/// The files a search writes to its output directory (report.json,
/// best.dojo, best.moves and the plots).
llvm::ArrayRef<llvm::StringRef> getSearchOutputFiles();

/// Writes report.json, and best.dojo and best.moves when there is a best
/// program, to `dir`; `evaluator` materializes the best program. The files
/// of a previous search in `dir` (getSearchOutputFiles) are removed first,
/// so the directory never mixes two runs.
llvm::Error writeSearchOutputs(const SearchReport &report, Evaluator &evaluator,
                               llvm::StringRef dir);

/// With a persistent evaluation cache (`--cache DIR`), keeps the report
/// there too, as `DIR/<original key>-<strategy>.report.json`, so that
/// `dojo-apply-tuned{records=DIR}` (TunedRecords.h) finds the search's
/// result from the cache alone. Nothing is written without an evaluated
/// original.
llvm::Error writeCachedReport(const SearchReport &report,
                              llvm::StringRef cacheDir);

/// A shell command that applies `moves` to the kernel file `input` (`.dojo`
/// or `.mlir`) and runs the result validated against `input`:
/// `perfdojo-translate --import-dojo K.dojo | perfdojo-opt --dojo-apply="..."
/// -o candidate.mlir && perfdojo-run candidate.mlir --baseline=K.dojo`.
std::string getReproduceCommand(llvm::StringRef input,
                                llvm::ArrayRef<MoveRequest> moves);

/// The summary perfdojo-search prints, up to (not including) the line that
/// lists the files written.
void printSearchSummary(const SearchReport &report, llvm::raw_ostream &os);

} // namespace perfdojo

#endif // PERFDOJO_SEARCH_SEARCHREPORT_H
