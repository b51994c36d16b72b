//===- TorchOperators.cpp - library operators written with libtorch ------===//

#include "perfdojo/TorchReference/TorchOperators.h"

#include <cstring>

using namespace perfdojo;

namespace {

constexpr double kEps = 1e-5;

/// The operator of each library kernel, written with libtorch ops. The
/// readings of the shapes are documented in kernels/README.md.
const std::map<std::string, TorchOperator> &getOperators() {
  static const std::map<std::string, TorchOperator> operators = [] {
    std::map<std::string, TorchOperator> o;
    o["add"] = [](const Tensors &t) {
      return Tensors{{"z", t.at("x") + t.at("y")}};
    };
    o["mul"] = [](const Tensors &t) {
      return Tensors{{"z", t.at("x") * t.at("y")}};
    };
    TorchOperator batchNorm = [](const Tensors &t) {
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
    TorchOperator conv = [](const Tensors &t) {
      // Stride 1, no padding ("valid"): output H-K+1 x W-K+1.
      return Tensors{{"y", at::conv2d(t.at("x"), t.at("w"))}};
    };
    o["conv"] = conv;
    o["conv_large_c"] = conv;
    TorchOperator layerNorm = [](const Tensors &t) {
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
    TorchOperator relu = [](const Tensors &t) {
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
  return operators;
}

} // namespace

const TorchOperator *perfdojo::lookupTorchOperator(llvm::StringRef name) {
  auto it = getOperators().find(name.str());
  return it == getOperators().end() ? nullptr : &it->second;
}

std::vector<std::string> perfdojo::getTorchOperatorNames() {
  std::vector<std::string> names;
  for (const auto &entry : getOperators())
    names.push_back(entry.first);
  return names;
}

at::ScalarType perfdojo::getTorchType(ScalarType type) {
  switch (type) {
  case ScalarType::f16:
    return at::kHalf;
  case ScalarType::bf16:
    return at::kBFloat16;
  case ScalarType::f32:
    return at::kFloat;
  case ScalarType::f64:
    return at::kDouble;
  case ScalarType::i1:
    return at::kBool;
  case ScalarType::i8:
    return at::kChar;
  case ScalarType::i16:
    return at::kShort;
  case ScalarType::i32:
    return at::kInt;
  case ScalarType::i64:
    return at::kLong;
  }
  llvm_unreachable("unknown scalar type");
}

at::Tensor perfdojo::toTensor(dojo::KernelOp kernel, HostBuffer &buffer,
                              at::ScalarType dtype, bool share) {
  llvm::ArrayRef<int64_t> shape =
      kernel.lookupArray(buffer.getName()).getShape();
  std::vector<int64_t> sizes(shape.begin(), shape.end());
  at::ScalarType own = getTorchType(buffer.getType());
  at::Tensor view = at::from_blob(buffer.data(), sizes,
                                  at::TensorOptions().dtype(own));
  if (share && own == dtype)
    return view;
  return view.to(dtype, /*non_blocking=*/false, /*copy=*/true);
}

HostBuffer perfdojo::toHostBuffer(const std::string &name,
                                  const at::Tensor &tensor) {
  at::Tensor t = tensor.to(at::kDouble).contiguous();
  HostBuffer buffer(name, ScalarType::f64, t.numel());
  std::memcpy(buffer.data(), t.data_ptr<double>(), t.numel() * sizeof(double));
  return buffer;
}
