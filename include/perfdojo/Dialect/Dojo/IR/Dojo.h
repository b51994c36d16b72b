//===- Dojo.h - the dojo dialect ------------------------------*- C++ -*-===//
//
// Umbrella header: dialect, enums, attributes and operations.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_DIALECT_DOJO_IR_DOJO_H
#define PERFDOJO_DIALECT_DOJO_IR_DOJO_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"

#include "perfdojo/Dialect/Dojo/IR/DojoOpsDialect.h.inc"

#include "perfdojo/Dialect/Dojo/IR/DojoEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "perfdojo/Dialect/Dojo/IR/DojoAttrs.h.inc"

#define GET_OP_CLASSES
#include "perfdojo/Dialect/Dojo/IR/DojoOps.h.inc"

#endif // PERFDOJO_DIALECT_DOJO_IR_DOJO_H
