//===- OnnxInputs.h - ONNX tensors as kernel arguments ----------*- C++ -*-===//
//
// An imported kernel's arguments are the graph's inputs, its initializers
// and its outputs (OnnxImport.h). These helpers give them data: the
// initializers' values in the `perfdojo-run --inputs` format, and any
// tensor (a node test's `.pb`) as the host buffer of its argument.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TARGET_ONNX_ONNXINPUTS_H
#define PERFDOJO_TARGET_ONNX_ONNXINPUTS_H

#include "perfdojo/Runtime/HostBuffer.h"
#include "perfdojo/Target/Onnx/OnnxModel.h"

namespace perfdojo::onnx {

/// The kernel name for a model file: its stem, or NAME for
/// `.../NAME/model.onnx` (the node tests' layout), with characters other
/// than letters, digits and `_` replaced.
std::string getDefaultKernelName(llvm::StringRef path);

/// Writes the values of `model`'s initializers to `path` in the
/// `perfdojo-run --inputs` format, under their buffer names.
llvm::Error writeInitializers(const Model &model, llvm::StringRef path);

/// Copies `tensor`'s values into `buffer` (an argument of the kernel),
/// which must have as many elements.
llvm::Error copyTensor(const Tensor &tensor, HostBuffer &buffer);

} // namespace perfdojo::onnx

#endif // PERFDOJO_TARGET_ONNX_ONNXINPUTS_H
