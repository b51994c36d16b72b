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
#include "perfdojo/Runtime/Interpreter.h"
#include "perfdojo/Runtime/Validation.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Error.h"

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

using namespace perfdojo;

namespace {

/// Tensors by buffer name, as the kernel files name them.
using Tensors = std::map<std::string, at::Tensor>;
/// Computes a kernel's outputs from its inputs (all f64).
using Oracle = std::function<Tensors(const Tensors &)>;

constexpr double kEps = 1e-5;

/// The operator of each library kernel, written with libtorch ops. The
/// readings of the shapes are documented in kernels/README.md.
const std::map<std::string, Oracle> &getOracles() {
  static const std::map<std::string, Oracle> oracles = [] {
    std::map<std::string, Oracle> o;
    o["add"] = [](const Tensors &t) {
      return Tensors{{"z", t.at("x") + t.at("y")}};
    };
    o["mul"] = [](const Tensors &t) {
      return Tensors{{"z", t.at("x") * t.at("y")}};
    };
    Oracle batchNorm = [](const Tensors &t) {
      // Training mode: batch statistics over N, H, W; biased variance.
      return Tensors{{"y", at::batch_norm(t.at("x"), /*weight=*/{},
                                          /*bias=*/{}, /*running_mean=*/{},
                                          /*running_var=*/{},
                                          /*training=*/true,
                                          /*momentum=*/0.1, kEps,
                                          /*cudnn_enabled=*/false)}};
    };
    o["batchnorm"] = batchNorm;
    o["batchnorm_large_c"] = batchNorm;
    o["bmm"] = [](const Tensors &t) {
      return Tensors{{"c", at::bmm(t.at("a"), t.at("b"))}};
    };
    Oracle conv = [](const Tensors &t) {
      // Stride 1, no padding ("valid"): output H-K+1 x W-K+1.
      return Tensors{{"y", at::conv2d(t.at("x"), t.at("w"))}};
    };
    o["conv"] = conv;
    o["conv_large_c"] = conv;
    Oracle layerNorm = [](const Tensors &t) {
      const at::Tensor &x = t.at("x");
      return Tensors{{"y", at::layer_norm(x, {x.size(-1)}, /*weight=*/{},
                                          /*bias=*/{}, kEps)}};
    };
    o["layernorm"] = layerNorm;
    o["layernorm_wide"] = layerNorm;
    o["matmul"] = [](const Tensors &t) {
      return Tensors{{"c", at::matmul(t.at("a"), t.at("b"))}};
    };
    o["reducemean"] = [](const Tensors &t) {
      return Tensors{{"y", t.at("x").mean(-1)}};
    };
    Oracle relu = [](const Tensors &t) {
      return Tensors{{"y", at::relu(t.at("x"))}};
    };
    o["relu"] = relu;
    o["relu_ffn"] = relu;
    o["rmsnorm"] = [](const Tensors &t) {
      const at::Tensor &x = t.at("x");
      at::Tensor ms = (x * x).mean(-1, /*keepdim=*/true);
      return Tensors{{"y", x * at::rsqrt(ms + kEps)}};
    };
    o["softmax"] = [](const Tensors &t) {
      return Tensors{{"y", at::softmax(t.at("x"), -1)}};
    };
    o["swiglu"] = [](const Tensors &t) {
      at::Tensor g = at::matmul(t.at("x"), t.at("wg"));
      at::Tensor u = at::matmul(t.at("x"), t.at("wu"));
      return Tensors{{"y", at::silu(g) * u}};
    };
    return o;
  }();
  return oracles;
}

std::vector<std::string> getKernelNames() {
  std::vector<std::string> names;
  for (const auto &entry : getOracles())
    names.push_back(entry.first);
  return names;
}

std::vector<int64_t> getShape(dojo::KernelOp kernel, llvm::StringRef name) {
  dojo::BufferOp buffer = kernel.lookupArray(name);
  llvm::ArrayRef<int64_t> shape = buffer.getShape();
  return std::vector<int64_t>(shape.begin(), shape.end());
}

/// A f64 copy of `buffer`'s contents shaped like the kernel's buffer.
at::Tensor toTensor(dojo::KernelOp kernel, const HostBuffer &buffer) {
  at::Tensor t = at::empty(getShape(kernel, buffer.getName()),
                           at::TensorOptions().dtype(at::kDouble));
  EXPECT_EQ(t.numel(), buffer.size());
  double *data = t.data_ptr<double>();
  for (int64_t i = 0; i < buffer.size(); ++i)
    data[i] = buffer.get(i);
  return t;
}

/// A f64 HostBuffer holding `tensor` in row-major order.
HostBuffer toHostBuffer(const std::string &name, const at::Tensor &tensor) {
  at::Tensor t = tensor.to(at::kDouble).contiguous();
  HostBuffer buffer(name, ScalarType::f64, t.numel());
  std::memcpy(buffer.data(), t.data_ptr<double>(), t.numel() * sizeof(double));
  return buffer;
}

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
    for (const HostBuffer &arg : args)
      if (kernel.lookupArray(arg.getName()).getRole() != dojo::Role::out)
        inputs[arg.getName()] = toTensor(kernel, arg);

    llvm::Error err = interp->run(args);
    ASSERT_FALSE(err) << llvm::toString(std::move(err));
    err = reference->run(refArgs);
    ASSERT_FALSE(err) << llvm::toString(std::move(err));

    Tensors expected = getOracles().at(name)(inputs);
    int64_t checked = 0;
    for (size_t i = 0; i < args.size(); ++i) {
      dojo::BufferOp buffer = kernel.lookupArray(args[i].getName());
      if (buffer.getRole() == dojo::Role::in)
        continue;
      auto it = expected.find(args[i].getName());
      ASSERT_NE(it, expected.end())
          << "the oracle computes no '" << args[i].getName() << "'";
      ASSERT_EQ(it->second.sizes().vec(), getShape(kernel, it->first))
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

INSTANTIATE_TEST_SUITE_P(SmallKernels, TorchOracle,
                         ::testing::ValuesIn(getKernelNames()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                           return info.param;
                         });

} // namespace
