//===- Snitch.h - the snitch dialect ---------------------------*- C++ -*-===//
//
// Umbrella header: dialect, enums, attributes and operations.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_DIALECT_SNITCH_IR_SNITCH_H
#define PERFDOJO_DIALECT_SNITCH_IR_SNITCH_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"

#include "perfdojo/Dialect/Snitch/IR/SnitchOpsDialect.h.inc"

#include "perfdojo/Dialect/Snitch/IR/SnitchEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "perfdojo/Dialect/Snitch/IR/SnitchAttrs.h.inc"

#define GET_OP_CLASSES
#include "perfdojo/Dialect/Snitch/IR/SnitchOps.h.inc"

#endif // PERFDOJO_DIALECT_SNITCH_IR_SNITCH_H
