//===- DependenceTest.cpp - the dependence test against Presburger ------===//
//
// The shared dependence test settles most systems on cheap exact paths
// (interval and GCD filters, a pruned search over the box) before MLIR's
// Presburger library. Differential test: on random pairs of leaves with
// random affine indices and random depth relations, the answer with the
// fast paths must equal the Presburger-only answer.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Analysis/Dependence.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"

#include <random>

using namespace mlir;
using namespace perfdojo;

namespace {

/// A random affine form over `depths` variables of the given sizes, shifted
/// so that its smallest value is 0; `max` receives its largest.
std::string randomForm(std::mt19937 &rng, llvm::ArrayRef<int64_t> sizes,
                       int64_t &max) {
  std::string text;
  int64_t lo = 0, hi = 0;
  std::vector<std::pair<unsigned, int64_t>> terms;
  for (unsigned k = 0; k < sizes.size(); ++k) {
    int64_t c = int64_t(rng() % 5) - 2; // -2..2
    if (rng() % 3 == 0)
      c = 0;
    if (c == 0)
      continue;
    terms.push_back({k, c});
    (c < 0 ? lo : hi) += c * (sizes[k] - 1);
  }
  int64_t constant = -lo + int64_t(rng() % 2);
  max = constant + hi;
  for (auto [k, c] : terms) {
    if (c < 0)
      text += "-";
    else if (!text.empty())
      text += "+";
    text += "{" + std::to_string(k) + "}*" + std::to_string(c < 0 ? -c : c);
  }
  if (text.empty())
    return std::to_string(constant);
  if (constant)
    text += "+" + std::to_string(constant);
  return text;
}

std::string sizesText(llvm::ArrayRef<int64_t> sizes) {
  std::string text;
  for (int64_t s : sizes)
    text += std::to_string(s) + " ";
  return text;
}

TEST(Dependence, FastPathsAgreeWithPresburger) {
  std::mt19937 rng(12345);
  MLIRContext context;
  context.printOpOnDiagnostic(false);
  unsigned systems = 0, conflicts = 0;
  for (unsigned trial = 0; trial < 400; ++trial) {
    unsigned common = rng() % 3, own1 = rng() % 3, own2 = rng() % 3;
    std::vector<int64_t> commonSizes, sizes1, sizes2;
    for (unsigned k = 0; k < common; ++k)
      commonSizes.push_back(1 + rng() % 4);
    sizes1 = commonSizes;
    for (unsigned k = 0; k < own1; ++k)
      sizes1.push_back(1 + rng() % 4);
    sizes2 = commonSizes;
    for (unsigned k = 0; k < own2; ++k)
      sizes2.push_back(1 + rng() % 4);
    int64_t m[4];
    std::string f1 = randomForm(rng, sizes1, m[0]);
    std::string g1 = randomForm(rng, sizes1, m[1]);
    std::string f2 = randomForm(rng, sizes2, m[2]);
    std::string g2 = randomForm(rng, sizes2, m[3]);
    bool reuse = rng() % 4 == 0;
    std::string text =
        "x f32 [1] heap in\n"
        "t f32 [" +
        std::to_string(std::max(m[0], m[2]) + 1) + ", " +
        std::to_string(std::max(m[1], m[3]) + 1) +
        "] heap inout\n"
        "y f32 [1] heap out\n" +
        sizesText(sizes1) + "t[" + f1 + ", " + g1 + "] = x[0]\n" +
        std::string(common == 0 ? "" : std::string(common, '|') + " ") +
        sizesText(llvm::ArrayRef<int64_t>(sizes2).drop_front(common)) +
        "y[0] = t[" + f2 + ", " + g2 + "]\n";
    // `t` is inout, so the random reads of it read defined data (S11).
    OwningOpRef<ModuleOp> module = importDojoString(text, &context);
    ASSERT_TRUE(module) << text;
    dojo::KernelOp kernel = getSingleKernel(*module);
    // A `:N` dimension set after verification: the test is about physical
    // addresses, and a random kernel rarely keeps the `:N` invariant.
    if (reuse)
      for (dojo::BufferOp buffer : kernel.getBuffers())
        if (buffer.getName() == "t")
          buffer.setReused({true, false});
    SmallVector<dojo::LeafOp> leaves = collectLeaves(kernel);
    ASSERT_EQ(leaves.size(), 2u) << text;
    DependenceAnalysis analysis(kernel);
    for (dojo::LeafOp a : leaves)
      for (dojo::LeafOp b : leaves) {
        const LeafAccesses &x = analysis.getLeafAccesses(a);
        const LeafAccesses &y = analysis.getLeafAccesses(b);
        unsigned depth = std::min(x.sizes.size(), y.sizes.size());
        SmallVector<DepthRelation, 4> relations;
        for (unsigned k = 0; k < depth && rng() % 4 != 0; ++k)
          relations.push_back(static_cast<DepthRelation>(rng() % 5));
        for (const PhysicalAccess &pa : x.accesses)
          for (const PhysicalAccess &pb : y.accesses)
            for (bool concurrency : {false, true}) {
              DependenceOptions fast{true, concurrency, true};
              DependenceOptions slow{true, concurrency, false};
              bool expected =
                  analysis.mayConflict(x, pa, y, pb, relations, slow);
              EXPECT_EQ(analysis.mayConflict(x, pa, y, pb, relations, fast),
                        expected)
                  << text;
              ++systems;
              conflicts += expected;
            }
      }
  }
  // Both answers occur often enough for the comparison to mean something.
  EXPECT_GT(systems, 2000u);
  EXPECT_GT(conflicts, systems / 10);
  EXPECT_LT(conflicts, systems - systems / 10);
}

} // namespace
