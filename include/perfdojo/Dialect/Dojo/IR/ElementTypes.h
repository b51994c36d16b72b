//===- ElementTypes.h - the element types of the IR -------------*- C++ -*-===//
//
// Which scalar types a buffer may hold (S2 of docs/ir.md). The buffer
// verifier states the rule; generators of kernels ask it too.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_DIALECT_DOJO_IR_ELEMENTTYPES_H
#define PERFDOJO_DIALECT_DOJO_IR_ELEMENTTYPES_H

#include "mlir/IR/Types.h"

namespace perfdojo::dojo {

/// Whether `type` is an element type of the IR.
bool isSupportedElementType(mlir::Type type);

} // namespace perfdojo::dojo

#endif // PERFDOJO_DIALECT_DOJO_IR_ELEMENTTYPES_H
