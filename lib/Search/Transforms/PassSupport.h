//===- PassSupport.h - what the optimizing passes share ---------*- C++ -*-===//
#ifndef PERFDOJO_LIB_SEARCH_TRANSFORMS_PASSSUPPORT_H
#define PERFDOJO_LIB_SEARCH_TRANSFORMS_PASSSUPPORT_H

#include "perfdojo/Dialect/Dojo/IR/TargetDescription.h"
#include "perfdojo/Moves/Move.h"

namespace perfdojo {

/// The target a pass's `target` option names; an error on `kernel` listing
/// the known names otherwise.
std::optional<TargetDescription> lookupTargetOption(dojo::KernelOp kernel,
                                                    llvm::StringRef name);

/// Runs `transform` on every kernel at or below `root`, kernels in
/// parallel where the context allows; fails if any kernel failed.
mlir::LogicalResult
forEachKernel(mlir::Operation *root,
              llvm::function_ref<mlir::LogicalResult(dojo::KernelOp)> transform);

} // namespace perfdojo

#endif // PERFDOJO_LIB_SEARCH_TRANSFORMS_PASSSUPPORT_H
