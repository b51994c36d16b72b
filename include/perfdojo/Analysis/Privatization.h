//===- Privatization.h - privatization of buffers by location -*- C++ -*-===//
//
// Where a buffer lives decides whether concurrent iterations share it
// (docs/moves.md, "Privatization by location"; the design's B8 and the
// priv(alpha, x) part of phys in its section 8). This header holds the ONE
// decision, getPrivatizingScope(), used by the dependence test and by code
// generation (which allocates a privatized buffer inside the returned
// scope's body), and the syntactic coverage check it shares with the `:N`
// invariant (NM4).
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_ANALYSIS_PRIVATIZATION_H
#define PERFDOJO_ANALYSIS_PRIVATIZATION_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"

#include <vector>

namespace perfdojo {

/// One access to an array of a buffer, as the coverage checks see it.
struct BufferAccess {
  dojo::LeafOp leaf;
  /// The output access (a plain write or a reduction) or an operand read.
  bool writes = false, reads = false, plainWrite = false;
  /// One form per dimension of the buffer (materialized or not). Variables
  /// of size-1 scopes are dropped: they are always 0.
  llvm::SmallVector<LinearForm, 4> indices;
  /// Position of the leaf in execution (text) order, from 1.
  unsigned order = 0;
};

/// Every access to any array of `buffer`, in execution order (the output of
/// a leaf before its operands). The read half of a reduction is a read.
std::vector<BufferAccess> collectBufferAccesses(dojo::KernelOp kernel,
                                                dojo::BufferOp buffer);

/// Whether the plain write `write` writes, in every iteration of the scopes
/// it shares with `read`, every element `read` reads there: the index forms
/// agree on the shared depths, and per iteration the write's box is dense
/// (its fresh variables form a mixed-radix number) and contains the read's.
bool coversRead(const BufferAccess &write, const BufferAccess &read);

/// The first read among `accesses` (all to one buffer, in execution order)
/// that is NOT covered within one iteration of the scope at depth `depth`
/// on its path: no earlier plain write in the same iteration of that scope
/// (sharing more than `depth` scopes with the read) covers it. Null if every
/// read is covered, i.e. no value flows into an iteration of that scope from
/// outside it. This is NM4 of the `:N` invariant and the coverage condition
/// of privatization.
const BufferAccess *findUncoveredRead(llvm::ArrayRef<BufferAccess> accesses,
                                      unsigned depth);

/// The privatization decision (design B8 / section 8 priv(alpha, x)).
///
/// Returns the scope pi such that `buffer` is private to each iteration of
/// pi (code generation allocates it inside pi's body, one copy per
/// iteration, thread or block), or a null scope if the buffer is shared.
/// The buffer is private to pi exactly when
///   1. it is internal (not a kernel argument), and
///   2. its location privatizes at all, with the modes that can privatize:
///        stack      `:p` scopes (per CPU parallel iteration);
///        reg        `:p`, `:g`, `:b`, `:w` (per CPU iteration or per GPU
///                   thread);
///        gpu_local  as reg;
///        gpu_shared `:g` scopes only (per GPU block);
///        heap, tcdm never (shared);
///   3. some leaf accesses it, and pi is the innermost scope with one of
///      those modes that encloses EVERY access to the buffer (all accesses
///      lie under pi); and
///   4. every read of it (including the read half of `+=`) is covered in
///      the same iteration of pi: findUncoveredRead(accesses, depth(pi)) is
///      null. So no value flows into an iteration of pi from another one,
///      and none leaves pi (nothing reads it outside pi); and
///   5. for reg and gpu_local under a GPU scope pi: no other GPU scope lies
///      between pi and any access (a register belongs to one thread, so pi
///      must be the innermost thread coordinate of every access).
/// If the innermost candidate pi fails 4 or 5, the buffer is shared (no
/// outer scope is tried).
/// A private buffer's physical address includes the coordinates of pi and
/// of every scope around it (a fresh copy per instance of pi's body), so
/// different iterations of pi never conflict on it.
/// `location`, when given, stands for the buffer's own: where the buffer
/// would be private if it lived there (a move's check before it moves it).
dojo::ScopeOp getPrivatizingScope(
    dojo::KernelOp kernel, dojo::BufferOp buffer,
    std::optional<dojo::BufferLocation> location = std::nullopt);

} // namespace perfdojo

#endif // PERFDOJO_ANALYSIS_PRIVATIZATION_H
