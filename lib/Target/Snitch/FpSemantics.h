//===- FpSemantics.h - RISC-V F/D arithmetic on register images -*- C++ -*-===//
//
// What each F/D instruction computes, on the raw 64-bit images of the FP
// registers (FLEN = 64): f32 values are NaN-boxed (upper 32 bits all ones; an
// f32 operand that is not properly boxed reads as the canonical NaN), NaN
// results are canonical, fmin/fmax follow IEEE 754-2019 minimumNumber /
// maximumNumber with -0 < +0, and float-to-integer conversions saturate.
// Rounding is the dynamic mode's reset value, round-to-nearest-even, which is
// the host's default; exception flags are not modelled.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_LIB_TARGET_SNITCH_FPSEMANTICS_H
#define PERFDOJO_LIB_TARGET_SNITCH_FPSEMANTICS_H

#include "perfdojo/Target/Snitch/Instructions.h"

#include <cstdint>

namespace perfdojo::snitch::fpsem {

/// The register image of an f32 (NaN-boxed) and the f32 a register holds.
uint64_t boxSingle(uint32_t bits);
uint32_t unboxSingle(uint64_t image);

/// Whether `opcode` reads its FP source registers as f32.
bool readsSingle(Opcode opcode);

/// An FP instruction with an FP result and FP sources (arithmetic, sign
/// injection, min/max, fcvt.s.d/fcvt.d.s); `c` is only read by the fused
/// multiply-adds.
uint64_t computeFpToFp(Opcode opcode, uint64_t a, uint64_t b, uint64_t c);

/// An FP instruction with an integer result: compares, fclass, fcvt.w*.*,
/// fmv.x.w.
uint32_t computeFpToInteger(Opcode opcode, uint64_t a, uint64_t b);

/// An FP instruction with an integer source: fcvt.*.w*, fmv.w.x.
uint64_t computeIntegerToFp(Opcode opcode, uint32_t a);

} // namespace perfdojo::snitch::fpsem

#endif // PERFDOJO_LIB_TARGET_SNITCH_FPSEMANTICS_H
