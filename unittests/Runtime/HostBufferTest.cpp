//===- HostBufferTest.cpp - element access of every dtype -----------------===//

#include "perfdojo/Runtime/HostBuffer.h"
#include "perfdojo/Runtime/OutputFile.h"
#include "perfdojo/Support/Float16.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace perfdojo;

namespace {
constexpr ScalarType kAllTypes[] = {
    ScalarType::f16, ScalarType::bf16, ScalarType::f32,
    ScalarType::f64, ScalarType::i1,   ScalarType::i8,
    ScalarType::i16, ScalarType::i32,  ScalarType::i64};

TEST(HostBuffer, ElementBytesAreTheNativeStorage) {
  size_t bytes[] = {2, 2, 4, 8, 1, 1, 2, 4, 8};
  for (auto [type, size] : llvm::zip(kAllTypes, bytes)) {
    HostBuffer b("b", type, 3);
    EXPECT_EQ(b.getElementBytes(), size) << stringifyScalarType(type).str();
  }
}

TEST(HostBuffer, I64RoundTripsBeyondTwoToThe53) {
  HostBuffer b("b", ScalarType::i64, 4);
  int64_t values[] = {
      (int64_t(1) << 53) + 1, std::numeric_limits<int64_t>::max(),
      std::numeric_limits<int64_t>::min(), -(int64_t(1) << 60) - 7};
  for (int i = 0; i < 4; ++i)
    b.setInt(i, values[i]);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(b.getInt(i), values[i]);
  // A copy, and an assignment from another integer type, stay exact.
  HostBuffer copy = b;
  EXPECT_EQ(copy.getInt(0), values[0]);
  HostBuffer wide("w", ScalarType::i64, 4);
  HostBuffer narrow("n", ScalarType::i32, 4);
  narrow.setInt(0, -5);
  narrow.setInt(1, std::numeric_limits<int32_t>::min());
  wide.assign(narrow);
  EXPECT_EQ(wide.getInt(0), -5);
  EXPECT_EQ(wide.getInt(1), std::numeric_limits<int32_t>::min());
}

TEST(HostBuffer, NarrowIntegersWrapOnSetInt) {
  HostBuffer b8("b", ScalarType::i8, 2), b16("h", ScalarType::i16, 2),
      b32("w", ScalarType::i32, 1);
  b8.setInt(0, 128);
  b8.setInt(1, 300);
  EXPECT_EQ(b8.getInt(0), -128);
  EXPECT_EQ(b8.getInt(1), 44);
  b16.setInt(0, 40000);
  EXPECT_EQ(b16.getInt(0), -25536);
  b32.setInt(0, int64_t(1) << 32 | 5);
  EXPECT_EQ(b32.getInt(0), 5);
  EXPECT_EQ(b32.get(0), 5.0);
}

TEST(HostBuffer, SetTruncatesDoublesIntoIntegers) {
  HostBuffer b("b", ScalarType::i16, 3);
  b.set(0, -7.9);
  b.set(1, 1e9); // out of range: the minimum
  b.set(2, std::nan(""));
  EXPECT_EQ(b.getInt(0), -7);
  EXPECT_EQ(b.getInt(1), std::numeric_limits<int16_t>::min());
  EXPECT_EQ(b.getInt(2), std::numeric_limits<int16_t>::min());
}

TEST(HostBuffer, BoolIsOneByteZeroOrOne) {
  HostBuffer b("b", ScalarType::i1, 3);
  b.setInt(0, 5);
  b.set(1, 0.0);
  b.set(2, -0.5);
  const auto *bytes = static_cast<const uint8_t *>(b.data());
  EXPECT_EQ(bytes[0], 1);
  EXPECT_EQ(bytes[1], 0);
  EXPECT_EQ(bytes[2], 1);
  EXPECT_EQ(b.get(0), 1.0);
}

TEST(HostBuffer, HalfAndBFloat16RoundToNearestEven) {
  HostBuffer h("h", ScalarType::f16, 4), g("g", ScalarType::bf16, 3);
  h.set(0, 2049); // a tie between 2048 and 2050: the even one
  h.set(1, 0.1);
  h.set(2, 65520);                 // rounds past the largest finite f16, 65504
  h.set(3, -std::ldexp(1.0, -24)); // the smallest subnormal
  EXPECT_EQ(h.get(0), 2048);
  EXPECT_EQ(h.get(1), 0.0999755859375);
  EXPECT_TRUE(std::isinf(h.get(2)));
  EXPECT_EQ(h.get(3), -std::ldexp(1.0, -24));
  EXPECT_EQ(static_cast<const uint16_t *>(h.data())[0], 0x6800);
  g.set(0, 257);
  g.set(1, 0.1);
  g.set(2, 3.0e38);
  EXPECT_EQ(g.get(0), 256);
  EXPECT_EQ(g.get(1), 0.10009765625);
  EXPECT_NEAR(g.get(2), 3.0e38, 3.0e38 / 128);
}

/// Every f16 and bf16 pattern widens to the value APFloat gives it and
/// narrows back to itself; values between neighbours round as APFloat does.
void checkFormat(const llvm::fltSemantics &semantics, double (*widen)(uint16_t),
                 uint16_t (*narrow)(double)) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    llvm::APFloat value(semantics, llvm::APInt(16, bits));
    double exact = widen(bits);
    if (value.isNaN()) {
      EXPECT_TRUE(std::isnan(exact));
      EXPECT_TRUE(std::isnan(widen(narrow(exact))));
      continue;
    }
    ASSERT_EQ(exact, value.convertToDouble()) << bits;
    ASSERT_EQ(narrow(exact), bits) << bits;
    // The midpoint to the next pattern up, and points just around it.
    uint16_t next = static_cast<uint16_t>(bits + 1);
    double up = widen(next);
    if (!std::isfinite(exact) || std::isnan(up) || bits == 0x7fff)
      continue;
    double mid = exact / 2 + up / 2;
    for (double x :
         {mid, std::nextafter(mid, exact), std::nextafter(mid, up)}) {
      llvm::APFloat expected(x);
      bool losesInfo;
      expected.convert(semantics, llvm::APFloat::rmNearestTiesToEven,
                       &losesInfo);
      ASSERT_EQ(narrow(x), expected.bitcastToAPInt().getZExtValue())
          << "bits " << bits << " x " << x;
    }
  }
}

TEST(Float16, HalfMatchesAPFloatOnEveryPattern) {
  checkFormat(llvm::APFloat::IEEEhalf(), halfToDouble, doubleToHalf);
}

TEST(Float16, BFloat16MatchesAPFloatOnEveryPattern) {
  checkFormat(llvm::APFloat::BFloat(), bfloat16ToDouble, doubleToBFloat16);
}

TEST(HostBuffer, UndefinedPatternPerType) {
  for (ScalarType type : kAllTypes) {
    HostBuffer b("b", type, 2);
    fillUndefined(b);
    if (isFloatScalarType(type)) {
      EXPECT_TRUE(std::isnan(b.get(1))) << stringifyScalarType(type).str();
      continue;
    }
    for (size_t i = 0; i < 2 * b.getElementBytes(); ++i)
      EXPECT_EQ(static_cast<const uint8_t *>(b.data())[i], 0xA5);
  }
  HostBuffer i32("b", ScalarType::i32, 1);
  fillUndefined(i32);
  EXPECT_EQ(i32.getInt(0), -1515870811);
}

TEST(HostBuffer, ReferenceTypesWidenOnlyFloats) {
  for (ScalarType type : kAllTypes)
    EXPECT_EQ(getReferenceScalarType(type),
              isFloatScalarType(type) ? ScalarType::f64 : type);
}

TEST(OutputFile, EveryTypeRoundTrips) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("outputs", "bin", path));
  std::vector<HostBuffer> buffers;
  for (ScalarType type : kAllTypes) {
    HostBuffer b(("b_" + stringifyScalarType(type)).str(), type, 3);
    for (int i = 0; i < 3; ++i)
      b.setInt(i, i - 1);
    buffers.push_back(std::move(b));
  }
  buffers[8].setInt(2, (int64_t(1) << 62) + 1);
  std::vector<const HostBuffer *> pointers;
  for (const HostBuffer &b : buffers)
    pointers.push_back(&b);
  // Every type in both sets: the reference's and the saving run's.
  ASSERT_FALSE(bool(writeOutputFile(path, 7, pointers, pointers)));
  auto read = readOutputFile(path, 7);
  ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
  for (const std::vector<HostBuffer> *set : {&read->reference, &read->run}) {
    ASSERT_EQ(set->size(), buffers.size());
    for (size_t k = 0; k < buffers.size(); ++k) {
      EXPECT_EQ((*set)[k].getName(), buffers[k].getName());
      EXPECT_EQ((*set)[k].getType(), buffers[k].getType());
      EXPECT_EQ(std::memcmp((*set)[k].data(), buffers[k].data(),
                            3 * buffers[k].getElementBytes()),
                0);
    }
    EXPECT_EQ((*set)[8].getInt(2), (int64_t(1) << 62) + 1);
  }
  llvm::sys::fs::remove(path);
}
} // namespace
