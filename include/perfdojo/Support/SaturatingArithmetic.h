//===- SaturatingArithmetic.h - int64 sums and products that clamp -*- C++ -*-===//
//
// Counts of elements, iterations and leaf evaluations that may exceed the
// 64-bit range clamp to its bound instead of wrapping: a clamped count
// still compares as "too large" against any limit. Where an overflow must
// refuse something (a move's result, a buffer's layout), use the checked
// forms of llvm/Support/CheckedArithmetic.h (llvm::checkedMul,
// llvm::checkedAdd) and say so.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SUPPORT_SATURATINGARITHMETIC_H
#define PERFDOJO_SUPPORT_SATURATINGARITHMETIC_H

#include "llvm/Support/MathExtras.h"

#include <cstdint>
#include <limits>

namespace perfdojo {

/// a * b, clamped to INT64_MAX (or INT64_MIN for a negative product).
inline int64_t saturatingMul(int64_t a, int64_t b) {
  int64_t product;
  if (!llvm::MulOverflow(a, b, product))
    return product;
  return (a < 0) != (b < 0) ? std::numeric_limits<int64_t>::min()
                            : std::numeric_limits<int64_t>::max();
}

/// a + b, clamped to INT64_MAX (or INT64_MIN for a negative sum).
inline int64_t saturatingAdd(int64_t a, int64_t b) {
  int64_t sum;
  if (!llvm::AddOverflow(a, b, sum))
    return sum;
  return a < 0 ? std::numeric_limits<int64_t>::min()
               : std::numeric_limits<int64_t>::max();
}

} // namespace perfdojo

#endif // PERFDOJO_SUPPORT_SATURATINGARITHMETIC_H
