//===- Concurrency.cpp - which instances run concurrently -----------------===//
//
// See Concurrency.h: the query each concurrent mode hands the dependence
// test (with the GPU `:b` phase rule) and the one-block-shape rule.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Analysis/Concurrency.h"
#include "perfdojo/Analysis/Privatization.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

ScopeOp perfdojo::getPhaseRoot(ScopeOp blockScope) {
  ScopeOp root = blockScope;
  for (auto p = blockScope->getParentOfType<ScopeOp>(); p;
       p = p->getParentOfType<ScopeOp>())
    if (p.getMode() == Mode::gpu_block)
      root = p;
  return root;
}

bool perfdojo::reducesAcross(ScopeOp scope) {
  if (!llvm::hasSingleElement(scope.getBlock()))
    return false;
  auto leaf = dyn_cast<LeafOp>(scope.getBlock().front());
  return leaf && leaf.getReduce() != ReduceKind::none &&
         !getUsedDepths(leaf.getIndices(), leaf.getDepth())
              .test(scope.getDepth());
}

bool perfdojo::isBlockReduction(ScopeOp scope) {
  if (scope.getMode() != Mode::gpu_block || !reducesAcross(scope))
    return false;
  // Outer `:b` scopes of the phase hold nothing else.
  for (ScopeOp p = scope; p != getPhaseRoot(scope);
       p = p->getParentOfType<ScopeOp>())
    if (!llvm::hasSingleElement(p->getParentOfType<ScopeOp>().getBlock()))
      return false;
  return true;
}

/// Whether `scope` is a plain or `:u` scope inside a kernel (below a `:g`
/// scope): its iterations run one after the other on each thread, with no
/// barrier between them unless they hold several phases.
static bool isSequentialInKernel(ScopeOp scope) {
  if (scope.getMode() != Mode::seq && scope.getMode() != Mode::unroll)
    return false;
  for (auto p = scope->getParentOfType<ScopeOp>(); p;
       p = p->getParentOfType<ScopeOp>())
    if (p.getMode() == Mode::gpu_grid)
      return true;
  return false;
}

ConcurrencyQuery perfdojo::getConcurrencyQuery(ScopeOp scope) {
  ConcurrencyQuery query;
  unsigned d = scope.getDepth();
  query.relations.assign(d, DepthRelation::Equal);
  query.relations.push_back(DepthRelation::NotEqual);
  if (scope.getMode() != Mode::gpu_block) {
    query.leaves = collectLeaves(scope);
    return query;
  }
  // Threads of one phase: its leaves that run under a `:b` scope at depth
  // d, whichever sibling `:b` subtree of the phase holds them (no barrier
  // separates sub-phases inside a phase).
  for (LeafOp leaf : collectLeaves(getPhaseRoot(scope))) {
    auto atDepth = dyn_cast<ScopeOp>(getAncestorAtDepth(leaf, d));
    if (atDepth && atDepth.getMode() == Mode::gpu_block)
      query.leaves.push_back(leaf);
  }
  // A sequential scope of the kernel on any of their paths orders nothing
  // between threads of the phase: its iterations are unconstrained.
  for (LeafOp leaf : query.leaves)
    for (unsigned k = 0; k < d; ++k)
      if (isSequentialInKernel(cast<ScopeOp>(getAncestorAtDepth(leaf, k))))
        query.relations[k] = DepthRelation::Any;
  return query;
}

/// Sizes of the `:b` scopes enclosing `leaf`, outermost first.
static SmallVector<int64_t, 3> getBlockShape(LeafOp leaf) {
  SmallVector<int64_t, 3> shape;
  for (auto p = leaf->getParentOfType<ScopeOp>(); p;
       p = p->getParentOfType<ScopeOp>())
    if (p.getMode() == Mode::gpu_block)
      shape.insert(shape.begin(), p.getSize());
  return shape;
}

std::string BlockShapeMismatch::describe() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto print = [&](ArrayRef<int64_t> s) {
    os << "[";
    llvm::interleaveComma(s, os);
    os << "]";
  };
  print(shape);
  os << " in one phase and ";
  print(otherShape);
  os << " in another";
  return text;
}

std::optional<BlockShapeMismatch>
perfdojo::findBlockShapeMismatch(KernelOp kernel) {
  // Group the mapped leaves by kernel (outermost `:g` scope).
  llvm::MapVector<Operation *, SmallVector<LeafOp>> kernels;
  kernel.walk([&](LeafOp leaf) {
    ScopeOp grid;
    for (auto p = leaf->getParentOfType<ScopeOp>(); p;
         p = p->getParentOfType<ScopeOp>())
      if (p.getMode() == Mode::gpu_grid)
        grid = p;
    if (grid)
      kernels[grid].push_back(leaf);
  });
  for (auto &[grid, leaves] : kernels) {
    // Every shape must be a prefix of the longest one.
    LeafOp longest;
    SmallVector<int64_t, 3> longestShape;
    for (LeafOp leaf : leaves) {
      SmallVector<int64_t, 3> shape = getBlockShape(leaf);
      if (!longest || shape.size() > longestShape.size()) {
        longest = leaf;
        longestShape = shape;
      }
    }
    for (LeafOp leaf : leaves) {
      SmallVector<int64_t, 3> shape = getBlockShape(leaf);
      if (ArrayRef<int64_t>(longestShape).take_front(shape.size()) ==
          ArrayRef<int64_t>(shape))
        continue;
      return BlockShapeMismatch{leaf, longest, shape, longestShape};
    }
  }
  return std::nullopt;
}

std::optional<Conflict> perfdojo::findLaneConflict(DependenceAnalysis &deps,
                                                   ScopeOp vectorScope,
                                                   bool reassociate) {
  Block &body = vectorScope.getBlock();
  auto leaf = dyn_cast<LeafOp>(body.front());
  if (!leaf || !llvm::hasSingleElement(body))
    return std::nullopt; // the mode rules (ModeRules.h) report it
  const LeafAccesses &accesses = deps.getLeafAccesses(leaf);
  // x runs in an earlier lane than y, in the same iteration of every
  // enclosing scope.
  SmallVector<DepthRelation, 8> earlierLane(vectorScope.getDepth(),
                                            DepthRelation::Equal);
  earlierLane.push_back(DepthRelation::Less);
  DependenceOptions ordering{reassociate, /*concurrency=*/false};
  for (const PhysicalAccess &out : accesses.accesses) {
    if (out.kind == AccessKind::Read)
      continue;
    for (const PhysicalAccess &other : accesses.accesses) {
      // Writes to one element land in lane order: only reads of what an
      // earlier lane produced, and reductions when they may not be
      // reordered, change the result.
      bool laterRead = other.kind == AccessKind::Read;
      bool reductions = &other == &out && out.kind == AccessKind::Reduce;
      if (!laterRead && !reductions)
        continue;
      if (deps.mayConflict(accesses, out, accesses, other, earlierLane,
                           ordering))
        return Conflict{leaf, leaf, &out, &other};
    }
  }
  return std::nullopt;
}
