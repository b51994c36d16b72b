//===- Evaluator.cpp - evaluate candidate kernels in isolation ------------===//

#include "perfdojo/Search/Evaluator.h"
#include "perfdojo/Moves/Game.h"
#include "perfdojo/Runtime/RunOptions.h"
#include "perfdojo/Runtime/RunReport.h"
#include "perfdojo/Runtime/WorkCounts.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <chrono>
#include <climits>
#include <cmath>

using namespace perfdojo;

llvm::StringRef perfdojo::stringifyEvaluationStatus(EvaluationStatus status) {
  switch (status) {
  case EvaluationStatus::Ok:
    return "ok";
  case EvaluationStatus::IllegalMove:
    return "illegal-move";
  case EvaluationStatus::Failed:
    return "failed";
  case EvaluationStatus::Crashed:
    return "crashed";
  case EvaluationStatus::Timeout:
    return "timeout";
  case EvaluationStatus::Mismatch:
    return "mismatch";
  case EvaluationStatus::Pruned:
    return "pruned";
  }
  return "unknown";
}

static std::optional<EvaluationStatus> parseStatus(llvm::StringRef text) {
  for (EvaluationStatus s :
       {EvaluationStatus::Ok, EvaluationStatus::IllegalMove,
        EvaluationStatus::Failed, EvaluationStatus::Crashed,
        EvaluationStatus::Timeout, EvaluationStatus::Mismatch,
        EvaluationStatus::Pruned})
    if (stringifyEvaluationStatus(s) == text)
      return s;
  return std::nullopt;
}

unsigned perfdojo::getDefaultWorkerMemoryMiB(unsigned jobs) {
  int64_t mib = getPhysicalMemoryBytes() / (int64_t(1) << 20);
  return static_cast<unsigned>(
      std::min<int64_t>(mib / std::max(1u, jobs), UINT_MAX));
}

llvm::Error perfdojo::checkEvaluatorOptions(const EvaluatorOptions &options) {
  if (options.timeoutSeconds == 0)
    return llvm::createStringError("the time limit per candidate must be "
                                   "positive");
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
  if (!this->options.cacheDir.empty()) {
    referencePath = this->options.cacheDir + "/" +
                    hashKernelText(originalText) + ".f64-reference";
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
      auto json = llvm::json::parse((*buffer)->getBuffer());
      if (json) {
        const llvm::json::Object *o = json->getAsObject();
        Evaluation e;
        e.key = key;
        auto status = o ? o->getString("status") : std::nullopt;
        if (status && parseStatus(*status)) {
          e.status = *parseStatus(*status);
          e.seconds = o->getNumber("seconds").value_or(0);
          if (std::optional<int64_t> cycles = o->getInteger("cycles"))
            e.cycles = *cycles;
          e.compileMs = o->getNumber("compile_ms").value_or(0);
          e.workerSeconds = o->getNumber("worker_s").value_or(0);
          e.message = o->getString("message").value_or("").str();
          e.numerics = o->getBoolean("numerics").value_or(false);
          it = cache.insert({key, e}).first;
        }
      } else {
        llvm::consumeError(json.takeError());
      }
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
  return hashKernelText(text) + "-t" + std::to_string(options.threads);
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
  std::vector<Evaluation> ran(pending.size());
  auto run = [&](size_t p) {
    const auto &[index, text] = pending[p];
    ran[p] = runWorker(text, results[index].key,
                       text == originalText ? options.timeoutSeconds : limit,
                       options.repetitions);
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

void Evaluator::store(const Evaluation &e) {
  cache[e.key] = e;
  if (options.cacheDir.empty())
    return;
  std::error_code ec;
  llvm::raw_fd_ostream os(options.cacheDir + "/" + e.key + ".json", ec);
  if (ec)
    return;
  llvm::json::Object o{{"status", stringifyEvaluationStatus(e.status)},
                       {"seconds", e.seconds},
                       {"compile_ms", e.compileMs},
                       {"worker_s", e.workerSeconds},
                       {"message", e.message},
                       {"numerics", e.numerics}};
  if (e.cycles)
    o["cycles"] = int64_t(*e.cycles);
  os << llvm::json::Value(std::move(o));
}

std::string Evaluator::describeMemoryLimit() const {
  if (options.memoryLimitMiB == 0)
    return "";
  return " (workers may use " + std::to_string(options.memoryLimitMiB) +
         " MiB: --worker-memory-mib)";
}

Evaluation Evaluator::runWorker(const std::string &text,
                                const std::string &key,
                                unsigned timeoutSeconds,
                                unsigned repetitions) const {
  Evaluation e;
  e.key = key;
  llvm::SmallString<128> kernelPath, outPath, errPath;
  llvm::sys::fs::createTemporaryFile("perfdojo-candidate", "dojo", kernelPath);
  llvm::sys::fs::createTemporaryFile("perfdojo-candidate", "json", outPath);
  llvm::sys::fs::createTemporaryFile("perfdojo-candidate", "err", errPath);
  llvm::scope_exit cleanup([&] {
    llvm::sys::fs::remove(kernelPath);
    llvm::sys::fs::remove(outPath);
    llvm::sys::fs::remove(errPath);
  });
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(kernelPath, ec);
    os << text;
  }
  // The original kernel is checked against the f64 reference (the
  // interpreter on shapes it can afford, see RunOptions::interpLimit, else
  // the original promoted to f64 and compiled) and saves the reference's
  // outputs with its own; every other candidate is checked against those,
  // or, before they exist, against the compiled f64 reference.
  bool isOriginal = text == originalText;
  bool haveReference =
      !referencePath.empty() && llvm::sys::fs::exists(referencePath);
  RunOptions run;
  if (options.snitch) {
    run.engine = RunEngine::Snitch;
  } else if (!options.gpuChip.empty()) {
    run.engine = RunEngine::Cuda;
    run.gpuChip = options.gpuChip;
  } else {
    run.threads = options.threads;
  }
  run.repetitions = repetitions;
  run.interpLimit = options.interpLimit;
  if (haveReference)
    run.referenceOutputs = referencePath;
  else if (!isOriginal)
    run.referenceEngine = ReferenceEngine::Compiled;
  // The warm-up makes one call and then reads the remaining argument
  // copies: the timed calls find the same cold cache, and the serialized
  // data phase of every evaluation does not run the kernel once per copy.
  run.maxWarmupSeconds = 0;
  run.timingLock = lockPath.str().str();
  std::vector<std::string> flags = getRunFlags(run, originalPath);
  if (isOriginal && !referencePath.empty() && !haveReference)
    flags.push_back("--save-outputs=" + referencePath);
  llvm::SmallVector<llvm::StringRef> args = {options.runner, kernelPath,
                                             "--json"};
  args.append(flags.begin(), flags.end());
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(""), llvm::StringRef(outPath), llvm::StringRef(errPath)};
  std::string error;
  bool failedToRun = false;
  auto start = std::chrono::steady_clock::now();
  int rc = llvm::sys::ExecuteAndWait(options.runner, args, std::nullopt,
                                     redirects, timeoutSeconds,
                                     options.memoryLimitMiB, &error,
                                     &failedToRun);
  e.workerSeconds = std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - start)
                        .count();
  auto readFile = [](llvm::StringRef path) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    return buffer ? (*buffer)->getBuffer().str() : std::string();
  };
  std::string err = readFile(errPath);
  if (failedToRun) {
    e.status = EvaluationStatus::Crashed;
    e.message = "cannot run " + options.runner + ": " + error;
    return e;
  }
  if (rc == -2) {
    bool timedOut = llvm::StringRef(error).contains("timed out");
    e.status = timedOut ? EvaluationStatus::Timeout : EvaluationStatus::Crashed;
    e.message = timedOut ? "exceeded " + std::to_string(timeoutSeconds) +
                               " s"
                         : error + (err.empty() ? "" : ": " + err) +
                               describeMemoryLimit();
    return e;
  }
  std::string out = readFile(outPath);
  if (rc != 0) {
    e.status = rc == 2 ? EvaluationStatus::Mismatch : EvaluationStatus::Failed;
    e.message = llvm::StringRef(err).trim().str();
    if (rc != 2)
      e.message += describeMemoryLimit();
    // A mismatch still prints its report: where the original kernel is
    // itself off from the f64 reference, the mismatch is numerics.
    if (rc == 2) {
      if (llvm::Expected<RunReport> report = parseRunReport(out))
        e.numerics = llvm::any_of(report->outputs, [](const OutputSummary &o) {
          return !o.passed() && o.isOriginalOff();
        });
      else
        llvm::consumeError(report.takeError());
    }
    return e;
  }
  llvm::Expected<RunReport> report = parseRunReport(out);
  if (!report) {
    e.status = EvaluationStatus::Crashed;
    e.message = "the worker printed no report";
    // A document of another schema version says so.
    std::string reason = llvm::toString(report.takeError());
    if (!llvm::StringRef(out).trim().empty())
      e.message += ": " + reason;
    return e;
  }
  e.status = EvaluationStatus::Ok;
  e.seconds = report->medianSeconds;
  // Valid, with what the run says about numerics: the original kernel's
  // own error (measured once, by the original's run), and every output a
  // candidate passes by reproducing it.
  for (const OutputSummary &output : report->outputs)
    if (!output.note.empty() &&
        (isOriginal || (output.comparison && !output.comparison->passed())))
      e.message +=
          (e.message.empty() ? "" : "; ") + output.name + ": " + output.note;
  if (report->compile)
    e.compileMs = report->compile->totalMs;
  if (report->snitch)
    e.cycles = report->snitch->cycles;
  return e;
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
