//===- Passes.h - dojo passes ----------------------------------*- C++ -*-===//
#ifndef PERFDOJO_DIALECT_DOJO_TRANSFORMS_PASSES_H
#define PERFDOJO_DIALECT_DOJO_TRANSFORMS_PASSES_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"

#include "mlir/Pass/Pass.h"

namespace perfdojo::dojo {

#define GEN_PASS_DECL
#include "perfdojo/Dialect/Dojo/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "perfdojo/Dialect/Dojo/Transforms/Passes.h.inc"

} // namespace perfdojo::dojo

#endif // PERFDOJO_DIALECT_DOJO_TRANSFORMS_PASSES_H
