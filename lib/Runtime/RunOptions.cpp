//===- RunOptions.cpp - what one run of a kernel is asked to do -----------===//

#include "perfdojo/Runtime/RunOptions.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace perfdojo;

llvm::StringRef perfdojo::stringifyRunEngine(RunEngine engine) {
  switch (engine) {
  case RunEngine::Jit:
    return "jit";
  case RunEngine::Interp:
    return "interp";
  case RunEngine::Cuda:
    return "cuda";
  case RunEngine::Snitch:
    return "snitch";
  }
  llvm_unreachable("unknown engine");
}

llvm::Expected<RunEngine> perfdojo::parseRunEngine(llvm::StringRef name) {
  for (RunEngine engine : {RunEngine::Jit, RunEngine::Interp, RunEngine::Cuda,
                           RunEngine::Snitch})
    if (name == stringifyRunEngine(engine))
      return engine;
  return llvm::createStringError("unknown engine '" + name +
                                 "'; available: jit, interp, cuda, snitch");
}

llvm::StringRef perfdojo::stringifyReferenceEngine(ReferenceEngine engine) {
  switch (engine) {
  case ReferenceEngine::Auto:
    return "auto";
  case ReferenceEngine::Interp:
    return "interp";
  case ReferenceEngine::Compiled:
    return "compiled";
  }
  llvm_unreachable("unknown reference engine");
}

llvm::Expected<ReferenceEngine>
perfdojo::parseReferenceEngine(llvm::StringRef name) {
  for (ReferenceEngine engine : {ReferenceEngine::Auto, ReferenceEngine::Interp,
                                 ReferenceEngine::Compiled})
    if (name == stringifyReferenceEngine(engine))
      return engine;
  return llvm::createStringError("unknown reference engine '" + name +
                                 "'; available: auto, interp, compiled");
}

llvm::Error RunOptions::check() const {
  if (referenceMode && engine != RunEngine::Interp)
    return llvm::createStringError(
        "--reference is a mode of the interpreter; add --engine=interp");
  if (engine != RunEngine::Cuda && (!gpuChip.empty() || !gpuResults.empty()))
    return llvm::createStringError(
        "--gpu-chip and --gpu-results are options of --engine=cuda");
  if (optLevel > 3)
    return llvm::createStringError("-O%u: the optimization level is 0-3",
                                   optLevel);
  if (stopAboveSeconds < 0)
    return llvm::createStringError(
        "--stop-above-seconds must not be negative (0: never stop early)");
  return llvm::Error::success();
}

unsigned RunOptions::getRepetitions() const {
  if (repetitions)
    return repetitions;
  return engine == RunEngine::Interp ? 3 : 10;
}

std::vector<std::string> perfdojo::getRunFlags(const RunOptions &options,
                                               llvm::StringRef baselinePath) {
  // Compared with a default-constructed RunOptions, so a worker's command
  // line names exactly what its caller chose.
  RunOptions defaults;
  std::vector<std::string> flags;
  auto add = [&](llvm::StringRef name, const auto &value) {
    flags.push_back(llvm::formatv("--{0}={1}", name, value).str());
  };
  // Doubles in full (formatv would round to two decimals).
  auto addNumber = [&](llvm::StringRef name, double value) {
    add(name, llvm::format("%.17g", value));
  };
  if (options.engine != defaults.engine)
    add("engine", stringifyRunEngine(options.engine));
  if (options.referenceMode)
    flags.push_back("--reference");
  if (options.validate != defaults.validate)
    add("validate", options.validate ? "true" : "false");
  if (options.referenceEngine != defaults.referenceEngine)
    add("reference-engine", stringifyReferenceEngine(options.referenceEngine));
  if (options.interpLimit != defaults.interpLimit)
    add("interp-limit", options.interpLimit);
  if (!options.referenceOutputs.empty())
    add("reference-outputs", options.referenceOutputs);
  if (options.seed != defaults.seed)
    add("seed", options.seed);
  if (options.optLevel != defaults.optLevel)
    flags.push_back("-O" + std::to_string(options.optLevel));
  if (options.approximateMath != defaults.approximateMath)
    add("approximate-math", options.approximateMath ? "true" : "false");
  if (options.threads != defaults.threads)
    add("threads", options.threads);
  if (!options.gpuChip.empty())
    add("gpu-chip", options.gpuChip);
  if (!options.gpuResults.empty())
    add("gpu-results", options.gpuResults);
  if (options.warmup != defaults.warmup)
    add("warmup", options.warmup);
  if (options.maxWarmupSeconds != defaults.maxWarmupSeconds)
    addNumber("max-warmup-seconds", options.maxWarmupSeconds);
  if (options.repetitions != defaults.repetitions)
    add("reps", options.repetitions);
  if (options.cache != defaults.cache)
    add("cache-state", getCacheStateName(options.cache));
  if (options.pages != defaults.pages)
    add("pages", getPageBackingName(options.pages));
  if (options.stopAboveSeconds != defaults.stopAboveSeconds)
    addNumber("stop-above-seconds", options.stopAboveSeconds);
  if (!options.timingLock.empty())
    add("timing-lock", options.timingLock);
  if (options.peakGflops != defaults.peakGflops)
    addNumber("peak-gflops", options.peakGflops);
  if (options.peakGBps != defaults.peakGBps)
    addNumber("peak-gbps", options.peakGBps);
  if (!baselinePath.empty())
    add("baseline", baselinePath);
  return flags;
}
