//===- WorkerJobTest.cpp - a worker run written down as values ------------===//

#include "perfdojo/Search/WorkerJob.h"

#include <gtest/gtest.h>

using namespace perfdojo;

namespace {

TEST(WorkerJobTest, JobsAndEvaluationsRoundTripThroughJSON) {
  WorkerJob job;
  job.runner = "/opt/perfdojo/bin/perfdojo-run";
  job.text = "x f32 [4] heap in\n";
  job.key = "0123456789abcdef-t2";
  job.isOriginal = true;
  job.flags = {"--threads=2", "--reps=3"};
  job.baselinePath = "/k/x.dojo";
  job.saveReferencePath = "/out/references/x.f64-reference";
  job.timingLock = "/tmp/lock";
  job.timeoutSeconds = 17;
  job.memoryLimitMiB = 512;
  job.gpuBundleDir = "/rounds/0123456789abcdef-sm_90";
  WorkerJob back;
  llvm::json::Path::Root root;
  ASSERT_TRUE(fromJSON(toJSON(job), back, root));
  EXPECT_EQ(back.runner, job.runner);
  EXPECT_EQ(back.text, job.text);
  EXPECT_EQ(back.key, job.key);
  EXPECT_TRUE(back.isOriginal);
  EXPECT_EQ(back.flags, job.flags);
  EXPECT_EQ(back.baselinePath, job.baselinePath);
  EXPECT_EQ(back.referencePath, "");
  EXPECT_EQ(back.saveReferencePath, job.saveReferencePath);
  EXPECT_EQ(back.timingLock, job.timingLock);
  EXPECT_EQ(back.timeoutSeconds, 17u);
  EXPECT_EQ(back.memoryLimitMiB, 512u);
  EXPECT_EQ(back.gpuBundleDir, job.gpuBundleDir);
  // Jobs written before remote GPU bundles existed still read.
  llvm::json::Value old = toJSON(job);
  old.getAsObject()->erase("gpu_bundle");
  ASSERT_TRUE(fromJSON(old, back, root));

  Evaluation e;
  e.status = EvaluationStatus::Mismatch;
  e.seconds = 0;
  e.cycles = 1234;
  e.compileMs = 12.5;
  e.workerSeconds = 0.25;
  e.key = job.key;
  e.message = "y: max error 1";
  e.numerics = true;
  e.cached = true;
  Evaluation f;
  ASSERT_TRUE(fromJSON(toJSON(e), f, root));
  EXPECT_EQ(f.status, EvaluationStatus::Mismatch);
  EXPECT_EQ(f.cycles, std::optional<uint64_t>(1234));
  EXPECT_EQ(f.compileMs, 12.5);
  EXPECT_EQ(f.workerSeconds, 0.25);
  EXPECT_EQ(f.key, e.key);
  EXPECT_EQ(f.message, e.message);
  EXPECT_TRUE(f.numerics);
  EXPECT_FALSE(f.cached); // where this process got it, not a fact of it

  e.status = EvaluationStatus::Pending;
  ASSERT_TRUE(fromJSON(toJSON(e), f, root));
  EXPECT_EQ(f.status, EvaluationStatus::Pending);
}

TEST(WorkerJobTest, AnEvaluationNeedsAKnownStatus) {
  Evaluation e;
  llvm::json::Path::Root root;
  EXPECT_FALSE(fromJSON(llvm::json::Object{{"status", "fine"}}, e, root));
  EXPECT_FALSE(fromJSON(llvm::json::Value(3), e, root));
}

TEST(WorkerJobTest, AMissingRunnerIsACrashedEvaluation) {
  WorkerJob job;
  job.runner = "/nonexistent/perfdojo-run";
  job.text = "x f32 [4] heap in\n";
  job.key = "k";
  Evaluation e = runWorkerJob(job);
  EXPECT_EQ(e.status, EvaluationStatus::Crashed);
  EXPECT_EQ(e.key, "k");
  EXPECT_NE(e.message.find("cannot run /nonexistent/perfdojo-run"),
            std::string::npos)
      << e.message;
}

} // namespace
