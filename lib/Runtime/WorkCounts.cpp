//===- WorkCounts.cpp - work and traffic of a kernel, from its tree -------===//

#include "perfdojo/Runtime/WorkCounts.h"
#include "perfdojo/Dialect/Dojo/IR/PhysicalLayout.h"

#include "perfdojo/Support/SaturatingArithmetic.h"

using namespace perfdojo;
using namespace perfdojo::dojo;

WorkCounts perfdojo::countWork(KernelOp kernel) {
  WorkCounts counts;
  kernel.walk([&](LeafOp leaf) {
    int64_t points = 1;
    for (auto scope = leaf->getParentOfType<ScopeOp>(); scope;
         scope = scope->getParentOfType<ScopeOp>())
      points = saturatingMul(points, scope.getSize());
    int64_t perPoint = (leaf.getKind() == OpKind::copy ? 0 : 1) +
                       (leaf.getReduce() == ReduceKind::none ? 0 : 1);
    counts.leafEvaluations = saturatingAdd(counts.leafEvaluations, points);
    counts.flops = saturatingAdd(counts.flops,
                                       saturatingMul(points, perPoint));
  });
  for (BufferOp buffer : kernel.getBuffers()) {
    if (!buffer.isArgument())
      continue;
    int64_t bytes = getElementBytes(buffer);
    for (int64_t size : buffer.getShape())
      bytes = saturatingMul(bytes, size);
    if (buffer.getRole() == Role::inout)
      bytes = saturatingMul(bytes, 2);
    counts.compulsoryBytes = saturatingAdd(counts.compulsoryBytes, bytes);
  }
  return counts;
}
