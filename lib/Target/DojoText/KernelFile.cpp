//===- KernelFile.cpp - a tool's input kernel -----------------------------===//

#include "perfdojo/Target/DojoText/KernelFile.h"
#include "perfdojo/Target/DojoText/DojoText.h"

using namespace perfdojo;

KernelFile::KernelFile() : diagnostics(sourceMgr, &context) {
  // The located message is enough; the whole kernel printed after each
  // error would bury it.
  context.printOpOnDiagnostic(false);
}

dojo::KernelOp KernelFile::load(llvm::StringRef path) {
  module = loadKernelFile(sourceMgr, path, &context);
  return module ? getSingleKernel(*module) : nullptr;
}
