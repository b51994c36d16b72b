//===- Assembly.h - Snitch assembly text as a program -----------*- C++ -*-===//
//
// Parses the RISC-V assembly that upstream llvm-mc accepts for Snitch
// kernels (snitch-target.md §4) into a Program the executable model runs:
// RV32IM, F, D, `csrsi/csrci` on the SSR CSR, and the Xfrep/Xssr custom
// instructions, either spelled as `.insn` lines (decoded by their fields) or
// by their Snitch mnemonics (`frep.o`, `scfgwi`, ...). Pseudo-instructions are
// expanded as an assembler would (`li` of a large constant becomes `lui` +
// `addi`, `fmv.d` becomes `fsgnj.d`), so the program holds base instructions
// only. Errors name the source line: "line N: ...".
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TARGET_SNITCH_ASSEMBLY_H
#define PERFDOJO_TARGET_SNITCH_ASSEMBLY_H

#include "perfdojo/Target/Snitch/Instructions.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace perfdojo::snitch {

/// One operand of a parsed instruction.
struct Operand {
  OperandKind kind = OperandKind::Immediate;
  /// The register number: IntegerRegister, FpRegister, or a Memory base.
  unsigned reg = 0;
  /// The value of an Immediate, the offset of a Memory operand.
  int64_t imm = 0;
  /// A Label's name and, once the program is parsed, the index of the
  /// instruction it names (the program's size for a label at its end).
  std::string label;
  size_t target = 0;

  static Operand integerRegister(unsigned reg);
  static Operand fpRegister(unsigned reg);
  static Operand immediate(int64_t value);
  static Operand memory(int64_t offset, unsigned base);
  static Operand labelRef(llvm::StringRef name);
};

/// One base instruction (pseudo-instructions are already expanded).
struct Instruction {
  const InstructionInfo *info = nullptr;
  /// Operands in the order of info->operands.
  llvm::SmallVector<Operand, 4> operands;
  /// 1-based source line it came from.
  unsigned line = 0;

  Opcode getOpcode() const { return info->opcode; }
  llvm::StringRef getMnemonic() const { return info->mnemonic; }
  /// The register filling encoding field `slot`, if the instruction has one.
  std::optional<unsigned> getRegister(RegisterSlot slot) const;
  /// The first immediate operand (the offset of a Memory operand counts).
  int64_t getImmediate() const;
};

/// A parsed assembly text.
struct Program {
  std::vector<Instruction> instructions;
  /// Label name -> index of the instruction it precedes.
  llvm::StringMap<size_t> labels;

  std::optional<size_t> lookupLabel(llvm::StringRef name) const;
};

/// Parses `text`. Comments (`#` to end of line) and the layout directives
/// (.text .globl .global .p2align .align .type .size .section .option .file,
/// and .ident .attribute .addrsig .cfi_*, which carry no code) are ignored;
/// any other directive is an error.
llvm::Expected<Program> parseAssembly(llvm::StringRef text);

/// parseAssembly of the file at `path`.
llvm::Expected<Program> parseAssemblyFile(llvm::StringRef path);

/// `text` read as one operand of `kind` (registers in any case, integers
/// with a sign or a 0x/0b prefix, `offset(register)` or `(register)`, an
/// assembler symbol for a label), or nullopt if it is not one. The
/// assembler and the snitch dialect's verifier both read operands by it.
std::optional<Operand> parseOperandText(llvm::StringRef text, OperandKind kind);
/// How messages name an operand kind: "an integer register", ...
llvm::StringRef describeOperandKind(OperandKind kind);

/// x0-x31 or an ABI name (zero ra sp gp tp t0-t6 s0-s11 fp a0-a7).
std::optional<unsigned> parseIntegerRegister(llvm::StringRef name);
/// f0-f31 or an ABI name (ft0-ft11 fs0-fs11 fa0-fa7).
std::optional<unsigned> parseFpRegister(llvm::StringRef name);
/// The ABI names, for messages.
llvm::StringRef getIntegerRegisterName(unsigned reg);
llvm::StringRef getFpRegisterName(unsigned reg);

} // namespace perfdojo::snitch

#endif // PERFDOJO_TARGET_SNITCH_ASSEMBLY_H
