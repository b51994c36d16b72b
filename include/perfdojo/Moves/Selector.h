//===- Selector.h - naming locations in a scope tree ----------*- C++ -*-===//
//
// Locations are human-readable and unambiguous in the current tree:
//
//   a        the leaf that writes array `a` (`a#k`: the k-th such leaf in
//            execution order, needed when several leaves write `a`)
//   a@d      the node at depth d on the path from the root to leaf `a`:
//            its enclosing scope for d < depth(a), the leaf for d = depth(a)
//   b.k      dimension k of buffer b
//
// Printing picks, for a node, the first leaf below it, so the selector of a
// node printed by enumeration resolves back to the same node.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_MOVES_SELECTOR_H
#define PERFDOJO_MOVES_SELECTOR_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"

#include "llvm/Support/Error.h"

namespace perfdojo {

/// The canonical selector `a@d` / `a#k@d` of a scope or leaf.
std::string getNodeSelector(mlir::Operation *node);

/// `a@d` / `a#k@d` naming the node at `depth` on the path of `leaf`.
std::string getPathSelector(dojo::LeafOp leaf, unsigned depth);

/// The first leaf (in execution order) of a scope or leaf.
dojo::LeafOp getFirstLeaf(mlir::Operation *node);

/// Resolves `a@d`, `a#k@d`, `a` or `a#k` to a scope or leaf.
llvm::Expected<mlir::Operation *> resolveNode(dojo::KernelOp kernel,
                                              llvm::StringRef selector);

/// Resolves `b.k` to a buffer and a dimension.
llvm::Expected<std::pair<dojo::BufferOp, unsigned>>
resolveBufferDim(dojo::KernelOp kernel, llvm::StringRef selector);

/// `b.k`.
std::string getBufferDimSelector(dojo::BufferOp buffer, unsigned dim);

/// One line of a move script without its comment. A `#` starts a comment
/// unless it directly follows a name character, as in the selector `a#k`:
/// `join_scopes m#0@0  # fuse` keeps `join_scopes m#0@0  `.
llvm::StringRef stripScriptComment(llvm::StringRef line);

} // namespace perfdojo

#endif // PERFDOJO_MOVES_SELECTOR_H
