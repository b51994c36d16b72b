//===- TorchOperators.h - library operators written with libtorch -*- C++ -*-===//
//
// The operator of every library kernel (kernels/*.dojo, by file stem)
// expressed with ATen calls. Used as an independent oracle by the tests and
// as the libtorch baseline by the benchmarks and the search report. Built
// only with PERFDOJO_ENABLE_TORCH.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TORCHREFERENCE_TORCHOPERATORS_H
#define PERFDOJO_TORCHREFERENCE_TORCHOPERATORS_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Runtime/HostBuffer.h"

#include <ATen/ATen.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace perfdojo {

/// Tensors by buffer name, as the kernel files name them.
using Tensors = std::map<std::string, at::Tensor>;
/// A library kernel's operator. `compute` allocates the outputs;
/// `computeInto`, where ATen has an out= variant for the operator's last
/// step, writes them into given tensors shaped like the kernel's outputs,
/// as a compiled kernel writes into its output buffers (the peer harness in
/// ../shared/peers times libtorch the same way).
struct TorchOperator {
  std::function<Tensors(const Tensors &)> compute;
  std::function<void(const Tensors &in, Tensors &out)> computeInto;

  Tensors operator()(const Tensors &in) const { return compute(in); }
  /// The outputs for `in`: written into `out`'s tensors (and `out`
  /// returned) where the operator has `computeInto`, else allocated.
  Tensors call(const Tensors &in, Tensors &out) const {
    if (!computeInto)
      return compute(in);
    computeInto(in, out);
    return out;
  }
};

/// The operator of library kernel `name` (`softmax`, `layernorm_wide`, ...),
/// or null if the library has no such kernel.
const TorchOperator *lookupTorchOperator(llvm::StringRef name);

/// Names of every library kernel with an operator, sorted.
std::vector<std::string> getTorchOperatorNames();

/// The libtorch dtype with the storage of `type` (bool: kBool, one byte).
at::ScalarType getTorchType(ScalarType type);

/// A tensor shaped like `kernel`'s buffer `buffer.getName()`: a copy in
/// `dtype`, or (with `share`) a view of the buffer's own memory, which must
/// then have the tensor's dtype.
at::Tensor toTensor(dojo::KernelOp kernel, HostBuffer &buffer,
                    at::ScalarType dtype, bool share = false);

/// Tensors viewing the buffers of `args` (no copies): the inputs (`in`
/// and `inout`), or with `outputs` the `out` buffers.
Tensors viewArguments(dojo::KernelOp kernel, std::vector<HostBuffer> &args,
                      bool outputs = false);

/// A f64 HostBuffer holding `tensor` in row-major order.
HostBuffer toHostBuffer(const std::string &name, const at::Tensor &tensor);

} // namespace perfdojo

#endif // PERFDOJO_TORCHREFERENCE_TORCHOPERATORS_H
