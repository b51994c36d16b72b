//===- MoveScript.h - move scripts <-> Transform dialect IR ---*- C++ -*-===//
//
// A move script is the text `perfdojo-opt --dojo-apply` takes: moves
// separated by `;` or newlines, `#` comments. The same script as transform
// IR is a `@__transform_main` sequence of `transform.dojo.<move>` ops on the
// kernels of the payload, runnable by `--transform-interpreter`. Both
// directions are lossless: script -> IR -> script gives the script back in
// canonical form (one move per line).
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TARGET_MOVESCRIPT_MOVESCRIPT_H
#define PERFDOJO_TARGET_MOVESCRIPT_MOVESCRIPT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace perfdojo {

/// Builds the transform module of the script in `sourceMgr`'s main buffer.
/// Unknown moves are errors at their line and column.
mlir::OwningOpRef<mlir::ModuleOp>
importMoveScript(llvm::SourceMgr &sourceMgr, mlir::MLIRContext *context);

/// Prints the moves of every `transform.dojo.<move>` op in `op`, one per
/// line, in order.
mlir::LogicalResult exportMoveScript(mlir::Operation *op,
                                     llvm::raw_ostream &os);

/// Registers `--moves-to-transform` and `--transform-to-moves`.
void registerMoveScriptTranslations();

} // namespace perfdojo

#endif // PERFDOJO_TARGET_MOVESCRIPT_MOVESCRIPT_H
