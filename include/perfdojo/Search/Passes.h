//===- Passes.h - the optimizing passes ------------------------*- C++ -*-===//
#ifndef PERFDOJO_SEARCH_PASSES_H
#define PERFDOJO_SEARCH_PASSES_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"

#include "mlir/Pass/Pass.h"

namespace perfdojo {

#define GEN_PASS_DECL
#include "perfdojo/Search/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "perfdojo/Search/Passes.h.inc"

} // namespace perfdojo

#endif // PERFDOJO_SEARCH_PASSES_H
