//===- InputValues.h - the values of generated kernel inputs ----*- C++ -*-===//
//
// The seeded input generator's arithmetic, written once: fillInputs
// (Runtime/HostBuffer.h) fills host buffers with it, and the standalone GPU
// launcher regenerates the same bytes on a machine without LLVM
// (GpuRuntime/InputRecipe.h), so a bundle need not carry its inputs. The
// C++ standard library only.
//
// Element `i` of a buffer named `name` is the `i`-th draw of a splitmix64
// stream seeded with `seed ^ fnv1a(name)`: so each buffer's values depend
// only on the seed and its name.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SUPPORT_INPUTVALUES_H
#define PERFDOJO_SUPPORT_INPUTVALUES_H

#include <cstdint>
#include <string_view>

namespace perfdojo {

/// splitmix64: small, fast, and good enough for test data.
struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1) with 53 random bits.
  double uniform() { return (next() >> 11) * 0x1.0p-53; }
};

/// The generator of the buffer named `name` under `seed`.
inline SplitMix64 getInputStream(uint64_t seed, std::string_view name) {
  uint64_t h = 1469598103934665603ULL; // FNV-1a
  for (char c : name)
    h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return SplitMix64{seed ^ h};
}

/// The closed bounds of generated inputs of one kind.
struct InputBounds {
  double lo, hi;
};

/// Float inputs: uniform in [-1, 1), or in [0.5, 2) for arrays that must
/// be positive (operands of log, sqrt, rsqrt, divisors). Closed bounds, as
/// the kernel generator's value analysis needs them.
inline InputBounds getFloatInputBounds(bool positive) {
  return positive ? InputBounds{0.5, 2} : InputBounds{-1, 1};
}

/// Integer inputs: uniform in [-8, 7] (products of a few stay in range), or
/// [1, 7] for divisors, so no division by zero.
inline InputBounds getIntegerInputBounds(bool positive) {
  return positive ? InputBounds{1, 7} : InputBounds{-8, 7};
}

/// A float input from a draw `u` in [0, 1).
inline double getFloatInput(double u, bool positive) {
  InputBounds b = getFloatInputBounds(positive);
  return b.lo + (b.hi - b.lo) * u;
}

/// An integer input from a draw `u` in [0, 1).
inline int64_t getIntegerInput(double u, bool positive) {
  InputBounds b = getIntegerInputBounds(positive);
  return static_cast<int64_t>(b.lo) +
         static_cast<int64_t>((b.hi - b.lo + 1) * u);
}

/// A bool input from a draw `u`: 0 or 1.
inline bool getBoolInput(double u) { return u < 0.5; }

} // namespace perfdojo

#endif // PERFDOJO_SUPPORT_INPUTVALUES_H
