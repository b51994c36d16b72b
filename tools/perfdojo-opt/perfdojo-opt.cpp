//===- perfdojo-opt.cpp - the PerfDojo optimizer driver ------------------===//
//
// MlirOptMain with the dojo dialect (and, as they land, PerfDojo passes and
// moves) registered.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<perfdojo::dojo::DojoDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "PerfDojo optimizer driver\n", registry));
}
