//===- perfdojo-translate.cpp - `.dojo` <-> MLIR translation -------------===//

#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/Support/LogicalResult.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  perfdojo::registerDojoTranslations();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "PerfDojo translation driver\n"));
}
