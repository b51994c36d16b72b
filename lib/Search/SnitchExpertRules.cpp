//===- SnitchExpertRules.cpp - the Snitch greedy and expert passes --------===//
//
// Every rule finds its sites on the current kernel, builds the move's
// request from stable selectors and applies it if legal; a site is tried
// once (the requests tried are remembered), so every loop ends.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Search/SnitchExpertRules.h"

#include "MoveRules.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"
#include "perfdojo/Target/Snitch/SnitchCore.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

bool perfdojo::isSnitchTarget(const TargetDescription &target) {
  return target.streamDataMovers > 0 && target.supports(Mode::frep) &&
         !target.supports(Mode::parallel);
}

namespace {

/// Applies the first untried request `next` proposes until it proposes
/// none: `next` sees the kernel as it is after the previous move.
void applyEach(Game &game,
               llvm::function_ref<std::optional<MoveRequest>(
                   const llvm::StringSet<> &tried)>
                   next) {
  llvm::StringSet<> tried;
  for (unsigned step = 0; step < 1000; ++step) {
    std::optional<MoveRequest> move = next(tried);
    if (!move)
      return;
    tried.insert(move->str());
    tryApply(game, *move);
  }
}

/// Whether the variable of depth `depth` occurs in the output index of
/// `leaf`.
bool outputUses(LeafOp leaf, unsigned depth) {
  for (const LinearForm &form : getIndexForms(leaf.getIndices()))
    if (form.coeff(depth) != 0)
      return true;
  return false;
}

/// The innermost plain scope around a reduction leaf that its output
/// index does not use: the reduction's loop.
ScopeOp getReductionScope(LeafOp leaf) {
  if (leaf.getReduce() == ReduceKind::none)
    return nullptr;
  auto scope = leaf->getParentOfType<ScopeOp>();
  if (!scope || scope.getMode() != Mode::seq ||
      outputUses(leaf, scope.getDepth()))
    return nullptr;
  return scope;
}

/// The outermost of the reduction loops nested perfectly around the
/// reduction's loop (a convolution's window, a full sum): the scope around
/// which the output element stays the same.
ScopeOp getOutermostReductionScope(LeafOp leaf) {
  ScopeOp scope = getReductionScope(leaf);
  while (scope) {
    auto parent = dyn_cast<ScopeOp>(scope->getParentOp());
    if (!parent || parent.getMode() != Mode::seq ||
        !llvm::hasSingleElement(parent.getBlock()) ||
        outputUses(leaf, parent.getDepth()))
      break;
    scope = parent;
  }
  return scope;
}


/// Moves `buffer` to registers if the register addressing rule allows.
void placeInRegisters(Game &game, llvm::StringRef buffer) {
  if (!buffer.empty())
    tryApply(game, makeMove(MoveKind::SetLocation, buffer.str(),
                            {int64_t(BufferLocation::reg)}));
}

/// A new temporary has its array's extents: reuse every dimension that
/// allows it (only the elements live at once keep storage), which also
/// makes it addressable in registers, then move it there.
void reuseAndPlaceInRegisters(Game &game, llvm::StringRef name) {
  if (name.empty())
    return;
  for (unsigned k = 0, e = game.getKernel().lookupArray(name).getRank(); k < e;
       ++k)
    tryApply(game,
             makeMove(MoveKind::ReuseDims,
                      getBufferDimSelector(game.getKernel().lookupArray(name),
                                           k)));
  placeInRegisters(game, name);
}

/// 1. Accumulators into registers: `promote a,N` around the reduction's
/// loop, then its copy to `reg`.
void promoteAccumulators(Game &game) {
  llvm::StringSet<> tried;
  for (unsigned step = 0; step < 1000; ++step) {
    std::optional<MoveRequest> found;
    game.getKernel().walk([&](LeafOp leaf) {
      ScopeOp scope = getOutermostReductionScope(leaf);
      BufferOp buffer = game.getKernel().lookupArray(leaf.getArray());
      if (!scope || buffer.getLocation() == BufferLocation::reg)
        return WalkResult::advance();
      MoveRequest move =
          makeMove(MoveKind::Promote,
                   (leaf.getArray() + "," + getNodeSelector(scope)).str());
      if (tried.contains(move.str()))
        return WalkResult::advance();
      found = move;
      return WalkResult::interrupt();
    });
    if (!found)
      return;
    tried.insert(found->str());
    llvm::StringSet<> before = getBufferNames(game.getKernel());
    if (!tryApply(game, *found))
      continue;
    reuseAndPlaceInRegisters(game, getNewBuffer(game.getKernel(), before));
  }
}

/// 2. Streams: every operand access that may stream, from the outermost
/// depth the stream rule allows (one region as large as possible): depths
/// are proposed outermost first, and once one applies the operand streams.
void streamOperands(Game &game) {
  applyEach(game, [&](const llvm::StringSet<> &tried)
                      -> std::optional<MoveRequest> {
    std::optional<MoveRequest> found;
    game.getKernel().walk([&](LeafOp leaf) {
      for (unsigned position = 0; position <= leaf.getInputs().size() && !found;
           ++position) {
        if (leaf.getStreamDepth(position) ||
            (position > 0 &&
             !isa<AccessAttr>(leaf.getInputs()[position - 1])))
          continue;
        for (unsigned depth = 0; depth < leaf.getDepth() && !found; ++depth) {
          MoveRequest move =
              makeMove(MoveKind::SetSsr, getNodeSelector(leaf),
                       {int64_t(position), int64_t(depth)});
          if (!tried.contains(move.str()))
            found = move;
        }
      }
      return found ? WalkResult::interrupt() : WalkResult::advance();
    });
    return found;
  });
}

/// 3. FREP: every scope the sequencer can repeat, innermost first (the
/// walk visits inner scopes before their parents).
void repeatScopes(Game &game) {
  applyEach(game, [&](const llvm::StringSet<> &tried)
                      -> std::optional<MoveRequest> {
    std::optional<MoveRequest> found;
    game.getKernel().walk([&](ScopeOp scope) {
      if (scope.getMode() != Mode::seq || scope.getSize() < 2)
        return WalkResult::advance();
      MoveRequest move = makeMove(MoveKind::SetFrep, getNodeSelector(scope));
      if (tried.contains(move.str()))
        return WalkResult::advance();
      found = move;
      return WalkResult::interrupt();
    });
    return found;
  });
}

/// The FPU's dependent-issue distance for `type`: independent accumulators
/// a reduction needs to issue every cycle.
int64_t getFpuLatency(mlir::Type type) {
  snitch::Latencies latency;
  return type.isF64() ? latency.fpFma64 : latency.fpFma32;
}

/// Interleaving: split a reduction loop by the FPU latency L, privatize the
/// reduction over the L-scope and unroll the L-scopes.
void interleaveReductions(Game &game) {
  llvm::StringSet<> done;
  for (unsigned step = 0; step < 100; ++step) {
    // The next reduction leaf whose loop splits by L.
    std::optional<std::pair<std::string, int64_t>> site;
    game.getKernel().walk([&](LeafOp leaf) {
      ScopeOp scope = getReductionScope(leaf);
      if (!scope)
        return WalkResult::advance();
      int64_t latency = getFpuLatency(
          game.getKernel().lookupArray(leaf.getArray()).getElementType());
      std::string selector = getNodeSelector(scope);
      if (done.contains(selector) || int64_t(scope.getSize()) <= latency ||
          int64_t(scope.getSize()) % latency != 0)
        return WalkResult::advance();
      site = {selector, latency};
      return WalkResult::interrupt();
    });
    if (!site)
      return;
    done.insert(site->first);
    llvm::StringSet<> before = getBufferNames(game.getKernel());
    size_t start = game.history().size();
    // `a@d` names the loop; after the split its inner L-scope is `a@d+1`.
    llvm::StringRef selector = site->first;
    auto [prefix, depthText] = selector.rsplit('@');
    unsigned depth = 0;
    depthText.getAsInteger(10, depth);
    std::string inner = (prefix + "@" + llvm::Twine(depth + 1)).str();
    if (!tryApply(game, makeMove(MoveKind::SplitScope, selector.str(),
                                 {site->second})) ||
        !tryApply(game, makeMove(MoveKind::PrivatizeReduction, inner,
                                 {int64_t(depth)}))) {
      while (game.history().size() > start)
        game.undo();
      continue;
    }
    // Unroll every L-scope of the new partial buffer's leaves (its
    // initialization, the update, the combine), then keep the partials in
    // registers.
    std::string partial = getNewBuffer(game.getKernel(), before);
    applyEach(game, [&](const llvm::StringSet<> &tried)
                        -> std::optional<MoveRequest> {
      std::optional<MoveRequest> found;
      game.getKernel().walk([&](ScopeOp scope) {
        bool touches = false;
        for (LeafOp leaf : collectLeaves(scope)) {
          touches |= leaf.getArray() == partial;
          for (mlir::Attribute input : leaf.getInputs())
            if (auto access = dyn_cast<AccessAttr>(input))
              touches |= access.getArray().getValue() == partial;
        }
        bool leavesOnly = llvm::all_of(scope.getBlock(), [](Operation &op) {
          return isa<LeafOp>(op);
        });
        if (!touches || !leavesOnly || scope.getMode() != Mode::seq ||
            int64_t(scope.getSize()) != site->second)
          return WalkResult::advance();
        MoveRequest move =
            makeMove(MoveKind::SetUnroll, getNodeSelector(scope));
        if (tried.contains(move.str()))
          return WalkResult::advance();
        found = move;
        return WalkResult::interrupt();
      });
      return found;
    });
    reuseAndPlaceInRegisters(game, partial);
  }
}

} // namespace

void perfdojo::applySnitchGreedyRules(Game &game) {
  promoteAccumulators(game);
  streamOperands(game);
  repeatScopes(game);
}

void perfdojo::applySnitchExpertRules(Game &game) {
  interleaveReductions(game);
  applySnitchGreedyRules(game);
}
