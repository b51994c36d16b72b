//===- GpuToVendor.cpp - kernels to NVVM or ROCDL, math as intrinsics -----===//
//
// The upstream GPU-to-NVVM and GPU-to-ROCDL pattern sets with a legality of
// our own. The stock passes mark LLVM's math intrinsics (floor, fabs, sqrt,
// exp, ...) illegal so that they become calls into libdevice or the ROCm
// device library, which neither this build nor a user's machine needs to
// have. Here the intrinsics stay: the back ends select native instructions
// for floor, fabs, fma, sqrt, min/max, and the transcendentals arrive
// already expanded into polynomials (`dojo-approximate-math`).
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Conversion/Passes.h"

#include "mlir/Conversion/AMDGPUToROCDL/AMDGPUToROCDL.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/GPUToROCDL/GPUToROCDLPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/LoweringOptions.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/AMDGPU/Utils/Chipset.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

namespace perfdojo {
#define GEN_PASS_DEF_CONVERTDOJOGPUTONVVMPASS
#define GEN_PASS_DEF_CONVERTDOJOGPUTOROCDLPASS
#include "perfdojo/Conversion/Passes.h.inc"
} // namespace perfdojo

using namespace mlir;

namespace {

/// What both vendors convert the same way: every dialect a kernel body
/// holds after `convert-dojo-to-gpu` and `convert-scf-to-cf`.
void populateKernelBodyPatterns(LLVMTypeConverter &converter,
                                RewritePatternSet &patterns) {
  arith::populateArithToLLVMConversionPatterns(converter, patterns);
  cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
  index::populateIndexToLLVMConversionPatterns(converter, patterns);
  populateFuncToLLVMConversionPatterns(converter, patterns);
  populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
  populateMathToLLVMConversionPatterns(converter, patterns);
  populateVectorToLLVMConversionPatterns(converter, patterns);
  ub::populateUBToLLVMConversionPatterns(converter, patterns);
}

/// Everything but the vendor's LLVM dialects is to be converted; LLVM's
/// math intrinsics are legal (the difference from the stock legality).
void configureKernelLegality(ConversionTarget &target) {
  target.addLegalDialect<LLVM::LLVMDialect>();
  target.addIllegalDialect<gpu::GPUDialect, arith::ArithDialect,
                           cf::ControlFlowDialect, func::FuncDialect,
                           index::IndexDialect, math::MathDialect,
                           memref::MemRefDialect, vector::VectorDialect,
                           ub::UBDialect>();
  // The pass runs on the gpu.module, which stays.
  target.addLegalOp<gpu::GPUModuleOp>();
}

/// The upstream lowering of `gpu.dynamic_shared_memory` declares a
/// zero-sized array with internal linkage, which the NVPTX back end emits
/// as a one-byte static `.shared` variable: dynamic shared memory is the
/// external zero-sized array (`extern __shared__` in CUDA, dynamic LDS on
/// AMDGPU), so give it external linkage.
void externalizeDynamicSharedMemory(gpu::GPUModuleOp module) {
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    auto array = dyn_cast<LLVM::LLVMArrayType>(global.getType());
    if (array && array.getNumElements() == 0 && global.getAddrSpace() == 3)
      global.setLinkage(LLVM::Linkage::External);
  }
}

LLVMTypeConverter makeConverter(gpu::GPUModuleOp module) {
  LowerToLLVMOptions options(module.getContext(),
                             DataLayout(cast<DataLayoutOpInterface>(
                                 module.getOperation())));
  // Kernel memrefs are static: one pointer each, as the launch plan passes.
  options.useBarePtrCallConv = true;
  return LLVMTypeConverter(module.getContext(), options);
}

struct ConvertDojoGpuToNVVMPass
    : perfdojo::impl::ConvertDojoGpuToNVVMPassBase<ConvertDojoGpuToNVVMPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    LLVMTypeConverter converter = makeConverter(module);
    configureGpuToNVVMTypeConverter(converter);
    RewritePatternSet patterns(&getContext());
    populateGpuToNVVMConversionPatterns(converter, patterns);
    populateKernelBodyPatterns(converter, patterns);
    ConversionTarget target(getContext());
    configureKernelLegality(target);
    target.addLegalDialect<NVVM::NVVMDialect>();
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    externalizeDynamicSharedMemory(module);
  }
};

struct ConvertDojoGpuToROCDLPass
    : perfdojo::impl::ConvertDojoGpuToROCDLPassBase<ConvertDojoGpuToROCDLPass> {
  using Base::Base;
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    FailureOr<amdgpu::Chipset> parsed = amdgpu::Chipset::parse(chipset);
    if (failed(parsed)) {
      module.emitError("invalid AMDGPU chipset '") << chipset << "'";
      return signalPassFailure();
    }
    LLVMTypeConverter converter = makeConverter(module);
    populateGpuMemorySpaceAttributeConversions(
        converter, [](gpu::AddressSpace space) -> unsigned {
          switch (space) {
          case gpu::AddressSpace::Global:
            return 1;
          case gpu::AddressSpace::Workgroup:
            return 3;
          case gpu::AddressSpace::Private:
            return 5;
          }
          llvm_unreachable("unknown address space");
        });
    RewritePatternSet patterns(&getContext());
    populateGpuToROCDLConversionPatterns(converter, patterns,
                                         gpu::amd::Runtime::HIP, *parsed);
    populateKernelBodyPatterns(converter, patterns);
    ConversionTarget target(getContext());
    configureKernelLegality(target);
    target.addLegalDialect<ROCDL::ROCDLDialect>();
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    externalizeDynamicSharedMemory(module);
  }
};

} // namespace
