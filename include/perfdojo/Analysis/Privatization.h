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

/// The index forms of an access `map` of a leaf whose enclosing scopes have
/// `sizes`, the variables of its size-1 scopes dropped (they are always 0,
/// so an index using one is the constant it is, and two accesses that
/// differ only there agree).
llvm::SmallVector<LinearForm, 4> getAccessForms(mlir::AffineMap map,
                                                llvm::ArrayRef<int64_t> sizes);

/// Every access to any array of `buffer`, in execution order (the output of
/// a leaf before its operands). The read half of a reduction is a read.
std::vector<BufferAccess> collectBufferAccesses(dojo::KernelOp kernel,
                                                dojo::BufferOp buffer);

/// Whether the plain write `write` writes, in every iteration of the scopes
/// it shares with `read`, every element `read` reads there: the index forms
/// agree on the shared depths, and per iteration the write's box is dense
/// (its fresh variables form a mixed-radix number) and contains the read's.
bool coversRead(const BufferAccess &write, const BufferAccess &read);

/// Whether `writes` (plain writes) write together, in every iteration of
/// the scopes they share with `read`, every element `read` reads there:
/// among the writes sharing equally many scopes with it, in one dimension
/// the ranges of those that contain the read's range in every other
/// dimension join over the read's (one write covering it alone, as
/// coversRead; the two parts of a copy cut_scope split; each write dense
/// as above).
bool coverReadTogether(llvm::ArrayRef<const BufferAccess *> writes,
                       const BufferAccess &read);

/// The first read among `accesses` (all to one buffer, in execution order)
/// that is NOT covered within one iteration of the scope at depth `depth`
/// on its path: no earlier plain write in the same iteration of that scope
/// (sharing more than `depth` scopes with the read) covers it, alone or
/// together with others (coverReadTogether). Null if every
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
///   5. for reg and gpu_local under a GPU scope pi (a register belongs to
///      one thread): either no other GPU scope lies between pi and any
///      access (pi is the innermost thread coordinate of every access), or
///      every thread owns its elements across the phases of pi
///      (findThreadDims: the thread scopes between pi and each access are
///      the same and each indexes a dimension of its own by its bare
///      variable, so no thread touches another's elements).
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

/// The privatization decision with the thread ownership it relies on.
struct Privatization {
  /// getPrivatizingScope's answer: each iteration of it has its own copy;
  /// null where the buffer is shared.
  dojo::ScopeOp scope;
  /// Where threads of several phases of `scope` own the buffer's elements
  /// (rule 5's second case): the dimension each thread scope between
  /// `scope` and the accesses indexes, outermost thread scope first (none
  /// for a size-1 scope). A thread then stores only its own elements,
  /// those whose dimensions here are its coordinates: a per-thread
  /// accumulator that lives across the barriers of a tiled GEMM. Empty
  /// otherwise.
  llvm::SmallVector<std::optional<unsigned>, 2> threadDims;
  /// Whether dimension `d` is one a thread owns (not stored per thread).
  bool isThreadDim(unsigned d) const {
    return llvm::is_contained(threadDims, std::optional<unsigned>(d));
  }
};
Privatization getPrivatization(
    dojo::KernelOp kernel, dojo::BufferOp buffer,
    std::optional<dojo::BufferLocation> location = std::nullopt);

/// Rule 5's ownership test for accesses under the GPU scope `scope`: the
/// thread scopes (`:b`, `:w`) between `scope` and every access are the same
/// sequence (modes and sizes), and the i-th of them indexes the same
/// dimension d_i of the buffer in every access by its variable alone
/// (coefficient 1, no other term), a different dimension for each i and
/// none for a size-1 scope, and materialized (a `:N` dimension is one
/// element for all threads); no `:g` scope lies between. Returns the d_i,
/// or none where the accesses fail the test. An empty result means no
/// thread scope lies between.
std::optional<llvm::SmallVector<std::optional<unsigned>, 2>>
findThreadDims(dojo::BufferOp buffer, llvm::ArrayRef<BufferAccess> accesses,
               dojo::ScopeOp scope);

} // namespace perfdojo

#endif // PERFDOJO_ANALYSIS_PRIVATIZATION_H
