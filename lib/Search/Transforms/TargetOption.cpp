//===- TargetOption.cpp - what the optimizing passes share ----------------===//

#include "TargetOption.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace perfdojo;

std::optional<TargetDescription>
perfdojo::lookupTargetOption(dojo::KernelOp kernel, llvm::StringRef name) {
  std::optional<TargetDescription> target = TargetDescription::lookup(name);
  if (!target)
    kernel.emitError() << "unknown target '" << name << "' (expected one of: "
                       << llvm::join(TargetDescription::getNames(), ", ")
                       << ")";
  return target;
}

LogicalResult perfdojo::replayMoves(dojo::KernelOp kernel,
                                    llvm::ArrayRef<MoveRequest> moves,
                                    const MoveOptions &options) {
  MoveState state(kernel, options);
  for (const MoveRequest &move : moves)
    if (failed(applyMove(state, move, kernel.getLoc())))
      return failure();
  return success();
}
