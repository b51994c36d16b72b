//===- Passes.h - snitch passes --------------------------------*- C++ -*-===//
#ifndef PERFDOJO_DIALECT_SNITCH_TRANSFORMS_PASSES_H
#define PERFDOJO_DIALECT_SNITCH_TRANSFORMS_PASSES_H

#include "perfdojo/Dialect/Snitch/IR/Snitch.h"

#include "mlir/Pass/Pass.h"

namespace perfdojo::snitch {

#define GEN_PASS_DECL
#include "perfdojo/Dialect/Snitch/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "perfdojo/Dialect/Snitch/Transforms/Passes.h.inc"

} // namespace perfdojo::snitch

#endif // PERFDOJO_DIALECT_SNITCH_TRANSFORMS_PASSES_H
