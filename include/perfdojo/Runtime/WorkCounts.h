//===- WorkCounts.h - work and traffic of a kernel, from its tree -*- C++ -*-===//
//
// Counts that turn a run time into rates: leaf evaluations, floating-point
// operations and the compulsory memory traffic of the arguments. They are
// properties of the computation, so every transformed form of a kernel has
// the counts of the original and rates compare across schedules.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_RUNTIME_WORKCOUNTS_H
#define PERFDOJO_RUNTIME_WORKCOUNTS_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"

#include <cstdint>

namespace perfdojo {

struct WorkCounts {
  /// Sum over leaves of the product of the enclosing scope sizes.
  int64_t leafEvaluations = 0;
  /// One per arithmetic operation and one per reduction update; `copy`
  /// counts zero, transcendental operations one.
  int64_t flops = 0;
  /// Bytes every execution must move at least: each `in` argument read
  /// once, each `out` written once, each `inout` read and written.
  int64_t compulsoryBytes = 0;
};

/// Counts of `kernel`. Leaves added by restructuring moves (for example the
/// initialization of a privatized reduction) are counted like any other, so
/// prefer the counts of the untransformed kernel for rates.
WorkCounts countWork(dojo::KernelOp kernel);

} // namespace perfdojo

#endif // PERFDOJO_RUNTIME_WORKCOUNTS_H
