//===- Passes.h - lowering passes for dojo kernels -------------*- C++ -*-===//
#ifndef PERFDOJO_CONVERSION_PASSES_H
#define PERFDOJO_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Snitch/IR/Snitch.h"

namespace perfdojo {

#define GEN_PASS_DECL
#include "perfdojo/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "perfdojo/Conversion/Passes.h.inc"

/// What `dojo-approximate-math` does, on the operations below `root` only.
mlir::LogicalResult approximateMath(mlir::Operation *root);

/// Whether `dojo-approximate-math` replaces the f32 function `kind` (a
/// transcendental, ElementTypes.h) by a polynomial: exp, log, tanh,
/// sigmoid (through exp), asin, acos and erf, the upstream approximations
/// within a few ulps. The others stay libm calls on CPUs and have no GPU
/// implementation.
bool hasPolynomialApproximation(dojo::OpKind kind);

/// The attributes by which `convert-linalg-to-dojo` marks what
/// `dojo-outline-kernels` replaces: the kernel an op is converted to, the
/// operands its argument buffers stand for (in declaration order), and the
/// kernel a `linalg.fill` is folded into.
inline constexpr llvm::StringLiteral kOutlineAttrName = "dojo.outline";
inline constexpr llvm::StringLiteral kOutlineOperandsAttrName =
    "dojo.outline_operands";
inline constexpr llvm::StringLiteral kFoldedIntoAttrName = "dojo.folded_into";

} // namespace perfdojo

#endif // PERFDOJO_CONVERSION_PASSES_H
