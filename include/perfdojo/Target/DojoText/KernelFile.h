//===- KernelFile.h - a tool's input kernel ---------------------*- C++ -*-===//
//
// What every tool that reads one kernel needs: a context, a source manager
// kept alive with a diagnostic handler (so later errors, from the verifier
// or a move, show the source line), and the kernel itself.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TARGET_DOJOTEXT_KERNELFILE_H
#define PERFDOJO_TARGET_DOJOTEXT_KERNELFILE_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

namespace perfdojo {

class KernelFile {
public:
  KernelFile();

  /// Loads `path` (`.dojo` text or MLIR) and returns its one kernel, or
  /// null after printing why.
  dojo::KernelOp load(llvm::StringRef path);

  mlir::MLIRContext &getContext() { return context; }
  /// The module `load` read (null before).
  mlir::ModuleOp getModule() { return module.get(); }

private:
  mlir::MLIRContext context;
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

} // namespace perfdojo

#endif // PERFDOJO_TARGET_DOJOTEXT_KERNELFILE_H
