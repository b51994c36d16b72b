//===- Dependence.h - the shared dependence test over scope trees -*- C++ -*-===//
//
// One oracle answers every legality question of the move engine (see
// docs/moves.md, "The shared dependence test"): can an instance x of a leaf
// in X and an instance y of a leaf in Y touch the same *physical* element,
// with conflicting access kinds, under per-depth constraints on (x, y)?
//
// Physical means: arrays of one buffer share storage, `:N` dimensions are
// dropped (all their slots alias), materialized dimensions compare by their
// logical index, and a buffer privatized by its location (Privatization.h,
// getPrivatizingScope) adds the coordinates of its privatizing scope and of
// every scope around it, so instances in different iterations of that scope
// never touch the same copy. Kernel arguments never alias each other.
//
// Which pairs of instances a concurrent scope (`:p :v :g :b :w`) must keep
// apart, the GPU `:b` phase rule included, is Concurrency.h's query.
//
// The test is exact over the constant iteration boxes: cheap GCD and bounds
// filters first, then integer emptiness in MLIR's Presburger library. It
// fails closed: anything it cannot decide counts as a conflict.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_ANALYSIS_DEPENDENCE_H
#define PERFDOJO_ANALYSIS_DEPENDENCE_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"

#include "mlir/Analysis/Presburger/IntegerRelation.h"
#include "llvm/ADT/DenseMap.h"

namespace perfdojo {

/// Constraint between x_k and y_k, the variables of depth k of two instances.
enum class DepthRelation { Any, Equal, Less, Greater, NotEqual };

enum class AccessKind { Read, Write, Reduce };

/// One access of a leaf in physical form.
struct PhysicalAccess {
  AccessKind kind = AccessKind::Read;
  dojo::ReduceKind reduce = dojo::ReduceKind::none;
  /// Operand position (-1 for the output), for diagnostics.
  int operand = -1;
  /// The array as written, for diagnostics.
  llvm::StringRef array;
  /// The buffer whose storage the access touches.
  dojo::BufferOp buffer;
  /// Index forms of the buffer's materialized dimensions, in order.
  llvm::SmallVector<LinearForm, 4> indices;
  /// The buffer is private to each instance of the body of the scope at
  /// depth privateDepths-1 (getPrivatizingScope): two accesses to it touch
  /// the same copy only if x_k = y_k for all k < privateDepths. 0: shared.
  unsigned privateDepths = 0;
};

/// A leaf's iteration box and accesses.
struct LeafAccesses {
  dojo::LeafOp leaf;
  llvm::SmallVector<int64_t, 8> sizes;
  llvm::SmallVector<PhysicalAccess, 3> accesses;
};

struct DependenceOptions {
  /// Same-operator reductions into one element commute (REASSOC policy).
  bool reassociate = true;
  /// Concurrency mode (parallel/vector lanes): only read/read pairs are
  /// free; reductions race.
  bool concurrency = false;
  /// Use the cheap exact paths (interval and GCD filters, pruned box
  /// search) before the Presburger test. Off only in tests, which compare
  /// both (unittests/Analysis/DependenceTest.cpp).
  bool fastPaths = true;
};

/// A conflicting pair of instances found by the test.
struct Conflict {
  dojo::LeafOp first, second;
  const PhysicalAccess *firstAccess = nullptr, *secondAccess = nullptr;
  /// One line naming both accesses, e.g. "write of t[{0}] in leaf ... and
  /// read of t[{0}] in leaf ...".
  std::string describe() const;
};

/// The system every question of this header reduces to: instances x of X
/// and y of Y (each in its box) where access `a` at x and access `b` at y
/// touch the same physical element, with relations[k] between x_k and y_k.
/// Access kinds, reductions and privatization are the callers' business.
///
/// Whether the system has an integer point (the cheap exact filters first
/// unless `fastPaths` is off, then Presburger emptiness).
bool mayTouchSameElement(const LeafAccesses &x, const PhysicalAccess &a,
                         const LeafAccesses &y, const PhysicalAccess &b,
                         llvm::ArrayRef<DepthRelation> relations,
                         bool fastPaths = true);

/// The cheap exact paths alone (interval and GCD filters, the pruned
/// search): whether the system has an integer point, or nullopt where they
/// give up and mayTouchSameElement asks the (much slower) Presburger test.
std::optional<bool>
decideWithoutPresburger(const LeafAccesses &x, const PhysicalAccess &a,
                        const LeafAccesses &y, const PhysicalAccess &b,
                        llvm::ArrayRef<DepthRelation> relations);

/// The system as an integer set over (x_0, ..., x_nx-1, y_0, ..., y_ny-1),
/// for analyses that project or subtract it (Initialization.h). `relations`
/// must not hold NotEqual (a union: ask once with Less, once with Greater).
mlir::presburger::IntegerPolyhedron
getSameElementPairs(const LeafAccesses &x, const PhysicalAccess &a,
                    const LeafAccesses &y, const PhysicalAccess &b,
                    llvm::ArrayRef<DepthRelation> relations);

class DependenceAnalysis {
public:
  explicit DependenceAnalysis(dojo::KernelOp kernel);

  /// Accesses of `leaf` (computed on first use and cached; invalidate after
  /// the tree changes).
  const LeafAccesses &getLeafAccesses(dojo::LeafOp leaf);

  /// NODEP(xs, ys | relations): the first conflicting pair of instances, if
  /// any. `relations[k]` constrains depth k and must only name depths that
  /// enclose every leaf involved.
  std::optional<Conflict> findConflict(llvm::ArrayRef<dojo::LeafOp> xs,
                                       llvm::ArrayRef<dojo::LeafOp> ys,
                                       llvm::ArrayRef<DepthRelation> relations,
                                       DependenceOptions options = {});

  /// Whether two accesses of instances x, y under `relations` may touch the
  /// same physical element with conflicting kinds.
  bool mayConflict(const LeafAccesses &x, const PhysicalAccess &a,
                   const LeafAccesses &y, const PhysicalAccess &b,
                   llvm::ArrayRef<DepthRelation> relations,
                   DependenceOptions options);

  /// The scope `buffer` is private to (getPrivatizingScope, cached), or
  /// null if it is shared.
  dojo::ScopeOp getPrivatizingScope(dojo::BufferOp buffer);

  /// Drops cached accesses (call after a move changed the tree).
  void invalidate() {
    cache.clear();
    privatizing.clear();
  }

private:
  dojo::KernelOp kernel;
  llvm::DenseMap<mlir::Operation *, std::unique_ptr<LeafAccesses>> cache;
  llvm::DenseMap<mlir::Operation *, dojo::ScopeOp> privatizing;
};

} // namespace perfdojo

#endif // PERFDOJO_ANALYSIS_DEPENDENCE_H
