//===- DojoTransformOps.h - one transform op per move ----------*- C++ -*-===//
#ifndef PERFDOJO_DIALECT_DOJO_TRANSFORMOPS_H
#define PERFDOJO_DIALECT_DOJO_TRANSFORMOPS_H

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

#define GET_OP_CLASSES
#include "perfdojo/Dialect/Dojo/TransformOps/DojoTransformOps.h.inc"

namespace perfdojo::dojo {
/// Registers the `transform.dojo.*` ops with the Transform dialect.
void registerTransformDialectExtension(mlir::DialectRegistry &registry);
} // namespace perfdojo::dojo

#endif // PERFDOJO_DIALECT_DOJO_TRANSFORMOPS_H
