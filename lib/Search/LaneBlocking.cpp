//===- LaneBlocking.cpp - transposed copies written in blocks -------------===//

#include "LaneBlocking.h"

#include "MoveRules.h"

#include "perfdojo/Analysis/TransposingCopy.h"

#include "llvm/ADT/StringSet.h"

using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::heuristic;

namespace {

/// A destination to block: the buffer's name and the copy's lanes.
struct Destination {
  std::string buffer;
  int64_t lanes;
};

std::vector<Destination> findDestinations(KernelOp kernel,
                                          const TargetDescription &target) {
  std::vector<Destination> found;
  llvm::StringSet<> seen;
  kernel.walk([&](ScopeOp scope) {
    if (scope.getMode() != Mode::vector)
      return;
    std::optional<TransposingLanes> lanes =
        matchTransposingLanes(scope, target);
    if (!lanes || lanes->to.isArgument())
      return;
    llvm::ArrayRef<int64_t> shape = lanes->to.getShape();
    int64_t size = scope.getSize();
    if (shape.empty() || shape.back() <= size || shape.back() % size != 0 ||
        !seen.insert(lanes->to.getName()).second)
      return;
    found.push_back({lanes->to.getName().str(), size});
  });
  return found;
}

/// split_dim of the last dimension by the lanes, then the blocks moved to
/// dimension 0 one swap_dims at a time.
bool block(Game &game, const Destination &destination) {
  BufferOp buffer = game.getKernel().lookupArray(destination.buffer);
  if (!buffer)
    return false;
  unsigned rank = buffer.getShape().size();
  size_t mark = game.history().size();
  std::string name = destination.buffer + ".";
  bool done = tryApply(game, makeMove(MoveKind::SplitDim,
                                      name + std::to_string(rank - 1),
                                      {destination.lanes}));
  for (unsigned k = rank - 1; done && k > 0; --k)
    done = tryApply(game,
                    makeMove(MoveKind::SwapDims, name + std::to_string(k - 1)));
  if (!done)
    undoTo(game, mark);
  return done;
}

} // namespace

bool heuristic::blockTransposedDestinations(Game &game,
                                            const TargetDescription &target) {
  bool changed = false;
  for (const Destination &destination :
       findDestinations(game.getKernel(), target))
    changed |= block(game, destination);
  return changed;
}
