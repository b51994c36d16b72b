//===- KernelInvariants.cpp - the rules every kernel keeps ----------------===//

#include "perfdojo/Analysis/KernelInvariants.h"
#include "perfdojo/Analysis/SnitchRules.h"
#include "perfdojo/Analysis/Concurrency.h"
#include "perfdojo/Dialect/Dojo/IR/ModeRules.h"
#include "perfdojo/Dialect/Dojo/IR/PhysicalLayout.h"
#include "perfdojo/Dialect/Dojo/IR/TextSyntax.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

StringRef perfdojo::getInvariantRuleName(InvariantRule rule) {
  // Indexed by InvariantRule.
  static constexpr const char *names[] = {
      "the :N invariant", "register addressing", "vector access shape",
      "one block shape per GPU launch", "race freedom", "SSR streams",
      "FREP body"};
  return names[static_cast<unsigned>(rule)];
}

std::optional<InvariantViolation>
perfdojo::findVectorLaneViolation(ScopeOp scope) {
  // A body that is not one leaf breaks the mode rules (ModeRules.h), which
  // report it.
  auto leaf = dyn_cast<LeafOp>(scope.getBlock().front());
  if (!leaf || !llvm::hasSingleElement(scope.getBlock()))
    return std::nullopt;
  auto kernel = scope->getParentOfType<KernelOp>();
  unsigned d = scope.getDepth();
  // The output first, then every operand access, in the physical layout.
  SmallVector<std::pair<StringRef, AffineMap>, 3> accesses = {
      {leaf.getArray(), leaf.getIndices()}};
  for (Attribute input : leaf.getInputs())
    if (auto access = dyn_cast<AccessAttr>(input))
      accesses.push_back({access.getArray().getValue(), access.getIndices()});
  for (auto [i, access] : llvm::enumerate(accesses)) {
    auto [array, map] = access;
    int64_t stride =
        getStrideAlong(kernel.lookupArray(array), getIndexForms(map), d);
    bool isOutput = i == 0;
    if (stride == 1 || !isOutput)
      continue;
    InvariantViolation v{
        InvariantRule::VectorLanes, scope, "the leaf of the :v scope",
        (isOutput ? "the output '" : "operand '") + array.str() +
            "' moves by " + std::to_string(stride) +
            " element(s) per lane; " +
            (isOutput ? "vector stores need stride 1"
                      : "vector loads need stride 0 or 1")};
    v.notes.push_back({leaf.getLoc(), "the vector leaf"});
    return v;
  }
  return std::nullopt;
}

/// The phase of `leaf`: the subtree of its outermost `:b` ancestor.
static ScopeOp getPhaseOf(LeafOp leaf) {
  ScopeOp block;
  for (auto p = leaf->getParentOfType<ScopeOp>(); p && !block;
       p = p->getParentOfType<ScopeOp>())
    if (p.getMode() == Mode::gpu_block)
      block = p;
  return getPhaseRoot(block);
}

std::optional<InvariantViolation>
perfdojo::findBlockShapeViolation(KernelOp kernel) {
  std::optional<BlockShapeMismatch> mismatch = findBlockShapeMismatch(kernel);
  if (!mismatch)
    return std::nullopt;
  ScopeOp phase = getPhaseOf(mismatch->leaf),
          other = getPhaseOf(mismatch->other);
  InvariantViolation v{InvariantRule::BlockShape, phase,
                       "the phases of a GPU kernel",
                       "different :b sizes: " + mismatch->describe() +
                           " (a block has one shape per launch)"};
  v.notes.push_back({phase.getLoc(), "this phase"});
  v.notes.push_back({other.getLoc(), "the other phase"});
  return v;
}

std::optional<InvariantViolation>
perfdojo::findRaceViolation(DependenceAnalysis &deps, ScopeOp scope,
                            bool reassociate) {
  std::string subject = "the :" + getModeSuffix(scope.getMode()).str() +
                        " scope";
  std::optional<Conflict> conflict;
  std::string reason;
  if (scope.getMode() == Mode::vector) {
    conflict = findLaneConflict(deps, scope, reassociate);
    reason = "a lane would read what an earlier lane writes, but lanes read "
             "before they write";
    if (conflict && conflict->secondAccess->kind != AccessKind::Read)
      reason = "its lanes reduce into one element, which reorders the "
               "reduction (reassociation is off)";
  } else {
    // Concurrent reductions race whatever the reordering policy, except
    // the threads of a block reduction, which combine reductions into one
    // element as a tree (a reordering); every other conflict races.
    bool tree = isBlockReduction(scope);
    ConcurrencyQuery query = getConcurrencyQuery(scope);
    conflict = deps.findConflict(
        query.leaves, query.leaves, query.relations,
        tree ? DependenceOptions{reassociate, /*concurrency=*/false}
             : DependenceOptions{/*reassociate=*/true, /*concurrency=*/true});
    reason = tree ? "two of its threads conflict"
                  : "two of its iterations conflict";
    if (tree && conflict &&
        conflict->firstAccess->kind == AccessKind::Reduce &&
        conflict->secondAccess->kind == AccessKind::Reduce)
      reason = "its threads reduce into one element, which reorders the "
               "reduction (reassociation is off)";
  }
  if (!conflict)
    return std::nullopt;
  InvariantViolation v{InvariantRule::RaceFreedom, scope, subject,
                       reason + ": " + conflict->describe()};
  v.notes.push_back({conflict->first.getLoc(), "this leaf"});
  v.notes.push_back({conflict->second.getLoc(), "conflicts with this leaf"});
  return v;
}

std::optional<InvariantViolation>
perfdojo::findSnitchViolation(KernelOp kernel) {
  std::optional<InvariantViolation> found;
  kernel.walk([&](Operation *op) {
    if (auto leaf = dyn_cast<LeafOp>(op))
      found = findStreamViolation(leaf);
    else if (auto scope = dyn_cast<ScopeOp>(op);
             scope && scope.getMode() == Mode::frep)
      found = findFrepViolation(scope);
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

std::optional<InvariantViolation>
perfdojo::findKernelInvariantViolation(KernelOp kernel) {
  SmallVector<BufferOp> buffers(kernel.getBuffers());
  for (BufferOp buffer : buffers)
    for (auto [k, reused] : llvm::enumerate(buffer.getReused()))
      if (reused)
        if (auto v = findReusedDimViolation(kernel, buffer, k))
          return v;
  for (BufferOp buffer : buffers)
    if (buffer.getLocation() == BufferLocation::reg)
      if (auto v = findRegisterAddressingViolation(kernel, buffer))
        return v;
  if (auto v = findSnitchViolation(kernel))
    return v;
  SmallVector<ScopeOp> concurrent;
  for (ScopeOp scope : collectScopes(kernel))
    if (isConcurrentMode(scope.getMode()))
      concurrent.push_back(scope);
  if (concurrent.empty())
    return std::nullopt;
  if (auto v = findBlockShapeViolation(kernel))
    return v;
  DependenceAnalysis deps(kernel);
  for (ScopeOp scope : concurrent)
    if (auto v = findRaceViolation(deps, scope))
      return v;
  return std::nullopt;
}
