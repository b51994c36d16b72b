//===- DojoTextExport.cpp - the dojo dialect to canonical `.dojo` text ---===//
//
// Canonical form: one line per buffer in declaration order, then one line
// per leaf in execution order. A leaf's line starts with one entry per
// enclosing scope: `|` if that scope was opened on an earlier line, its size
// (and `:mode`) otherwise. Tokens are separated by single spaces; there are
// no comments or blank lines.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Target/DojoText/DojoText.h"
#include "perfdojo/Dialect/Dojo/IR/TextSyntax.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

namespace {
class Exporter {
public:
  explicit Exporter(llvm::raw_ostream &os) : os(os) {}

  void exportNode(Operation *op) {
    if (auto scope = dyn_cast<ScopeOp>(op)) {
      path.push_back(scope);
      for (Operation &child : scope.getBlock())
        exportNode(&child);
      path.pop_back();
      return;
    }
    auto leaf = cast<LeafOp>(op);
    for (ScopeOp scope : path) {
      if (opened.insert(scope).second) {
        printScopeHeader(os, scope);
      } else {
        os << "|";
      }
      os << " ";
    }
    printStatement(os, leaf);
    os << "\n";
  }

private:
  llvm::raw_ostream &os;
  SmallVector<ScopeOp, 8> path;
  llvm::SmallPtrSet<Operation *, 32> opened;
};
} // namespace

void perfdojo::exportDojo(KernelOp kernel, llvm::raw_ostream &os) {
  for (BufferOp buffer : kernel.getBuffers()) {
    printBufferDecl(os, buffer);
    os << "\n";
  }
  Exporter exporter(os);
  for (Operation &op : kernel.getBlock())
    if (!isa<BufferOp>(op))
      exporter.exportNode(&op);
}

LogicalResult perfdojo::exportDojo(Operation *op, llvm::raw_ostream &os) {
  if (auto kernel = dyn_cast<KernelOp>(op)) {
    exportDojo(kernel, os);
    return success();
  }
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->emitError("expected a dojo.kernel or a module holding one");
  KernelOp kernel = getSingleKernel(module);
  if (!kernel)
    return failure();
  exportDojo(kernel, os);
  return success();
}

std::string perfdojo::hashKernelText(llvm::StringRef text) {
  return llvm::utohexstr(llvm::xxh3_64bits(text), /*LowerCase=*/true,
                         /*Width=*/16);
}

std::string perfdojo::hashKernel(KernelOp kernel) {
  std::string text;
  llvm::raw_string_ostream os(text);
  exportDojo(kernel, os);
  return hashKernelText(text);
}

void perfdojo::registerDojoTranslations() {
  static llvm::cl::opt<std::string> kernelName(
      "kernel-name",
      llvm::cl::desc("Name of the imported kernel (default: the file's stem)"),
      llvm::cl::init(""));
  TranslateToMLIRRegistration importReg(
      "import-dojo", "import `.dojo` text into the dojo dialect",
      [](llvm::SourceMgr &sourceMgr, MLIRContext *context) {
        return OwningOpRef<Operation *>(
            importDojo(sourceMgr, context, kernelName).release());
      },
      [](DialectRegistry &registry) { registry.insert<DojoDialect>(); });
  registerCheckedTranslationFromMLIR(
      "export-dojo", "export a dojo kernel as canonical `.dojo` text",
      [](Operation *op, llvm::raw_ostream &os) { return exportDojo(op, os); },
      [](DialectRegistry &registry) { registry.insert<DojoDialect>(); });
}
