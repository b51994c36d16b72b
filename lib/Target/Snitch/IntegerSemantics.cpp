//===- IntegerSemantics.cpp - RV32IM arithmetic and branches --------------===//
//
// Register values are uint32_t; signed operations reinterpret them as int32_t
// and products widen to 64 bits, so no operation overflows in C++.
//
//===----------------------------------------------------------------------===//

#include "IntegerSemantics.h"

using namespace perfdojo::snitch;
using O = Opcode;

namespace {
/// Shift amounts use the low five bits of the register or immediate.
constexpr uint32_t kShiftMask = 31;
/// lui and auipc place their 20-bit immediate in the upper bits.
constexpr unsigned kUpperImmediateShift = 12;
} // namespace

std::optional<uint32_t> intsem::computeArithmetic(Opcode opcode, uint32_t a,
                                                  uint32_t b, uint32_t imm) {
  int32_t sa = static_cast<int32_t>(a), sb = static_cast<int32_t>(b);
  int32_t simm = static_cast<int32_t>(imm);
  switch (opcode) {
  case O::Add:
    return a + b;
  case O::Sub:
    return a - b;
  case O::And:
    return a & b;
  case O::Or:
    return a | b;
  case O::Xor:
    return a ^ b;
  case O::Sll:
    return a << (b & kShiftMask);
  case O::Srl:
    return a >> (b & kShiftMask);
  case O::Sra:
    return static_cast<uint32_t>(sa >> (b & kShiftMask));
  case O::Slt:
    return uint32_t(sa < sb);
  case O::Sltu:
    return uint32_t(a < b);
  case O::Addi:
    return a + imm;
  case O::Andi:
    return a & imm;
  case O::Ori:
    return a | imm;
  case O::Xori:
    return a ^ imm;
  case O::Slli:
    return a << (imm & kShiftMask);
  case O::Srli:
    return a >> (imm & kShiftMask);
  case O::Srai:
    return static_cast<uint32_t>(sa >> (imm & kShiftMask));
  case O::Slti:
    return uint32_t(sa < simm);
  case O::Sltiu:
    // The immediate is sign-extended, then compared unsigned.
    return uint32_t(a < imm);
  case O::Lui:
    return imm << kUpperImmediateShift;
  case O::Auipc:
    return a + (imm << kUpperImmediateShift);
  // The high halves of the 64-bit products; the operands' signedness
  // differs per instruction.
  case O::Mul:
    return a * b;
  case O::Mulh:
    return static_cast<uint32_t>((int64_t(sa) * int64_t(sb)) >> 32);
  case O::Mulhsu:
    return static_cast<uint32_t>((int64_t(sa) * int64_t(uint64_t(b))) >> 32);
  case O::Mulhu:
    return static_cast<uint32_t>((uint64_t(a) * b) >> 32);
  case O::Div:
    if (b == 0)
      return ~0u;
    if (sa == INT32_MIN && sb == -1)
      return a;
    return static_cast<uint32_t>(sa / sb);
  case O::Divu:
    return b == 0 ? ~0u : a / b;
  case O::Rem:
    if (b == 0)
      return a;
    if (sa == INT32_MIN && sb == -1)
      return 0u;
    return static_cast<uint32_t>(sa % sb);
  case O::Remu:
    return b == 0 ? a : a % b;
  default:
    return std::nullopt;
  }
}

std::optional<bool> intsem::isBranchTaken(Opcode opcode, uint32_t a,
                                          uint32_t b) {
  int32_t sa = static_cast<int32_t>(a), sb = static_cast<int32_t>(b);
  switch (opcode) {
  case O::Beq:
    return a == b;
  case O::Bne:
    return a != b;
  case O::Blt:
    return sa < sb;
  case O::Bge:
    return sa >= sb;
  case O::Bltu:
    return a < b;
  case O::Bgeu:
    return a >= b;
  default:
    return std::nullopt;
  }
}
