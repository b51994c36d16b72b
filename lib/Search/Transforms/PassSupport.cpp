//===- PassSupport.cpp - what the optimizing passes share ----------------===//

#include "PassSupport.h"

#include "mlir/IR/Threading.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace perfdojo;

std::optional<TargetDescription>
perfdojo::lookupTargetOption(dojo::KernelOp kernel, llvm::StringRef name) {
  llvm::Expected<TargetDescription> target =
      TargetDescription::lookupOrError(name);
  if (!target) {
    kernel.emitError() << llvm::toString(target.takeError());
    return std::nullopt;
  }
  return *target;
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
