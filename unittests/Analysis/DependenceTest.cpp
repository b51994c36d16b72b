//===- DependenceTest.cpp - the dependence test against Presburger ------===//
//
// The shared dependence test settles most systems on cheap exact paths
// (interval and GCD filters, a pruned search over the box) before MLIR's
// Presburger library. Differential test: on random pairs of leaves with
// random affine indices and random depth relations, the answer with the
// fast paths must equal the Presburger-only answer. And the systems moves
// ask about after splits of splits and swaps (mixed-radix addresses) are
// settled by the cheap paths alone, checked against enumeration.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Analysis/Dependence.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"

#include <map>
#include <numeric>
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
  for (unsigned trial = 0; trial < 1500; ++trial) {
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

/// One side of a mixed-radix access to a row of `length` elements: the row
/// split into `factors` (outermost first), started at `offset`, its loops
/// then reordered by `order` (as swaps would). Returns the nest's sizes and
/// the index form over depths 1.. (depth 0 is the rows).
std::pair<std::vector<int64_t>, std::string>
mixedRadix(llvm::ArrayRef<int64_t> factors, llvm::ArrayRef<unsigned> order,
           int64_t offset) {
  std::vector<int64_t> strides(factors.size(), 1);
  for (unsigned i = factors.size() - 1; i-- > 0;)
    strides[i] = strides[i + 1] * factors[i + 1];
  std::vector<int64_t> sizes;
  std::string form;
  for (auto [depth, i] : llvm::enumerate(order)) {
    sizes.push_back(factors[i]);
    form += "{" + std::to_string(depth + 1) + "}*" +
            std::to_string(strides[i]) + "+";
  }
  return {sizes, form + std::to_string(offset)};
}

/// Whether some instances x of `x` and y of `y` under `relations` give the
/// same address to `a` and `b`, by enumerating both boxes.
bool enumerateSameElement(const LeafAccesses &x, const PhysicalAccess &a,
                          const LeafAccesses &y, const PhysicalAccess &b,
                          llvm::ArrayRef<DepthRelation> relations) {
  auto instances = [](llvm::ArrayRef<int64_t> sizes) {
    std::vector<std::vector<int64_t>> all(1);
    for (int64_t size : sizes) {
      std::vector<std::vector<int64_t>> next;
      for (const std::vector<int64_t> &prefix : all)
        for (int64_t v = 0; v < size; ++v) {
          next.push_back(prefix);
          next.back().push_back(v);
        }
      all = std::move(next);
    }
    return all;
  };
  auto address = [](const PhysicalAccess &access,
                    const std::vector<int64_t> &at) {
    std::vector<int64_t> result;
    for (const LinearForm &form : access.indices) {
      int64_t value = form.constant;
      for (unsigned k = 0; k < at.size(); ++k)
        value += form.coeff(k) * at[k];
      result.push_back(value);
    }
    return result;
  };
  std::map<std::vector<int64_t>, std::vector<std::vector<int64_t>>> byAddress;
  for (std::vector<int64_t> &xi : instances(x.sizes))
    byAddress[address(a, xi)].push_back(xi);
  for (const std::vector<int64_t> &yi : instances(y.sizes)) {
    auto it = byAddress.find(address(b, yi));
    if (it == byAddress.end())
      continue;
    for (const std::vector<int64_t> &xi : it->second) {
      bool holds = true;
      for (auto [k, rel] : llvm::enumerate(relations)) {
        switch (rel) {
        case DepthRelation::Any:
          break;
        case DepthRelation::Equal:
          holds &= xi[k] == yi[k];
          break;
        case DepthRelation::Less:
          holds &= xi[k] < yi[k];
          break;
        case DepthRelation::Greater:
          holds &= xi[k] > yi[k];
          break;
        case DepthRelation::NotEqual:
          holds &= xi[k] != yi[k];
          break;
        }
      }
      if (holds)
        return true;
    }
  }
  return false;
}

TEST(Dependence, SplitsOfSplitsAreDecidedWithoutPresburger) {
  std::mt19937 rng(2026);
  MLIRContext context;
  context.printOpOnDiagnostic(false);
  const int64_t pool[] = {2, 3, 4, 7, 8, 16};
  unsigned systems = 0, conflicts = 0;
  for (unsigned trial = 0; trial < 150; ++trial) {
    // One row, split into 3 to 5 factors; the second side keeps a prefix
    // of the first's splits and splits the rest its own way.
    std::vector<int64_t> first;
    int64_t length = 1;
    for (unsigned i = 0, n = 3 + rng() % 3; i < n; ++i) {
      first.push_back(pool[rng() % 6]);
      length *= first.back();
    }
    unsigned shared = rng() % first.size();
    std::vector<int64_t> second(first.begin(), first.begin() + shared);
    int64_t rest = 1;
    for (unsigned i = shared; i < first.size(); ++i)
      rest *= first[i];
    for (int64_t f = 2; f <= rest; ++f)
      while (rest % f == 0 && rest > f && rng() % 2) {
        second.push_back(f);
        rest /= f;
      }
    second.push_back(rest);
    // Reorder each side's loops below the shared prefix, and shorten one
    // loop (a remainder) at an offset, as tiling with remainders does.
    auto reorder = [&](unsigned n) {
      std::vector<unsigned> order(n);
      std::iota(order.begin(), order.end(), 0u);
      std::shuffle(order.begin() + shared, order.end(), rng);
      return order;
    };
    auto [sizes1, form1] = mixedRadix(first, reorder(first.size()), 0);
    auto [sizes2, form2] = mixedRadix(second, reorder(second.size()),
                                      int64_t(rng() % 3) * second.back());
    if (rng() % 2) {
      unsigned k = rng() % sizes2.size();
      sizes2[k] = std::max<int64_t>(1, sizes2[k] - 1 - int64_t(rng() % 2));
    }
    std::string text =
        "x f32 [1] heap in\n"
        "t f32 [3, " +
        std::to_string(3 * length) +
        "] heap inout\n"
        "y f32 [1] heap out\n"
        "3 " +
        sizesText(sizes1) + "t[{0}, " + form1 + "] = x[0]\n" + "3 " +
        sizesText(sizes2) + "y[0] = t[{0}, " + form2 + "]\n";
    OwningOpRef<ModuleOp> module = importDojoString(text, &context);
    ASSERT_TRUE(module) << text;
    dojo::KernelOp kernel = getSingleKernel(*module);
    SmallVector<dojo::LeafOp> leaves = collectLeaves(kernel);
    ASSERT_EQ(leaves.size(), 2u) << text;
    DependenceAnalysis analysis(kernel);
    const LeafAccesses &x = analysis.getLeafAccesses(leaves[0]);
    const LeafAccesses &y = analysis.getLeafAccesses(leaves[1]);
    const PhysicalAccess &write = x.accesses[0], &read = y.accesses[1];
    // The questions of moves: equal outer depths, then one depth related
    // any way.
    unsigned depth = std::min(x.sizes.size(), y.sizes.size());
    SmallVector<DepthRelation, 8> relations(1 + rng() % depth,
                                            DepthRelation::Equal);
    relations.back() = static_cast<DepthRelation>(rng() % 5);
    std::optional<bool> fast =
        decideWithoutPresburger(x, write, y, read, relations);
    ASSERT_TRUE(fast.has_value()) << text;
    EXPECT_EQ(*fast, enumerateSameElement(x, write, y, read, relations))
        << text;
    ++systems;
    conflicts += *fast;
  }
  EXPECT_GT(conflicts, systems / 10);
  EXPECT_LT(conflicts, systems - systems / 10);
}

} // namespace
