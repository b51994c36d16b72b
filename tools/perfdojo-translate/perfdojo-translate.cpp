//===- perfdojo-translate.cpp - `.dojo` <-> MLIR translation -------------===//

#include "perfdojo/Target/DojoText/DojoText.h"
#include "perfdojo/Target/MoveScript/MoveScript.h"

#include "mlir/Support/LogicalResult.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  perfdojo::registerDojoTranslations();
  perfdojo::registerMoveScriptTranslations();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "PerfDojo translation driver\n"));
}
