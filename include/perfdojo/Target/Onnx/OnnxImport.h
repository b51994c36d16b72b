//===- OnnxImport.h - an ONNX graph as one dojo kernel ----------*- C++ -*-===//
//
// `perfdojo-import-onnx` (docs/onnx.md): a graph of ONNX nodes becomes one
// kernel. Graph inputs and initializers are `in` buffers, graph outputs
// `out` buffers, every other value an internal buffer; each node is one or
// more scope nests over static shapes, per the operator's specification at
// the model's opset. What the IR cannot express (data-dependent shapes or
// indices, control flow, element types it lacks, unsupported operators) is
// an error that says why, never a wrong kernel.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TARGET_ONNX_ONNXIMPORT_H
#define PERFDOJO_TARGET_ONNX_ONNXIMPORT_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Target/Onnx/OnnxModel.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace perfdojo::onnx {

/// Why a model cannot be imported: `unsupported` for what the IR or the
/// importer does not express (the test runner counts these apart from
/// failures), else a malformed model.
struct ImportError {
  bool unsupported = false;
  std::string message;
};

/// The kernel of `model`, named `name`, in a new module; null with `why`
/// set when there is none.
mlir::OwningOpRef<mlir::ModuleOp> importModel(const Model &model,
                                              llvm::StringRef name,
                                              mlir::MLIRContext *context,
                                              ImportError &why);

/// The IR element type of an ONNX element kind (TensorProto.DataType), or
/// null for one the IR lacks (unsigned integers, strings, complex).
mlir::Type getElementType(int kind, mlir::MLIRContext *context);

/// The buffer name of every value of `model` (letters, digits and `_`, not
/// starting with a digit, distinct): how a caller finds the arguments for
/// the graph's inputs, initializers and outputs.
llvm::StringMap<std::string> getBufferNames(const Model &model);

} // namespace perfdojo::onnx

#endif // PERFDOJO_TARGET_ONNX_ONNXIMPORT_H
