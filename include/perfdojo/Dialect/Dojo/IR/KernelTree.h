//===- KernelTree.h - navigating a scope tree and its accesses --*- C++ -*-===//
//
// The one implementation of the questions every layer asks of a tree: the
// iteration box of a leaf, the ancestor at a depth, the scopes two leaves
// share, the scopes and leaves in execution order, and every access to a
// buffer. The verifier, the analyses, the moves, the lowerings and the
// search all use these; none walks the tree its own way for them.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_DIALECT_DOJO_IR_KERNELTREE_H
#define PERFDOJO_DIALECT_DOJO_IR_KERNELTREE_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"

#include <optional>
#include <string>

namespace perfdojo {

/// The deepest scope nesting a kernel may have: a bound of the IR
/// (docs/ir.md, "Bounds"). A leaf may sit under at most this many scopes.
/// The importer refuses deeper text while reading it, the verifier deeper
/// MLIR, and a move that would nest deeper is refused. The bound keeps
/// every recursive walk of the tree (MLIR's parser, printer and op walks,
/// the lowering, the interpreter) far inside an 8 MiB stack.
constexpr unsigned kMaxScopeDepth = 256;
/// Why a scope with `enclosing` scopes around it (the outermost has 0)
/// breaks the nesting bound, e.g. "scope nesting depth 257 exceeds the
/// limit of 256"; nullopt within the bound.
std::optional<std::string> findScopeDepthViolation(uint64_t enclosing);
/// Scopes enclosing `node`, counted up to `limit` only: the walk stops
/// there, so checking the bound costs O(limit) on any tree.
unsigned countEnclosingScopes(mlir::Operation *node, unsigned limit);
/// Scopes on the longest downward path from `node` through its subtree,
/// `node` included when it is a scope (0 for a leaf). Iterative.
unsigned getSubtreeScopeHeight(mlir::Operation *node);

/// Number of scopes enclosing `node` (a scope or a leaf): its depth.
unsigned getNodeDepth(mlir::Operation *node);
/// Sizes of the scopes enclosing `leaf`, outermost first (its box).
llvm::SmallVector<int64_t, 8> getLeafBoxSizes(dojo::LeafOp leaf);
/// The scopes enclosing `node` (a scope or a leaf), outermost first.
llvm::SmallVector<dojo::ScopeOp, 8> getEnclosingScopes(mlir::Operation *node);
/// The ancestor of `node` at `depth` (the node itself at its own depth).
mlir::Operation *getAncestorAtDepth(mlir::Operation *node, unsigned depth);
/// Number of scopes enclosing both `a` and `b`.
unsigned getCommonScopeCount(dojo::LeafOp a, dojo::LeafOp b);
/// Every scope of the kernel in pre-order (execution order of headers).
llvm::SmallVector<dojo::ScopeOp> collectScopes(dojo::KernelOp kernel);
/// Leaves of the subtree rooted at `op` (a kernel, scope or leaf), in
/// execution order.
llvm::SmallVector<dojo::LeafOp> collectLeaves(mlir::Operation *op);

/// One access to an array of a buffer: the output (operand -1) or an input.
struct ArrayAccess {
  dojo::LeafOp leaf;
  int operand = -1;
  llvm::SmallVector<LinearForm, 4> indices;
  bool isOutput() const { return operand < 0; }
};
/// Every access to any array of `buffer`, in execution order (a leaf's
/// output before its operands).
llvm::SmallVector<ArrayAccess> collectArrayAccesses(dojo::KernelOp kernel,
                                                    dojo::BufferOp buffer);

} // namespace perfdojo

#endif // PERFDOJO_DIALECT_DOJO_IR_KERNELTREE_H
