//===- Elementwise.h - elementwise ONNX operators as chains -----*- C++ -*-===//
//
// The shared forms of elementwise operators and reductions
// (OnnxOperators.cpp, OnnxLogicalOperators.cpp, ...): numpy broadcasting,
// a chain of leaves that writes one output element by element, and a
// reduction over marked dimensions.
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

/// `out` = the reduction `reduce` of `contribution(x)` (copy, abs, exp,
/// or mul: x * x) over the dimensions `reduced` marks, starting from
/// `identity`; `out` keeps them as size 1 (`keep`) or drops them. Kept
/// dimensions are the outer scopes, reduced ones the inner.
void emitReduction(GraphBuilder &g, const GraphValue &x,
                   llvm::ArrayRef<bool> reduced, bool keep,
                   const GraphValue &out, dojo::OpKind contribution,
                   dojo::ReduceKind reduce, double identity);

} // namespace perfdojo::onnx

#endif // PERFDOJO_LIB_TARGET_ONNX_ELEMENTWISE_H
