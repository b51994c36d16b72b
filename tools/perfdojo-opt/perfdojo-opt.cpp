//===- perfdojo-opt.cpp - the PerfDojo optimizer driver ------------------===//
//
// MlirOptMain with the dojo dialect (and, as they land, PerfDojo passes and
// moves) registered.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Conversion/Passes.h"
#include "perfdojo/Conversion/Pipelines.h"
#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/TransformOps/DojoTransformOps.h"
#include "perfdojo/Dialect/Dojo/Transforms/Passes.h"
#include "perfdojo/Support/LargeStack.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

static int toolMain(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<perfdojo::dojo::DojoDialect>();
  registry.insert<mlir::transform::TransformDialect>();
  // The dialects the CPU lowering produces, so each stage can be read back.
  registry.insert<mlir::arith::ArithDialect, mlir::cf::ControlFlowDialect,
                  mlir::func::FuncDialect, mlir::LLVM::LLVMDialect,
                  mlir::math::MathDialect, mlir::memref::MemRefDialect,
                  mlir::omp::OpenMPDialect, mlir::scf::SCFDialect,
                  mlir::vector::VectorDialect>();
  perfdojo::dojo::registerTransformDialectExtension(registry);
  perfdojo::dojo::registerDojoPasses();
  mlir::transform::registerTransformPasses();
  perfdojo::registerPerfDojoConversionPasses();
  perfdojo::registerDojoToLLVMPipeline();
  // Upstream conversions and cleanups, to run the pipeline stage by stage.
  mlir::registerConversionPasses();
  mlir::registerTransformsPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "PerfDojo optimizer driver\n", registry));
}

int main(int argc, char **argv) {
  // Deep MLIR text must reach the nesting bound's error instead of
  // overflowing the parser's stack (Support/LargeStack.h).
  return perfdojo::runOnLargeStack([&] { return toolMain(argc, argv); });
}
