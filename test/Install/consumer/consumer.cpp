//===- consumer.cpp - a tool built against the installed PerfDojo ---------===//
//
// Reads a `.dojo` kernel, applies the heuristic pass's choice for the AVX-512
// CPU through the public C++ API, and prints the result as `.dojo` text and
// then through a pass pipeline lowered to the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Registration/InitAll.h"
#include "perfdojo/Search/RuleCandidates.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: consumer KERNEL.dojo\n";
    return 2;
  }
  mlir::DialectRegistry registry;
  perfdojo::registerAllDialects(registry);
  perfdojo::registerAllPasses();
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      perfdojo::loadKernelFile(argv[1], &context);
  if (!module)
    return 1;
  auto kernel = *module->getOps<perfdojo::dojo::KernelOp>().begin();

  perfdojo::MoveOptions options{true, perfdojo::TargetDescription::getCpu()};
  std::vector<perfdojo::MoveSequence> candidates = perfdojo::proposeRuleCandidates(
      perfdojo::RuleSet::Heuristic, kernel, options);
  llvm::outs() << "candidates: " << candidates.size() << "\n";

  // The same choice through the registered pass, then the lowering.
  auto pm = mlir::PassManager::on<mlir::ModuleOp>(&context);
  if (mlir::failed(mlir::parsePassPipeline(
          "dojo-heuristic{target=cpu}", pm)) ||
      mlir::failed(pm.run(*module)))
    return 1;
  // (Moves may rebuild the kernel op: look it up again.)
  perfdojo::exportDojo(*module->getOps<perfdojo::dojo::KernelOp>().begin(),
                       llvm::outs());
  auto lower = mlir::PassManager::on<mlir::ModuleOp>(&context);
  if (mlir::failed(mlir::parsePassPipeline("dojo-to-llvm", lower)) ||
      mlir::failed(lower.run(*module)))
    return 1;
  llvm::outs() << "lowered: " << module->getOps().begin()->getName() << "\n";
  return 0;
}
