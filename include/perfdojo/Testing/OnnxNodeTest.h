//===- OnnxNodeTest.h - one ONNX backend node test -------------*- C++ -*-===//
//
// ONNX's backend node tests (Debian's libonnx-testdata): a directory with
// `model.onnx` and `test_data_set_0/` holding `input_K.pb` and
// `output_K.pb`. One test is imported, run on its inputs with the JIT and
// the interpreter, and its outputs compared with the expected ones at the
// tolerances of ONNX's own backend tests (docs/onnx.md).
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TESTING_ONNXNODETEST_H
#define PERFDOJO_TESTING_ONNXNODETEST_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace perfdojo::onnx {

struct NodeTestOptions {
  bool jit = true;
  bool interpreter = true;
  /// ONNX's backend tests compare with numpy's assert_allclose at these.
  double rtol = 1e-3, atol = 1e-7;
};

struct NodeTestResult {
  enum class Status { Pass, Fail, Unsupported };
  std::string name; ///< the test directory's name
  Status status = Status::Fail;
  /// Why it failed or is unsupported; for a pass, the largest error.
  std::string message;
  /// The operator types of the model, for the summary by operator.
  std::vector<std::string> operators;
};

/// Runs the node test in `directory`.
NodeTestResult runNodeTest(llvm::StringRef directory,
                           const NodeTestOptions &options);

/// `pass`, `fail` or `unsupported`.
llvm::StringRef stringifyStatus(NodeTestResult::Status status);

} // namespace perfdojo::onnx

#endif // PERFDOJO_TESTING_ONNXNODETEST_H
