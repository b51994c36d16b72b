//===- RunOptionsTest.cpp - run settings, parsing and worker flags --------===//

#include "perfdojo/Runtime/RunOptions.h"

#include "gtest/gtest.h"

using namespace perfdojo;

namespace {
TEST(RunOptions, ParsesEngineNames) {
  EXPECT_EQ(*parseRunEngine("jit"), RunEngine::Jit);
  EXPECT_EQ(*parseRunEngine("interp"), RunEngine::Interp);
  EXPECT_EQ(*parseRunEngine("cuda"), RunEngine::Cuda);
  EXPECT_EQ(*parseRunEngine("snitch"), RunEngine::Snitch);
  llvm::Expected<RunEngine> bad = parseRunEngine("gpu");
  ASSERT_FALSE(bool(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "unknown engine 'gpu'; available: jit, interp, cuda, snitch");

  EXPECT_EQ(*parseReferenceEngine("auto"), ReferenceEngine::Auto);
  EXPECT_EQ(*parseReferenceEngine("compiled"), ReferenceEngine::Compiled);
  llvm::Expected<ReferenceEngine> badReference = parseReferenceEngine("x");
  ASSERT_FALSE(bool(badReference));
  EXPECT_EQ(llvm::toString(badReference.takeError()),
            "unknown reference engine 'x'; available: auto, interp, compiled");
}

TEST(RunOptions, ReferenceModeNeedsTheInterpreter) {
  RunOptions options;
  options.referenceMode = true;
  llvm::Error error = options.check();
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("add --engine=interp"),
            std::string::npos);
  options.engine = RunEngine::Interp;
  EXPECT_FALSE(bool(options.check()));
}

TEST(RunOptions, DefaultRepetitionsDependOnTheEngine) {
  RunOptions options;
  EXPECT_EQ(options.getRepetitions(), 10u);
  options.engine = RunEngine::Interp;
  EXPECT_EQ(options.getRepetitions(), 3u);
  options.repetitions = 7;
  EXPECT_EQ(options.getRepetitions(), 7u);
}

TEST(RunOptions, DefaultsNeedNoFlags) {
  EXPECT_TRUE(getRunFlags(RunOptions()).empty());
}

TEST(RunOptions, WorkerFlagsSpellWhatDiffers) {
  // What the search evaluator asks of a candidate's worker.
  RunOptions options;
  options.threads = 2;
  options.repetitions = 5;
  options.referenceEngine = ReferenceEngine::Compiled;
  options.maxWarmupSeconds = 0;
  options.cache = CacheState::Warm;
  options.stopAboveSeconds = 0.5;
  options.timingLock = "/tmp/lock";
  std::vector<std::string> expected = {
      "--reference-engine=compiled", "--threads=2",
      "--max-warmup-seconds=0",      "--reps=5",
      "--cache-state=warm",          "--stop-above-seconds=0.5",
      "--timing-lock=/tmp/lock",     "--baseline=original.dojo"};
  EXPECT_EQ(getRunFlags(options, "original.dojo"), expected);

  RunOptions other;
  other.engine = RunEngine::Interp;
  other.referenceMode = true;
  other.validate = false;
  other.referenceOutputs = "ref.outputs";
  other.seed = 3;
  other.optLevel = 1;
  other.approximateMath = false;
  other.interpLimit = 10;
  expected = {"--engine=interp",
              "--reference",
              "--validate=false",
              "--interp-limit=10",
              "--reference-outputs=ref.outputs",
              "--seed=3",
              "-O1",
              "--approximate-math=false"};
  EXPECT_EQ(getRunFlags(other), expected);

  // A search on a GPU: its workers run the CUDA engine on one chip.
  RunOptions gpu;
  gpu.engine = RunEngine::Cuda;
  gpu.gpuChip = "sm_90";
  gpu.gpuResults = "bundle";
  expected = {"--engine=cuda", "--gpu-chip=sm_90", "--gpu-results=bundle"};
  EXPECT_EQ(getRunFlags(gpu), expected);
}

TEST(RunOptions, GpuOptionsNeedTheCudaEngine) {
  RunOptions options;
  options.gpuChip = "sm_90";
  llvm::Error error = options.check();
  ASSERT_TRUE(bool(error));
  EXPECT_EQ(llvm::toString(std::move(error)),
            "--gpu-chip and --gpu-results are options of --engine=cuda");
  options.engine = RunEngine::Cuda;
  EXPECT_FALSE(bool(options.check()));
  EXPECT_EQ(options.getRepetitions(), 10u);
}
} // namespace
