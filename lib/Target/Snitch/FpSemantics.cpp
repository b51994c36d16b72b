//===- FpSemantics.cpp - RISC-V F/D arithmetic on register images ---------===//
//
// Arithmetic is done in host float/double (IEEE binary32/binary64 with
// round-to-nearest-even), fused multiply-adds with std::fma so they round
// once as the hardware does. Everything RISC-V defines differently from C++
// is spelled out here: NaN canonicalisation, NaN boxing, minimumNumber,
// saturating conversions, fclass.
//
//===----------------------------------------------------------------------===//

#include "FpSemantics.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/ErrorHandling.h"

#include <cmath>
#include <limits>

using namespace perfdojo::snitch;
using namespace perfdojo::snitch::fpsem;
using O = Opcode;

namespace {
/// The canonical quiet NaNs RISC-V produces for any NaN result.
constexpr uint32_t kCanonicalNaN32 = 0x7fc00000u;
constexpr uint64_t kCanonicalNaN64 = 0x7ff8000000000000ull;
/// The upper half of a NaN-boxed f32.
constexpr uint64_t kBoxBits = 0xffffffff00000000ull;

float toFloat(uint64_t image) {
  return llvm::bit_cast<float>(unboxSingle(image));
}
double toDouble(uint64_t image) { return llvm::bit_cast<double>(image); }

uint64_t fromFloat(float value) {
  if (std::isnan(value))
    return boxSingle(kCanonicalNaN32);
  return boxSingle(llvm::bit_cast<uint32_t>(value));
}
uint64_t fromDouble(double value) {
  if (std::isnan(value))
    return kCanonicalNaN64;
  return llvm::bit_cast<uint64_t>(value);
}

/// IEEE 754-2019 minimumNumber/maximumNumber as the F extension (2.2)
/// defines fmin/fmax: a single NaN operand is ignored, -0 orders below +0.
template <typename T> T minMax(T a, T b, bool isMax) {
  if (std::isnan(a) && std::isnan(b))
    return std::numeric_limits<T>::quiet_NaN();
  if (std::isnan(a))
    return b;
  if (std::isnan(b))
    return a;
  if (a == b) // equal values, or +0 and -0: pick by sign
    return (std::signbit(a) != isMax) ? a : b;
  return (a < b) != isMax ? a : b;
}

/// fclass: one-hot {-inf, -normal, -subnormal, -0, +0, +subnormal, +normal,
/// +inf, signalling NaN, quiet NaN}.
template <typename T, typename Bits>
uint32_t classify(T value, Bits bits, Bits quietBit) {
  bool negative = std::signbit(value);
  switch (std::fpclassify(value)) {
  case FP_INFINITE:
    return negative ? 1u << 0 : 1u << 7;
  case FP_NORMAL:
    return negative ? 1u << 1 : 1u << 6;
  case FP_SUBNORMAL:
    return negative ? 1u << 2 : 1u << 5;
  case FP_ZERO:
    return negative ? 1u << 3 : 1u << 4;
  default:
    return (bits & quietBit) ? 1u << 9 : 1u << 8;
  }
}

/// Round to nearest even, then saturate to [lo, hi]; NaN gives `nanValue`.
template <typename Int> Int convertToInteger(double value, Int nanValue) {
  if (std::isnan(value))
    return nanValue;
  double rounded = std::nearbyint(value);
  if (rounded <= static_cast<double>(std::numeric_limits<Int>::min()))
    return std::numeric_limits<Int>::min();
  if (rounded >= static_cast<double>(std::numeric_limits<Int>::max()))
    return std::numeric_limits<Int>::max();
  return static_cast<Int>(rounded);
}

/// The sign-injection family on raw bits (no canonicalisation: these are
/// bit manipulations, and they pass NaN payloads through).
template <typename Bits> Bits injectSign(Opcode opcode, Bits a, Bits b) {
  const Bits signBit = Bits(1) << (sizeof(Bits) * 8 - 1);
  Bits sign;
  switch (opcode) {
  case O::FsgnjS:
  case O::FsgnjD:
    sign = b & signBit;
    break;
  case O::FsgnjnS:
  case O::FsgnjnD:
    sign = ~b & signBit;
    break;
  default:
    sign = (a ^ b) & signBit;
    break;
  }
  return (a & ~signBit) | sign;
}
} // namespace

uint64_t fpsem::boxSingle(uint32_t bits) { return kBoxBits | bits; }

uint32_t fpsem::unboxSingle(uint64_t image) {
  if ((image & kBoxBits) != kBoxBits)
    return kCanonicalNaN32;
  return static_cast<uint32_t>(image);
}

bool fpsem::readsSingle(Opcode opcode) {
  switch (opcode) {
  case O::Fsw:
  case O::FaddS:
  case O::FsubS:
  case O::FmulS:
  case O::FdivS:
  case O::FsqrtS:
  case O::FminS:
  case O::FmaxS:
  case O::FmaddS:
  case O::FmsubS:
  case O::FnmaddS:
  case O::FnmsubS:
  case O::FsgnjS:
  case O::FsgnjnS:
  case O::FsgnjxS:
  case O::FcvtDS:
  case O::FcvtWS:
  case O::FcvtWuS:
  case O::FmvXW:
  case O::FeqS:
  case O::FltS:
  case O::FleS:
  case O::FclassS:
    return true;
  default:
    return false;
  }
}

uint64_t fpsem::computeFpToFp(Opcode opcode, uint64_t a, uint64_t b,
                              uint64_t c) {
  float fa = toFloat(a), fb = toFloat(b), fc = toFloat(c);
  double da = toDouble(a), db = toDouble(b), dc = toDouble(c);
  switch (opcode) {
  case O::FaddS:
    return fromFloat(fa + fb);
  case O::FaddD:
    return fromDouble(da + db);
  case O::FsubS:
    return fromFloat(fa - fb);
  case O::FsubD:
    return fromDouble(da - db);
  case O::FmulS:
    return fromFloat(fa * fb);
  case O::FmulD:
    return fromDouble(da * db);
  case O::FdivS:
    return fromFloat(fa / fb);
  case O::FdivD:
    return fromDouble(da / db);
  case O::FsqrtS:
    return fromFloat(std::sqrt(fa));
  case O::FsqrtD:
    return fromDouble(std::sqrt(da));
  case O::FminS:
  case O::FmaxS:
    return fromFloat(minMax(fa, fb, opcode == O::FmaxS));
  case O::FminD:
  case O::FmaxD:
    return fromDouble(minMax(da, db, opcode == O::FmaxD));
  // fmadd = a*b+c, fmsub = a*b-c, fnmsub = -(a*b)+c, fnmadd = -(a*b)-c.
  case O::FmaddS:
    return fromFloat(std::fma(fa, fb, fc));
  case O::FmaddD:
    return fromDouble(std::fma(da, db, dc));
  case O::FmsubS:
    return fromFloat(std::fma(fa, fb, -fc));
  case O::FmsubD:
    return fromDouble(std::fma(da, db, -dc));
  case O::FnmsubS:
    return fromFloat(std::fma(-fa, fb, fc));
  case O::FnmsubD:
    return fromDouble(std::fma(-da, db, dc));
  case O::FnmaddS:
    return fromFloat(std::fma(-fa, fb, -fc));
  case O::FnmaddD:
    return fromDouble(std::fma(-da, db, -dc));
  case O::FsgnjS:
  case O::FsgnjnS:
  case O::FsgnjxS:
    return boxSingle(
        injectSign<uint32_t>(opcode, unboxSingle(a), unboxSingle(b)));
  case O::FsgnjD:
  case O::FsgnjnD:
  case O::FsgnjxD:
    return injectSign<uint64_t>(opcode, a, b);
  case O::FcvtDS:
    return fromDouble(static_cast<double>(fa));
  case O::FcvtSD:
    return fromFloat(static_cast<float>(da));
  default:
    llvm_unreachable("not an FP-to-FP instruction");
  }
}

uint32_t fpsem::computeFpToInteger(Opcode opcode, uint64_t a, uint64_t b) {
  float fa = toFloat(a), fb = toFloat(b);
  double da = toDouble(a), db = toDouble(b);
  switch (opcode) {
  // Comparisons with a NaN operand are false.
  case O::FeqS:
    return fa == fb;
  case O::FeqD:
    return da == db;
  case O::FltS:
    return fa < fb;
  case O::FltD:
    return da < db;
  case O::FleS:
    return fa <= fb;
  case O::FleD:
    return da <= db;
  case O::FclassS:
    return classify(fa, unboxSingle(a), uint32_t(1) << 22);
  case O::FclassD:
    return classify(da, a, uint64_t(1) << 51);
  // NaN converts to the largest value (RISC-V's choice for both signs).
  case O::FcvtWS:
    return static_cast<uint32_t>(
        convertToInteger<int32_t>(fa, std::numeric_limits<int32_t>::max()));
  case O::FcvtWD:
    return static_cast<uint32_t>(
        convertToInteger<int32_t>(da, std::numeric_limits<int32_t>::max()));
  case O::FcvtWuS:
    return convertToInteger<uint32_t>(fa, std::numeric_limits<uint32_t>::max());
  case O::FcvtWuD:
    return convertToInteger<uint32_t>(da, std::numeric_limits<uint32_t>::max());
  case O::FmvXW:
    // The raw low half, boxed or not (fmv.x.w moves bits, it does not
    // interpret them).
    return static_cast<uint32_t>(a);
  default:
    llvm_unreachable("not an FP-to-integer instruction");
  }
}

uint64_t fpsem::computeIntegerToFp(Opcode opcode, uint32_t a) {
  switch (opcode) {
  case O::FcvtDW:
    return fromDouble(static_cast<double>(static_cast<int32_t>(a)));
  case O::FcvtDWu:
    return fromDouble(static_cast<double>(a));
  case O::FcvtSW:
    return fromFloat(static_cast<float>(static_cast<int32_t>(a)));
  case O::FcvtSWu:
    return fromFloat(static_cast<float>(a));
  case O::FmvWX:
    return boxSingle(a);
  default:
    llvm_unreachable("not an integer-to-FP instruction");
  }
}
