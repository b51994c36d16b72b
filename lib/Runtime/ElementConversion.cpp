//===- ElementConversion.cpp - the IR's conversion of one element ---------===//

#include "perfdojo/Runtime/ElementConversion.h"
#include "perfdojo/Support/Float16.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace perfdojo;

namespace {
template <typename T> T read(const void *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T> void write(void *p, T v) { std::memcpy(p, &v, sizeof(T)); }

/// Bits of an integer type (bool: 1).
unsigned getIntegerBits(ScalarType t) {
  return t == ScalarType::i1 ? 1 : 8 * getScalarBytes(t);
}

/// `v` rounded to the float type `t` (round to nearest even), as a double.
double roundToFloat(double v, ScalarType t) {
  switch (t) {
  case ScalarType::f16:
    return halfToFloat(doubleToHalf(v));
  case ScalarType::bf16:
    return bfloat16ToFloat(doubleToBFloat16(v));
  case ScalarType::f32:
    return static_cast<float>(v);
  default:
    return v;
  }
}

/// `v` wrapped to `bits` bits, sign-extended (two's complement).
int64_t wrapToBits(int64_t v, unsigned bits) {
  if (bits >= 64)
    return v;
  uint64_t mask = (uint64_t(1) << bits) - 1;
  uint64_t low = static_cast<uint64_t>(v) & mask;
  uint64_t sign = uint64_t(1) << (bits - 1);
  return static_cast<int64_t>((low ^ sign) - sign);
}
} // namespace

ElementValue perfdojo::loadElement(ScalarType type, const void *element) {
  ElementValue v;
  v.isInteger = !isFloatScalarType(type);
  switch (type) {
  case ScalarType::f16:
    v.real = halfToFloat(read<uint16_t>(element));
    break;
  case ScalarType::bf16:
    v.real = bfloat16ToFloat(read<uint16_t>(element));
    break;
  case ScalarType::f32:
    v.real = read<float>(element);
    break;
  case ScalarType::f64:
    v.real = read<double>(element);
    break;
  case ScalarType::i1:
  case ScalarType::i8:
    v.integer = read<int8_t>(element);
    break;
  case ScalarType::i16:
    v.integer = read<int16_t>(element);
    break;
  case ScalarType::i32:
    v.integer = read<int32_t>(element);
    break;
  case ScalarType::i64:
    v.integer = read<int64_t>(element);
    break;
  }
  return v;
}

void perfdojo::storeElement(ScalarType type, void *element,
                            ElementValue value) {
  switch (type) {
  case ScalarType::f16:
    write(element, doubleToHalf(value.real));
    break;
  case ScalarType::bf16:
    write(element, doubleToBFloat16(value.real));
    break;
  case ScalarType::f32:
    write(element, static_cast<float>(value.real));
    break;
  case ScalarType::f64:
    write(element, value.real);
    break;
  case ScalarType::i1:
  case ScalarType::i8:
    write(element, static_cast<int8_t>(value.integer));
    break;
  case ScalarType::i16:
    write(element, static_cast<int16_t>(value.integer));
    break;
  case ScalarType::i32:
    write(element, static_cast<int32_t>(value.integer));
    break;
  case ScalarType::i64:
    write(element, value.integer);
    break;
  }
}

ElementValue perfdojo::convertElement(ElementValue value, ScalarType to) {
  ElementValue out;
  out.isInteger = !isFloatScalarType(to);
  if (to == ScalarType::i1) {
    out.integer = value.isInteger ? value.integer != 0 : value.real != 0;
    return out;
  }
  if (isFloatScalarType(to)) {
    // An integer to f16/bf16 goes through double: exact up to 2^53, so one
    // rounding for every value those types hold finitely.
    double v = value.isInteger ? static_cast<double>(value.integer) : value.real;
    if (value.isInteger && to == ScalarType::f32)
      out.real = static_cast<float>(value.integer); // one rounding
    else
      out.real = roundToFloat(v, to);
    return out;
  }
  unsigned bits = getIntegerBits(to);
  if (value.isInteger) {
    out.integer = wrapToBits(value.integer, bits);
    return out;
  }
  // Float to integer: truncate, NaN to 0, saturate beyond the range.
  double limit = std::ldexp(1.0, int(bits) - 1); // 2^(w-1), exact
  if (std::isnan(value.real))
    out.integer = 0;
  else if (value.real >= limit)
    out.integer = bits >= 64 ? std::numeric_limits<int64_t>::max()
                             : (int64_t(1) << (bits - 1)) - 1;
  else if (value.real < -limit)
    out.integer = bits >= 64 ? std::numeric_limits<int64_t>::min()
                             : -(int64_t(1) << (bits - 1));
  else
    out.integer = static_cast<int64_t>(std::trunc(value.real));
  return out;
}
