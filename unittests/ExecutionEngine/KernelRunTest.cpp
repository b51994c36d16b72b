//===- KernelRunTest.cpp - one run: reference, validation, report ---------===//

#include "perfdojo/ExecutionEngine/KernelRun.h"
#include "perfdojo/Runtime/Validation.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace perfdojo;

namespace {
OwningOpRef<ModuleOp> parse(MLIRContext &ctx, llvm::StringRef text) {
  return importDojoString(text, &ctx);
}

constexpr const char *kSum = "x f32 [8, 32] heap in\n"
                             "y f32 [8] heap out\n"
                             "8 y[{0}] = 0\n"
                             "| 32 y[{0}] += x[{0}, {1}]\n";
/// The same sum with a parallel outer scope.
constexpr const char *kParallelSum = "x f32 [8, 32] heap in\n"
                                     "y f32 [8] heap out\n"
                                     "8:p y[{0}] = 0\n"
                                     "| 32 y[{0}] += x[{0}, {1}]\n";
/// Another computation on the same arguments.
constexpr const char *kMax = "x f32 [8, 32] heap in\n"
                             "y f32 [8] heap out\n"
                             "8 y[{0}] = -inf\n"
                             "| 32 y[{0}] max= x[{0}, {1}]\n";

struct KernelRunTest : testing::Test {
  MLIRContext ctx;
  dojo::KernelOp load(llvm::StringRef text) {
    modules.push_back(parse(ctx, text));
    return modules.back() ? getSingleKernel(*modules.back()) : nullptr;
  }
  std::vector<OwningOpRef<ModuleOp>> modules;
};

TEST_F(KernelRunTest, InterpreterRunIsValidatedByTheF64Interpreter) {
  dojo::KernelOp kernel = load(kSum);
  ASSERT_TRUE(kernel);
  RunOptions options;
  options.engine = RunEngine::Interp;
  options.repetitions = 2;
  llvm::Expected<KernelRun> run = runKernel(kernel, nullptr, options);
  ASSERT_TRUE(bool(run)) << llvm::toString(run.takeError());
  const RunReport &report = run->report;
  EXPECT_EQ(report.kernel, "k");
  EXPECT_EQ(report.numArguments, 2u);
  EXPECT_EQ(report.counts.leafEvaluations, 8 + 8 * 32);
  EXPECT_EQ(report.repetitions, 2u);
  EXPECT_EQ(report.inputCopies, 1u);
  EXPECT_EQ(report.reference, "the f64 reference (interpreter)");
  EXPECT_FALSE(report.compile);
  ASSERT_EQ(report.outputs.size(), 1u);
  EXPECT_EQ(report.outputs[0].type, "f32 [8]");
  ASSERT_TRUE(report.outputs[0].comparison);
  EXPECT_TRUE(report.passed());
  // The inputs are those of the seed, the outputs their row sums.
  ASSERT_EQ(run->inputs.size(), 2u);
  double total = 0;
  for (int64_t i = 0; i < run->inputs[0].size(); ++i)
    total += run->inputs[0].get(i);
  EXPECT_NEAR(report.outputs[0].sum, total, 1e-4);
}

TEST_F(KernelRunTest,
       AboveTheInterpreterLimitTheCompiledF64ReferenceValidates) {
  dojo::KernelOp kernel = load(kParallelSum), baseline = load(kSum);
  ASSERT_TRUE(kernel && baseline);
  RunOptions options;
  options.interpLimit = 10;
  options.repetitions = 1;
  options.threads = 1;
  llvm::Expected<KernelRun> run = runKernel(kernel, baseline, options);
  ASSERT_TRUE(bool(run)) << llvm::toString(run.takeError());
  EXPECT_EQ(run->report.reference, "the f64 reference (compiled)");
  EXPECT_TRUE(run->report.passed());
  ASSERT_TRUE(run->report.compile);
  EXPECT_EQ(run->report.compile->optLevel, 3u);
  // It computes what the f64 interpreter computes, in the same order.
  ASSERT_EQ(run->reference.size(), 2u);
  EXPECT_EQ(run->reference[1].getType(), ScalarType::f64);
  options.referenceEngine = ReferenceEngine::Interp;
  llvm::Expected<KernelRun> interpreted = runKernel(kernel, baseline, options);
  ASSERT_TRUE(bool(interpreted)) << llvm::toString(interpreted.takeError());
  EXPECT_EQ(interpreted->report.reference, "the f64 reference (interpreter)");
  for (int64_t i = 0; i < 8; ++i)
    EXPECT_EQ(run->reference[1].get(i), interpreted->reference[1].get(i));

  // Without a baseline, this kernel promoted.
  options.referenceEngine = ReferenceEngine::Auto;
  run = runKernel(kernel, nullptr, options);
  ASSERT_TRUE(bool(run)) << llvm::toString(run.takeError());
  EXPECT_EQ(run->report.reference, "the f64 reference (compiled)");
  EXPECT_TRUE(run->report.passed());
}

/// An original kernel that overflows in f32 where the f64 result does not.
constexpr const char *kOverflow = "x f32 [8] heap in\n"
                                  "t f32 [8] heap\n"
                                  "y f32 [8] heap out\n"
                                  "8 t[{0}] = x[{0}] + 3.0e38\n"
                                  "| t[{0}] = t[{0}] + 3.0e38\n"
                                  "| y[{0}] = t[{0}] - 3.0e38\n";

TEST_F(KernelRunTest, AnOriginalThatIsOffItselfIsNumericsNotAMismatch) {
  dojo::KernelOp kernel = load(kOverflow), baseline = load(kOverflow);
  ASSERT_TRUE(kernel && baseline);
  RunOptions options;
  options.interpLimit = 1;
  options.repetitions = 1;
  // On its own, the kernel does not match the f64 reference, and says why.
  llvm::Expected<KernelRun> run = runKernel(kernel, nullptr, options);
  ASSERT_TRUE(bool(run)) << llvm::toString(run.takeError());
  const OutputSummary &alone = run->report.outputs[0];
  EXPECT_FALSE(alone.passed());
  EXPECT_FALSE(alone.original);
  EXPECT_EQ(alone.note, "this kernel overflows to inf at element 0 (the f64 "
                        "reference is 3e+38)");

  // Against its baseline it reproduces the original's own error: valid.
  run = runKernel(kernel, baseline, options);
  ASSERT_TRUE(bool(run)) << llvm::toString(run.takeError());
  const OutputSummary &y = run->report.outputs[0];
  EXPECT_TRUE(y.passed());
  EXPECT_FALSE(y.comparison->passed());
  EXPECT_TRUE(y.isOriginalOff());
  ASSERT_TRUE(y.againstOriginal);
  EXPECT_TRUE(y.againstOriginal->passed());
  EXPECT_NE(y.note.find("the original kernel itself overflows to inf at "
                        "element 0"),
            std::string::npos)
      << y.note;

  // Saved, the original's outputs travel with the reference: a later run
  // that computes something else is a mismatch beside the original's
  // error, one that reproduces it is valid.
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::getPotentiallyUniqueTempFileName(
      "kernel-run-test", "outputs", path));
  ASSERT_FALSE(bool(run->saveOutputs(path)));
  options.referenceOutputs = path.str().str();
  llvm::Expected<KernelRun> again = runKernel(kernel, baseline, options);
  ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());
  EXPECT_EQ(again->report.reference, "the saved f64 reference outputs");
  EXPECT_TRUE(again->report.passed());
  EXPECT_TRUE(again->report.outputs[0].isOriginalOff());
  dojo::KernelOp other = load("x f32 [8] heap in\n"
                              "t f32 [8] heap\n"
                              "y f32 [8] heap out\n"
                              "8 t[{0}] = x[{0}] + 3.0e38\n"
                              "| y[{0}] = x[{0}] + 5\n");
  ASSERT_TRUE(other);
  llvm::Expected<KernelRun> wrong = runKernel(other, baseline, options);
  ASSERT_TRUE(bool(wrong)) << llvm::toString(wrong.takeError());
  EXPECT_FALSE(wrong->report.passed());
  EXPECT_TRUE(wrong->report.outputs[0].isOriginalOff());
  EXPECT_FALSE(wrong->report.outputs[0].againstOriginal->passed());
  llvm::sys::fs::remove(path);
}

TEST_F(KernelRunTest, SavedOutputsValidateLaterRuns) {
  dojo::KernelOp kernel = load(kSum), other = load(kMax);
  ASSERT_TRUE(kernel && other);
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::getPotentiallyUniqueTempFileName(
      "kernel-run-test", "outputs", path));
  RunOptions options;
  options.engine = RunEngine::Interp;
  options.repetitions = 1;
  llvm::Expected<KernelRun> first = runKernel(kernel, nullptr, options);
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
  ASSERT_FALSE(bool(first->saveOutputs(path)));

  options.referenceOutputs = path.str().str();
  llvm::Expected<KernelRun> again = runKernel(kernel, nullptr, options);
  ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());
  EXPECT_EQ(again->report.reference, "the saved f64 reference outputs");
  EXPECT_TRUE(again->report.passed());

  // A mismatch is a finished run that did not pass, and cannot be saved.
  llvm::Expected<KernelRun> mismatch = runKernel(other, nullptr, options);
  ASSERT_TRUE(bool(mismatch)) << llvm::toString(mismatch.takeError());
  EXPECT_FALSE(mismatch->report.passed());
  llvm::Error save = mismatch->saveOutputs(path);
  EXPECT_TRUE(bool(save));
  llvm::consumeError(std::move(save));

  // Outputs of another seed are an error, not a validation.
  options.seed = 1;
  llvm::Expected<KernelRun> seed = runKernel(kernel, nullptr, options);
  ASSERT_FALSE(bool(seed));
  EXPECT_NE(llvm::toString(seed.takeError()).find("seed 0, not 1"),
            std::string::npos);
  llvm::sys::fs::remove(path);
}

TEST_F(KernelRunTest, ElementsNeverWrittenNeverMatch) {
  // Every other element of y is never written: the run leaves its NaN
  // there, and so would a reference filled like the run's outputs. The
  // reference's outputs start as the unwritten sentinel instead, so those
  // elements are mismatches, whichever reference computes them. (A
  // verifier that rejects such a kernel statically satisfies the same
  // property: it never validates.)
  bool rejected = false;
  ctx.getDiagEngine().registerHandler([&](Diagnostic &diagnostic) {
    rejected |= diagnostic.getSeverity() == DiagnosticSeverity::Error;
    return success();
  });
  dojo::KernelOp kernel = load("x f32 [8] heap in\n"
                               "y f32 [8] heap out\n"
                               "4 y[{0}*2] = x[{0}*2]\n");
  if (!kernel) {
    EXPECT_TRUE(rejected);
    return;
  }
  for (int64_t limit : {int64_t(1) << 20, int64_t(1)}) {
    RunOptions options;
    options.interpLimit = limit;
    options.repetitions = 1;
    llvm::Expected<KernelRun> run = runKernel(kernel, nullptr, options);
    ASSERT_TRUE(bool(run)) << llvm::toString(run.takeError());
    const OutputSummary &y = run->report.outputs[0];
    EXPECT_FALSE(y.passed()) << run->report.reference;
    EXPECT_EQ(y.comparison->neverWritten, 4) << run->report.reference;
    EXPECT_EQ(y.comparison->firstNeverWritten, 1);
    EXPECT_TRUE(std::isnan(run->args[1].get(1)));
    EXPECT_TRUE(isUnwrittenValue(run->reference[1].get(1)));
  }
}

TEST_F(KernelRunTest, BaselineMustTakeTheSameArguments) {
  dojo::KernelOp kernel = load(kSum);
  dojo::KernelOp baseline = load("x f32 [8, 32] heap in\n"
                                 "z f32 [8] heap out\n"
                                 "8 z[{0}] = 0\n");
  ASSERT_TRUE(kernel && baseline);
  llvm::Error error = checkBaselineArguments(kernel, baseline);
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("arguments differ"),
            std::string::npos);
  RunOptions options;
  options.engine = RunEngine::Interp;
  llvm::Expected<KernelRun> run = runKernel(kernel, baseline, options);
  EXPECT_FALSE(bool(run));
  llvm::consumeError(run.takeError());
}

TEST_F(KernelRunTest, RunsOnGivenInitialContents) {
  dojo::KernelOp kernel = load(kSum);
  ASSERT_TRUE(kernel);
  // x holds f64 values (converted to the kernel's f32), y garbage that an
  // `out` argument ignores.
  std::vector<HostBuffer> initial;
  initial.emplace_back("x", ScalarType::f64, 8 * 32);
  initial.emplace_back("y", ScalarType::f32, 8);
  for (int64_t i = 0; i < 8 * 32; ++i)
    initial[0].set(i, double(i / 32));
  initial[1].fill(1e30);
  for (RunEngine engine : {RunEngine::Interp, RunEngine::Jit}) {
    RunOptions options;
    options.engine = engine;
    options.repetitions = 1;
    llvm::Expected<KernelRun> run = runKernel(kernel, nullptr, options, initial);
    ASSERT_TRUE(bool(run)) << llvm::toString(run.takeError());
    EXPECT_TRUE(run->report.passed());
    for (int64_t r = 0; r < 8; ++r)
      EXPECT_EQ(run->args[1].get(r), 32.0 * r);
  }
  // The wrong number of arguments, or of elements, is refused.
  RunOptions options;
  options.engine = RunEngine::Interp;
  llvm::Expected<KernelRun> missing =
      runKernel(kernel, nullptr, options, llvm::ArrayRef(initial).take_front());
  ASSERT_FALSE(bool(missing));
  EXPECT_NE(llvm::toString(missing.takeError()).find("takes 2 argument(s), 1"),
            std::string::npos);
  initial[0] = HostBuffer("x", ScalarType::f32, 7);
  llvm::Expected<KernelRun> wrongSize =
      runKernel(kernel, nullptr, options, initial);
  ASSERT_FALSE(bool(wrongSize));
  EXPECT_NE(llvm::toString(wrongSize.takeError())
                .find("'x' has 256 element(s), 7 given"),
            std::string::npos);
}

TEST_F(KernelRunTest, RefusesTheReferenceModeOnTheJit) {
  dojo::KernelOp kernel = load(kSum);
  RunOptions options;
  options.referenceMode = true;
  llvm::Expected<KernelRun> run = runKernel(kernel, nullptr, options);
  EXPECT_FALSE(bool(run));
  llvm::consumeError(run.takeError());
}
} // namespace
