//===- InstructionFacts.h - what a snitch.insn does --------------*- C++ -*-===//
//
// The instruction table (Target/Snitch/Instructions.h) read for one
// `snitch.insn`: whether its operands fit its mnemonic, which FP registers
// it reads and writes, which operands are labels, and why the FREP
// sequencer could not repeat it. The snitch verifiers ask these questions;
// the answers come from the one table the executable model also runs by.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_DIALECT_SNITCH_IR_INSTRUCTIONFACTS_H
#define PERFDOJO_DIALECT_SNITCH_IR_INSTRUCTIONFACTS_H

#include "perfdojo/Dialect/Snitch/IR/Snitch.h"

#include <optional>
#include <string>

namespace perfdojo::snitch {

/// Whether `name` is an integer (`x0`-`x31`, ABI names) or FP
/// (`f0`-`f31`, ABI names) register.
bool isIntegerRegisterName(llvm::StringRef name);
bool isFloatRegisterName(llvm::StringRef name);

/// The FP registers an instruction reads and writes, and whether it moves
/// data between registers and memory.
struct RegisterUses {
  llvm::SmallVector<llvm::StringRef, 3> floatReads;
  llvm::SmallVector<llvm::StringRef, 1> floatWrites;
  bool isMemoryAccess = false;
};
/// For a verified `insn`.
RegisterUses getRegisterUses(InsnOp insn);

/// The operands of a verified `insn` that are branch targets.
llvm::SmallVector<llvm::StringRef, 1> getLabelOperands(InsnOp insn);

/// Why the mnemonic is unknown or the operands do not fit it, or nullopt.
std::optional<std::string> findOperandError(InsnOp insn);

/// Why the FP sequencer cannot repeat `insn` (not an FP-subsystem
/// instruction, a load or store, or a direct-path instruction), or nullopt.
std::optional<std::string> findFrepObstacle(InsnOp insn);

} // namespace perfdojo::snitch

#endif // PERFDOJO_DIALECT_SNITCH_IR_INSTRUCTIONFACTS_H
