//===- EmitGpu.cpp - ahead-of-time emission for GPUs ----------------------===//
//
// `perfdojo-translate --emit=ptx|gpu-asm|hsaco|launch-plan --target=CHIP`:
// one kernel through the GPU pipeline (Conversion/GpuPipeline.h), then its
// device code or its launch plan.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Conversion/GpuLaunchPlan.h"
#include "perfdojo/Conversion/GpuPipeline.h"
#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/IR/TargetDescription.h"
#include "perfdojo/Target/LLVM/Emit.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace perfdojo;

llvm::Error perfdojo::emitGpuKernel(ModuleOp module, const EmitOptions &options,
                                    llvm::raw_ostream &os) {
  std::string chip = options.target;
  if (chip == "host")
    chip = options.kind == EmitKind::Hsaco ? "gfx942" : "sm_90";
  std::unique_ptr<GpuVendor> vendor = GpuVendor::get(chip);
  if (!vendor)
    return llvm::createStringError(
        "unknown GPU chip '" + chip + "' (expected one of: " +
        llvm::join(TargetDescription::getGpuChips(), ", ") + ")");
  if (options.kind == EmitKind::Ptx && vendor->getRuntimeFormat() != "ptx")
    return llvm::createStringError("--emit=ptx needs an NVIDIA chip (sm_*), "
                                   "not " + chip);
  if (options.kind == EmitKind::Hsaco && vendor->getRuntimeFormat() != "hsaco")
    return llvm::createStringError("--emit=hsaco needs an AMD chip (gfx*), "
                                   "not " + chip);
  SmallVector<dojo::KernelOp> kernels(module.getOps<dojo::KernelOp>());
  if (kernels.size() != 1)
    return llvm::createStringError(
        "GPU emission compiles one kernel; the input holds " +
        std::to_string(kernels.size()));
  std::string name = kernels.front().getSymName().str();

  DialectRegistry registry;
  registerGpuLowering(registry);
  module->getContext()->appendDialectRegistry(registry);
  PassManager pm(module->getContext());
  DojoToGpuOptions pipeline;
  pipeline.chip = chip;
  pipeline.approximateMath = options.approximateMath;
  // The launch plan reads the host side alone: no device code is built.
  pipeline.format = options.kind == EmitKind::LaunchPlan ? "none"
                    : options.kind == EmitKind::Hsaco    ? "bin"
                                                         : "isa";
  buildDojoToGpuPipeline(pm, pipeline);
  if (failed(pm.run(module)))
    return llvm::createStringError("the GPU lowering for " + chip + " failed");

  if (options.kind == EmitKind::LaunchPlan) {
    auto host = module.lookupSymbol<func::FuncOp>(name);
    FailureOr<perfdojo::gpu::LaunchPlan> plan =
        host ? extractLaunchPlan(host, chip, vendor->getRuntimeFormat())
             : FailureOr<perfdojo::gpu::LaunchPlan>(failure());
    if (failed(plan))
      return llvm::createStringError("cannot write the launch plan");
    os << plan->print();
    return llvm::Error::success();
  }
  FailureOr<std::string> binary = getGpuBinary(module, name);
  if (failed(binary))
    return llvm::createStringError("no device code was produced");
  os << *binary;
  return llvm::Error::success();
}
