//===- TargetOption.cpp - what the optimizing passes share ----------------===//

#include "TargetOption.h"

#include "mlir/IR/Threading.h"
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

LogicalResult perfdojo::forEachKernel(
    Operation *root, llvm::function_ref<LogicalResult(dojo::KernelOp)> transform) {
  SmallVector<dojo::KernelOp> kernels;
  root->walk([&](dojo::KernelOp kernel) {
    kernels.push_back(kernel);
    return WalkResult::skip();
  });
  return failableParallelForEach(root->getContext(), kernels, transform);
}
