//===- InitAll.cpp - everything PerfDojo registers ------------------------===//

#include "perfdojo/Registration/InitAll.h"

#include "perfdojo/Conversion/GpuPipeline.h"
#include "perfdojo/Conversion/Passes.h"
#include "perfdojo/Conversion/Pipelines.h"
#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/TransformOps/DojoTransformOps.h"
#include "perfdojo/Dialect/Dojo/Transforms/Passes.h"
#include "perfdojo/Dialect/Snitch/IR/Snitch.h"
#include "perfdojo/Dialect/Snitch/Transforms/Passes.h"
#include "perfdojo/Search/Passes.h"

#include "mlir/IR/DialectRegistry.h"

void perfdojo::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<dojo::DojoDialect, snitch::SnitchDialect>();
  dojo::registerTransformDialectExtension(registry);
  registerGpuLowering(registry);
}

void perfdojo::registerAllPasses() {
  dojo::registerDojoPasses();
  snitch::registerSnitchPasses();
  registerPerfDojoConversionPasses();
  registerPerfDojoSearchPasses();
  registerDojoToLLVMPipeline();
  registerDojoToGpuPipeline();
}
