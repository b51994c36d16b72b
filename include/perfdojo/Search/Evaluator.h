//===- Evaluator.h - evaluate candidate kernels in isolation ----*- C++ -*-===//
//
// A candidate is the original kernel plus a move sequence. Evaluating it
// applies the moves, then runs `perfdojo-run` on the result in a worker
// process with a time limit: it lowers, compiles, validates and times. The
// original kernel is validated against the f64 reference (interpreted or
// compiled, ReferencePolicy.h) and saves the reference's outputs with its
// own; every other candidate is validated against those. A candidate that
// reproduces the original where the original itself is off from the f64
// reference is valid (a numerics note in its message). A crash, a hang or
// a miscompile of one candidate is recorded with its reason and never stops
// the search. Up to `jobs` workers run at once: they compile in parallel and
// take turns, through a lock file, for everything that touches kernel data,
// so timings do not disturb each other.
//
// Results are cached by a hash of the canonical `.dojo` text of the
// candidate, so one program reached by two move sequences is evaluated
// once; with a cache directory the cache persists across runs.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SEARCH_EVALUATOR_H
#define PERFDOJO_SEARCH_EVALUATOR_H

#include "perfdojo/Moves/Move.h"
#include "perfdojo/Search/Evaluation.h"
#include "perfdojo/Search/WorkerJob.h"
#include "perfdojo/Target/DojoText/DojoText.h"
#include "perfdojo/Runtime/RunOptions.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace perfdojo {

struct EvaluatorOptions {
  /// The `perfdojo-run` executable.
  std::string runner;
  unsigned threads = 1;
  unsigned repetitions = 5;
  /// The cache the candidates' timed repetitions start from.
  CacheState cache = CacheState::Cold;
  /// The pages the candidates' arguments live on.
  PageBacking pages = PageBacking::Huge;
  /// A candidate's timing stops at its first call slower than this many
  /// times the fastest valid time seen so far (the original's, at first),
  /// and reports the calls timed until then: it is no contender, and its
  /// other repetitions would only cost time (0: every candidate is timed
  /// fully). The final selection always times fully.
  double stopAboveBest = 3;
  /// RunOptions::interpLimit of the workers: above it, the f64 reference is
  /// compiled rather than interpreted.
  int64_t interpLimit = RunOptions().interpLimit;
  /// Wall-clock limit of one worker, seconds. Once the original kernel has
  /// been evaluated, a candidate gets at most max(10 s, 20 x the original's
  /// worker time x jobs) within this limit.
  unsigned timeoutSeconds = 60;
  /// Workers run at once (compile concurrently, time one at a time).
  unsigned jobs = 1;
  /// Memory limit of one worker in MiB (RLIMIT_DATA: its heap and private
  /// mappings, the JIT's code included); 0 for none. A worker over it fails
  /// or crashes like any other, and costs only its own candidate.
  unsigned memoryLimitMiB = 0;
  /// Candidates with more leaf evaluations than this multiple of the
  /// original's are not run (status Pruned): redundant recomputation, for
  /// example a large add_scope around a whole nest (0: run everything).
  double maxWorkRatio = 4;
  /// Persistent cache directory ("" for memory only).
  std::string cacheDir;
  /// Where the original's reference outputs are kept across runs, as
  /// `<hash of the original>.f64-reference` ("": the cache directory, or a
  /// temporary file without one).
  std::string referenceDir;
  /// The GPU chip candidates run on (`perfdojo-run --engine=cuda`), or ""
  /// for the CPU. `moves.target` describes the same target.
  std::string gpuChip;
  /// With `gpuChip`: candidates are not run here but on a GPU machine
  /// reached by files (docs/gpu.md, "Search on a remote GPU"). A candidate
  /// without results gets its bundle in `<gpuRemoteDir>/<key>/` and
  /// evaluates as Pending; one whose bundle holds the launcher's results
  /// (timing.json, outputs/) is validated here like any other; one whose
  /// launch failed there (failed.txt) is Failed with that reason.
  std::string gpuRemoteDir;
  /// Candidates run on the Snitch model (`perfdojo-run --engine=snitch`):
  /// their time is their cycles at the core's clock, and one run is exact.
  bool snitch = false;
  MoveOptions moves;
};

/// Whether a candidate of `candidateWork` leaf evaluations is pruned, not
/// run, against an original of `originalWork` (EvaluatorOptions::
/// maxWorkRatio; 0 prunes nothing).
bool exceedsWorkRatio(int64_t candidateWork, int64_t originalWork,
                      double maxWorkRatio);

/// Points `options` at the target called `name`: `cpu` (this machine),
/// `snitch` (the Snitch model) or a GPU chip that runs through the CUDA
/// driver; sets the moves' target description to match. An error lists the
/// names that can be evaluated.
llvm::Error setEvaluatorTarget(EvaluatorOptions &options, llvm::StringRef name);

/// The default worker memory limit: the machine's physical memory divided
/// among `jobs` workers, in MiB (0 where the memory is unknown).
unsigned getDefaultWorkerMemoryMiB(unsigned jobs);

/// Why `options` cannot evaluate anything (a non-positive time limit, a
/// cache directory that cannot be created or written); checked before a
/// search starts, so a bad option fails at once rather than per candidate.
llvm::Error checkEvaluatorOptions(const EvaluatorOptions &options);

class Evaluator {
public:
  /// `originalPath` names the untransformed kernel file; it is the
  /// validation baseline of every candidate.
  Evaluator(dojo::KernelOp original, std::string originalPath,
            EvaluatorOptions options);

  ~Evaluator();

  /// Evaluates the original kernel after `moves`.
  Evaluation evaluate(llvm::ArrayRef<MoveRequest> moves);

  /// Evaluates several candidates, up to `jobs` workers at a time; the
  /// results are in the order of `candidates`. A program that occurs twice
  /// runs once (the second is a cache hit).
  std::vector<Evaluation>
  evaluateBatch(llvm::ArrayRef<llvm::SmallVector<MoveRequest>> candidates);

  /// Runs the program of `moves` again with `repetitions` timed runs,
  /// bypassing the cache and leaving it unchanged: the back-to-back times
  /// of the final selection (SearchContext::selectFinal).
  Evaluation retime(llvm::ArrayRef<MoveRequest> moves, unsigned repetitions);

  /// The candidate's canonical text, or an error if a move is illegal.
  llvm::Expected<std::string> materialize(llvm::ArrayRef<MoveRequest> moves);

  /// Runs the worker jobs through `pool` from now on (null: here, the
  /// default). The pool outlives the evaluator's use of it.
  void setWorkerPool(WorkerPool *pool) {
    this->pool = pool ? pool : &localPool;
  }

  /// Adds an evaluation known from elsewhere (perfdojo-tune's records of an
  /// earlier run) to the cache: a candidate of its key is a cache hit.
  void addKnown(const Evaluation &evaluation);

  /// Whether candidates are bundled for a GPU machine rather than run here
  /// (EvaluatorOptions::gpuRemoteDir).
  bool isRemote() const { return !options.gpuRemoteDir.empty(); }

  unsigned getCacheHits() const { return cacheHits; }
  unsigned getWorkerRuns() const { return workerRuns; }
  unsigned getJobs() const { return options.jobs; }
  CacheState getCacheState() const { return options.cache; }
  PageBacking getPageBacking() const { return options.pages; }

private:
  /// A candidate after its moves: text and leaf evaluations, or an error.
  struct Candidate {
    std::string text;
    int64_t leafEvaluations = 0;
  };
  llvm::Expected<Candidate> build(llvm::ArrayRef<MoveRequest> moves);
  std::optional<Evaluation> lookup(const std::string &key);
  /// The worker job that evaluates `text`.
  /// `stopAboveSeconds`: RunOptions::stopAboveSeconds (0: time fully).
  WorkerJob makeJob(const std::string &text, const std::string &key,
                    unsigned timeoutSeconds, unsigned repetitions,
                    double stopAboveSeconds) const;
  Evaluation runWorker(const std::string &text, const std::string &key,
                       unsigned timeoutSeconds, unsigned repetitions,
                       double stopAboveSeconds = 0) const;
  /// The time above which a candidate's timing stops early:
  /// `stopAboveBest` times the fastest valid time seen (0: none yet, or
  /// the option is off).
  double getStopAboveSeconds() const;
  /// Records a valid evaluation's time in `bestSeconds`.
  void noteTime(const Evaluation &evaluation);
  /// Where the candidate of `key` is bundled for a remote GPU.
  std::string getRemoteBundleDir(llvm::StringRef key) const;
  /// The cache key of a candidate's canonical text.
  std::string getKey(llvm::StringRef text) const;
  unsigned getTimeLimit() const;
  void store(const Evaluation &evaluation);

  dojo::KernelOp original;
  std::string originalPath, originalText;
  int64_t originalWork = 0;
  EvaluatorOptions options;
  llvm::StringMap<Evaluation> cache;
  LocalWorkerPool localPool;
  WorkerPool *pool = &localPool;
  unsigned cacheHits = 0, workerRuns = 0;
  /// Worker seconds of the original kernel, once it ran.
  double originalWorkerSeconds = 0;
  /// The fastest valid time of any evaluation so far (0: none).
  double bestSeconds = 0;
  /// The lock file workers take turns on (jobs > 1).
  llvm::SmallString<128> lockPath;
  /// The f64 reference outputs and the original kernel's own, saved by the
  /// original's worker; the other candidates are validated against them
  /// (without it, against the compiled f64 reference in each worker). In
  /// the cache directory when there is one, so later runs reuse it.
  std::string referencePath;
  bool referenceIsTemporary = false;
};


} // namespace perfdojo

#endif // PERFDOJO_SEARCH_EVALUATOR_H
