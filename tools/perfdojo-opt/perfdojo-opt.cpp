//===- perfdojo-opt.cpp - the PerfDojo optimizer driver ------------------===//
//
// MlirOptMain with the dojo dialect, its passes, moves and transform
// extension registered. `.dojo` files (or any input with --import-dojo) are
// imported first, keeping their locations; MLIR input that reads like
// `.dojo` text gets that named instead of "custom op is unknown".
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Registration/InitAll.h"
#include "perfdojo/Support/LargeStack.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

static llvm::cl::opt<bool>
    importDojoInput("import-dojo",
                    llvm::cl::desc("Read the input as .dojo text (the "
                                   "default for files named *.dojo)"));

/// The input as MLIR: `.dojo` text imported, MLIR as is. Null after an
/// error has been printed.
static std::unique_ptr<llvm::MemoryBuffer>
readInput(llvm::StringRef path, mlir::DialectRegistry &registry) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = mlir::openInputFile(path, &error);
  if (!file) {
    llvm::errs() << error << "\n";
    return nullptr;
  }
  bool dojoFile = importDojoInput || path.ends_with(".dojo");
  bool dojoText = perfdojo::looksLikeDojoText(file->getBuffer());
  if (!dojoFile && !dojoText &&
      !perfdojo::findExcessiveBraceNesting(file->getBuffer()))
    return file;

  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  llvm::StringRef name = file->getBufferIdentifier();
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  if (!dojoFile && !dojoText) {
    (void)perfdojo::checkBraceNesting(sourceMgr, &context);
    return nullptr;
  }
  if (!dojoFile) {
    mlir::emitError(mlir::FileLineColLoc::get(&context, name, 1, 1))
        << "this looks like .dojo text: use --import-dojo or a .dojo file";
    return nullptr;
  }
  return perfdojo::translateDojoToMLIRBuffer(sourceMgr, &context);
}

static int toolMain(int argc, char **argv) {
  mlir::DialectRegistry registry;
  perfdojo::registerAllDialects(registry);
  registry.insert<mlir::transform::TransformDialect>();
  // The dialects the CPU lowering produces, so each stage can be read back.
  registry.insert<mlir::arith::ArithDialect, mlir::cf::ControlFlowDialect,
                  mlir::func::FuncDialect, mlir::LLVM::LLVMDialect,
                  mlir::math::MathDialect, mlir::memref::MemRefDialect,
                  mlir::omp::OpenMPDialect, mlir::scf::SCFDialect,
                  mlir::vector::VectorDialect>();
  // What convert-linalg-to-dojo reads (docs/embedding.md).
  registry.insert<mlir::bufferization::BufferizationDialect,
                  mlir::linalg::LinalgDialect, mlir::tensor::TensorDialect>();
  perfdojo::registerAllPasses();
  mlir::transform::registerTransformPasses();
  // Upstream conversions and cleanups, to run the pipeline stage by stage.
  mlir::registerConversionPasses();
  mlir::registerTransformsPasses();

  auto [inputPath, outputPath] = mlir::registerAndParseCLIOptions(
      argc, argv, "PerfDojo optimizer driver\n", registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  std::unique_ptr<llvm::MemoryBuffer> input = readInput(inputPath, registry);
  if (!input)
    return EXIT_FAILURE;
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputPath, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return EXIT_FAILURE;
  }
  if (mlir::failed(mlir::MlirOptMain(output->os(), std::move(input), registry,
                                     config)))
    return EXIT_FAILURE;
  output->keep();
  return EXIT_SUCCESS;
}

int main(int argc, char **argv) {
  // Deep MLIR text must reach the nesting bound's error instead of
  // overflowing the parser's stack (Support/LargeStack.h).
  return perfdojo::runOnLargeStack([&] { return toolMain(argc, argv); });
}
