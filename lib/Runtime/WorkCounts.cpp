//===- WorkCounts.cpp - work and traffic of a kernel, from its tree -------===//

#include "perfdojo/Runtime/WorkCounts.h"
#include "perfdojo/Dialect/Dojo/IR/PhysicalLayout.h"

#include "llvm/Support/MathExtras.h"

using namespace perfdojo;
using namespace perfdojo::dojo;

static int64_t saturatingProduct(int64_t a, int64_t b) {
  int64_t r;
  return llvm::MulOverflow(a, b, r) ? INT64_MAX : r;
}
static int64_t saturatingSum(int64_t a, int64_t b) {
  int64_t r;
  return llvm::AddOverflow(a, b, r) ? INT64_MAX : r;
}

WorkCounts perfdojo::countWork(KernelOp kernel) {
  WorkCounts counts;
  kernel.walk([&](LeafOp leaf) {
    int64_t points = 1;
    for (auto scope = leaf->getParentOfType<ScopeOp>(); scope;
         scope = scope->getParentOfType<ScopeOp>())
      points = saturatingProduct(points, scope.getSize());
    int64_t perPoint = (leaf.getKind() == OpKind::copy ? 0 : 1) +
                       (leaf.getReduce() == ReduceKind::none ? 0 : 1);
    counts.leafEvaluations = saturatingSum(counts.leafEvaluations, points);
    counts.flops = saturatingSum(counts.flops,
                                       saturatingProduct(points, perPoint));
  });
  for (BufferOp buffer : kernel.getBuffers()) {
    if (!buffer.isArgument())
      continue;
    int64_t bytes = getElementBytes(buffer);
    for (int64_t size : buffer.getShape())
      bytes = saturatingProduct(bytes, size);
    if (buffer.getRole() == Role::inout)
      bytes = saturatingProduct(bytes, 2);
    counts.compulsoryBytes = saturatingSum(counts.compulsoryBytes, bytes);
  }
  return counts;
}
