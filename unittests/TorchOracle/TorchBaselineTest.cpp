//===- TorchBaselineTest.cpp - the libtorch baseline's API ---------------===//
//
// Operator selection, validation against the kernel and the reports of
// TorchReference/TorchBaseline.h on the small library kernels. The tool's
// exit codes and messages are checked by test/Tools/perfdojo-run-torch.test.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/TorchReference/TorchBaseline.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <string>

using namespace perfdojo;

namespace {

struct SmallKernel {
  mlir::MLIRContext context;
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  dojo::KernelOp kernel;

  explicit SmallKernel(const std::string &name)
      : handler(&context, [this](mlir::Diagnostic &d) {
          diagnostics += d.str() + "\n";
          return mlir::success();
        }) {
    module = loadKernelFile(path(name), &context);
    kernel = module ? getSingleKernel(*module) : nullptr;
  }
  static std::string path(const std::string &name) {
    return std::string(PERFDOJO_SMALL_KERNELS_DIR) + "/" + name + ".dojo";
  }
};

/// The kind and message of a failed baseline (Unusable and the plain
/// message for any other error).
std::pair<TorchBaselineFailure, std::string> takeFailure(llvm::Error error) {
  std::pair<TorchBaselineFailure, std::string> failure{
      TorchBaselineFailure::Unusable, ""};
  llvm::handleAllErrors(
      std::move(error),
      [&](const TorchBaselineError &e) {
        failure = {e.getKind(), e.getMessage()};
      },
      [&](const llvm::ErrorInfoBase &e) { failure.second = e.message(); });
  return failure;
}

TorchBaselineOptions fewRepetitions() {
  TorchBaselineOptions options;
  options.warmup = 1;
  options.repetitions = 2;
  return options;
}

TEST(TorchBaseline, SelectsTheRequestedOperatorOrTheKernelsName) {
  SmallKernel softmax("softmax");
  ASSERT_TRUE(softmax.kernel) << softmax.diagnostics;
  auto byName = selectTorchOperator(softmax.kernel, "", "elsewhere/k.dojo");
  ASSERT_TRUE(bool(byName)) << llvm::toString(byName.takeError());
  EXPECT_EQ(*byName, "softmax");
  auto requested = selectTorchOperator(softmax.kernel, "relu", "");
  ASSERT_TRUE(bool(requested)) << llvm::toString(requested.takeError());
  EXPECT_EQ(*requested, "relu");

  auto unknown = selectTorchOperator(softmax.kernel, "nope", "");
  ASSERT_FALSE(bool(unknown));
  auto [kind, message] = takeFailure(unknown.takeError());
  EXPECT_EQ(kind, TorchBaselineFailure::Unusable);
  EXPECT_EQ(message.rfind("no libtorch operator named 'nope'; available: add, ",
                          0),
            0u)
      << message;
}

TEST(TorchBaseline, FallsBackToTheFileStem) {
  SmallKernel softmax("softmax");
  ASSERT_TRUE(softmax.kernel) << softmax.diagnostics;
  softmax.kernel.setSymName("my_softmax");
  auto stem = selectTorchOperator(softmax.kernel, "", "dir/softmax.dojo");
  ASSERT_TRUE(bool(stem)) << llvm::toString(stem.takeError());
  EXPECT_EQ(*stem, "softmax");

  auto none = selectTorchOperator(softmax.kernel, "", "dir/my-softmax.dojo");
  ASSERT_FALSE(bool(none));
  auto [kind, message] = takeFailure(none.takeError());
  EXPECT_EQ(kind, TorchBaselineFailure::Unusable);
  EXPECT_EQ(message.rfind("no libtorch operator for kernel 'my_softmax' (file "
                          "stem 'my-softmax'); pass --operator=NAME, one of: ",
                          0),
            0u)
      << message;
}

TEST(TorchBaseline, ValidatesAndTimesTheKernelsOperator) {
  SmallKernel softmax("softmax");
  ASSERT_TRUE(softmax.kernel) << softmax.diagnostics;
  auto result = runTorchBaseline(softmax.kernel, "softmax", fewRepetitions());
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->operatorName, "softmax");
  EXPECT_EQ(result->kernelName, "softmax");
  ASSERT_EQ(result->outputs.size(), 1u);
  EXPECT_EQ(result->outputs[0].first, "y");
  EXPECT_TRUE(result->outputs[0].second.passed());
  EXPECT_EQ(result->maxScaledError, result->outputs[0].second.maxScaledError);
  EXPECT_EQ(result->timing.repetitions, 2u);
  EXPECT_GT(result->timing.minSeconds, 0);
  EXPECT_LE(result->timing.minSeconds, result->timing.medianSeconds);
  EXPECT_GE(result->inputCopies, 1u);

  std::string text;
  llvm::raw_string_ostream os(text);
  result->print(os);
  EXPECT_EQ(text.rfind("libtorch operator softmax on kernel softmax, 1 "
                       "thread(s)\noutput y: matches the kernel (JIT): ",
                       0),
            0u)
      << text;
  EXPECT_NE(text.find("\ntime: median "), std::string::npos) << text;

  llvm::json::Object json = result->toJSON();
  EXPECT_EQ(json.getString("operator"), "softmax");
  EXPECT_EQ(json.getBoolean("valid"), true);
  EXPECT_EQ(json.getInteger("repetitions"), 2);
  EXPECT_EQ(json.getNumber("time_min_s"), result->timing.minSeconds);
}

TEST(TorchBaseline, RefusesAnOperatorComputingSomethingElse) {
  SmallKernel softmax("softmax");
  ASSERT_TRUE(softmax.kernel) << softmax.diagnostics;
  auto relu = runTorchBaseline(softmax.kernel, "relu", fewRepetitions());
  ASSERT_FALSE(bool(relu));
  auto [kind, message] = takeFailure(relu.takeError());
  EXPECT_EQ(kind, TorchBaselineFailure::Mismatch);
  EXPECT_EQ(message.rfind("operator 'relu' does not compute this kernel: "
                          "output 'y' differs from the kernel's: ",
                          0),
            0u)
      << message;
}

TEST(TorchBaseline, RefusesAnOperatorReadingOtherBuffers) {
  SmallKernel softmax("softmax");
  ASSERT_TRUE(softmax.kernel) << softmax.diagnostics;
  auto matmul = runTorchBaseline(softmax.kernel, "matmul", fewRepetitions());
  ASSERT_FALSE(bool(matmul));
  auto [kind, message] = takeFailure(matmul.takeError());
  EXPECT_EQ(kind, TorchBaselineFailure::Mismatch);
  EXPECT_EQ(message, "operator 'matmul' does not compute this kernel: it "
                     "reads a buffer the kernel does not have (kernel "
                     "inputs: x)");
}

TEST(TorchBaseline, ShapesLibtorchRejectsAreUnusable) {
  SmallKernel matmul("matmul");
  ASSERT_TRUE(matmul.kernel) << matmul.diagnostics;
  auto bmm = runTorchBaseline(matmul.kernel, "bmm", fewRepetitions());
  ASSERT_FALSE(bool(bmm));
  auto [kind, message] = takeFailure(bmm.takeError());
  EXPECT_EQ(kind, TorchBaselineFailure::Unusable);
  EXPECT_EQ(message.rfind("libtorch rejects operator 'bmm' on this kernel's "
                          "shapes: ",
                          0),
            0u)
      << message;
}
} // namespace
