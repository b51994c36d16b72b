//===- GpuLaunchPlan.h - the launch plan of a lowered kernel ---*- C++ -*-===//
//
// After `convert-dojo-to-gpu`, a kernel's host side is a function of
// `memref.alloc`, `scf.for` and `gpu.launch_func` (Passes.td). The launch
// plan (GpuRuntime/LaunchPlan.h) is that function written down for a
// runtime without MLIR: this is the one place that reads it.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_CONVERSION_GPULAUNCHPLAN_H
#define PERFDOJO_CONVERSION_GPULAUNCHPLAN_H

#include "perfdojo/GpuRuntime/LaunchPlan.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace perfdojo {

/// The plan of host function `host` (as `convert-dojo-to-gpu` emits it),
/// for a device binary of `chip` in `binaryFormat` ("ptx", "hsaco").
/// Emits an error at the first operation the plan cannot express.
mlir::FailureOr<gpu::LaunchPlan> extractLaunchPlan(mlir::func::FuncOp host,
                                                   llvm::StringRef chip,
                                                   llvm::StringRef binaryFormat);

} // namespace perfdojo

#endif // PERFDOJO_CONVERSION_GPULAUNCHPLAN_H
