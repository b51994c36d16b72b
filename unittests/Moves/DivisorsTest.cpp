//===- DivisorsTest.cpp - the split moves' divisor candidates -------------===//
//
// getProperDivisors (Support/Divisors.h) against brute force on every size
// up to 5,000 and on sizes with large prime factors, and its bounded cost
// at sizes where trial division up to n or sqrt(n) would not end.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Support/Divisors.h"

#include "gtest/gtest.h"

#include <chrono>

using namespace perfdojo;

namespace {

std::vector<int64_t> bruteForce(int64_t n) {
  std::vector<int64_t> divisors;
  for (int64_t d = 2; d < n; ++d)
    if (n % d == 0)
      divisors.push_back(d);
  return divisors;
}

TEST(DivisorsTest, MatchesBruteForceOnSmallSizes) {
  for (int64_t n = 1; n <= 5000; ++n)
    EXPECT_EQ(getProperDivisors(n), bruteForce(n)) << n;
}

TEST(DivisorsTest, LargePrimeFactors) {
  // 1048583 is the smallest prime above 2^20.
  EXPECT_EQ(getProperDivisors(1048583), std::vector<int64_t>{});
  EXPECT_EQ(getProperDivisors(4 * 1048583),
            (std::vector<int64_t>{2, 4, 1048583, 2 * 1048583}));
  // Exact below 2^40: a product of a prime below 2^20 and one above.
  int64_t n = 1000003LL * 999983LL;
  EXPECT_EQ(getProperDivisors(n), (std::vector<int64_t>{999983, 1000003}));
}

TEST(DivisorsTest, HugeSizesAreBounded) {
  auto start = std::chrono::steady_clock::now();
  std::vector<int64_t> powers = getProperDivisors(int64_t(1) << 62);
  ASSERT_EQ(powers.size(), 61u);
  EXPECT_EQ(powers.front(), 2);
  EXPECT_EQ(powers.back(), int64_t(1) << 61);
  // 2^63 - 1 = 7^2 x 73 x 127 x 337 x 92737 x 649657: 3 x 2^5 divisors.
  std::vector<int64_t> mersenne = getProperDivisors(INT64_MAX);
  EXPECT_EQ(mersenne.size(), 3u * 32 - 2);
  for (int64_t d : mersenne)
    EXPECT_EQ(INT64_MAX % d, 0) << d;
  // A prime near 2^63: no divisor, after at most 2^20 trial divisions.
  EXPECT_TRUE(getProperDivisors(9223372036854775783LL).empty());
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  // Not a timing test: trial division to sqrt(n) would take minutes.
  EXPECT_LT(seconds, 30.0);
}

} // namespace
