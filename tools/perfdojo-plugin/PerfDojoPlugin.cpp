//===- PerfDojoPlugin.cpp - PerfDojo in the stock mlir-opt ----------------===//
//
// One shared object with both plugin entry points, so that an upstream
// driver knows the dojo dialect and every PerfDojo pass:
//
//   mlir-opt --load-dialect-plugin=PerfDojoPlugin.so \
//            --load-pass-plugin=PerfDojoPlugin.so ...
//
// The driver must use the same libMLIR.so as the plugin (Debian's mlir-opt
// does): the plugin carries PerfDojo's code only.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Registration/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "PerfDojo", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            perfdojo::registerAllDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "PerfDojoPasses", LLVM_VERSION_STRING,
          [] { perfdojo::registerAllPasses(); }};
}
