//===- ReferenceKernel.h - the f64 reference of a kernel --------*- C++ -*-===//
//
// The accurate reference of a kernel at any size: the same tree computed in
// f64. The interpreter's reference mode does this by interpretation; on
// shapes it cannot afford, the kernel rewritten here is compiled by the JIT
// and run on the same inputs, converted exactly to f64
// (perfdojo/ExecutionEngine/KernelRun.h). Rounding the f32 kernel's own
// long reductions is exactly what a reference must not share, so the
// untransformed kernel compiled in its own type is no reference.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_RUNTIME_REFERENCEKERNEL_H
#define PERFDOJO_RUNTIME_REFERENCEKERNEL_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"

#include "mlir/IR/OwningOpRef.h"

namespace perfdojo {

/// Whether `type` is an element type the f64 reference computes in f64:
/// f16, bf16 and f32 (f64 already is; integer types keep their exact
/// arithmetic).
bool isPromotedToF64(mlir::Type type);

/// A copy of `kernel`, not inserted anywhere, that computes the same
/// operations in f64:
///
///   * every buffer of a promoted type (isPromotedToF64) holds f64; shapes,
///     padding, `:N` dimensions, shared arrays and roles are kept, and so
///     are the tree, the constants (already f64 values) and the index
///     values;
///   * every scope runs sequentially (modes never change results, and the
///     sequential order is the accurate one: no reassociated lanes);
///   * every internal buffer lives on the heap: locations never change
///     results either, and f64 elements may not fit the original's stack
///     or register budget.
///
/// The copy is verified; a failure (reported as diagnostics on the kernel's
/// context) would be a bug of this rewrite, never of the kernel.
mlir::FailureOr<mlir::OwningOpRef<dojo::KernelOp>>
promoteToF64(dojo::KernelOp kernel);

} // namespace perfdojo

#endif // PERFDOJO_RUNTIME_REFERENCEKERNEL_H
