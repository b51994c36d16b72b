//===- perfdojo-opt.cpp - the PerfDojo optimizer driver ------------------===//
//
// MlirOptMain with the dojo dialect (and, as they land, PerfDojo passes and
// moves) registered.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/TransformOps/DojoTransformOps.h"
#include "perfdojo/Dialect/Dojo/Transforms/Passes.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<perfdojo::dojo::DojoDialect>();
  registry.insert<mlir::transform::TransformDialect>();
  perfdojo::dojo::registerTransformDialectExtension(registry);
  perfdojo::dojo::registerDojoPasses();
  mlir::transform::registerTransformPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "PerfDojo optimizer driver\n", registry));
}
