//===- StreamConfigurationTest.cpp - SSR patterns to configuration words --===//
//
// The delta strides and the configuration plan of a stream pattern
// (Dialect/Snitch/IR/StreamConfiguration.h): pure index math, checked
// against the address walk it must reproduce.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Dialect/Snitch/IR/StreamConfiguration.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace perfdojo;
using namespace perfdojo::snitch;

namespace {

/// The addresses a data mover produces from `deltas` (innermost first) and
/// `bounds` (outermost first): after each element, the stride of the
/// outermost level that advances.
std::vector<int64_t> walk(llvm::ArrayRef<int64_t> boundsOuterFirst,
                          llvm::ArrayRef<int64_t> deltas) {
  size_t rank = boundsOuterFirst.size();
  std::vector<int64_t> index(rank, 0), addresses;
  int64_t address = 0, total = 1;
  for (int64_t bound : boundsOuterFirst)
    total *= bound;
  for (int64_t n = 0; n < total; ++n) {
    addresses.push_back(address);
    // Levels innermost first: level k counts index[rank - 1 - k].
    for (size_t k = 0; k < rank; ++k) {
      int64_t &i = index[rank - 1 - k];
      if (++i < boundsOuterFirst[rank - 1 - k]) {
        address += deltas[k];
        break;
      }
      i = 0;
    }
  }
  return addresses;
}

/// The addresses of the absolute pattern: sum_k i_k * stride_k.
std::vector<int64_t> expected(llvm::ArrayRef<int64_t> bounds,
                              llvm::ArrayRef<int64_t> strides) {
  std::vector<int64_t> addresses = {0};
  for (size_t k = 0; k < bounds.size(); ++k) {
    std::vector<int64_t> next;
    for (int64_t base : addresses)
      for (int64_t i = 0; i < bounds[k]; ++i)
        next.push_back(base + i * strides[k]);
    addresses = std::move(next);
  }
  return addresses;
}

TEST(StreamConfiguration, DeltaStridesOfTheDocumentedExample) {
  // Inner 4 x 8 bytes, outer 3 x 64 bytes: STRIDES = {8, 64 - 24}.
  EXPECT_EQ(getDeltaStrides({3, 4}, {64, 8}), (std::vector<int64_t>{8, 40}));
}

TEST(StreamConfiguration, DeltaStridesReproduceEveryWalk) {
  struct Case {
    std::vector<int64_t> bounds, strides;
  };
  std::vector<Case> cases = {
      {{128}, {8}},
      {{32, 4}, {32, 8}},
      {{4, 4}, {8, 32}},          // a transposed walk: negative deltas
      {{2, 3, 5}, {0, 8, 16}},    // a level that repeats the inner walk
      {{2, 2, 2, 2}, {-8, 64, 16, 8}},
      {{3, 1, 4}, {96, 1000, 8}}, // a size-1 level
  };
  for (const Case &c : cases)
    EXPECT_EQ(walk(c.bounds, getDeltaStrides(c.bounds, c.strides)),
              expected(c.bounds, c.strides));
}

TEST(StreamConfiguration, SharedWordsGoToTheBroadcastMover) {
  mlir::MLIRContext context;
  context.loadDialect<SnitchDialect>();
  auto stream = [&](StreamDirection direction, llvm::StringRef reg,
                    llvm::StringRef base, llvm::ArrayRef<int64_t> bounds,
                    llvm::ArrayRef<int64_t> strides) {
    return StreamAttr::get(&context, direction, reg, base, bounds, strides, 1);
  };
  std::vector<ConfigurationWrite> writes = planStreamConfiguration(
      {stream(StreamDirection::read, "ft0", "a0", {128}, {8}),
       stream(StreamDirection::read, "ft1", "a1", {128}, {8})});
  // repeat, bound and stride once each to mover 31, then the pointers.
  ASSERT_EQ(writes.size(), 5u);
  EXPECT_EQ(writes[0].word, kRepeatWord);
  EXPECT_EQ(writes[0].dm, 31);
  EXPECT_EQ(writes[0].value, 0);
  EXPECT_EQ(writes[1].word, kBoundsWord);
  EXPECT_EQ(writes[1].value, 127);
  EXPECT_EQ(writes[2].word, kStridesWord);
  EXPECT_EQ(writes[2].value, 8);
  EXPECT_EQ(writes[3].word, kReadPointerWord);
  EXPECT_EQ(writes[3].pointer, "a0");
  EXPECT_EQ(writes[4].dm, 1);

  // Different shapes: per-mover words; a write stream starts at word 28 +
  // rank - 1.
  writes = planStreamConfiguration(
      {stream(StreamDirection::read, "ft0", "a0", {16}, {8}),
       stream(StreamDirection::write, "ft1", "a1", {4, 4}, {32, 8})});
  EXPECT_TRUE(llvm::none_of(writes, [](const ConfigurationWrite &w) {
    return w.dm == 31 && w.word == kBoundsWord;
  }));
  EXPECT_EQ(writes.back().word, kWritePointerWord + 1);
  EXPECT_EQ(writes.back().dm, 1);
}

} // namespace
