//===- ReuseInvariant.cpp - the `:N` invariant NM2-NM4 --------------------===//
//
// A dimension k of an internal buffer may be non-materialized (all its slots
// share storage) when no value ever crosses from one slot to another
// (docs/moves.md 3.1):
//   NM2  with r the deepest depth any dim-k index uses, every access to the
//        buffer sits below depth r; its ancestor at depth r is its reuse
//        scope;
//   NM3  inside one reuse scope all dim-k indices are identical;
//   NM4  every read (and the read half of a reduction) is covered by an
//        earlier plain write in the same reuse-scope iteration
//        (findUncoveredRead, shared with privatization).
// NM1 (the buffer is internal) is the buffer op's own verifier.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Analysis/KernelInvariants.h"
#include "perfdojo/Analysis/Privatization.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

std::optional<InvariantViolation>
perfdojo::findReusedDimViolation(KernelOp kernel, BufferOp buffer,
                                 unsigned k) {
  auto violation = [&](std::string reason, Location loc, StringRef what) {
    InvariantViolation v{InvariantRule::ReusedDimension, buffer,
                         "dimension " + std::to_string(k) + " of '" +
                             buffer.getName().str() + "'",
                         std::move(reason)};
    v.notes.push_back({loc, what.str()});
    return v;
  };
  std::string name = buffer.getName().str();
  std::vector<BufferAccess> accesses = collectBufferAccesses(kernel, buffer);

  // NM2: the reuse depth r is the deepest depth any dim-k index uses.
  int r = -1;
  for (const BufferAccess &a : accesses)
    r = std::max(r, static_cast<int>(a.indices[k].coeffs.size()) - 1);
  if (r < 0) {
    // Every dim-k index is a constant: legal only if it is one slot.
    for (const BufferAccess &a : accesses)
      if (a.indices[k].constant != accesses.front().indices[k].constant)
        return violation("dimension " + std::to_string(k) +
                             " is indexed by different constants, which "
                             "would share one slot",
                         a.leaf->getLoc(), "this access");
    return std::nullopt;
  }
  for (const BufferAccess &a : accesses)
    if (static_cast<int>(getNodeDepth(a.leaf)) <= r)
      return violation("an access sits outside the reuse scope at depth " +
                           std::to_string(r) + " (NM2)",
                       a.leaf->getLoc(), "this leaf");

  // NM3: one dim-k index per reuse scope.
  llvm::DenseMap<Operation *, const BufferAccess *> firstInScope;
  for (const BufferAccess &a : accesses) {
    Operation *rho = getAncestorAtDepth(a.leaf, r);
    auto [it, inserted] = firstInScope.try_emplace(rho, &a);
    const LinearForm &mine = a.indices[k], &theirs = it->second->indices[k];
    if (!inserted &&
        (mine.coeffs != theirs.coeffs || mine.constant != theirs.constant)) {
      InvariantViolation v = violation(
          "two accesses in one reuse scope index dimension " +
              std::to_string(k) + " differently, so they would share a slot "
              "(NM3)",
          it->second->leaf->getLoc(), "this access");
      v.notes.push_back({a.leaf->getLoc(), "and this one"});
      return v;
    }
  }

  // NM4: every read is covered by an earlier write in the same iteration.
  if (const BufferAccess *read = findUncoveredRead(accesses, r))
    return violation("a read of '" + name +
                         "' is not covered by an earlier write in the same "
                         "iteration of its reuse scope at depth " +
                         std::to_string(r) +
                         ", so it would see another slot's value (NM4)",
                     read->leaf->getLoc(), "the read");
  return std::nullopt;
}
