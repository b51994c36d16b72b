//===- Divisors.h - the proper divisors of a size ---------------*- C++ -*-===//
//
// Moves that split a size (split_scope, split_dim) offer its divisors as
// candidates, and are listed thousands of times in a search: enumerating
// them must cost little at any size up to 2^63 - 1, where trial division up
// to n (or even sqrt(n) = 3e9) would hang the listing. The C++ standard
// library only.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SUPPORT_DIVISORS_H
#define PERFDOJO_SUPPORT_DIVISORS_H

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace perfdojo {

/// Trial division stops at this factor: at most 2^20 steps per size.
constexpr int64_t kDivisorSearchLimit = int64_t(1) << 20;

/// The divisors d of `n` with 1 < d < n, in increasing order (none for
/// n < 4). Exact for n below 2^40; above, the prime factors below 2^20
/// are found and what remains of n is taken as one prime, so a product of
/// two primes above 2^20 is not split (a divisor not offered is only a
/// candidate fewer).
inline std::vector<int64_t> getProperDivisors(int64_t n) {
  std::vector<std::pair<int64_t, int>> factors;
  int64_t rest = n;
  for (int64_t p = 2; p <= kDivisorSearchLimit && p <= rest / p; ++p) {
    int count = 0;
    while (rest % p == 0) {
      rest /= p;
      ++count;
    }
    if (count)
      factors.push_back({p, count});
  }
  if (rest > 1)
    factors.push_back({rest, 1});
  // Every product of prime powers divides n, so none overflows.
  std::vector<int64_t> divisors = {1};
  for (auto [p, count] : factors) {
    size_t known = divisors.size();
    int64_t power = 1;
    for (int e = 1; e <= count; ++e) {
      power *= p;
      for (size_t i = 0; i < known; ++i)
        divisors.push_back(divisors[i] * power);
    }
  }
  std::sort(divisors.begin(), divisors.end());
  std::vector<int64_t> proper;
  for (int64_t d : divisors)
    if (d > 1 && d < n)
      proper.push_back(d);
  return proper;
}

} // namespace perfdojo

#endif // PERFDOJO_SUPPORT_DIVISORS_H
