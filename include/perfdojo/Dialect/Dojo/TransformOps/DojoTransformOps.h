//===- DojoTransformOps.h - one transform op per move ----------*- C++ -*-===//
#ifndef PERFDOJO_DIALECT_DOJO_TRANSFORMOPS_H
#define PERFDOJO_DIALECT_DOJO_TRANSFORMOPS_H

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"
#include "perfdojo/Moves/MoveKind.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace perfdojo::dojo {
/// Runs the move of `kind` at `location` with `params` on `target`, which
/// must be a dojo.kernel; what every `transform.dojo.<move>` op does.
mlir::DiagnosedSilenceableFailure
applyMoveOp(mlir::Operation *transformOp, MoveKind kind,
            llvm::StringRef location, llvm::ArrayRef<int64_t> params,
            mlir::Operation *target);
} // namespace perfdojo::dojo

#define GET_OP_CLASSES
#include "perfdojo/Dialect/Dojo/TransformOps/DojoTransformOps.h.inc"

namespace perfdojo::dojo {
/// Registers the `transform.dojo.*` ops with the Transform dialect.
void registerTransformDialectExtension(mlir::DialectRegistry &registry);
} // namespace perfdojo::dojo

#endif // PERFDOJO_DIALECT_DOJO_TRANSFORMOPS_H
