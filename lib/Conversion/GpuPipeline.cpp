//===- GpuPipeline.cpp - dojo to GPU binaries -----------------------------===//
//
// The vendor-neutral half is `convert-dojo-to-gpu`; each GpuVendor adds
// its device lowering and target attribute. Math is lowered to LLVM
// intrinsics (after the polynomial approximations) before the vendor's
// conversion runs, so no call into libdevice or the ROCm device library is
// left in a module (a user's machine may have neither).
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Conversion/GpuPipeline.h"
#include "perfdojo/Conversion/Passes.h"
#include "perfdojo/Dialect/Dojo/IR/TargetDescription.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Conversion/GPUToROCDL/GPUToROCDLPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVM/ROCDL/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <unistd.h>

using namespace mlir;
using namespace perfdojo;

namespace {

/// MLIR's ROCDL serializer links code objects with
/// `<toolkit>/llvm/bin/ld.lld` (a ROCm layout). LLVM's own lld links them
/// as well: a private directory of that layout pointing at it stands in for
/// a ROCm installation. Empty if no lld is found.
std::string getAmdLinkerToolkit() {
  static const std::string toolkit = []() -> std::string {
    std::string lld;
    for (const char *name : {"ld.lld-22", "ld.lld"})
      if (llvm::ErrorOr<std::string> found =
              llvm::sys::findProgramByName(name)) {
        lld = *found;
        break;
      }
    if (lld.empty() && llvm::sys::fs::exists("/usr/lib/llvm-22/bin/ld.lld"))
      lld = "/usr/lib/llvm-22/bin/ld.lld";
    if (lld.empty())
      return "";
    // One directory per user and lld, reused by every later run.
    llvm::SmallString<128> dir;
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, dir);
    llvm::sys::path::append(
        dir, "perfdojo-rocm-" + std::to_string(::getuid()) + "-" +
                 std::to_string(llvm::hash_value(lld)));
    llvm::SmallString<128> bin(dir);
    llvm::sys::path::append(bin, "llvm", "bin");
    llvm::SmallString<128> link(bin);
    llvm::sys::path::append(link, "ld.lld");
    if (!llvm::sys::fs::exists(link) &&
        (llvm::sys::fs::create_directories(bin) ||
         llvm::sys::fs::create_link(lld, link)))
      return "";
    return dir.str().str();
  }();
  return toolkit;
}

/// Device passes both vendors share before their own conversion.
void addCommonDeviceLowering(OpPassManager &gpuPm) {
  gpuPm.addPass(createSCFToControlFlowPass());
}

void addCommonDeviceCleanup(OpPassManager &gpuPm) {
  gpuPm.addPass(createCanonicalizerPass());
  gpuPm.addPass(createCSEPass());
  gpuPm.addPass(createReconcileUnrealizedCastsPass());
}

class NvidiaVendor : public GpuVendor {
public:
  StringRef getName() const override { return "NVIDIA"; }
  StringRef getRuntimeFormat() const override { return "ptx"; }
  void addDeviceLowering(OpPassManager &pm,
                         const DojoToGpuOptions &) const override {
    OpPassManager &gpuPm = pm.nest<gpu::GPUModuleOp>();
    addCommonDeviceLowering(gpuPm);
    gpuPm.addPass(createConvertDojoGpuToNVVMPass());
    addCommonDeviceCleanup(gpuPm);
  }
  void addTargetAttach(OpPassManager &pm,
                       const DojoToGpuOptions &options) const override {
    GpuNVVMAttachTargetOptions target;
    target.chip = options.chip;
    // LLVM's NVPTX default (PTX 6.0) cannot target sm_80 and later; PTX 7.8
    // covers sm_90 and is JIT-compiled by every current driver.
    target.features = "+ptx78";
    target.optLevel = 3;
    pm.addPass(createGpuNVVMAttachTarget(target));
  }
};

class AmdVendor : public GpuVendor {
public:
  StringRef getName() const override { return "AMD"; }
  StringRef getRuntimeFormat() const override { return "hsaco"; }
  void addDeviceLowering(OpPassManager &pm,
                         const DojoToGpuOptions &options) const override {
    OpPassManager &gpuPm = pm.nest<gpu::GPUModuleOp>();
    addCommonDeviceLowering(gpuPm);
    ConvertDojoGpuToROCDLPassOptions rocdl;
    rocdl.chipset = options.chip;
    gpuPm.addPass(createConvertDojoGpuToROCDLPass(rocdl));
    addCommonDeviceCleanup(gpuPm);
  }
  void addTargetAttach(OpPassManager &pm,
                       const DojoToGpuOptions &options) const override {
    GpuROCDLAttachTargetOptions target;
    target.chip = options.chip;
    target.optLevel = 3;
    // CDNA parts run wavefronts of 64 (TargetDescription's warp size).
    target.wave64Flag = true;
    pm.addPass(createGpuROCDLAttachTarget(target));
  }
};

} // namespace

std::unique_ptr<GpuVendor> GpuVendor::get(StringRef chip) {
  std::optional<TargetDescription> target = TargetDescription::getGpu(chip);
  if (!target)
    return nullptr;
  if (target->vendor == "NVIDIA")
    return std::make_unique<NvidiaVendor>();
  return std::make_unique<AmdVendor>();
}

void perfdojo::registerGpuLowering(DialectRegistry &registry) {
  registry.insert<gpu::GPUDialect, NVVM::NVVMDialect, ROCDL::ROCDLDialect>();
  // The vendor conversions lower every dialect that offers its patterns
  // through ConvertToLLVMPatternInterface: these are the ones kernels use.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  ROCDL::registerROCDLTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  registerROCDLDialectTranslation(registry);
}

void perfdojo::buildDojoToGpuPipeline(OpPassManager &pm,
                                      const DojoToGpuOptions &options) {
  ConvertDojoToGPUPassOptions dojo;
  dojo.chip = options.chip;
  dojo.approximateMath = options.approximateMath;
  pm.addPass(createConvertDojoToGPUPass(dojo));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (options.approximateMath)
    pm.addPass(createDojoApproximateMathPass());
  // An unknown chip is refused by convert-dojo-to-gpu with the list of
  // known ones; nothing more to add then.
  std::unique_ptr<GpuVendor> vendor = GpuVendor::get(options.chip);
  if (!vendor)
    return;
  vendor->addDeviceLowering(pm, options);
  if (options.format == "none")
    return;
  vendor->addTargetAttach(pm, options);
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  if (vendor->getRuntimeFormat() == "hsaco" && options.format == "bin")
    binary.toolkitPath = getAmdLinkerToolkit();
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void perfdojo::registerDojoToGpuPipeline() {
  PassPipelineRegistration<DojoToGpuOptions>(
      "dojo-to-gpu",
      "Lower dojo kernels to GPU launches and a device binary per kernel",
      [](OpPassManager &pm, const DojoToGpuOptions &options) {
        buildDojoToGpuPipeline(pm, options);
      });
}

FailureOr<std::string> perfdojo::getGpuBinary(ModuleOp module,
                                              StringRef kernel) {
  std::string name = (kernel + "_device").str();
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    if (binary.getSymName() != name)
      continue;
    for (Attribute object : binary.getObjects())
      if (auto obj = dyn_cast<gpu::ObjectAttr>(object))
        return obj.getObject().getValue().str();
  }
  return module.emitError("no device binary '") << name << "' in the module";
}
