//===- SnitchAssembly.h - snitch functions to RISC-V assembly --*- C++ -*-===//
//
// Prints ISA-level snitch functions as RISC-V assembly for rv32imafd that
// upstream llvm-mc assembles: standard instructions by their mnemonics,
// Xssr and Xfrep instructions as `.insn` lines (encodings in docs/snitch.md)
// with the Snitch mnemonic in a comment, and the SSR CSR by its number.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TARGET_SNITCHASSEMBLY_SNITCHASSEMBLY_H
#define PERFDOJO_TARGET_SNITCHASSEMBLY_SNITCHASSEMBLY_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace perfdojo {

/// Writes every `snitch.function` in `root` (a module, or one function) as
/// assembly. Fails with an error on the op when a structured op
/// (`snitch.streaming_region`, `snitch.frep`) remains: run
/// `--snitch-lower-to-isa` first.
mlir::LogicalResult emitSnitchAssembly(mlir::Operation *root,
                                       llvm::raw_ostream &os);

/// Lowers the structured ops of every function in `module` to the ISA
/// level (the `snitch-lower-to-isa` pass), then emits it.
mlir::LogicalResult lowerAndEmitSnitchAssembly(mlir::ModuleOp module,
                                               llvm::raw_ostream &os);

/// Lowers every `dojo.kernel` of `library` for a Snitch core
/// (`convert-dojo-to-snitch`, then `snitch-lower-to-isa`) and emits the
/// assembly: `perfdojo-translate --emit=snitch-asm`. Errors are reported at
/// the kernels.
mlir::LogicalResult emitKernelsAsSnitchAssembly(mlir::ModuleOp library,
                                                llvm::raw_ostream &os);

/// Registers `--snitch-to-asm` with mlir-translate (perfdojo-translate).
void registerSnitchTranslations();

} // namespace perfdojo

#endif // PERFDOJO_TARGET_SNITCHASSEMBLY_SNITCHASSEMBLY_H
