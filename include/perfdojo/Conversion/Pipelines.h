//===- Pipelines.h - dojo to LLVM lowering pipeline ------------*- C++ -*-===//
//
// The CPU lowering as one reusable pipeline: `perfdojo-opt
// --dojo-to-llvm`, the JIT in perfdojo-run and the AOT emitter in
// perfdojo-translate all build it here, so every path compiles a kernel the
// same way.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_CONVERSION_PIPELINES_H
#define PERFDOJO_CONVERSION_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace perfdojo {

struct DojoToLLVMOptions : mlir::PassPipelineOptions<DojoToLLVMOptions> {
  Option<bool> approximateMath{
      *this, "approximate-math",
      llvm::cl::desc("Expand f32 exp/log/tanh into vectorizable polynomials "
                     "(off: call libm)"),
      llvm::cl::init(true)};
  Option<int64_t> vectorBytes{
      *this, "vector-bytes",
      llvm::cl::desc("Bytes of one vector register of the CPU compiled for "
                     "(convert-dojo-to-scf)"),
      llvm::cl::init(64)};
};

/// Adds every pass from `dojo` to the `llvm` dialect to `pm` (a pass
/// manager on a builtin module). Kernels become functions with the C ABI
/// `void name(T *arg0, T *arg1, ...)`, one pointer per argument buffer in
/// declaration order; `:p` scopes become OpenMP parallel loops.
void buildDojoToLLVMPipeline(mlir::OpPassManager &pm,
                             const DojoToLLVMOptions &options = {});

/// Registers `--dojo-to-llvm` (with the options above) for perfdojo-opt.
void registerDojoToLLVMPipeline();

} // namespace perfdojo

#endif // PERFDOJO_CONVERSION_PIPELINES_H
