//===- GpuKernel.h - a dojo kernel compiled for a GPU ----------*- C++ -*-===//
//
// One kernel through the GPU pipeline (Conversion/GpuPipeline.h): its
// device module (PTX) and launch plan, and the host data in the plan's
// terms. It runs in-process through the CUDA driver (GpuRuntime), or is
// written as a bundle that `perfdojo-gpu-launch` runs on a machine with a
// GPU but no LLVM, whose outputs `perfdojo-run --gpu-results` validates
// back here.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_EXECUTIONENGINE_GPUKERNEL_H
#define PERFDOJO_EXECUTIONENGINE_GPUKERNEL_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/GpuRuntime/CudaRuntime.h"
#include "perfdojo/GpuRuntime/LaunchPlan.h"
#include "perfdojo/Runtime/HostBuffer.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace perfdojo {

struct GpuCompileOptions {
  /// A chip of TargetDescription::getGpu (`sm_90`, ...).
  std::string chip = "sm_90";
  /// Polynomial f32 transcendentals (the GPU path has no other).
  bool approximateMath = true;
};

/// The newest NVIDIA chip PerfDojo compiles for that a device of compute
/// capability `major`.`minor` runs (PTX is forward compatible), or nullopt
/// for a device older than all of them.
std::optional<std::string> chooseCudaChip(int major, int minor);

struct GpuBundleOptions {
  /// The input generator's seed (fillInputs).
  uint64_t seed = 1;
  /// Write the input files; without them the launcher regenerates the
  /// inputs from the recipe (--generate-inputs).
  bool inputFiles = true;
};

class GpuKernel {
public:
  /// Lowers a copy of `kernel` (the kernel itself is left as it is). Errors
  /// with locations go to the context's diagnostic handler.
  static llvm::Expected<std::unique_ptr<GpuKernel>>
  compile(dojo::KernelOp kernel, const GpuCompileOptions &options);

  const gpu::LaunchPlan &getPlan() const { return plan; }
  /// PTX text (NVIDIA) or an AMDGPU code object.
  const std::string &getBinary() const { return binary; }
  double getCompileMs() const { return compileMs; }

  /// The bytes of every argument buffer, in plan order, from `args` (the
  /// kernel's arguments in declaration order, HostBuffer layout).
  llvm::Expected<std::vector<std::vector<char>>>
  packArguments(llvm::ArrayRef<HostBuffer> args) const;
  /// Copies `outputs` (one entry per argument buffer, plan order; empty for
  /// `in` buffers) into the `out` and `inout` buffers of `args`.
  llvm::Error unpackOutputs(const std::vector<std::vector<char>> &outputs,
                            llvm::MutableArrayRef<HostBuffer> args) const;

  /// Runs through the CUDA driver: `args` hold the outputs afterwards.
  llvm::Expected<gpu::GpuRunResult> run(std::vector<HostBuffer> &args,
                                        const gpu::GpuRunOptions &options) const;

  /// A bundle of `kernel` (the kernel this was compiled from) for
  /// perfdojo-gpu-launch in `dir` (docs/gpu.md, "Bundles"):
  /// `<kernel>.plan`, `<kernel>.ptx` (or `.hsaco`), `inputs.recipe` (the
  /// input generator's seed and positive arrays, GpuRuntime/InputRecipe.h),
  /// `check.json` (each argument's shape and type, and each output's
  /// relative tolerance against an f64 reference, computed from
  /// `operatorKernel`: the kernel before its transformations, or `kernel`)
  /// and, with `options.inputFiles`, `inputs/<buffer>.bin` for the `in` and
  /// `inout` buffers.
  llvm::Error writeBundle(llvm::StringRef dir, dojo::KernelOp kernel,
                          dojo::KernelOp operatorKernel,
                          const GpuBundleOptions &options) const;
  /// The outputs and times a perfdojo-gpu-launch run left in `dir`
  /// (`outputs/<buffer>.bin`, `timing.json`), into `args` and the result.
  llvm::Expected<gpu::GpuRunResult>
  readResults(llvm::StringRef dir, std::vector<HostBuffer> &args) const;

private:
  GpuKernel() = default;
  gpu::LaunchPlan plan;
  std::string binary;
  double compileMs = 0;
};

} // namespace perfdojo

#endif // PERFDOJO_EXECUTIONENGINE_GPUKERNEL_H
