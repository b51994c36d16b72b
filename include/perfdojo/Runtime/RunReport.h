//===- RunReport.h - one kernel run, as text and JSON ----------*- C++ -*-===//
//
// What one run measured: work counts, times, rates, and per output its
// checksums and its comparison with the reference. `perfdojo-run` prints it
// as text or, with `--json`, as one JSON object whose schema is versioned
// (`schema_version`) and documented field by field in docs/run-report.md;
// the search evaluator reads that object back from its worker processes.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_RUNTIME_RUNREPORT_H
#define PERFDOJO_RUNTIME_RUNREPORT_H

#include "perfdojo/Runtime/RunOptions.h"
#include "perfdojo/Runtime/Validation.h"
#include "perfdojo/Runtime/WorkCounts.h"

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace perfdojo {

/// The version of the JSON form. Bump it when a field changes meaning or
/// disappears (adding a field keeps it), and update docs/run-report.md.
constexpr int64_t kRunReportSchemaVersion = 2;

/// One `out` or `inout` argument after the run.
struct OutputSummary {
  std::string name;
  /// Element type and shape, e.g. "f32 [4, 16]" (describeArgumentType).
  std::string type;
  double sum = 0, l2 = 0;
  /// The comparison with the reference, when the run was validated.
  std::optional<Comparison> comparison;
  /// The original kernel's own outputs compared with the reference, when
  /// measured (KernelRun.h, step 5).
  std::optional<Comparison> original;
  /// This run's outputs compared with the original's, when both differ
  /// from the reference.
  std::optional<Comparison> againstOriginal;
  /// What the comparisons say about numerics, in words: the original
  /// kernel's own error and whether this run reproduces it. Empty when
  /// there is nothing to say.
  std::string note;

  /// Whether the output matches the reference, or reproduces an original
  /// kernel that is itself off from it (a numerics note).
  bool passed() const;
  /// Whether the original kernel's own outputs are known to be off from
  /// the reference (then a mismatch of this output is numerics rather than
  /// a legality bug).
  bool isOriginalOff() const { return original && !original->passed(); }
};

/// Wall time of each JIT compilation stage, in milliseconds.
struct CompileSummary {
  unsigned optLevel = 3;
  unsigned threads = 0;
  double lowerMs = 0, translateMs = 0, codegenMs = 0, totalMs = 0;
};

/// A run on the Snitch model (docs/snitch.md, "Running"): its cycles and
/// how busy the FPU was.
struct SnitchSummary {
  uint64_t cycles = 0;
  /// Instructions the FPU issued per cycle (the hardware's FPU occupancy:
  /// moves and conversions count, FP loads and stores do not).
  double fpuUtilization = 0;
  /// FP compute operations (add, mul, fma, div, sqrt; an fma is one) per
  /// cycle, and that as a share of the core's peak.
  double fpOpsPerCycle = 0, peakShare = 0;
};

/// The run's rate against the machine's peaks (RunOptions::peakGflops).
struct RooflineSummary {
  double percent = 0;
  double attainableGflops = 0;
  /// Flops per compulsory byte.
  double intensity = 0;
};

struct RunReport {
  std::string kernel;
  RunEngine engine = RunEngine::Jit;
  bool referenceMode = false;
  unsigned numArguments = 0;
  WorkCounts counts;
  double medianSeconds = 0, minSeconds = 0;
  unsigned repetitions = 0;
  /// Argument copies the timing rotated through.
  unsigned inputCopies = 1;
  /// The cache the timed repetitions started from.
  CacheState cache = CacheState::Cold;
  /// The pages the arguments lived on (PageBacking.h).
  PageBacking pages = PageBacking::Huge;
  /// A call was slower than RunOptions::stopAboveSeconds: `repetitions`
  /// counts the calls timed until then (the warm-up call, if it was the
  /// one).
  bool stoppedEarly = false;
  /// Rates of the fastest repetition.
  double gflops = 0, gbps = 0;
  std::vector<OutputSummary> outputs;
  /// describeReference's name of the reference; empty if not validated.
  std::string reference;
  std::optional<RooflineSummary> roofline;
  /// JIT runs only.
  std::optional<CompileSummary> compile;
  /// Snitch runs only.
  std::optional<SnitchSummary> snitch;

  /// Whether every output matched the reference (true when not validated).
  bool passed() const;
};

/// Sum and L2 norm of a buffer's elements.
void computeChecksums(const HostBuffer &buffer, double &sum, double &l2);

/// The roofline of `counts` run in `seconds` on a machine of the given
/// peaks; nullopt unless both peaks are positive.
std::optional<RooflineSummary> computeRoofline(const WorkCounts &counts,
                                               double seconds,
                                               double peakGflops,
                                               double peakGBps);

/// The JSON form (docs/run-report.md). Non-finite numbers are the strings
/// "inf", "-inf" and "nan", so the document stays valid JSON.
llvm::json::Value toJSON(const RunReport &report);

/// Reads the JSON form back. Fails on a document that is not a report of
/// schema version kRunReportSchemaVersion. Comparisons keep what the JSON
/// holds: pass or fail, the largest scaled error and the count of elements
/// never written; notes are kept.
llvm::Expected<RunReport> parseRunReport(llvm::StringRef json);

/// Why a run that did not pass failed, as `perfdojo-run` prints it on
/// stderr: "outputs do not match <reference>", then one line per failing
/// output with a note (the original kernel's own error, or this kernel's
/// numerics).
std::string describeFailure(const RunReport &report);

/// The human-readable form `perfdojo-run` prints without `--json`.
void printRunReport(const RunReport &report, llvm::raw_ostream &os);

} // namespace perfdojo

#endif // PERFDOJO_RUNTIME_RUNREPORT_H
