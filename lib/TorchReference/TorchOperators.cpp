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
    o["add"] = {[](const Tensors &t) {
                  return Tensors{{"z", t.at("x") + t.at("y")}};
                },
                [](const Tensors &t, Tensors &out) {
                  at::add_out(out.at("z"), t.at("x"), t.at("y"));
                }};
    o["mul"] = {[](const Tensors &t) {
                  return Tensors{{"z", t.at("x") * t.at("y")}};
                },
                [](const Tensors &t, Tensors &out) {
                  at::mul_out(out.at("z"), t.at("x"), t.at("y"));
                }};
    // No out= variant below: at::batch_norm, at::conv2d and at::layer_norm
    // reach their CPU kernels only through the allocating entry points.
    TorchOperator batchNorm{[](const Tensors &t) {
      // Training mode: batch statistics over N, H, W; biased variance;
      // the affine weight and bias per channel.
      return Tensors{{"y", at::batch_norm(t.at("x"), t.at("g"), t.at("b"),
                                          /*running_mean=*/{},
                                          /*running_var=*/{},
                                          /*training=*/true,
                                          /*momentum=*/0.1, kEps,
                                          /*cudnn_enabled=*/false)}};
    }, /*computeInto=*/nullptr};
    o["batchnorm"] = batchNorm;
    o["batchnorm_large_c"] = batchNorm;
    o["bmm"] = {[](const Tensors &t) {
                  return Tensors{{"c", at::bmm(t.at("a"), t.at("b"))}};
                },
                [](const Tensors &t, Tensors &out) {
                  at::bmm_out(out.at("c"), t.at("a"), t.at("b"));
                }};
    TorchOperator conv{[](const Tensors &t) {
      // Stride 1, no padding ("valid"): output H-K+1 x W-K+1.
      return Tensors{{"y", at::conv2d(t.at("x"), t.at("w"))}};
    }, /*computeInto=*/nullptr};
    o["conv"] = conv;
    o["conv_large_c"] = conv;
    TorchOperator layerNorm{[](const Tensors &t) {
      const at::Tensor &x = t.at("x");
      return Tensors{{"y", at::layer_norm(x, {x.size(-1)}, t.at("g"),
                                          t.at("b"), kEps)}};
    }, /*computeInto=*/nullptr};
    o["layernorm"] = layerNorm;
    o["layernorm_wide"] = layerNorm;
    o["matmul"] = {[](const Tensors &t) {
                     return Tensors{{"c", at::matmul(t.at("a"), t.at("b"))}};
                   },
                   [](const Tensors &t, Tensors &out) {
                     at::matmul_out(out.at("c"), t.at("a"), t.at("b"));
                   }};
    o["reducemean"] = {[](const Tensors &t) {
                         return Tensors{{"y", t.at("x").mean(-1)}};
                       },
                       [](const Tensors &t, Tensors &out) {
                         at::mean_out(out.at("y"), t.at("x"), {-1});
                       }};
    // at::relu_out is clamp_min_out(0), relu's own kernel.
    TorchOperator relu{[](const Tensors &t) {
                         return Tensors{{"y", at::relu(t.at("x"))}};
                       },
                       [](const Tensors &t, Tensors &out) {
                         at::clamp_min_out(out.at("y"), t.at("x"), 0);
                       }};
    o["relu"] = relu;
    // A 1x1 convolution C->C over the flattened pixels, then ReLU in place:
    // nn.Conv2d(C, C, 1, bias=False) followed by nn.ReLU(inplace=True).
    o["relu_ffn"] = {[](const Tensors &t) {
                       const at::Tensor &x = t.at("x"), &w = t.at("w");
                       at::Tensor y = at::conv2d(x.unsqueeze(-1),
                                                 w.view({w.size(0), w.size(1),
                                                         1, 1}));
                       return Tensors{{"y", y.squeeze(-1).relu_()}};
                     },
                     /*computeInto=*/nullptr};
    // Composites write their last step into the output, as a user of the
    // out= variants would.
    auto rmsScaled = [](const at::Tensor &x) {
      return x * at::rsqrt((x * x).mean(-1, /*keepdim=*/true) + kEps);
    };
    o["rmsnorm"] = {[=](const Tensors &t) {
                      return Tensors{{"y", rmsScaled(t.at("x")) * t.at("g")}};
                    },
                    [=](const Tensors &t, Tensors &out) {
                      at::mul_out(out.at("y"), rmsScaled(t.at("x")), t.at("g"));
                    }};
    o["softmax"] = {[](const Tensors &t) {
                      return Tensors{{"y", at::softmax(t.at("x"), -1)}};
                    },
                    [](const Tensors &t, Tensors &out) {
                      at::_softmax_out(out.at("y"), t.at("x"), -1,
                                       /*half_to_float=*/false);
                    }};
    auto swigluGate = [](const Tensors &t) {
      return at::silu(at::matmul(t.at("x"), t.at("wg")));
    };
    o["swiglu"] = {[=](const Tensors &t) {
                     return Tensors{
                         {"y", swigluGate(t) * at::matmul(t.at("x"), t.at("wu"))}};
                   },
                   [=](const Tensors &t, Tensors &out) {
                     at::mul_out(out.at("y"), swigluGate(t),
                                 at::matmul(t.at("x"), t.at("wu")));
                   }};
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

Tensors perfdojo::viewArguments(dojo::KernelOp kernel,
                                std::vector<HostBuffer> &args, bool outputs) {
  Tensors tensors;
  for (HostBuffer &buffer : args) {
    bool isOutput =
        kernel.lookupArray(buffer.getName()).getRole() == dojo::Role::out;
    if (isOutput == outputs)
      tensors[buffer.getName()] = toTensor(
          kernel, buffer, getTorchType(buffer.getType()), /*share=*/true);
  }
  return tensors;
}

HostBuffer perfdojo::toHostBuffer(const std::string &name,
                                  const at::Tensor &tensor) {
  at::Tensor t = tensor.to(at::kDouble).contiguous();
  HostBuffer buffer(name, ScalarType::f64, t.numel());
  std::memcpy(buffer.data(), t.data_ptr<double>(), t.numel() * sizeof(double));
  return buffer;
}
