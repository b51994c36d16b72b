//===- TorchOracleTest.cpp - library kernels against libtorch -------------===//
//
// libtorch is an oracle independent of the dojo interpreter: for every small
// library kernel (kernels/small/*.dojo), the kernel runs in the interpreter in
// f32 on seeded inputs, libtorch computes the same operator in f64 from the
// very same input values, and each output must match within the dtype-aware
// tolerance of perfdojo/Runtime/Validation.h. The interpreter's f64 reference
// mode is held to the f64 tolerance against the same libtorch result.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Runtime/HostBuffer.h"
#include "perfdojo/TorchReference/TorchOperators.h"
#include "perfdojo/Runtime/Interpreter.h"
#include "perfdojo/Runtime/Validation.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace perfdojo;

namespace {

/// The library kernels that have a libtorch operator.
std::vector<std::string> getKernelNames() { return getTorchOperatorNames(); }

class TorchOracle : public ::testing::TestWithParam<std::string> {};

TEST_P(TorchOracle, MatchesLibtorch) {
  const std::string &name = GetParam();
  std::string path =
      std::string(PERFDOJO_SMALL_KERNELS_DIR) + "/" + name + ".dojo";
  mlir::MLIRContext context;
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module = loadKernelFile(path, &context);
  ASSERT_TRUE(module) << "cannot load " << path << ":\n" << diagnostics;
  dojo::KernelOp kernel = getSingleKernel(*module);
  ASSERT_TRUE(kernel) << diagnostics;

  auto interp = Interpreter::create(kernel);
  ASSERT_TRUE(succeeded(interp)) << diagnostics;
  auto reference = Interpreter::create(kernel, InterpreterOptions{true});
  ASSERT_TRUE(succeeded(reference)) << diagnostics;
  int64_t reductionLength = getMaxReductionLength(kernel);
  mlir::Type f64 = mlir::Float64Type::get(&context);

  for (uint64_t seed : {0, 7}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::vector<HostBuffer> args = allocateArguments(kernel);
    fillInputs(kernel, args, seed);
    // The reference mode runs on f64 copies of the same (f32) values.
    std::vector<HostBuffer> refArgs =
        allocateArguments(kernel, ScalarType::f64);
    for (size_t i = 0; i < args.size(); ++i)
      refArgs[i].assign(args[i]);

    Tensors inputs;
    for (HostBuffer &arg : args)
      if (kernel.lookupArray(arg.getName()).getRole() != dojo::Role::out)
        inputs[arg.getName()] = toTensor(kernel, arg, at::kDouble);

    llvm::Error err = interp->run(args);
    ASSERT_FALSE(err) << llvm::toString(std::move(err));
    err = reference->run(refArgs);
    ASSERT_FALSE(err) << llvm::toString(std::move(err));

    Tensors expected = (*lookupTorchOperator(name))(inputs);
    int64_t checked = 0;
    for (size_t i = 0; i < args.size(); ++i) {
      dojo::BufferOp buffer = kernel.lookupArray(args[i].getName());
      if (buffer.getRole() == dojo::Role::in)
        continue;
      auto it = expected.find(args[i].getName());
      ASSERT_NE(it, expected.end())
          << "the oracle computes no '" << args[i].getName() << "'";
      llvm::ArrayRef<int64_t> shape =
          kernel.lookupArray(it->first).getShape();
      ASSERT_EQ(it->second.sizes().vec(),
                std::vector<int64_t>(shape.begin(), shape.end()))
          << "output '" << it->first << "' has another shape in libtorch";
      HostBuffer want = toHostBuffer(it->first, it->second);

      Comparison c = compareBuffers(
          args[i], want,
          getRelativeTolerance(buffer.getElementType(), reductionLength));
      EXPECT_TRUE(c.passed()) << name << " output " << it->first
                              << " (f32 interpreter): " << describe(c);
      std::cout << "[ oracle   ] " << name << " seed " << seed << " "
                << it->first << " f32: " << describe(c) << "\n";

      Comparison r = compareBuffers(refArgs[i], want,
                                    getRelativeTolerance(f64, reductionLength));
      EXPECT_TRUE(r.passed()) << name << " output " << it->first
                              << " (f64 reference): " << describe(r);
      std::cout << "[ oracle   ] " << name << " seed " << seed << " "
                << it->first << " f64 reference: " << describe(r) << "\n";
      ++checked;
    }
    EXPECT_EQ(checked, static_cast<int64_t>(expected.size()))
        << "the oracle computes outputs the kernel does not declare";
  }
}

/// The operators with an out= form.
std::vector<std::string> getWritingOperatorNames() {
  std::vector<std::string> names;
  for (const std::string &name : getTorchOperatorNames())
    if (lookupTorchOperator(name)->computeInto)
      names.push_back(name);
  return names;
}

class TorchOutVariant : public ::testing::TestWithParam<std::string> {};

/// The out= form the libtorch baseline times writes, into the kernel's own
/// output buffers, what the allocating form computes.
TEST_P(TorchOutVariant, WritesIntoOutputsWhatItAllocates) {
  const std::string &name = GetParam();
  const TorchOperator &op = *lookupTorchOperator(name);
  std::string path =
      std::string(PERFDOJO_SMALL_KERNELS_DIR) + "/" + name + ".dojo";
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = loadKernelFile(path, &context);
  ASSERT_TRUE(module) << "cannot load " << path;
  dojo::KernelOp kernel = getSingleKernel(*module);
  ASSERT_TRUE(kernel);

  std::vector<HostBuffer> args = allocateArguments(kernel);
  fillInputs(kernel, args, /*seed=*/3);
  Tensors inputs = viewArguments(kernel, args);
  Tensors allocated = op(inputs);
  Tensors outputs = viewArguments(kernel, args, /*outputs=*/true);
  ASSERT_EQ(outputs.size(), allocated.size());
  op.call(inputs, outputs);
  for (HostBuffer &buffer : args) {
    auto it = allocated.find(buffer.getName());
    if (it == allocated.end())
      continue;
    // `buffer` itself, written by the call: not a copy of the tensor.
    Comparison c =
        compareBuffers(buffer, toHostBuffer(it->first, it->second),
                       getRelativeTolerance(
                           kernel.lookupArray(it->first).getElementType(),
                           getMaxReductionLength(kernel)));
    EXPECT_TRUE(c.passed()) << name << " output " << it->first << ": "
                            << describe(c);
  }
}

INSTANTIATE_TEST_SUITE_P(SmallKernels, TorchOracle,
                         ::testing::ValuesIn(getKernelNames()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                           return info.param;
                         });

INSTANTIATE_TEST_SUITE_P(SmallKernels, TorchOutVariant,
                         ::testing::ValuesIn(getWritingOperatorNames()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                           return info.param;
                         });

} // namespace
