//===- MoveKinds.h - the move kinds of lib/Moves ----------------*- C++ -*-===//
//
// Private to lib/Moves: one accessor per move kind, defined in that move's
// file. Move.cpp lists them in catalogue order.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_LIB_MOVES_MOVEKINDS_H
#define PERFDOJO_LIB_MOVES_MOVEKINDS_H

#include "perfdojo/Moves/Move.h"
#include "perfdojo/Moves/Selector.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"

namespace perfdojo {
namespace moves {
const Move *getSplitScopeMove();
const Move *getMergeScopesMove();
const Move *getSwapNestedScopesMove();
const Move *getSwapSiblingsMove();
const Move *getJoinScopesMove();
const Move *getSplitOffMove();
const Move *getReuseDimsMove();
const Move *getMaterializeDimsMove();
const Move *getSetUnrollMove();
const Move *getSetParallelMove();
const Move *getSetVectorMove();
const Move *getSetGpuGridMove();
const Move *getSetGpuBlockMove();
const Move *getSetGpuWarpMove();
const Move *getClearModeMove();

/// Resolves `request.location` as a node selector; on failure fills `diag`.
mlir::Operation *resolveNodeOrFail(MoveState &state,
                                   const MoveRequest &request,
                                   mlir::Location errorLoc,
                                   mlir::DiagnosedSilenceableFailure &diag);
/// Checks the parameter count of `request`; on failure fills `diag`.
bool expectParams(const MoveRequest &request, unsigned count,
                  mlir::Location errorLoc,
                  mlir::DiagnosedSilenceableFailure &diag);
/// A silenceable failure at `errorLoc` whose message starts with the request.
mlir::DiagnosedSilenceableFailure fail(const MoveRequest &request,
                                       mlir::Location errorLoc,
                                       const llvm::Twine &message);

/// Post-verification of the `:N` marks: every non-materialized dimension of
/// `kernel` still satisfies the invariant NM2-NM4 (docs/moves.md). A failure
/// blames `request`, the move that produced `kernel`.
mlir::DiagnosedSilenceableFailure verifyReusedDims(dojo::KernelOp kernel,
                                                   const MoveRequest &request,
                                                   mlir::Location errorLoc);

/// Rewrites every index (output, operand accesses, index values) of every
/// leaf under `root` (inclusive) through `fn`.
void rewriteIndices(mlir::Operation *root,
                    llvm::function_ref<LinearForm(const LinearForm &)> fn);

/// Calls `fn` on every index form of every leaf under `root`; stops and
/// returns false as soon as `fn` does.
bool allIndices(mlir::Operation *root,
                llvm::function_ref<bool(const LinearForm &)> fn);

/// Every scope of the kernel in pre-order.
llvm::SmallVector<dojo::ScopeOp> collectScopes(dojo::KernelOp kernel);
} // namespace moves
} // namespace perfdojo

#endif // PERFDOJO_LIB_MOVES_MOVEKINDS_H
