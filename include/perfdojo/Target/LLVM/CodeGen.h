//===- CodeGen.h - dojo kernels to machine code ----------------*- C++ -*-===//
//
// The steps shared by the JIT (perfdojo-run) and ahead-of-time emission
// (perfdojo-translate --emit=...): choose a target machine, lower a module
// of dojo kernels to the LLVM dialect, translate it to LLVM IR tuned for
// that machine, optimize, and emit assembly or an object file.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TARGET_LLVM_CODEGEN_H
#define PERFDOJO_TARGET_LLVM_CODEGEN_H

#include "perfdojo/Conversion/Pipelines.h"
#include "perfdojo/Dialect/Dojo/IR/TargetDescription.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>

namespace perfdojo {

/// Names accepted by `--target=`, for help texts and diagnostics.
llvm::StringRef getSupportedTargetsHelp();

/// The target machine for `target`: `host` (this CPU and its features),
/// `x86_64`, `x86_64-avx2`, `x86_64-avx512`, `aarch64` (NEON), `riscv64`
/// (RV64GC) or `riscv64-v` (RV64GCV). `optLevel` is 0-3.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(llvm::StringRef target, unsigned optLevel);

/// What the lowering knows of `target` (a name createTargetMachine
/// accepts): the CPU description with the width of its vector registers.
llvm::Expected<TargetDescription>
getCpuTargetDescription(llvm::StringRef target);

/// Runs the dojo-to-LLVM pipeline on `module` in place. Diagnostics go to
/// the context's handler; the error says which stage failed.
llvm::Error lowerToLLVMDialect(mlir::ModuleOp module,
                               const DojoToLLVMOptions &options = {});

/// Translates an LLVM-dialect module to LLVM IR for `machine`: triple, data
/// layout, and per function the CPU, features and the widest vector it uses
/// (`min-legal-vector-width`), so an explicit 512-bit vector is not split
/// into two 256-bit halves on CPUs that prefer 256-bit vectors.
llvm::Expected<std::unique_ptr<llvm::Module>>
translateToLLVMIR(mlir::ModuleOp module, llvm::LLVMContext &context,
                  llvm::TargetMachine &machine);

/// Runs LLVM's standard optimization pipeline at `optLevel` (0-3).
llvm::Error optimizeModule(llvm::Module &module, unsigned optLevel,
                           llvm::TargetMachine &machine);

enum class OutputKind { Assembly, Object };

/// Emits `module` as assembly text or an object file into `os`.
llvm::Error emitMachineCode(llvm::Module &module, llvm::TargetMachine &machine,
                            OutputKind kind, llvm::raw_pwrite_stream &os);

} // namespace perfdojo

#endif // PERFDOJO_TARGET_LLVM_CODEGEN_H
