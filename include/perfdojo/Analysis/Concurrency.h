//===- Concurrency.h - which instances run concurrently -------*- C++ -*-===//
//
// A concurrent scope (`:p`, `:v`, `:g`, `:b`, `:w`) is legal iff no two of
// its instances that may run at the same time conflict. This header states,
// once, which pairs those are, as a query for the dependence test
// (Dependence.h), and the launch-shape rule of GPU blocks. The moves'
// legality checks and their post-verification both use it.
//
// The GPU `:b` phase rule (design E4 G2/G3, invariant V15): inside a kernel
// (the subtree of an outermost `:g` scope) each subtree rooted at an
// outermost `:b` scope is a *phase*. A code generator emits a block barrier
// between consecutive phases and at the end of every iteration of a
// sequential scope of the kernel that holds more than one phase; inside a
// phase there is none. So:
//   * two instances in different phases are ordered by a barrier and never
//     race;
//   * two instances of one phase on different threads race if they
//     conflict, whatever the iterations of the sequential (or `:u`) scopes
//     between the grid and the phase: a sequential scope holding only this
//     phase has no barrier, and one holding several only orders iterations
//     of different phases;
//   * every phase of a kernel has the same `:b` sizes (one block shape per
//     launch, no guards).
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_ANALYSIS_CONCURRENCY_H
#define PERFDOJO_ANALYSIS_CONCURRENCY_H

#include "perfdojo/Analysis/Dependence.h"

namespace perfdojo {

/// The pairs of instances of a concurrent scope that may run at the same
/// time: NODEP(leaves, leaves | relations) is its legality condition.
struct ConcurrencyQuery {
  llvm::SmallVector<dojo::LeafOp> leaves;
  llvm::SmallVector<DepthRelation, 8> relations;
};

/// The query of the concurrent scope `scope` at depth d.
///   `:p :g :w`     the leaves of the scope; x_<d = y_<d, x_d != y_d.
///   `:b`           the phase rule: the leaves of the scope's phase (its
///                  outermost `:b` ancestor, or itself) that have a `:b`
///                  scope at depth d; x_d != y_d; equal grid and outer `:b`
///                  coordinates and equal host iterations, but any
///                  iterations of the plain and `:u` scopes inside the
///                  kernel (no barrier orders them within one phase).
ConcurrencyQuery getConcurrencyQuery(dojo::ScopeOp scope);

/// The lanes of a `:v` scope run its single leaf as one SIMD operation:
/// every lane reads its operands before any lane writes, writes land in lane
/// order (to one element, the last lane wins) and reductions into one
/// element combine as a tree. So the lanes keep the sequential result unless
/// a lane reads an element that an earlier lane writes or reduces into, or,
/// without reassociation, lanes reduce into one element. The first such
/// pair of accesses (earlier lane first), or nullopt. This, not the query
/// above, is the race-freedom condition of `:v`.
std::optional<Conflict> findLaneConflict(DependenceAnalysis &deps,
                                         dojo::ScopeOp vectorScope,
                                         bool reassociate);

/// The phase of a `:b` scope: its outermost `:b` ancestor, or itself.
dojo::ScopeOp getPhaseRoot(dojo::ScopeOp blockScope);

/// Whether `scope`'s body is one reduction leaf whose output index does not
/// use `scope`'s variable: its iterations reduce into one element.
bool reducesAcross(dojo::ScopeOp scope);

/// Whether the `:b` scope `scope` is a *block reduction*: its phase is one
/// reduction leaf, directly in `scope`, whose output index does not use
/// `scope`'s variable, so the scope's threads reduce into one element. They
/// combine their terms as a tree (a code generator's warp shuffles), which
/// reorders the reduction as privatization does: legal under the reduction
/// policy, the only pairs of the phase allowed to conflict (same-operator
/// reductions into one element), race-free otherwise like every phase.
bool isBlockReduction(dojo::ScopeOp scope);

/// Two leaves of one kernel whose `:b` sizes (outermost first) disagree.
struct BlockShapeMismatch {
  dojo::LeafOp leaf, other;
  llvm::SmallVector<int64_t, 3> shape, otherShape;
  /// "[4] in one phase and [8] in another".
  std::string describe() const;
};

/// The first pair of leaves of `kernel` under one outermost `:g` scope whose
/// block shapes (the sizes of their `:b` ancestors) differ, or nullopt.
/// One shape may be a prefix of the other: moves set one `:b` scope at a
/// time, so a phase whose inner `:b` is not set yet agrees with a complete
/// one; leaves without a `:b` ancestor are not mapped yet and agree too.
std::optional<BlockShapeMismatch> findBlockShapeMismatch(dojo::KernelOp kernel);

} // namespace perfdojo

#endif // PERFDOJO_ANALYSIS_CONCURRENCY_H
