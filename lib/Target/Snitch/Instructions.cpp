//===- Instructions.cpp - the Snitch instruction table --------------------===//
//
// One row per mnemonic, in Opcode order. The operand lists give the order in
// which assembly writes the operands and the encoding field each register
// fills; the unit column selects the latency; the flags say how the FP
// sequencer treats the instruction (snitch-target.md §3.4, §2.5).
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Target/Snitch/Instructions.h"
#include "perfdojo/Target/Snitch/SnitchCore.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ErrorHandling.h"

using namespace perfdojo::snitch;

namespace {
using K = OperandKind;
using S = RegisterSlot;

constexpr OperandSpec x(RegisterSlot slot) {
  return {K::IntegerRegister, slot};
}
constexpr OperandSpec f(RegisterSlot slot) { return {K::FpRegister, slot}; }
constexpr OperandSpec kImm{K::Immediate, S::None};
constexpr OperandSpec kMem{K::Memory, S::Rs1};
constexpr OperandSpec kLabel{K::Label, S::None};

// Operand lists shared by many rows, named after the letters of their kinds
// (x integer register, f FP register, i immediate, m memory, l label).
const OperandSpec kXXX[] = {x(S::Rd), x(S::Rs1), x(S::Rs2)};
const OperandSpec kXXI[] = {x(S::Rd), x(S::Rs1), kImm};
const OperandSpec kXI[] = {x(S::Rd), kImm};
const OperandSpec kXM[] = {x(S::Rd), kMem};
/// Stores write the data register first; it fills rs2.
const OperandSpec kStoreXM[] = {x(S::Rs2), kMem};
const OperandSpec kBranch[] = {x(S::Rs1), x(S::Rs2), kLabel};
const OperandSpec kJal[] = {x(S::Rd), kLabel};
const OperandSpec kFFF[] = {f(S::Rd), f(S::Rs1), f(S::Rs2)};
const OperandSpec kFFFF[] = {f(S::Rd), f(S::Rs1), f(S::Rs2), f(S::Rs3)};
const OperandSpec kFF[] = {f(S::Rd), f(S::Rs1)};
const OperandSpec kFX[] = {f(S::Rd), x(S::Rs1)};
const OperandSpec kXF[] = {x(S::Rd), f(S::Rs1)};
const OperandSpec kXFF[] = {x(S::Rd), f(S::Rs1), f(S::Rs2)};
const OperandSpec kFM[] = {f(S::Rd), kMem};
const OperandSpec kStoreFM[] = {f(S::Rs2), kMem};
/// csrsi/csrci: the CSR number, then the 5-bit immediate (which the
/// encoding carries in the rs1 field, but as a value, not a register).
const OperandSpec kCsrI[] = {kImm, kImm};
/// frep.o/frep.i rs1, instruction count, stagger count, stagger mask.
const OperandSpec kFrep[] = {x(S::Rs1), kImm, kImm, kImm};
const OperandSpec kScfgwi[] = {x(S::Rs1), kImm};
const OperandSpec kScfgri[] = {x(S::Rd), kImm};
const OperandSpec kScfgw[] = {x(S::Rs1), x(S::Rs2)};
const OperandSpec kScfgr[] = {x(S::Rd), x(S::Rs2)};
const OperandSpec kXX[] = {x(S::Rd), x(S::Rs1)};
const OperandSpec kX[] = {x(S::Rs1)};
const OperandSpec kL[] = {kLabel};
const OperandSpec kXL[] = {x(S::Rs1), kLabel};
const llvm::ArrayRef<OperandSpec> kNone;

/// An instruction the integer core executes itself.
constexpr InstructionInfo integer(llvm::StringLiteral mnemonic, Opcode opcode,
                                  UnitClass unit,
                                  llvm::ArrayRef<OperandSpec> operands) {
  return {mnemonic,
          opcode,
          unit,
          operands,
          /*fpSubsystem=*/false,
          /*directPath=*/false,
          /*pseudo=*/false};
}

/// An instruction the FP subsystem executes through its queue (FREP-able
/// unless it accesses memory).
constexpr InstructionInfo fp(llvm::StringLiteral mnemonic, Opcode opcode,
                             UnitClass unit,
                             llvm::ArrayRef<OperandSpec> operands) {
  return {mnemonic,
          opcode,
          unit,
          operands,
          /*fpSubsystem=*/true,
          /*directPath=*/false,
          /*pseudo=*/false};
}

/// An FP-subsystem instruction on the direct path: it moves data between
/// the register files, so the sequencer forwards it only once drained.
constexpr InstructionInfo direct(llvm::StringLiteral mnemonic, Opcode opcode,
                                 UnitClass unit,
                                 llvm::ArrayRef<OperandSpec> operands) {
  return {mnemonic,
          opcode,
          unit,
          operands,
          /*fpSubsystem=*/true,
          /*directPath=*/true,
          /*pseudo=*/false};
}

/// A pseudo-instruction with the facts of `base`, the instruction it
/// expands to.
InstructionInfo pseudo(llvm::StringLiteral mnemonic, Opcode opcode,
                       const InstructionInfo &base,
                       llvm::ArrayRef<OperandSpec> operands) {
  return {mnemonic,         opcode,          base.unit,      operands,
          base.fpSubsystem, base.directPath, /*pseudo=*/true};
}

using O = Opcode;
using U = UnitClass;

const InstructionInfo kBaseTable[] = {
    integer("add", O::Add, U::IntegerAlu, kXXX),
    integer("sub", O::Sub, U::IntegerAlu, kXXX),
    integer("and", O::And, U::IntegerAlu, kXXX),
    integer("or", O::Or, U::IntegerAlu, kXXX),
    integer("xor", O::Xor, U::IntegerAlu, kXXX),
    integer("sll", O::Sll, U::IntegerAlu, kXXX),
    integer("srl", O::Srl, U::IntegerAlu, kXXX),
    integer("sra", O::Sra, U::IntegerAlu, kXXX),
    integer("slt", O::Slt, U::IntegerAlu, kXXX),
    integer("sltu", O::Sltu, U::IntegerAlu, kXXX),
    integer("addi", O::Addi, U::IntegerAlu, kXXI),
    integer("andi", O::Andi, U::IntegerAlu, kXXI),
    integer("ori", O::Ori, U::IntegerAlu, kXXI),
    integer("xori", O::Xori, U::IntegerAlu, kXXI),
    integer("slli", O::Slli, U::IntegerAlu, kXXI),
    integer("srli", O::Srli, U::IntegerAlu, kXXI),
    integer("srai", O::Srai, U::IntegerAlu, kXXI),
    integer("slti", O::Slti, U::IntegerAlu, kXXI),
    integer("sltiu", O::Sltiu, U::IntegerAlu, kXXI),
    integer("lui", O::Lui, U::IntegerAlu, kXI),
    integer("auipc", O::Auipc, U::IntegerAlu, kXI),
    integer("lw", O::Lw, U::IntegerLoadStore, kXM),
    integer("lh", O::Lh, U::IntegerLoadStore, kXM),
    integer("lhu", O::Lhu, U::IntegerLoadStore, kXM),
    integer("lb", O::Lb, U::IntegerLoadStore, kXM),
    integer("lbu", O::Lbu, U::IntegerLoadStore, kXM),
    integer("sw", O::Sw, U::IntegerLoadStore, kStoreXM),
    integer("sh", O::Sh, U::IntegerLoadStore, kStoreXM),
    integer("sb", O::Sb, U::IntegerLoadStore, kStoreXM),
    integer("beq", O::Beq, U::BranchJump, kBranch),
    integer("bne", O::Bne, U::BranchJump, kBranch),
    integer("blt", O::Blt, U::BranchJump, kBranch),
    integer("bge", O::Bge, U::BranchJump, kBranch),
    integer("bltu", O::Bltu, U::BranchJump, kBranch),
    integer("bgeu", O::Bgeu, U::BranchJump, kBranch),
    integer("jal", O::Jal, U::BranchJump, kJal),
    integer("jalr", O::Jalr, U::BranchJump, kXXI),
    integer("mul", O::Mul, U::IntegerMul, kXXX),
    integer("mulh", O::Mulh, U::IntegerMul, kXXX),
    integer("mulhsu", O::Mulhsu, U::IntegerMul, kXXX),
    integer("mulhu", O::Mulhu, U::IntegerMul, kXXX),
    integer("div", O::Div, U::IntegerDiv, kXXX),
    integer("divu", O::Divu, U::IntegerDiv, kXXX),
    integer("rem", O::Rem, U::IntegerDiv, kXXX),
    integer("remu", O::Remu, U::IntegerDiv, kXXX),
    fp("flw", O::Flw, U::FpLoadStore, kFM),
    fp("fsw", O::Fsw, U::FpLoadStore, kStoreFM),
    fp("fld", O::Fld, U::FpLoadStore, kFM),
    fp("fsd", O::Fsd, U::FpLoadStore, kStoreFM),
    fp("fadd.s", O::FaddS, U::FpFma32, kFFF),
    fp("fadd.d", O::FaddD, U::FpFma64, kFFF),
    fp("fsub.s", O::FsubS, U::FpFma32, kFFF),
    fp("fsub.d", O::FsubD, U::FpFma64, kFFF),
    fp("fmul.s", O::FmulS, U::FpFma32, kFFF),
    fp("fmul.d", O::FmulD, U::FpFma64, kFFF),
    fp("fdiv.s", O::FdivS, U::FpDivSqrt, kFFF),
    fp("fdiv.d", O::FdivD, U::FpDivSqrt, kFFF),
    fp("fsqrt.s", O::FsqrtS, U::FpDivSqrt, kFF),
    fp("fsqrt.d", O::FsqrtD, U::FpDivSqrt, kFF),
    fp("fmin.s", O::FminS, U::FpNonComp, kFFF),
    fp("fmin.d", O::FminD, U::FpNonComp, kFFF),
    fp("fmax.s", O::FmaxS, U::FpNonComp, kFFF),
    fp("fmax.d", O::FmaxD, U::FpNonComp, kFFF),
    fp("fmadd.s", O::FmaddS, U::FpFma32, kFFFF),
    fp("fmadd.d", O::FmaddD, U::FpFma64, kFFFF),
    fp("fmsub.s", O::FmsubS, U::FpFma32, kFFFF),
    fp("fmsub.d", O::FmsubD, U::FpFma64, kFFFF),
    fp("fnmadd.s", O::FnmaddS, U::FpFma32, kFFFF),
    fp("fnmadd.d", O::FnmaddD, U::FpFma64, kFFFF),
    fp("fnmsub.s", O::FnmsubS, U::FpFma32, kFFFF),
    fp("fnmsub.d", O::FnmsubD, U::FpFma64, kFFFF),
    fp("fsgnj.s", O::FsgnjS, U::FpNonComp, kFFF),
    fp("fsgnj.d", O::FsgnjD, U::FpNonComp, kFFF),
    fp("fsgnjn.s", O::FsgnjnS, U::FpNonComp, kFFF),
    fp("fsgnjn.d", O::FsgnjnD, U::FpNonComp, kFFF),
    fp("fsgnjx.s", O::FsgnjxS, U::FpNonComp, kFFF),
    fp("fsgnjx.d", O::FsgnjxD, U::FpNonComp, kFFF),
    fp("fcvt.d.s", O::FcvtDS, U::FpConversion, kFF),
    fp("fcvt.s.d", O::FcvtSD, U::FpConversion, kFF),
    direct("fcvt.d.w", O::FcvtDW, U::FpConversion, kFX),
    direct("fcvt.d.wu", O::FcvtDWu, U::FpConversion, kFX),
    direct("fcvt.s.w", O::FcvtSW, U::FpConversion, kFX),
    direct("fcvt.s.wu", O::FcvtSWu, U::FpConversion, kFX),
    direct("fcvt.w.d", O::FcvtWD, U::FpConversion, kXF),
    direct("fcvt.wu.d", O::FcvtWuD, U::FpConversion, kXF),
    direct("fcvt.w.s", O::FcvtWS, U::FpConversion, kXF),
    direct("fcvt.wu.s", O::FcvtWuS, U::FpConversion, kXF),
    direct("fmv.x.w", O::FmvXW, U::FpNonComp, kXF),
    direct("fmv.w.x", O::FmvWX, U::FpNonComp, kFX),
    direct("feq.s", O::FeqS, U::FpNonComp, kXFF),
    direct("feq.d", O::FeqD, U::FpNonComp, kXFF),
    direct("flt.s", O::FltS, U::FpNonComp, kXFF),
    direct("flt.d", O::FltD, U::FpNonComp, kXFF),
    direct("fle.s", O::FleS, U::FpNonComp, kXFF),
    direct("fle.d", O::FleD, U::FpNonComp, kXFF),
    direct("fclass.s", O::FclassS, U::FpNonComp, kXF),
    direct("fclass.d", O::FclassD, U::FpNonComp, kXF),
    // csrsi/csrci on the SSR CSR are offloaded and ride the direct path, so
    // the enable takes effect in order with FP work (§2.5); the FP subsystem
    // executes nothing for them.
    {"csrsi", O::Csrsi, U::Csr, kCsrI, /*fpSubsystem=*/false,
     /*directPath=*/true, /*pseudo=*/false},
    {"csrci", O::Csrci, U::Csr, kCsrI, /*fpSubsystem=*/false,
     /*directPath=*/true, /*pseudo=*/false},
    // The sequencer consumes frep itself; nesting (newer hardware, §3.7) is
    // not modelled, so frep is not FREP-repeatable.
    integer("frep.o", O::FrepO, U::Frep, kFrep),
    integer("frep.i", O::FrepI, U::Frep, kFrep),
    integer("scfgwi", O::Scfgwi, U::StreamConfig, kScfgwi),
    integer("scfgri", O::Scfgri, U::StreamConfig, kScfgri),
    integer("scfgw", O::Scfgw, U::StreamConfig, kScfgw),
    integer("scfgr", O::Scfgr, U::StreamConfig, kScfgr),
};

const InstructionInfo &base(Opcode opcode) {
  return kBaseTable[static_cast<size_t>(opcode)];
}

/// The base table followed by the pseudo-instructions, built once.
const std::vector<InstructionInfo> &getTable() {
  static const std::vector<InstructionInfo> table = [] {
    std::vector<InstructionInfo> rows(std::begin(kBaseTable),
                                      std::end(kBaseTable));
    const InstructionInfo pseudos[] = {
        pseudo("li", O::Li, base(O::Addi), kXI),
        pseudo("mv", O::Mv, base(O::Addi), kXX),
        pseudo("not", O::Not, base(O::Xori), kXX),
        pseudo("neg", O::Neg, base(O::Sub), kXX),
        pseudo("nop", O::Nop, base(O::Addi), kNone),
        pseudo("j", O::J, base(O::Jal), kL),
        pseudo("jr", O::Jr, base(O::Jalr), kX),
        pseudo("ret", O::Ret, base(O::Jalr), kNone),
        pseudo("beqz", O::Beqz, base(O::Beq), kXL),
        pseudo("bnez", O::Bnez, base(O::Bne), kXL),
        pseudo("blez", O::Blez, base(O::Bge), kXL),
        pseudo("bgez", O::Bgez, base(O::Bge), kXL),
        pseudo("bltz", O::Bltz, base(O::Blt), kXL),
        pseudo("bgtz", O::Bgtz, base(O::Blt), kXL),
        pseudo("bgt", O::Bgt, base(O::Blt), kBranch),
        pseudo("ble", O::Ble, base(O::Bge), kBranch),
        pseudo("bgtu", O::Bgtu, base(O::Bltu), kBranch),
        pseudo("bleu", O::Bleu, base(O::Bgeu), kBranch),
        pseudo("fmv.s", O::FmvS, base(O::FsgnjS), kFF),
        pseudo("fmv.d", O::FmvD, base(O::FsgnjD), kFF),
        pseudo("fneg.s", O::FnegS, base(O::FsgnjnS), kFF),
        pseudo("fneg.d", O::FnegD, base(O::FsgnjnD), kFF),
        pseudo("fabs.s", O::FabsS, base(O::FsgnjxS), kFF),
        pseudo("fabs.d", O::FabsD, base(O::FsgnjxD), kFF),
    };
    rows.insert(rows.end(), std::begin(pseudos), std::end(pseudos));
    return rows;
  }();
  return table;
}
} // namespace

bool InstructionInfo::mayLoad() const {
  switch (opcode) {
  case O::Lw:
  case O::Lh:
  case O::Lhu:
  case O::Lb:
  case O::Lbu:
  case O::Flw:
  case O::Fld:
    return true;
  default:
    return false;
  }
}

bool InstructionInfo::mayStore() const {
  switch (opcode) {
  case O::Sw:
  case O::Sh:
  case O::Sb:
  case O::Fsw:
  case O::Fsd:
    return true;
  default:
    return false;
  }
}

bool InstructionInfo::hasRegisterSlot(RegisterSlot slot) const {
  return llvm::any_of(
      operands, [&](const OperandSpec &spec) { return spec.slot == slot; });
}

bool InstructionInfo::isFpRegisterSlot(RegisterSlot slot) const {
  return llvm::any_of(operands, [&](const OperandSpec &spec) {
    return spec.slot == slot && spec.kind == OperandKind::FpRegister;
  });
}

const InstructionInfo *
perfdojo::snitch::lookupInstruction(llvm::StringRef mnemonic) {
  static const llvm::StringMap<const InstructionInfo *> byName = [] {
    llvm::StringMap<const InstructionInfo *> map;
    for (const InstructionInfo &info : getTable())
      map[info.mnemonic] = &info;
    return map;
  }();
  auto it = byName.find(mnemonic);
  return it == byName.end() ? nullptr : it->second;
}

const InstructionInfo &perfdojo::snitch::getInstructionInfo(Opcode opcode) {
  return getTable()[static_cast<size_t>(opcode)];
}

llvm::ArrayRef<InstructionInfo> perfdojo::snitch::getAllInstructions() {
  return getTable();
}

int64_t perfdojo::snitch::getResultLatency(UnitClass unit,
                                           const Latencies &latency) {
  switch (unit) {
  case U::IntegerAlu:
  case U::BranchJump:
  case U::StreamConfig:
  case U::Frep:
  case U::Csr:
    return latency.integerAlu;
  case U::IntegerMul:
    return latency.integerMul;
  case U::IntegerDiv:
    return latency.integerDiv;
  case U::IntegerLoadStore:
    return latency.integerLoad;
  case U::FpFma64:
    return latency.fpFma64;
  case U::FpFma32:
    return latency.fpFma32;
  case U::FpNonComp:
    return latency.fpNonComp;
  case U::FpConversion:
    return latency.fpConversion;
  case U::FpDivSqrt:
    return latency.fpDivSqrt;
  case U::FpLoadStore:
    return latency.fpLoad;
  }
  llvm_unreachable("unknown unit class");
}
