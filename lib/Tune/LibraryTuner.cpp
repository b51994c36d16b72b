//===- LibraryTuner.cpp - tune every kernel of a manifest -----------------===//

#include "perfdojo/Tune/LibraryTuner.h"
#include "perfdojo/Search/SearchReport.h"
#include "perfdojo/Search/Strategy.h"
#include "perfdojo/Target/DojoText/DojoText.h"
#include "perfdojo/Target/DojoText/KernelFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/xxhash.h"

using namespace perfdojo;
using namespace perfdojo::tune;

std::string tune::getUnitId(const ManifestEntry &entry, unsigned threads,
                            llvm::StringRef kernelHash,
                            const TuneOptions &options) {
  std::string request;
  llvm::raw_string_ostream os(request);
  os << kernelHash << "|t" << threads << "|" << entry.strategy << "|"
     << entry.budgetEvals << "|" << llvm::format("%.17g", entry.budgetSeconds)
     << "|" << entry.seed << "|" << entry.target << "|reps "
     << options.repetitions << "|final " << options.finalCandidates << "x"
     << options.finalRepetitions;
  // Other timing conditions are other requests; the defaults keep the
  // hashes of logs written before these options.
  if (options.cache == CacheState::Warm)
    os << "|warm";
  if (options.pages == PageBacking::Small)
    os << "|small pages";
  return llvm::utohexstr(llvm::xxh3_64bits(request), /*LowerCase=*/true);
}

llvm::Expected<std::unique_ptr<LibraryTuner>>
LibraryTuner::create(Manifest manifest, TuneOptions options, RecordLog &log) {
  std::unique_ptr<LibraryTuner> tuner(
      new LibraryTuner(std::move(manifest), std::move(options), log));
  for (auto [index, entry] : llvm::enumerate(tuner->manifest.entries)) {
    // The kernel's canonical text identifies it (and its records).
    KernelFile file;
    dojo::KernelOp kernel = file.load(entry.kernelPath);
    if (!kernel)
      return llvm::createStringError(
          tuner->manifest.path + ": entries[" + std::to_string(index) +
          "] (" +
          entry.kernel + "): kernel: cannot load '" + entry.kernelPath + "'");
    std::string hash = hashKernel(kernel);
    for (unsigned threads : entry.threads) {
      Unit unit;
      unit.entry = index;
      unit.threads = threads;
      unit.function = entry.name + "_t" + std::to_string(threads);
      unit.kernelHash = hash;
      unit.id = getUnitId(entry, threads, hash, tuner->options);
      tuner->units.push_back(std::move(unit));
    }
  }
  return tuner;
}

void LibraryTuner::reportProgress(bool force) {
  if (!options.progress)
    return;
  double now = std::chrono::duration<double>(
                   std::chrono::steady_clock::now() - start)
                   .count();
  std::lock_guard<std::mutex> lock(mutex);
  if (!force && now - lastProgress < options.progressSeconds)
    return;
  lastProgress = now;
  llvm::raw_ostream &os = *options.progress;
  os << llvm::format("perfdojo-tune: [%u/%zu units done] %u evaluations "
                     "(%.1f/min on %s)",
                     unitsDone.load(), units.size(), evaluationsRun.load(),
                     now > 0 ? evaluationsRun * 60.0 / now : 0.0,
                     options.workersLabel.c_str());
  if (evaluationsReused)
    os << ", " << evaluationsReused << " reused";
  if (bestSpeedup > 0)
    os << llvm::format(", best speedup %.2fx (", bestSpeedup) << bestFunction
       << ")";
  os << llvm::format(", %.0f s\n", now);
  os.flush();
}

llvm::Error LibraryTuner::tune(const Unit &unit, WorkerPool &pool) {
  const ManifestEntry &entry = manifest.entries[unit.entry];
  KernelFile file;
  dojo::KernelOp kernel = file.load(entry.kernelPath);
  if (!kernel)
    return llvm::createStringError("cannot load '" + entry.kernelPath + "'");

  EvaluatorOptions evaluatorOptions;
  evaluatorOptions.runner = options.runner;
  evaluatorOptions.threads = unit.threads;
  evaluatorOptions.repetitions = options.repetitions;
  evaluatorOptions.cache = options.cache;
  evaluatorOptions.pages = options.pages;
  evaluatorOptions.timeoutSeconds = options.timeoutSeconds;
  evaluatorOptions.interpLimit = options.interpLimit;
  evaluatorOptions.jobs = options.jobsPerUnit;
  evaluatorOptions.memoryLimitMiB = options.memoryLimitMiB;
  evaluatorOptions.maxWorkRatio = options.maxWorkRatio;
  evaluatorOptions.referenceDir = options.outDir + "/references";
  if (llvm::Error error = setEvaluatorTarget(evaluatorOptions, entry.target))
    return error;
  Evaluator evaluator(kernel, entry.kernelPath, evaluatorOptions);
  evaluator.setWorkerPool(&pool);
  // Every evaluation an earlier run recorded is a cache hit (the key holds
  // the program and the threads).
  for (const EvaluationRecord &record : log.getEvaluations())
    evaluator.addKnown(record.evaluation);

  std::unique_ptr<Strategy> strategy = createStrategy(entry.strategy);
  SearchContext search(evaluator, kernel,
                       SearchBudget{entry.budgetEvals, entry.budgetSeconds},
                       entry.seed, evaluatorOptions.moves);
  llvm::Error logError = llvm::Error::success();
  search.setObserver([&](const SearchContext &s) {
    const SearchRecord &last = s.getRecords().back();
    const Evaluation &e = last.evaluation;
    if (e.status == EvaluationStatus::Pruned ||
        e.status == EvaluationStatus::IllegalMove)
      return;
    if (e.cached) {
      // A hit on this run's own evaluations is no reuse of the log.
      evaluationsReused += recordedKeys.contains(e.key);
      return;
    }
    ++evaluationsRun;
    {
      std::lock_guard<std::mutex> lock(mutex);
      workerSeconds += e.workerSeconds;
    }
    if (llvm::Error error = log.append(
            EvaluationRecord{unit.kernelHash, unit.threads, last.moves, e}))
      logError = llvm::joinErrors(std::move(logError), std::move(error));
    reportProgress(/*force=*/false);
  });
  if (llvm::Error error = search.checkOriginal())
    return llvm::joinErrors(std::move(logError), std::move(error));
  strategy->run(search);

  SearchConclusion conclusion;
  conclusion.input = entry.kernelPath;
  conclusion.strategy = entry.strategy;
  conclusion.threads = unit.threads;
  conclusion.seed = entry.seed;
  conclusion.finalCandidates = options.finalCandidates;
  conclusion.finalRepetitions = options.finalRepetitions;
  conclusion.timeBestPath = false;
  conclusion.libtorchReason = "not measured (perfdojo-tune)";
  conclusion.timeoutSeconds = options.timeoutSeconds;
  conclusion.repetitions = options.repetitions;
  SearchReport report = concludeSearch(search, evaluator, conclusion);
  if (logError)
    return logError;
  const SearchRecord *best = report.result.best;
  if (!best)
    return llvm::createStringError("no valid program");
  std::string entryDir = options.outDir + "/entries/" + unit.function;
  if (std::error_code ec = llvm::sys::fs::create_directories(entryDir))
    return llvm::createStringError("cannot create '" + entryDir +
                                   "': " + ec.message());
  if (llvm::Error error = writeSearchOutputs(report, evaluator, entryDir))
    return error;

  UnitResult result;
  result.unit = unit.id;
  result.kernel = entry.kernel;
  result.function = unit.function;
  result.kernelHash = unit.kernelHash;
  result.strategy = entry.strategy;
  result.threads = unit.threads;
  result.moves = best->moves;
  result.bestSeconds = report.result.bestSeconds;
  result.originalSeconds = report.result.baselineSeconds;
  result.validated = best->evaluation.ok();
  result.evaluations = search.getSpentEvaluations();
  if (llvm::Error error = log.append(result))
    return error;
  {
    std::lock_guard<std::mutex> lock(mutex);
    double speedup = result.bestSeconds > 0
                         ? result.originalSeconds / result.bestSeconds
                         : 0;
    if (speedup > bestSpeedup) {
      bestSpeedup = speedup;
      bestFunction = unit.function;
    }
  }
  return llvm::Error::success();
}

void LibraryTuner::run(WorkerPool &pool) {
  start = std::chrono::steady_clock::now();
  lastProgress = 0;
  for (const EvaluationRecord &record : log.getEvaluations())
    recordedKeys.insert(record.evaluation.key);
  std::vector<const Unit *> pending;
  // Two entries asking the same (one kernel under two names) are one
  // search: the second unit takes the first one's result.
  llvm::StringSet<> asked;
  for (const Unit &unit : units) {
    if (log.getResults().count(unit.id)) {
      ++reusedUnits;
      ++unitsDone;
      continue;
    }
    if (asked.insert(unit.id).second)
      pending.push_back(&unit);
  }
  if (options.progress && reusedUnits)
    *options.progress << "perfdojo-tune: " << reusedUnits << " of "
                      << units.size()
                      << " units finished by an earlier run (records.jsonl)\n";
  auto tuneOne = [&](const Unit *unit) {
    llvm::Error error = tune(*unit, pool);
    if (error) {
      std::string message = llvm::toString(std::move(error));
      std::lock_guard<std::mutex> lock(mutex);
      failures.push_back({unit, message});
      if (options.progress)
        *options.progress << "perfdojo-tune: " << unit->function << " ("
                          << manifest.entries[unit->entry].kernel
                          << "): failed: " << message << "\n";
    } else {
      // With the units that share its request.
      unitsDone += llvm::count_if(
          units, [&](const Unit &other) { return other.id == unit->id; });
    }
    reportProgress(/*force=*/true);
  };
  unsigned concurrent = std::max(1u, options.concurrentUnits);
  if (concurrent == 1 || pending.size() <= 1) {
    for (const Unit *unit : pending)
      tuneOne(unit);
  } else {
    llvm::StdThreadPool threads(llvm::hardware_concurrency(
        std::min<unsigned>(concurrent, pending.size())));
    for (const Unit *unit : pending)
      threads.async(tuneOne, unit);
    threads.wait();
  }
  // Failures in manifest order, whatever order the threads finished in.
  llvm::sort(failures, [](const auto &a, const auto &b) {
    return a.first < b.first;
  });
  elapsedSeconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
}
