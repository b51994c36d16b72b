//===- ReferenceKernel.cpp - the f64 reference of a kernel ----------------===//

#include "perfdojo/Runtime/ReferenceKernel.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

bool perfdojo::isPromotedToF64(Type type) {
  return type.isF16() || type.isBF16() || type.isF32();
}

FailureOr<OwningOpRef<KernelOp>> perfdojo::promoteToF64(KernelOp kernel) {
  OwningOpRef<KernelOp> copy = cast<KernelOp>(kernel->clone());
  Type f64 = Builder(kernel.getContext()).getF64Type();
  for (BufferOp buffer : copy->getBuffers()) {
    if (isPromotedToF64(buffer.getElementType()))
      buffer.setElementType(f64);
    if (!buffer.isArgument())
      buffer.setLocation(BufferLocation::heap);
  }
  copy->walk([](ScopeOp scope) { scope.setMode(Mode::seq); });
  // Every leaf computes in its output's type (S9): retyping all float
  // buffers together keeps each leaf's arrays of one type.
  if (failed(verify(*copy)))
    return failure();
  return copy;
}
