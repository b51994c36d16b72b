//===- PhysicalLayout.h - where a buffer's elements are stored --*- C++ -*-===//
//
// The one statement of a buffer's storage: row-major over the allocated
// extents (shape plus padding), a `:N` dimension adds no storage (stride 0).
// The interpreter, the lowering, the `:v` lane rule and the buffer moves all
// compute addresses from these functions.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_DIALECT_DOJO_IR_PHYSICALLAYOUT_H
#define PERFDOJO_DIALECT_DOJO_IR_PHYSICALLAYOUT_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"

#include <optional>
#include <string>

namespace perfdojo {

/// Row-major element strides of `buffer`'s dimensions over the allocated
/// extents; 0 for `:N` dimensions. Saturates at INT64_MAX.
llvm::SmallVector<int64_t, 4> getElementStrides(dojo::BufferOp buffer);
/// The element offset of an access with index `forms` (one per dimension of
/// `buffer`) from the buffer's first element: an affine form over the scope
/// depths, each index weighted by its dimension's element stride
/// (saturating).
LinearForm getElementOffset(dojo::BufferOp buffer,
                            llvm::ArrayRef<LinearForm> forms);
/// How many elements an access with index `forms` (one per dimension of
/// `buffer`) moves when the variable of depth `depth` grows by one
/// (saturating: a coefficient of a size-1 scope may be any integer): the
/// coefficient of `depth` in getElementOffset.
int64_t getStrideAlong(dojo::BufferOp buffer,
                       llvm::ArrayRef<LinearForm> forms, unsigned depth);
/// Allocated storage of `buffer` in elements: the product of the allocated
/// extents of its materialized dimensions (saturating at INT64_MAX).
int64_t getStorageElements(dojo::BufferOp buffer);
/// Logical elements of `buffer`: the product of its shape (saturating).
int64_t getLogicalElements(dojo::BufferOp buffer);
/// Bytes of one element of `elementType`: its bits rounded up to whole
/// bytes, at least 1 (a bool is stored one byte per element).
int64_t getElementBytes(mlir::Type elementType);
/// Bytes of one element of `buffer` (at least 1).
int64_t getElementBytes(dojo::BufferOp buffer);
/// Why a buffer called `name`, of `elementBytes`-byte elements and these
/// extents, has no layout in 64-bit byte offsets: an allocated extent (size
/// plus padding) or the bytes of its materialized storage beyond the int64
/// range; nullopt if it has one. The verifier holds every buffer to it, and
/// a move that changes a buffer's extents checks its result with it before
/// rewriting anything (checked arithmetic: nothing wraps).
std::optional<std::string> findLayoutOverflow(llvm::StringRef name,
                                              int64_t elementBytes,
                                              llvm::ArrayRef<int64_t> shape,
                                              llvm::ArrayRef<int64_t> padding,
                                              llvm::ArrayRef<bool> reused);

} // namespace perfdojo

#endif // PERFDOJO_DIALECT_DOJO_IR_PHYSICALLAYOUT_H
