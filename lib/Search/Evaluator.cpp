//===- Evaluator.cpp - evaluate candidate kernels in isolation ------------===//

#include "perfdojo/Search/Evaluator.h"
#include "perfdojo/Moves/Game.h"
#include "perfdojo/Runtime/HostBuffer.h"
#include "perfdojo/Runtime/RunOptions.h"
#include "perfdojo/Runtime/WorkCounts.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <climits>
#include <cmath>

using namespace perfdojo;

unsigned perfdojo::getDefaultWorkerMemoryMiB(unsigned jobs) {
  int64_t mib = getPhysicalMemoryBytes() / (int64_t(1) << 20);
  return static_cast<unsigned>(
      std::min<int64_t>(mib / std::max(1u, jobs), UINT_MAX));
}

llvm::Error perfdojo::checkEvaluatorOptions(const EvaluatorOptions &options) {
  if (options.timeoutSeconds == 0)
    return llvm::createStringError("the time limit per candidate must be "
                                   "positive");
  if (options.stopAboveBest < 0)
    return llvm::createStringError("--stop-above-best must not be negative "
                                   "(0: time every candidate fully)");
  if (!options.gpuRemoteDir.empty()) {
    if (options.gpuChip.empty())
      return llvm::createStringError("a remote GPU needs a GPU target");
    if (std::error_code ec =
            llvm::sys::fs::create_directories(options.gpuRemoteDir))
      return llvm::createStringError("cannot create '" + options.gpuRemoteDir +
                                     "': " + ec.message());
  }
  if (options.cacheDir.empty())
    return llvm::Error::success();
  if (std::error_code ec = llvm::sys::fs::create_directories(options.cacheDir))
    return llvm::createStringError("cannot create the cache '" +
                                   options.cacheDir + "': " + ec.message());
  // Probe: a directory can exist without being writable.
  llvm::SmallString<128> probe;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          options.cacheDir + "/probe-%%%%%%", probe))
    return llvm::createStringError("cannot write to the cache '" +
                                   options.cacheDir + "': " + ec.message());
  llvm::sys::fs::remove(probe);
  return llvm::Error::success();
}

Evaluator::Evaluator(dojo::KernelOp original, std::string originalPath,
                     EvaluatorOptions options)
    : original(original), originalPath(std::move(originalPath)),
      options(std::move(options)) {
  this->options.jobs = std::max(1u, this->options.jobs);
  if (!this->options.cacheDir.empty())
    llvm::sys::fs::create_directories(this->options.cacheDir);
  originalText = Game(original, this->options.moves).print();
  originalWork = countWork(original).leafEvaluations;
  if (this->options.jobs > 1 &&
      llvm::sys::fs::createTemporaryFile("perfdojo-timing", "lock", lockPath))
    lockPath.clear(); // without a lock file, workers time concurrently
  llvm::StringRef referenceDir = this->options.referenceDir.empty()
                                    ? this->options.cacheDir
                                    : this->options.referenceDir;
  if (!referenceDir.empty()) {
    llvm::sys::fs::create_directories(referenceDir);
    referencePath = (referenceDir + "/" + hashKernelText(originalText) +
                     ".f64-reference")
                        .str();
  } else {
    llvm::SmallString<128> path;
    if (!llvm::sys::fs::getPotentiallyUniqueTempFileName("perfdojo-reference",
                                                         "outputs", path)) {
      referencePath = path.str().str();
      referenceIsTemporary = true;
    }
  }
}

Evaluator::~Evaluator() {
  if (!lockPath.empty())
    llvm::sys::fs::remove(lockPath);
  if (referenceIsTemporary)
    llvm::sys::fs::remove(referencePath);
}

llvm::Expected<Evaluator::Candidate>
Evaluator::build(llvm::ArrayRef<MoveRequest> moves) {
  Game game(original, options.moves);
  for (const MoveRequest &move : moves)
    if (llvm::Error error = game.apply(move))
      return llvm::createStringError(move.str() + ": " +
                                     llvm::toString(std::move(error)));
  return Candidate{game.print(),
                   countWork(game.getKernel()).leafEvaluations};
}

llvm::Expected<std::string>
Evaluator::materialize(llvm::ArrayRef<MoveRequest> moves) {
  llvm::Expected<Candidate> candidate = build(moves);
  if (!candidate)
    return candidate.takeError();
  return std::move(candidate->text);
}

std::optional<Evaluation> Evaluator::lookup(const std::string &key) {
  auto it = cache.find(key);
  if (it == cache.end() && !options.cacheDir.empty()) {
    // The persistent cache: one JSON file per program.
    std::string path = options.cacheDir + "/" + key + ".json";
    if (auto buffer = llvm::MemoryBuffer::getFile(path)) {
      Evaluation e;
      llvm::Expected<llvm::json::Value> json =
          llvm::json::parse((*buffer)->getBuffer());
      llvm::json::Path::Root root;
      // A file of another format is a miss: the candidate runs again.
      if (json && fromJSON(*json, e, root)) {
        e.key = key;
        it = cache.insert({key, e}).first;
      }
      if (!json)
        llvm::consumeError(json.takeError());
    }
  }
  if (it == cache.end())
    return std::nullopt;
  ++cacheHits;
  Evaluation e = it->second;
  e.cached = true;
  return e;
}

std::string Evaluator::getKey(llvm::StringRef text) const {
  // Timings depend on the thread count: part of the key.
  // Times on a GPU and on the CPU are different evaluations of one text.
  if (!options.gpuChip.empty())
    return hashKernelText(text) + "-" + options.gpuChip;
  if (options.snitch)
    return hashKernelText(text) + "-snitch";
  // A warm cache is another measurement of the same text; cold keeps the
  // keys of caches written before the option existed.
  std::string key =
      hashKernelText(text) + "-t" + std::to_string(options.threads);
  if (options.cache == CacheState::Warm)
    key += "-warm";
  // Likewise small pages (huge ones keep the earlier keys).
  if (options.pages == PageBacking::Small)
    key += "-small";
  return key;
}

unsigned Evaluator::getTimeLimit() const {
  if (originalWorkerSeconds <= 0)
    return options.timeoutSeconds;
  double limit = std::max(10.0, 20 * originalWorkerSeconds * options.jobs);
  return std::min<unsigned>(options.timeoutSeconds,
                            static_cast<unsigned>(std::ceil(limit)));
}

Evaluation Evaluator::evaluate(llvm::ArrayRef<MoveRequest> moves) {
  return evaluateBatch({llvm::SmallVector<MoveRequest>(moves)}).front();
}

std::vector<Evaluation> Evaluator::evaluateBatch(
    llvm::ArrayRef<llvm::SmallVector<MoveRequest>> candidates) {
  std::vector<Evaluation> results(candidates.size());
  // Candidates that need a worker: index into `results`, text.
  std::vector<std::pair<size_t, std::string>> pending;
  llvm::StringMap<size_t> pendingByKey;
  std::vector<std::pair<size_t, size_t>> duplicates; // (result, pending)
  for (auto [index, moves] : llvm::enumerate(candidates)) {
    Evaluation &e = results[index];
    llvm::Expected<Candidate> candidate = build(moves);
    if (!candidate) {
      e.status = EvaluationStatus::IllegalMove;
      e.message = llvm::toString(candidate.takeError());
      continue;
    }
    e.key = getKey(candidate->text);
    if (std::optional<Evaluation> hit = lookup(e.key)) {
      // The original's worker time bounds the others', cached or not.
      if (candidate->text == originalText && hit->ok())
        originalWorkerSeconds = hit->workerSeconds;
      noteTime(*hit);
      e = *hit;
      e.workerSeconds = 0; // no worker ran for this record
      continue;
    }
    if (auto it = pendingByKey.find(e.key); it != pendingByKey.end()) {
      duplicates.push_back({index, it->second});
      continue;
    }
    if (candidate->text != originalText &&
        exceedsWorkRatio(candidate->leafEvaluations, originalWork,
                         options.maxWorkRatio)) {
      e.status = EvaluationStatus::Pruned;
      e.message = llvm::formatv("{0:f1}x the original kernel's leaf "
                                "evaluations",
                                double(candidate->leafEvaluations) /
                                    originalWork)
                      .str();
      // Memory only: pruning depends on this run's --max-work-ratio.
      cache[e.key] = e;
      continue;
    }
    pendingByKey[e.key] = pending.size();
    pending.push_back({index, std::move(candidate->text)});
  }

  // Once the original kernel has run, its worker time bounds the others'.
  unsigned limit = getTimeLimit();
  double stopAbove = getStopAboveSeconds();
  std::vector<Evaluation> ran(pending.size());
  auto run = [&](size_t p) {
    const auto &[index, text] = pending[p];
    bool original = text == originalText;
    ran[p] = runWorker(text, results[index].key,
                       original ? options.timeoutSeconds : limit,
                       options.repetitions, original ? 0 : stopAbove);
  };
  if (options.jobs == 1 || pending.size() <= 1) {
    for (size_t p = 0; p < pending.size(); ++p)
      run(p);
  } else {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(
        std::min<unsigned>(options.jobs, pending.size())));
    for (size_t p = 0; p < pending.size(); ++p)
      pool.async(run, p);
    pool.wait();
  }
  for (size_t p = 0; p < pending.size(); ++p) {
    ++workerRuns;
    Evaluation &e = results[pending[p].first];
    e = ran[p];
    if (pending[p].second == originalText && e.ok())
      originalWorkerSeconds = e.workerSeconds;
    noteTime(e);
    store(e);
  }
  for (auto [index, p] : duplicates) {
    ++cacheHits;
    results[index] = results[pending[p].first];
    results[index].cached = true;
    results[index].workerSeconds = 0;
  }
  return results;
}

Evaluation Evaluator::retime(llvm::ArrayRef<MoveRequest> moves,
                             unsigned repetitions) {
  llvm::Expected<Candidate> candidate = build(moves);
  if (!candidate) {
    Evaluation e;
    e.status = EvaluationStatus::IllegalMove;
    e.message = llvm::toString(candidate.takeError());
    return e;
  }
  ++workerRuns;
  // More repetitions than the search's: the limit grows with them.
  unsigned scale = std::max(1u, repetitions / std::max(1u, options.repetitions));
  unsigned limit = candidate->text == originalText
                       ? options.timeoutSeconds
                       : std::min(options.timeoutSeconds,
                                  getTimeLimit() * scale);
  return runWorker(candidate->text, getKey(candidate->text), limit,
                   repetitions);
}

double Evaluator::getStopAboveSeconds() const {
  return options.stopAboveBest > 0 ? options.stopAboveBest * bestSeconds : 0;
}

void Evaluator::noteTime(const Evaluation &evaluation) {
  if (evaluation.ok() && evaluation.seconds > 0 &&
      (bestSeconds == 0 || evaluation.seconds < bestSeconds))
    bestSeconds = evaluation.seconds;
}

void Evaluator::addKnown(const Evaluation &evaluation) {
  Evaluation e = evaluation;
  e.cached = false;
  cache[e.key] = std::move(e);
}

void Evaluator::store(const Evaluation &e) {
  // A pending candidate is evaluated once its results come back.
  if (e.status == EvaluationStatus::Pending)
    return;
  cache[e.key] = e;
  if (options.cacheDir.empty())
    return;
  std::error_code ec;
  llvm::raw_fd_ostream os(options.cacheDir + "/" + e.key + ".json", ec);
  if (ec)
    return;
  os << toJSON(e);
}

namespace {
/// Where a candidate's bundle for a remote GPU stands (run-all.sh, written
/// by scripts/gpu-write-run-all.sh, leaves timing.json or failed.txt).
enum class RemoteBundleState { None, Waiting, Ran, FailedThere };
} // namespace

static RemoteBundleState getRemoteBundleState(llvm::StringRef bundle) {
  if (llvm::sys::fs::exists(bundle + "/timing.json"))
    return RemoteBundleState::Ran;
  if (llvm::sys::fs::exists(bundle + "/failed.txt"))
    return RemoteBundleState::FailedThere;
  // The worker writes kernel.dojo last, once the bundle is complete.
  if (llvm::sys::fs::exists(bundle + "/kernel.dojo"))
    return RemoteBundleState::Waiting;
  return RemoteBundleState::None;
}

WorkerJob Evaluator::makeJob(const std::string &text, const std::string &key,
                             unsigned timeoutSeconds, unsigned repetitions,
                             double stopAboveSeconds) const {
  WorkerJob job;
  job.runner = options.runner;
  job.text = text;
  job.key = key;
  job.timeoutSeconds = timeoutSeconds;
  job.memoryLimitMiB = options.memoryLimitMiB;
  job.baselinePath = originalPath;
  job.timingLock = lockPath.str().str();
  // The original kernel is checked against the f64 reference (the
  // interpreter on shapes it can afford, see RunOptions::interpLimit, else
  // the original promoted to f64 and compiled) and saves the reference's
  // outputs with its own; every other candidate is checked against those,
  // or, before they exist, against the compiled f64 reference.
  job.isOriginal = text == originalText;
  bool haveReference =
      !referencePath.empty() && llvm::sys::fs::exists(referencePath);
  RunOptions run;
  if (options.snitch) {
    run.engine = RunEngine::Snitch;
  } else if (!options.gpuChip.empty()) {
    run.engine = RunEngine::Cuda;
    run.gpuChip = options.gpuChip;
    if (!options.gpuRemoteDir.empty()) {
      std::string bundle = getRemoteBundleDir(key);
      if (getRemoteBundleState(bundle) == RemoteBundleState::Ran) {
        run.gpuResults = bundle;
      } else {
        // To be bundled: no reference is read or saved, no data timed.
        job.gpuBundleDir = bundle;
        job.timingLock.clear();
        job.flags = getRunFlags(run, /*baselinePath=*/"");
        return job;
      }
    }
  } else {
    run.threads = options.threads;
  }
  run.repetitions = repetitions;
  run.cache = options.cache;
  run.pages = options.pages;
  run.stopAboveSeconds = stopAboveSeconds;
  run.interpLimit = options.interpLimit;
  if (haveReference)
    job.referencePath = referencePath;
  else if (!job.isOriginal)
    run.referenceEngine = ReferenceEngine::Compiled;
  // The warm-up makes one call and then reads the remaining argument
  // copies: the timed calls find the same cold cache, and the serialized
  // data phase of every evaluation does not run the kernel once per copy.
  run.maxWarmupSeconds = 0;
  job.flags = getRunFlags(run, /*baselinePath=*/"");
  if (job.isOriginal && !haveReference)
    job.saveReferencePath = referencePath;
  return job;
}

std::string Evaluator::getRemoteBundleDir(llvm::StringRef key) const {
  return (options.gpuRemoteDir + "/" + key).str();
}

Evaluation Evaluator::runWorker(const std::string &text,
                                const std::string &key,
                                unsigned timeoutSeconds,
                                unsigned repetitions,
                                double stopAboveSeconds) const {
  if (!options.gpuRemoteDir.empty()) {
    // A launch that failed there, or a bundle not run yet, needs no worker.
    std::string bundle = getRemoteBundleDir(key);
    Evaluation e;
    e.key = key;
    switch (getRemoteBundleState(bundle)) {
    case RemoteBundleState::FailedThere: {
      auto failed = llvm::MemoryBuffer::getFile(bundle + "/failed.txt");
      e.status = EvaluationStatus::Failed;
      e.message = "on the GPU machine: " +
                  (failed ? (*failed)->getBuffer().trim().str()
                          : std::string("(failed.txt unreadable)"));
      return e;
    }
    case RemoteBundleState::Waiting:
      e.status = EvaluationStatus::Pending;
      e.message = "bundled in " + bundle + ", not run yet";
      return e;
    case RemoteBundleState::None:
    case RemoteBundleState::Ran:
      break;
    }
  }
  return pool->run(
      makeJob(text, key, timeoutSeconds, repetitions, stopAboveSeconds));
}

/// Whether candidates for `chip` can run here: NVIDIA chips run through
/// the CUDA driver; AMD ones are compiled but not run.
static bool runsOnCuda(llvm::StringRef chip) {
  std::optional<TargetDescription> gpu = TargetDescription::getGpu(chip);
  return gpu && gpu->vendor == "NVIDIA";
}

llvm::Error perfdojo::setEvaluatorTarget(EvaluatorOptions &options,
                                         llvm::StringRef name) {
  options.snitch = false;
  options.gpuChip.clear();
  if (name == "cpu") {
    options.moves.target = TargetDescription::getCpu();
  } else if (name == "snitch") {
    options.moves.target = TargetDescription::getSnitch();
    options.snitch = true;
  } else if (runsOnCuda(name)) {
    options.moves.target = *TargetDescription::getGpu(name);
    options.gpuChip = name.str();
  } else {
    llvm::SmallVector<llvm::StringRef> targets = {"cpu", "snitch"};
    llvm::copy_if(TargetDescription::getGpuChips(), std::back_inserter(targets),
                  runsOnCuda);
    return llvm::createStringError(
        "unknown target '" + name + "' (expected " +
        llvm::join(llvm::ArrayRef(targets).drop_back(), ", ") + " or " +
        targets.back() + ")");
  }
  return llvm::Error::success();
}

bool perfdojo::exceedsWorkRatio(int64_t candidateWork, int64_t originalWork,
                                double maxWorkRatio) {
  return maxWorkRatio > 0 && originalWork > 0 &&
         candidateWork > maxWorkRatio * originalWork;
}
