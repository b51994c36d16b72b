//===- perfdojo-train.cpp - train the Max-Q agent on a set of kernels -----===//
//
// Plays the move game on every kernel in turn, learning as it plays
// (Agent/MaxQAgent.h): rewards are the cost model's estimates between real
// evaluations, and each episode measures one program in a perfdojo-run
// worker, the visited one the model rates best (Agent/KernelPlay.h). The
// agent, its cost model and the training state are checkpointed to --out
// (MODEL, MODEL.json, MODEL.cost, MODEL.state.json); --resume continues
// from them. `perfdojo-search --strategy=perfllm --model=MODEL` plays the
// result. docs/agent.md has the details.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Agent/KernelPlay.h"
#include "perfdojo/Agent/LanguageModelEmbedding.h"
#include "perfdojo/Agent/PerfLLM.h"
#include "perfdojo/TorchReference/LibtorchThreads.h"
#include "perfdojo/Support/FileIO.h"
#include "perfdojo/Support/LargeStack.h"
#include "perfdojo/Support/ToolFlags.h"
#include "perfdojo/Target/DojoText/KernelFile.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <chrono>

using namespace perfdojo;
using namespace perfdojo::agent;
namespace cl = llvm::cl;

static cl::OptionCategory trainCategory("perfdojo-train options");
static cl::list<std::string> inputFiles(cl::Positional, cl::OneOrMore,
                                        cl::desc("<kernel.dojo>..."),
                                        cl::cat(trainCategory));
static cl::opt<std::string> outPath("o", cl::Required,
                                    cl::desc("The model file to write"),
                                    cl::value_desc("MODEL"),
                                    cl::cat(trainCategory));
static cl::opt<bool> resume("resume", cl::init(false),
                            cl::desc("Continue the training saved in -o"),
                            cl::cat(trainCategory));
static cl::opt<double> budgetSeconds("budget-seconds", cl::init(0),
                                     cl::desc("Stop after this many seconds "
                                              "of this run (0: no limit)"),
                                     cl::cat(trainCategory));
static cl::opt<unsigned> budgetEvals("budget-evals", cl::init(0),
                                     cl::desc("Stop after this many real "
                                              "evaluations in all (0: no "
                                              "limit)"),
                                     cl::cat(trainCategory));
static cl::opt<unsigned> maxEpisodes("episodes", cl::init(0),
                                     cl::desc("Stop after this many episodes "
                                              "in all (0: no limit)"),
                                     cl::cat(trainCategory));
static cl::opt<unsigned> episodeSteps("episode-steps", cl::init(30),
                                      cl::desc("Moves per episode"),
                                      cl::cat(trainCategory));
static cl::opt<double> eliteStarts(
    "elite-starts", cl::init(0.0),
    cl::desc("Probability that an episode starts from one of the kernel's "
             "fastest programs measured so far rather than its original"),
    cl::cat(trainCategory));
static cl::opt<agent::AgentStart> agentStart(
    "start", cl::init(agent::AgentStart::Original),
    cl::desc("Where each kernel's play starts"), agent::getAgentStartValues(),
    cl::cat(trainCategory));
static cl::opt<unsigned> exploreEpisodes(
    "explore-episodes", cl::init(200),
    cl::desc("Episodes over which exploration falls from 1 to 0.05"),
    cl::cat(trainCategory));
static cl::opt<unsigned> checkpointEvery(
    "checkpoint-every", cl::init(10),
    cl::desc("Episodes between checkpoints (and at the end)"),
    cl::cat(trainCategory));
static cl::opt<unsigned> hidden("hidden", cl::init(256),
                                cl::desc("Width of the networks' layers"),
                                cl::cat(trainCategory));
static cl::opt<double> discount("gamma", cl::init(0.99),
                             cl::desc("Discount of the max-Bellman target"),
                             cl::cat(trainCategory));
static cl::opt<std::string> embeddingName(
    "embedding", cl::init("features"),
    cl::desc("How the agent sees a program: features (the program "
             "features, default), minilm (the all-MiniLM-L6-v2 sentence "
             "embedding of its lines) or minilm-text (of its whole text); "
             "--resume takes the model's own"),
    cl::cat(trainCategory));
static cl::opt<std::string> embeddingModel(
    "embedding-model", cl::init(""),
    cl::desc("The all-MiniLM-L6-v2 model directory (default: "
             "$PERFDOJO_MINILM_DIR, else the one in the project's .venv)"),
    cl::cat(trainCategory));
static cl::opt<uint64_t> seed("seed", cl::init(0),
                              cl::desc("Seed of the agent and its play"),
                              cl::cat(trainCategory));
// `--threads` is spelled `kernel-threads` for llvm::cl (a linked library
// registers `threads`); main() rewrites `--threads`.
static cl::opt<unsigned> threads("kernel-threads", cl::init(1),
                                 cl::desc("Threads the kernels run on, also "
                                          "spelled --threads"),
                                 cl::cat(trainCategory));
static cl::opt<unsigned> reps("reps", cl::init(5),
                              cl::desc("Timed repetitions per evaluation"),
                              cl::cat(trainCategory));
static cl::opt<unsigned> timeout("timeout", cl::init(60),
                                 cl::desc("Seconds one evaluation may take"),
                                 cl::cat(trainCategory));
static cl::opt<std::string> cacheDir(
    "cache", cl::init(""),
    cl::desc("Directory of the persistent evaluation cache"),
    cl::cat(trainCategory));
static cl::opt<std::string> runner(
    "runner", cl::init(""),
    cl::desc("The perfdojo-run worker (default: next to this tool)"),
    cl::cat(trainCategory));

namespace {
/// One training kernel: its file, its evaluator and its play.
struct TrainingKernel {
  std::string path;
  KernelFile file;
  dojo::KernelOp kernel;
  std::unique_ptr<Evaluator> evaluator;
  std::unique_ptr<KernelPlay> play;
  double best = 1;
};

/// The counters a resumed run continues from.
struct TrainingState {
  unsigned episodes = 0, evaluations = 0;
  double seconds = 0;
};
} // namespace

static std::string getStatePath() { return outPath + ".state.json"; }

static llvm::Error saveCheckpoint(MaxQAgent &agent, CostModel &model,
                                  const TrainingState &state) {
  if (llvm::Error error = agent.save(outPath))
    return error;
  if (llvm::Error error = model.save(outPath + ".cost"))
    return error;
  llvm::json::Array kernels;
  for (const std::string &path : inputFiles)
    kernels.push_back(path);
  llvm::json::Object json{{"episodes", int64_t(state.episodes)},
                          {"evaluations", int64_t(state.evaluations)},
                          {"seconds", state.seconds},
                          {"seed", int64_t(seed)},
                          {"kernels", std::move(kernels)}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(json))) << "\n";
  return writeFile(getStatePath(), text);
}

static llvm::Expected<TrainingState> loadState() {
  llvm::Expected<llvm::json::Object> json = readJsonObject(getStatePath());
  if (!json)
    return json.takeError();
  const llvm::json::Object *object = &*json;
  TrainingState state;
  state.episodes = object->getInteger("episodes").value_or(0);
  state.evaluations = object->getInteger("evaluations").value_or(0);
  state.seconds = object->getNumber("seconds").value_or(0);
  return state;
}

static void anchor() {}

static int toolMain(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  parseToolCommandLine(argc, argv, trainCategory, "kernel-threads",
                       "PerfDojo: train the Max-Q agent on kernels\n");
  if (llvm::Error error = KernelPlay::checkEliteStarts(eliteStarts)) {
    llvm::errs() << "perfdojo-train: " << llvm::toString(std::move(error))
                 << "\n";
    return 1;
  }
  if (!budgetSeconds && !budgetEvals && !maxEpisodes) {
    llvm::errs() << "perfdojo-train: give a budget (--budget-seconds, "
                    "--budget-evals and/or --episodes)\n";
    return 1;
  }
  // The model's folder exists before hours of training, not after.
  llvm::StringRef outDir = llvm::sys::path::parent_path(outPath);
  if (std::error_code ec = outDir.empty()
                               ? std::error_code()
                               : llvm::sys::fs::create_directories(outDir)) {
    llvm::errs() << "perfdojo-train: -o: cannot create '" << outDir
                 << "': " << ec.message() << "\n";
    return 1;
  }
  setLibtorchThreads(1);
  std::string self = llvm::sys::fs::getMainExecutable(
      argv[0], reinterpret_cast<void *>(&anchor));
  EvaluatorOptions options;
  options.runner = runner.empty()
                       ? (llvm::sys::path::parent_path(self) + "/perfdojo-run")
                             .str()
                       : runner.getValue();
  options.threads = threads;
  options.repetitions = reps;
  options.timeoutSeconds = timeout;
  options.cacheDir = cacheDir;
  options.memoryLimitMiB = getDefaultWorkerMemoryMiB(1);
  if (llvm::Error error = setEvaluatorTarget(options, "cpu")) {
    llvm::errs() << "perfdojo-train: " << llvm::toString(std::move(error))
                 << "\n";
    return 1;
  }
  if (llvm::Error error = checkEvaluatorOptions(options)) {
    llvm::errs() << "perfdojo-train: " << llvm::toString(std::move(error))
                 << "\n";
    return 1;
  }

  // The embedding: the option's, or on --resume the model's own unless
  // the option names one.
  std::string embeddingToUse = embeddingName;
  if (resume && !embeddingName.getNumOccurrences()) {
    if (llvm::Expected<AgentOptions> saved = MaxQAgent::readOptions(outPath))
      embeddingToUse = saved->embedding;
    else
      llvm::consumeError(saved.takeError()); // load() below says why.
  }
  llvm::Expected<std::unique_ptr<ProgramEmbedding>> embedding =
      createProgramEmbedding(embeddingToUse, embeddingModel);
  if (!embedding) {
    llvm::errs() << "perfdojo-train: --embedding: "
                 << llvm::toString(embedding.takeError()) << "\n";
    return 1;
  }

  // The agent and its cost model: new, or where a training stopped.
  int64_t features = (*embedding)->getSize();
  TrainingState state;
  std::unique_ptr<MaxQAgent> agent;
  CostModel model(features, 128, seed);
  if (resume) {
    llvm::Expected<std::unique_ptr<MaxQAgent>> loaded =
        MaxQAgent::load(outPath, embedding->get());
    llvm::Expected<TrainingState> saved = loadState();
    llvm::Error modelError = model.load(outPath + ".cost");
    if (!loaded || !saved || modelError) {
      llvm::errs() << "perfdojo-train: --resume: "
                   << llvm::toString(loaded ? saved ? std::move(modelError)
                                                    : saved.takeError()
                                            : loaded.takeError())
                   << "\n";
      return 1;
    }
    agent = std::move(*loaded);
    state = *saved;
    // Play continues from a seed of its own, not the first run's stream.
    agent->getRandom().seed(seed + state.episodes);
  } else {
    AgentOptions agentOptions;
    agentOptions.setEmbedding(**embedding);
    agentOptions.hidden = hidden;
    agentOptions.gamma = discount;
    agentOptions.seed = seed;
    agent = std::make_unique<MaxQAgent>(agentOptions);
  }

  std::vector<std::unique_ptr<TrainingKernel>> kernels;
  for (const std::string &path : inputFiles) {
    auto k = std::make_unique<TrainingKernel>();
    k->path = path;
    k->kernel = k->file.load(path);
    if (!k->kernel)
      return 1;
    k->evaluator = std::make_unique<Evaluator>(k->kernel, path, options);
    Evaluation original = k->evaluator->evaluate({});
    if (!original.ok()) {
      llvm::errs() << "perfdojo-train: " << path
                   << ": the original kernel does not run: "
                   << original.message << "\n";
      return 1;
    }
    k->play = std::make_unique<KernelPlay>(k->kernel, options.moves, model,
                                           original.seconds,
                                           options.maxWorkRatio, **embedding);
    kernels.push_back(std::move(k));
  }
  // Training's time and this run's evaluations count from here: the
  // heuristic's measurements too.
  unsigned evaluationsAtStart = state.evaluations;
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  bool fromHeuristic = agentStart == AgentStart::Heuristic;
  double fromElite = getEliteStarts(
      agentStart, eliteStarts.getNumOccurrences()
                      ? std::optional<double>(eliteStarts)
                      : std::nullopt);
  if (fromHeuristic) {
    // The heuristic's programs, measured as play measures its own: the
    // first elites of each kernel and the cost model's first data.
    for (auto &k : kernels) {
      llvm::Expected<size_t> proposed = k->play->startFromHeuristic(
          [&](llvm::ArrayRef<llvm::SmallVector<MoveRequest>> candidates) {
            std::vector<std::optional<Evaluation>> results;
            for (const llvm::SmallVector<MoveRequest> &moves : candidates) {
              if (budgetEvals && state.evaluations >= budgetEvals)
                results.push_back(std::nullopt);
              else
                results.push_back(k->evaluator->evaluate(moves));
              state.evaluations += results.back().has_value();
            }
            return results;
          });
      if (!proposed) {
        llvm::errs() << "perfdojo-train: " << k->path << ": "
                     << llvm::toString(proposed.takeError()) << "\n";
        return 1;
      }
      if (!k->play->getElites().empty())
        k->best = std::max(k->best, k->play->getElites().front().speedup);
      llvm::errs() << llvm::formatv("[start] {0}: the heuristic's {1} "
                                    "program(s), best {2:f2}x\n",
                                    k->kernel.getSymName(), *proposed,
                                    k->best);
    }
    model.fit(40);
  }

  auto exhausted = [&] {
    return (budgetSeconds > 0 && elapsed() >= budgetSeconds) ||
           (budgetEvals && state.evaluations >= budgetEvals) ||
           (maxEpisodes && state.episodes >= maxEpisodes);
  };
  EpisodeOptions episode;
  episode.maxSteps = std::max(1u, episodeSteps.getValue());
  unsigned sinceCheckpoint = 0;
  while (!exhausted()) {
    TrainingKernel &k = *kernels[state.episodes % kernels.size()];
    episode.epsilon = std::max(
        0.05, 1.0 - double(state.episodes) / std::max(1u, exploreEpisodes.getValue()));
    llvm::Expected<EpisodeResult> played =
        k.play->play(*agent, episode, fromElite);
    if (!played) {
      llvm::errs() << "perfdojo-train: " << k.path << ": "
                   << llvm::toString(played.takeError()) << "\n";
      return 1;
    }
    ++state.episodes;
    for (const std::string &refused : played->refused)
      llvm::errs() << "perfdojo-train: warning: " << k.path
                   << ": a listed move failed to apply (please report): "
                   << refused << "\n";
    std::optional<double> measured;
    KernelPlay::Measure measure = [&](llvm::ArrayRef<MoveRequest> moves)
        -> std::optional<Evaluation> {
      if (budgetEvals && state.evaluations >= budgetEvals)
        return std::nullopt;
      ++state.evaluations;
      return k.evaluator->evaluate(moves);
    };
    KernelPlay::Outcome outcome =
        k.play->measureBest(*played, measure, &measured);
    std::optional<double> fit;
    if (outcome == KernelPlay::Outcome::Measured) {
      fit = model.fit(40);
      for (auto &other : kernels)
        other->play->getCosts().forgetEstimates();
      if (measured)
        k.best = std::max(k.best, *measured);
    }
    llvm::errs() << llvm::formatv(
        "[episode {0}] {1}: {2} moves, eps {3:f2}, {4} evaluations, "
        "measured {5}, best {6:f2}x{7}{8}, {9:f0} s\n",
        state.episodes, k.kernel.getSymName(), played->steps, episode.epsilon,
        state.evaluations,
        measured ? llvm::formatv("{0:f2}x", *measured).str()
                 : std::string(outcome == KernelPlay::Outcome::Measured
                                   ? "(does not run)"
                                   : "(nothing new)"),
        k.best,
        played->meanLoss ? llvm::formatv(", loss {0:f4}", *played->meanLoss)
                                .str()
                         : std::string(),
        fit ? llvm::formatv(", cost-model error {0:f3}", *fit).str()
            : std::string(),
        state.seconds + elapsed());
    if (++sinceCheckpoint >= checkpointEvery) {
      sinceCheckpoint = 0;
      TrainingState now = state;
      now.seconds += elapsed();
      if (llvm::Error error = saveCheckpoint(*agent, model, now)) {
        llvm::errs() << "perfdojo-train: " << llvm::toString(std::move(error))
                     << "\n";
        return 1;
      }
    }
  }
  state.seconds += elapsed();
  if (llvm::Error error = saveCheckpoint(*agent, model, state)) {
    llvm::errs() << "perfdojo-train: " << llvm::toString(std::move(error))
                 << "\n";
    return 1;
  }
  llvm::outs() << llvm::formatv(
      "perfdojo-train: {0} episode(s), {1} real evaluation(s) ({2} in this "
      "run), {3:f0} s of training; wrote {4}\n",
      state.episodes, state.evaluations, state.evaluations - evaluationsAtStart,
      state.seconds, outPath);
  for (auto &k : kernels)
    llvm::outs() << llvm::formatv("  {0}: best measured {1:f2}x over the "
                                  "original\n",
                                  k->kernel.getSymName(), k->best);
  return 0;
}

int main(int argc, char **argv) {
  return perfdojo::runOnLargeStack([&] { return toolMain(argc, argv); });
}
