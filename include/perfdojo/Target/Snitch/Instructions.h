//===- Instructions.h - what each Snitch mnemonic is ------------*- C++ -*-===//
//
// The one table of the RISC-V instructions the Snitch tools understand
// (RV32IM, F, D, the SSR enable CSR, and the Xssr/Xfrep custom instructions):
// for every mnemonic its operands as written, the functional unit that runs it
// (which selects its latency in SnitchCore), and the three facts the FREP
// sequencer cares about (docs: snitch-target.md §3.4):
//
//  * whether the FP subsystem executes it,
//  * whether it takes the sequencer's "direct" path, i.e. synchronises the
//    integer and FP pipelines and so waits until queued FP work has drained
//    (FP compares, fclass, fmv.x.w / fmv.w.x, int<->FP fcvt, CSR accesses),
//  * whether it may be repeated in an FREP body: FP subsystem, not direct
//    path, no memory access (the core computes an FP load/store address once,
//    so every repetition would reuse it).
//
// The assembler, the executable model and the `snitch` dialect's verifier all
// read this table, so no other file lists mnemonics.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TARGET_SNITCH_INSTRUCTIONS_H
#define PERFDOJO_TARGET_SNITCH_INSTRUCTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace perfdojo::snitch {

struct Latencies;

/// Every mnemonic the table knows, base instructions first, then the
/// assembler pseudo-instructions (which the assembler expands into base
/// instructions, so the model never executes them).
// clang-format off
enum class Opcode : uint16_t {
  // RV32I.
  Add, Sub, And, Or, Xor, Sll, Srl, Sra, Slt, Sltu,
  Addi, Andi, Ori, Xori, Slli, Srli, Srai, Slti, Sltiu,
  Lui, Auipc,
  Lw, Lh, Lhu, Lb, Lbu, Sw, Sh, Sb,
  Beq, Bne, Blt, Bge, Bltu, Bgeu, Jal, Jalr,
  // M.
  Mul, Mulh, Mulhsu, Mulhu, Div, Divu, Rem, Remu,
  // F and D.
  Flw, Fsw, Fld, Fsd,
  FaddS, FaddD, FsubS, FsubD, FmulS, FmulD, FdivS, FdivD, FsqrtS, FsqrtD,
  FminS, FminD, FmaxS, FmaxD,
  FmaddS, FmaddD, FmsubS, FmsubD, FnmaddS, FnmaddD, FnmsubS, FnmsubD,
  FsgnjS, FsgnjD, FsgnjnS, FsgnjnD, FsgnjxS, FsgnjxD,
  FcvtDS, FcvtSD, FcvtDW, FcvtDWu, FcvtSW, FcvtSWu, FcvtWD, FcvtWuD, FcvtWS,
  FcvtWuS,
  FmvXW, FmvWX,
  FeqS, FeqD, FltS, FltD, FleS, FleD, FclassS, FclassD,
  // Zicsr, immediate forms (the model gives CSR 0x7c0 bit 0 a meaning).
  Csrsi, Csrci,
  // Xfrep and Xssr.
  FrepO, FrepI, Scfgwi, Scfgri, Scfgw, Scfgr,
  // Pseudo-instructions.
  Li, Mv, Not, Neg, Nop, J, Jr, Ret,
  Beqz, Bnez, Blez, Bgez, Bltz, Bgtz, Bgt, Ble, Bgtu, Bleu,
  FmvS, FmvD, FnegS, FnegD, FabsS, FabsD,
};
// clang-format on

/// What kind of value an operand is, as written in assembly.
enum class OperandKind : uint8_t {
  IntegerRegister, ///< x0-x31 or an ABI name
  FpRegister,      ///< f0-f31 or an ABI name
  Immediate,       ///< an integer literal
  Memory,          ///< `imm(reg)` with an integer base register
  Label,           ///< a code label (branch and jump targets)
};

/// The encoding field a register operand fills: dependence tracking and FREP
/// stagger (which offsets fields rd/rs1/rs2/rs3 by mask bits 0-3) use it.
enum class RegisterSlot : uint8_t { None, Rd, Rs1, Rs2, Rs3 };

/// One operand position of a mnemonic. A Memory operand's base register
/// fills `slot`; immediates and labels have no slot.
struct OperandSpec {
  OperandKind kind;
  RegisterSlot slot;
};

/// The functional unit that executes an instruction. It selects the
/// instruction's result latency (see getResultLatency).
enum class UnitClass : uint8_t {
  IntegerAlu,
  IntegerMul,
  IntegerDiv,
  IntegerLoadStore,
  BranchJump,
  StreamConfig, ///< scfg*: the integer core writes the SSR block directly
  Frep,         ///< frep.o/frep.i: configures the sequencer
  Csr,
  FpFma64,      ///< fadd/fsub/fmul/fmadd... on f64 (FPnew ADDMUL group)
  FpFma32,      ///< the same on f32
  FpNonComp,    ///< fsgnj*, fmin/fmax, compares, fclass, fmv.x.w/fmv.w.x
  FpConversion, ///< fcvt.*
  FpDivSqrt,
  FpLoadStore, ///< flw/fsw/fld/fsd (the FP subsystem's LSU)
};

/// Everything the tools need to know about one mnemonic.
struct InstructionInfo {
  llvm::StringLiteral mnemonic;
  Opcode opcode;
  UnitClass unit;
  /// Operand positions as written (after the mnemonic).
  llvm::ArrayRef<OperandSpec> operands;
  /// The FP subsystem executes it (FP arithmetic, FP loads/stores, moves
  /// between register files, conversions).
  bool fpSubsystem;
  /// It synchronises the integer core with the FP sequencer: it is only
  /// forwarded once all queued FP work has issued.
  bool directPath;
  /// An assembler pseudo-instruction; its other facts are those of the base
  /// instruction(s) it expands to.
  bool pseudo;

  bool mayLoad() const;
  bool mayStore() const;
  bool isMemoryAccess() const { return mayLoad() || mayStore(); }
  /// May appear in an FREP body: executed by the FP subsystem, not on the
  /// direct path, not a load or store (snitch-target.md §3.4).
  bool isFrepRepeatable() const {
    return fpSubsystem && !directPath && !isMemoryAccess();
  }
  /// Whether the register in `slot` is an FP register (false when the
  /// instruction has no register in that slot).
  bool isFpRegisterSlot(RegisterSlot slot) const;
  /// Whether the instruction has a register in `slot`.
  bool hasRegisterSlot(RegisterSlot slot) const;
};

/// The table entry of `mnemonic` (exact, lower case), or nullptr if the tools
/// do not know it.
const InstructionInfo *lookupInstruction(llvm::StringRef mnemonic);

/// The table entry of `opcode`.
const InstructionInfo &getInstructionInfo(Opcode opcode);

/// All table entries, in Opcode order.
llvm::ArrayRef<InstructionInfo> getAllInstructions();

/// Cycles from issuing an instruction of `unit` until a dependent
/// instruction may issue, read from `latency`. Branches, stream
/// configuration, CSR and FREP instructions count as integer ALU work.
int64_t getResultLatency(UnitClass unit, const Latencies &latency);

} // namespace perfdojo::snitch

#endif // PERFDOJO_TARGET_SNITCH_INSTRUCTIONS_H
