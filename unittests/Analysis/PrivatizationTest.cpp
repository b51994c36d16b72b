//===- PrivatizationTest.cpp - coverage of a read by several writes -------===//
//
// findUncoveredRead (the coverage condition of privatization and of the
// `:N` invariant's NM4) accepts a read covered by one earlier write, or by
// several together (coverReadTogether). Differential test against an
// enumeration of elements: on random kernels where two writes of random
// boxes precede a read in one iteration of a scope, a read the analysis
// calls covered reads only elements the two wrote (soundness, always);
// and two boxes that join along one dimension over the read's, the parts
// of a cut_scope, are recognized (the case the rule exists for).
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Analysis/Privatization.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <random>

using namespace mlir;
using namespace perfdojo;

namespace {

/// A box of t: origin and extent per dimension.
struct Box {
  int64_t origin[2], extent[2];
  bool contains(int64_t i, int64_t j) const {
    return i >= origin[0] && i < origin[0] + extent[0] && j >= origin[1] &&
           j < origin[1] + extent[1];
  }
  /// `E0 F0 a[{d}+o0, {d+1}+o1]` below `depth` scopes.
  std::string access(llvm::StringRef array, unsigned depth) const {
    auto index = [&](unsigned k) {
      return "{" + std::to_string(depth + k) + "}+" +
             std::to_string(origin[k]);
    };
    return std::to_string(extent[0]) + " " + std::to_string(extent[1]) + " " +
           array.str() + "[" + index(0) + ", " + index(1) + "]";
  }
};

Box randomBox(std::mt19937 &rng) {
  Box box;
  for (unsigned k = 0; k < 2; ++k) {
    box.origin[k] = rng() % 4;
    box.extent[k] = 1 + rng() % 4;
  }
  return box;
}

/// Whether findUncoveredRead finds every read of t covered in one
/// iteration of the outer scope (depth 0): `writes` then the read, after
/// a write of all of t outside the scope (so the kernel is initialized
/// whatever the boxes).
bool analysisCovers(llvm::ArrayRef<Box> writes, const Box &read) {
  std::string text = "x f32 [1] heap in\nt f32 [8, 8] heap\n"
                     "y f32 [1] heap out\n8 8 t[{0}, {1}] = x[0]\n";
  for (auto [i, write] : llvm::enumerate(writes))
    text += (i ? "| " : "3 ") + write.access("t", 1) + " = x[0]\n";
  text += "| " + read.access("", 1);
  // `E0 F0 [..]` -> `E0 F0 y[0] = t[..]`.
  size_t bracket = text.rfind('[');
  text.insert(bracket, "y[0] = t");
  text += "\n";
  MLIRContext context;
  OwningOpRef<ModuleOp> module = importDojoString(text, &context);
  EXPECT_TRUE(module) << text;
  if (!module)
    return false;
  dojo::KernelOp kernel = getSingleKernel(*module);
  dojo::BufferOp buffer = kernel.lookupArray("t");
  std::vector<BufferAccess> accesses = collectBufferAccesses(kernel, buffer);
  return findUncoveredRead(accesses, 0) == nullptr;
}

TEST(Privatization, ReadsCoveredByTwoWritesAgreeWithAnEnumeration) {
  std::mt19937 rng(2026);
  unsigned together = 0, trials = 400;
  for (unsigned trial = 0; trial < trials; ++trial) {
    Box writes[2] = {randomBox(rng), randomBox(rng)};
    Box read = randomBox(rng);
    bool covered = true, single[2] = {true, true};
    for (int64_t i = read.origin[0]; i < read.origin[0] + read.extent[0]; ++i)
      for (int64_t j = read.origin[1]; j < read.origin[1] + read.extent[1];
           ++j) {
        covered &= writes[0].contains(i, j) || writes[1].contains(i, j);
        for (unsigned w = 0; w < 2; ++w)
          single[w] &= writes[w].contains(i, j);
      }
    bool verdict = analysisCovers(writes, read);
    // Sound: a read called covered reads only what the writes wrote.
    if (verdict)
      EXPECT_TRUE(covered) << "a read called covered reads an element "
                              "neither write wrote (trial "
                           << trial << ")";
    // A single covering write is always found.
    if (single[0] || single[1])
      EXPECT_TRUE(verdict) << "trial " << trial;
    together += verdict && !single[0] && !single[1];
  }
  // Reads covered only by the two together occur.
  EXPECT_GT(together, 0u);
}

// The two parts of a cut: [0, 5) and [5, 8) of a row, read whole.
TEST(Privatization, TheTwoPartsOfACutCoverTheReadTogether) {
  Box main{{0, 0}, {2, 5}}, rest{{0, 5}, {2, 3}}, read{{0, 0}, {2, 8}};
  EXPECT_TRUE(analysisCovers({main, rest}, read));
  // A gap of one column between them: not covered.
  Box shorter{{0, 0}, {2, 4}};
  EXPECT_FALSE(analysisCovers({shorter, rest}, read));
  // Overlapping parts cover too.
  Box wider{{0, 0}, {2, 6}};
  EXPECT_TRUE(analysisCovers({wider, rest}, read));
}

} // namespace
