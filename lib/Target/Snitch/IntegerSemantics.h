//===- IntegerSemantics.h - RV32IM arithmetic and branches ------*- C++ -*-===//
//
// What the RV32I ALU, the M extension and the conditional branches compute
// on 32-bit register values, as pure functions (the model supplies operands
// and handles memory, jumps and timing). Division never traps: RISC-V defines
// x / 0 = -1, x % 0 = x and INT_MIN / -1 = INT_MIN with remainder 0.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_LIB_TARGET_SNITCH_INTEGERSEMANTICS_H
#define PERFDOJO_LIB_TARGET_SNITCH_INTEGERSEMANTICS_H

#include "perfdojo/Target/Snitch/Instructions.h"

#include <cstdint>
#include <optional>

namespace perfdojo::snitch::intsem {

/// The value an ALU or MULDIV instruction (or lui) writes to rd, given
/// rs1 = `a`, rs2 = `b` and its immediate (for auipc, `a` is the
/// instruction's own address); std::nullopt for any other instruction.
std::optional<uint32_t> computeArithmetic(Opcode opcode, uint32_t a, uint32_t b,
                                          uint32_t imm);

/// Whether the conditional branch `opcode` comparing rs1 = `a` with
/// rs2 = `b` is taken; std::nullopt if `opcode` is not one.
std::optional<bool> isBranchTaken(Opcode opcode, uint32_t a, uint32_t b);

} // namespace perfdojo::snitch::intsem

#endif // PERFDOJO_LIB_TARGET_SNITCH_INTEGERSEMANTICS_H
