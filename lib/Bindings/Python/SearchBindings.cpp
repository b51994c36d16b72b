//===- SearchBindings.cpp - perfdojo.Evaluator and perfdojo.search --------===//
//
// The evaluator and the search are the library's (Evaluator.h, Strategy.h,
// SearchReport.h): candidates run in perfdojo-run worker processes, so the
// Python process never runs a candidate's code itself. A kernel given as
// text is written to a temporary `.dojo` file, which workers read as the
// validation baseline.
//
//===----------------------------------------------------------------------===//

#include "PythonSupport.h"

#include "perfdojo/Search/Evaluator.h"
#include "perfdojo/Search/SearchReport.h"
#include "perfdojo/Search/Strategy.h"
#include "perfdojo/Support/FileIO.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <pybind11/functional.h>
#include <pybind11/stl.h>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::python;

namespace {
/// The kernel file workers read: the kernel's own file, or a temporary
/// copy of its text, removed with this object.
class BaselineFile {
public:
  explicit BaselineFile(KernelHandle &k) {
    llvm::StringRef path = k.path;
    if (!path.empty() && llvm::sys::fs::exists(path)) {
      this->path = path.str();
      return;
    }
    // Named after the kernel: a `.dojo` file's stem is its kernel's name.
    llvm::SmallString<128> dir;
    if (std::error_code ec =
            llvm::sys::fs::createUniqueDirectory("perfdojo-kernel", dir))
      raise(ErrorKind::Run, "cannot create a temporary directory: " +
                                ec.message());
    directory = dir.str().str();
    this->path = directory + "/" + k.kernel.getSymName().str() + ".dojo";
    if (llvm::Error error = writeFile(this->path, printDojo(k.kernel)))
      raise(ErrorKind::Run, llvm::toString(std::move(error)));
  }
  ~BaselineFile() {
    if (directory.empty())
      return;
    llvm::sys::fs::remove(path);
    llvm::sys::fs::remove(directory);
  }
  BaselineFile(const BaselineFile &) = delete;
  BaselineFile &operator=(const BaselineFile &) = delete;
  const std::string &getPath() const { return path; }

private:
  std::string path, directory;
};

/// The settings every evaluation shares, from keyword arguments.
struct EvaluatorSettings {
  std::string runner, target = "cpu", cacheDir;
  unsigned threads = 1, repetitions = 5, timeout = 60, jobs = 1;
  double maxWorkRatio = 4;
  CacheState cacheState = CacheState::Cold;
  PageBacking pages = PageBacking::Huge;
};

struct PyEvaluator {
  KernelRef kernel;
  std::unique_ptr<BaselineFile> file;
  EvaluatorOptions options;
  std::unique_ptr<Evaluator> evaluator;
};

struct PySearchResult {
  KernelRef best;
  std::vector<MoveRequest> moves;
  double seconds = 0, originalSeconds = 0, speedup = 0;
  py::dict report;
  std::string summary;
};
} // namespace

static EvaluatorOptions getEvaluatorOptions(const EvaluatorSettings &settings) {
  EvaluatorOptions options;
  options.runner = settings.runner;
  if (!llvm::sys::fs::can_execute(options.runner))
    raise(ErrorKind::Run, "cannot execute the worker '" + options.runner +
                              "' (pass runner=, or set PERFDOJO_BIN_DIR)");
  if (llvm::Error error = setEvaluatorTarget(options, settings.target))
    throw py::value_error(llvm::toString(std::move(error)));
  options.threads = settings.threads;
  options.repetitions = settings.repetitions;
  options.timeoutSeconds = settings.timeout;
  options.jobs = std::max(1u, settings.jobs);
  options.memoryLimitMiB = getDefaultWorkerMemoryMiB(options.jobs);
  options.maxWorkRatio = settings.maxWorkRatio;
  options.cacheDir = settings.cacheDir;
  options.cache = settings.cacheState;
  options.pages = settings.pages;
  if (llvm::Error error = checkEvaluatorOptions(options))
    throw py::value_error(llvm::toString(std::move(error)));
  return options;
}

static std::vector<MoveRequest> toMoves(const py::object &moves) {
  std::vector<MoveRequest> out;
  for (py::handle move : moves) {
    if (py::isinstance<MoveRequest>(move)) {
      out.push_back(move.cast<MoveRequest>());
      continue;
    }
    llvm::Expected<MoveRequest> request =
        parseMoveRequest(move.cast<std::string>());
    if (!request)
      raise(ErrorKind::IllegalMove, llvm::toString(request.takeError()));
    out.push_back(*request);
  }
  return out;
}

static py::dict toDict(const Evaluation &e) {
  py::dict out;
  out["status"] = stringifyEvaluationStatus(e.status).str();
  out["ok"] = e.ok();
  out["seconds"] = e.seconds;
  if (e.cycles)
    out["cycles"] = *e.cycles;
  out["compile_ms"] = e.compileMs;
  out["worker_seconds"] = e.workerSeconds;
  out["key"] = e.key;
  out["message"] = e.message;
  out["numerics"] = e.numerics;
  out["cached"] = e.cached;
  return out;
}

static PyEvaluator makeEvaluator(const py::object &kernel,
                                 const EvaluatorSettings &settings) {
  PyEvaluator result;
  result.kernel = toKernel(kernel);
  result.options = getEvaluatorOptions(settings);
  result.file = std::make_unique<BaselineFile>(*result.kernel);
  result.evaluator = std::make_unique<Evaluator>(
      result.kernel->kernel, result.file->getPath(), result.options);
  return result;
}

static PySearchResult search(const py::object &kernel,
                             const std::string &strategyName,
                             unsigned budgetEvals, double budgetSeconds,
                             uint64_t seed, unsigned finalCandidates,
                             unsigned finalRepetitions, bool timeBestPath,
                             const std::string &outDir,
                             const py::object &progress,
                             const EvaluatorSettings &settings) {
  std::unique_ptr<Strategy> strategy = createStrategy(strategyName);
  if (!strategy)
    throw py::value_error("unknown strategy '" + strategyName +
                          "' (expected one of " +
                          llvm::join(getStrategyNames(), ", ") + ")");
  if (budgetSeconds < 0)
    throw py::value_error("budget_seconds must not be negative");
  if (!budgetEvals && !budgetSeconds && strategy->needsBudget())
    throw py::value_error("strategy '" + strategyName +
                          "' needs a budget (budget_evals and/or "
                          "budget_seconds)");
  PyEvaluator evaluator = makeEvaluator(kernel, settings);
  KernelHandle &k = *evaluator.kernel;
  SearchContext context(*evaluator.evaluator, k.kernel,
                        SearchBudget{budgetEvals, budgetSeconds}, seed,
                        evaluator.options.moves);
  if (llvm::Error error = context.checkOriginal())
    raise(ErrorKind::Run, "the original kernel cannot be the baseline: " +
                              llvm::toString(std::move(error)));
  // Progress goes to Python after every evaluation; an exception there
  // (KeyboardInterrupt, say) stops the strategy at its next evaluation.
  std::optional<py::error_already_set> interrupted;
  context.setObserver([&](const SearchContext &s) {
    if (interrupted)
      return;
    if (PyErr_CheckSignals() != 0) {
      interrupted.emplace();
      context.requestStop();
      return;
    }
    if (progress.is_none())
      return;
    const SearchRecord &last = s.getRecords().back();
    py::dict event = toDict(last.evaluation);
    py::list moves;
    for (const MoveRequest &move : last.moves)
      moves.append(move.str());
    event["moves"] = moves;
    event["evaluations"] = s.getSpentEvaluations();
    event["elapsed_seconds"] = s.getElapsedSeconds();
    if (const SearchRecord *best = s.getBest())
      event["best_seconds"] = best->evaluation.seconds;
    if (const SearchRecord *base = s.getBaseline())
      event["original_seconds"] = base->evaluation.seconds;
    try {
      progress(event);
    } catch (py::error_already_set &error) {
      interrupted.emplace(std::move(error));
      context.requestStop();
    }
  });
  strategy->run(context);
  if (interrupted)
    throw *interrupted;

  SearchConclusion conclusion;
  conclusion.input = evaluator.file->getPath();
  conclusion.strategy = strategyName;
  conclusion.threads = settings.threads;
  conclusion.seed = seed;
  conclusion.finalCandidates = finalCandidates;
  conclusion.finalRepetitions = finalRepetitions;
  conclusion.timeBestPath = timeBestPath;
  conclusion.repetitions = settings.repetitions;
  conclusion.timeoutSeconds = settings.timeout;
  conclusion.libtorchReason = "not measured (perfdojo.search)";
  SearchReport report = concludeSearch(context, *evaluator.evaluator,
                                       conclusion);
  if (!outDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(outDir))
      raise(ErrorKind::Run, "cannot create '" + outDir + "': " + ec.message());
    if (llvm::Error error =
            writeSearchOutputs(report, *evaluator.evaluator, outDir))
      raise(ErrorKind::Run, llvm::toString(std::move(error)));
  }
  PySearchResult result;
  std::string json;
  llvm::raw_string_ostream os(json);
  os << toJSON(report);
  result.report = py::module_::import("json").attr("loads")(json);
  llvm::raw_string_ostream summary(result.summary);
  printSearchSummary(report, summary);
  if (const SearchRecord *best = report.result.best) {
    result.moves.assign(best->moves.begin(), best->moves.end());
    llvm::Expected<std::string> text =
        evaluator.evaluator->materialize(best->moves);
    if (!text)
      raise(ErrorKind::Run, llvm::toString(text.takeError()));
    result.best = parseKernel(*text, k.kernel.getSymName().str() + ".dojo",
                              /*isMLIR=*/false, k.kernel.getSymName());
    result.seconds = report.result.bestSeconds;
    result.originalSeconds = report.result.baselineSeconds;
    if (result.seconds > 0)
      result.speedup = result.originalSeconds / result.seconds;
  }
  return result;
}

/// Binds the keyword arguments of EvaluatorSettings, shared by Evaluator
/// and search.
#define EVALUATOR_ARGS                                                         \
  py::arg("runner"), py::arg("target") = "cpu", py::arg("threads") = 1,        \
      py::arg("repetitions") = 5, py::arg("timeout") = 60,                     \
      py::arg("jobs") = 1, py::arg("max_work_ratio") = 4.0,                    \
      py::arg("cache") = "", py::arg("cache_state") = "cold",                  \
      py::arg("pages") = "huge"

static EvaluatorSettings makeSettings(std::string runner, std::string target,
                                      unsigned threads, unsigned repetitions,
                                      unsigned timeout, unsigned jobs,
                                      double maxWorkRatio, std::string cache,
                                      const std::string &cacheState,
                                      const std::string &pages) {
  EvaluatorSettings settings;
  std::optional<PageBacking> backing = parsePageBacking(pages);
  if (!backing)
    throw py::value_error("pages must be 'huge' or 'small', not '" + pages +
                          "'");
  settings.pages = *backing;
  std::optional<CacheState> state = parseCacheState(cacheState);
  if (!state)
    throw py::value_error("cache_state must be 'cold' or 'warm', not '" +
                          cacheState + "'");
  settings.cacheState = *state;
  settings.runner = std::move(runner);
  settings.target = std::move(target);
  settings.threads = threads;
  settings.repetitions = repetitions;
  settings.timeout = timeout;
  settings.jobs = jobs;
  settings.maxWorkRatio = maxWorkRatio;
  settings.cacheDir = std::move(cache);
  return settings;
}

void python::bindSearch(py::module_ &m) {
  py::class_<PyEvaluator>(m, "Evaluator", R"(
Evaluates candidates (the kernel after a move sequence) as the search
does: each is compiled, validated against the original and timed in a
perfdojo-run worker process, and results are cached by program (in
`cache`, a directory, across processes too). Share one evaluator between
environments to share its cache.)")
      .def(py::init([](const py::object &kernel, std::string runner,
                       std::string target, unsigned threads,
                       unsigned repetitions, unsigned timeout, unsigned jobs,
                       double maxWorkRatio, std::string cache,
                       const std::string &cacheState,
                       const std::string &pages) {
             return makeEvaluator(
                 kernel, makeSettings(std::move(runner), std::move(target),
                                      threads, repetitions, timeout, jobs,
                                      maxWorkRatio, std::move(cache),
                                      cacheState, pages));
           }),
           py::arg("kernel"), py::kw_only(), EVALUATOR_ARGS)
      .def(
          "evaluate",
          [](PyEvaluator &e, const py::object &moves) {
            std::vector<MoveRequest> requests = toMoves(moves);
            return toDict(e.evaluator->evaluate(requests));
          },
          py::arg("moves") = py::list(),
          "Evaluates the original kernel after `moves` (Moves or their "
          "texts). Returns a dict: status ('ok', 'illegal-move', 'failed', "
          "'crashed', 'timeout', 'mismatch', 'pruned'), ok, seconds (the "
          "median time), message, cached, key (the program's hash), ...")
      .def_property_readonly(
          "cache_hits",
          [](PyEvaluator &e) { return e.evaluator->getCacheHits(); })
      .def_property_readonly(
          "worker_runs",
          [](PyEvaluator &e) { return e.evaluator->getWorkerRuns(); })
      .def_property_readonly(
          "kernel", [](PyEvaluator &e) { return e.kernel; },
          "The original kernel.");

  py::class_<PySearchResult>(m, "SearchResult",
                             "What perfdojo.search found.")
      .def_readonly("best", &PySearchResult::best,
                    "The best kernel (None when no program was valid).")
      .def_readonly("moves", &PySearchResult::moves,
                    "The best kernel's move sequence from the original.")
      .def_readonly("seconds", &PySearchResult::seconds,
                    "The best kernel's time, from the final selection.")
      .def_readonly("original_seconds", &PySearchResult::originalSeconds,
                    "The original kernel's time, timed with it.")
      .def_readonly("speedup", &PySearchResult::speedup,
                    "original_seconds / seconds.")
      .def_readonly("report", &PySearchResult::report,
                    "report.json as a dict (docs/search-report.md).")
      .def_readonly("summary", &PySearchResult::summary,
                    "The summary perfdojo-search prints.")
      .def("__repr__", [](const PySearchResult &r) { return r.summary; });

  m.def(
      "search",
      [](const py::object &kernel, const std::string &strategy,
         unsigned budgetEvals, double budgetSeconds, uint64_t seed,
         unsigned finalCandidates, unsigned finalRepetitions,
         bool timeBestPath, const std::string &out, const py::object &progress,
         std::string runner, std::string target, unsigned threads,
         unsigned repetitions, unsigned timeout, unsigned jobs,
         double maxWorkRatio, std::string cache,
         const std::string &cacheState, const std::string &pages) {
        return search(kernel, strategy, budgetEvals, budgetSeconds, seed,
                      finalCandidates, finalRepetitions, timeBestPath, out,
                      progress,
                      makeSettings(std::move(runner), std::move(target),
                                   threads, repetitions, timeout, jobs,
                                   maxWorkRatio, std::move(cache),
                                   cacheState, pages));
      },
      py::arg("kernel"), py::arg("strategy") = "heuristic", py::kw_only(),
      py::arg("budget_evals") = 0, py::arg("budget_seconds") = 0.0,
      py::arg("seed") = 0, py::arg("final_candidates") = 3,
      py::arg("final_repetitions") = 20, py::arg("time_best_path") = false,
      py::arg("out") = "", py::arg("progress") = py::none(), EVALUATOR_ARGS,
      "Runs a search strategy on a kernel (perfdojo-search as a "
      "function). See perfdojo.search for the arguments.");

  m.def(
      "strategies",
      [] {
        std::vector<std::string> names;
        for (llvm::StringRef name : getStrategyNames())
          names.push_back(name.str());
        return names;
      },
      "The search strategies' names.");
}
