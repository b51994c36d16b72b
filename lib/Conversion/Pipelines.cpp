//===- Pipelines.cpp - dojo to LLVM lowering pipeline ---------------------===//

#include "perfdojo/Conversion/Pipelines.h"
#include "perfdojo/Conversion/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void perfdojo::buildDojoToLLVMPipeline(OpPassManager &pm,
                                       const DojoToLLVMOptions &options) {
  ConvertDojoToSCFPassOptions scfOptions;
  scfOptions.vectorBytes = options.vectorBytes;
  pm.addPass(createConvertDojoToSCFPass(scfOptions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (options.approximateMath)
    pm.addPass(createDojoApproximateMathPass());
  // `:p` scopes split their iterations themselves; upstream's lowering
  // (omp.wsloop) only sees what ours leaves (none from dojo kernels).
  pm.addPass(createConvertParallelScopesToOpenMPPass());
  pm.addPass(createConvertSCFToOpenMPPass());
  // Memrefs first: the OpenMP lowerings wrap parallel bodies in
  // alloca scopes that the control-flow lowering cannot see through.
  // Flat views (a transposing copy's source) become reinterpret casts.
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createSCFToControlFlowPass());
  // Math before vectors: libm calls of `:v` operations (tan, sinh, ...)
  // take their lanes apart with vector ops.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  // Functions before OpenMP: the OpenMP conversion also rewrites function
  // signatures, with full memref descriptors instead of the bare pointers
  // of the C ABI.
  ConvertFuncToLLVMPassOptions funcOptions;
  funcOptions.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcOptions));
  pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void perfdojo::registerDojoToLLVMPipeline() {
  PassPipelineRegistration<DojoToLLVMOptions>(
      "dojo-to-llvm",
      "Lower dojo kernels to the LLVM dialect (C ABI, OpenMP for ':p')",
      [](OpPassManager &pm, const DojoToLLVMOptions &options) {
        buildDojoToLLVMPipeline(pm, options);
      });
}
