//===- Float16.h - IEEE half and bfloat16 as 16-bit patterns ---*- C++ -*-===//
//
// f16 (1 sign, 5 exponent, 10 fraction bits) and bf16 (1, 8, 7) values are
// kept as their bit patterns, the layout compiled kernels read and write.
// Conversions from double round to nearest, ties to even, once (so a double
// and a float, which widens exactly, convert with one rounding), with
// overflow to infinity, gradual underflow and NaN kept quiet. Widening is
// exact.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SUPPORT_FLOAT16_H
#define PERFDOJO_SUPPORT_FLOAT16_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace perfdojo {
namespace float16_detail {

/// The 16-bit format with `ExpBits` exponent and `ManBits` fraction bits.
template <int ExpBits, int ManBits> struct Format {
  static_assert(1 + ExpBits + ManBits == 16, "a 16-bit format");
  static constexpr int kBias = (1 << (ExpBits - 1)) - 1;
  static constexpr uint16_t kExpMask = ((1u << ExpBits) - 1) << ManBits;
  static constexpr uint16_t kManMask = (1u << ManBits) - 1;

  static uint16_t fromDouble(double x) {
    uint64_t b;
    std::memcpy(&b, &x, sizeof(b));
    uint16_t sign = static_cast<uint16_t>((b >> 63) << 15);
    int e = static_cast<int>((b >> 52) & 0x7ff);
    uint64_t m = b & ((uint64_t(1) << 52) - 1);
    if (e == 0x7ff) // infinity, or NaN made quiet with its top payload bits
      return sign | kExpMask |
             (m ? uint16_t((1u << (ManBits - 1)) | (m >> (52 - ManBits)))
                : uint16_t(0));
    if (e == 0) // zero or a double subnormal: far below both formats
      return sign;
    // |x| = sig * 2^(e - 1075), sig with 53 bits.
    uint64_t sig = m | (uint64_t(1) << 52);
    int biased = e - 1023 + kBias;
    if (biased >= (1 << ExpBits) - 1)
      return sign | kExpMask;
    // Keep ManBits + 1 bits for a normal result; fewer for a subnormal.
    int shift = 52 - ManBits + (biased >= 1 ? 0 : 1 - biased);
    if (shift > 62)
      return sign;
    uint64_t q = sig >> shift;
    uint64_t rest = sig & ((uint64_t(1) << shift) - 1);
    uint64_t half = uint64_t(1) << (shift - 1);
    if (rest > half || (rest == half && (q & 1)))
      ++q;
    // A normal q carries the hidden bit: adding it to (biased - 1) << M
    // sets the exponent, and a carry out of the fraction bumps it.
    uint64_t bits = biased >= 1 ? (uint64_t(biased - 1) << ManBits) + q : q;
    if (bits >= kExpMask)
      return sign | kExpMask;
    return sign | static_cast<uint16_t>(bits);
  }

  static double toDouble(uint16_t h) {
    double sign = (h & 0x8000) ? -1.0 : 1.0;
    int e = (h & kExpMask) >> ManBits;
    int m = h & kManMask;
    if (e == (1 << ExpBits) - 1)
      return m ? std::nan("") : sign * INFINITY;
    if (e == 0)
      return sign * std::ldexp(double(m), 1 - kBias - ManBits);
    return sign * std::ldexp(double(m | (1 << ManBits)), e - kBias - ManBits);
  }
};

using Half = Format<5, 10>;
} // namespace float16_detail

/// The f16 nearest to `x` (ties to even).
inline uint16_t doubleToHalf(double x) {
  return float16_detail::Half::fromDouble(x);
}
/// The value of the f16 pattern `h`.
inline double halfToDouble(uint16_t h) {
  return float16_detail::Half::toDouble(h);
}
inline float halfToFloat(uint16_t h) {
  return static_cast<float>(halfToDouble(h));
}
inline uint16_t floatToHalf(float x) { return doubleToHalf(x); }

/// The bf16 nearest to `x` (ties to even).
inline uint16_t doubleToBFloat16(double x) {
  return float16_detail::Format<8, 7>::fromDouble(x);
}
/// The value of the bf16 pattern `h`: the upper half of an f32.
inline float bfloat16ToFloat(uint16_t h) {
  uint32_t bits = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}
inline double bfloat16ToDouble(uint16_t h) { return bfloat16ToFloat(h); }
inline uint16_t floatToBFloat16(float x) { return doubleToBFloat16(x); }

} // namespace perfdojo

#endif // PERFDOJO_SUPPORT_FLOAT16_H
