//===- Elementwise.h - elementwise ONNX operators as chains -----*- C++ -*-===//
//
// The shared form of elementwise operators (OnnxOperators.cpp,
// OnnxLogicalOperators.cpp): numpy broadcasting, and a chain of leaves
// that writes one output element by element.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_LIB_TARGET_ONNX_ELEMENTWISE_H
#define PERFDOJO_LIB_TARGET_ONNX_ELEMENTWISE_H

#include "GraphBuilder.h"

namespace perfdojo::onnx {

/// The numpy broadcast of two shapes; nullopt when they do not broadcast.
std::optional<llvm::SmallVector<int64_t, 4>>
broadcast(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);

/// Where `value` is read for the output element at `outIndex` (the output
/// of the broadcast shape): trailing dimensions aligned, size-1 ones fixed.
Index broadcastIndex(const GraphValue &value,
                     llvm::ArrayRef<mlir::AffineExpr> outIndex,
                     mlir::MLIRContext *ctx);

/// One step of an elementwise chain: `kind` over operands, each a value
/// (broadcast), the previous step's result (`prev`), or a constant.
struct Operand {
  const GraphValue *value = nullptr;
  bool prev = false;
  double constant = 0;
  static Operand of(const GraphValue *v) { return {v, false, 0}; }
  static Operand previous() { return {nullptr, true, 0}; }
  static Operand number(double c) { return {nullptr, false, c}; }
};
struct Step {
  dojo::OpKind kind;
  llvm::SmallVector<Operand, 3> operands;
};

/// Writes `steps` into `out` elementwise over its shape: each step's
/// result replaces `out`'s element (steps after the first read it back).
void emitChain(GraphBuilder &g, const GraphValue &out, llvm::ArrayRef<Step> steps);

} // namespace perfdojo::onnx

#endif // PERFDOJO_LIB_TARGET_ONNX_ELEMENTWISE_H
