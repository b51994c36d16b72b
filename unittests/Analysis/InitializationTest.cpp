//===- InitializationTest.cpp - S11 per element against a simulation -----===//
//
// Differential test of Analysis/Initialization.h: random kernels of a
// writer and a reader of one scratch buffer, with random affine indices,
// shared scopes and either order, are imported (the verifier runs the
// analysis); the verdict must equal a brute-force run of the kernel's
// instances in execution order that marks the elements written. All in one
// process, so the check's memo (keyed by what it computes from) meets
// kernels that share some of its inputs and not others. Outputs the same
// way: leaves that write pieces of a row as split, reordered nests (the
// programs moves make), with gaps and overlaps.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <random>

using namespace mlir;
using namespace perfdojo;

namespace {

struct Form {
  std::vector<int64_t> coeffs;
  int64_t constant = 0;
  int64_t at(const std::vector<int64_t> &point) const {
    int64_t value = constant;
    for (size_t k = 0; k < coeffs.size(); ++k)
      value += coeffs[k] * point[k];
    return value;
  }
  std::string text() const {
    std::string out;
    for (size_t k = 0; k < coeffs.size(); ++k) {
      if (!coeffs[k])
        continue;
      out += (coeffs[k] < 0 ? "-" : out.empty() ? "" : "+");
      out += "{" + std::to_string(k) + "}*" +
             std::to_string(std::abs(coeffs[k]));
    }
    if (out.empty())
      return std::to_string(constant);
    return constant ? out + "+" + std::to_string(constant) : out;
  }
};

/// A random form over `sizes`, shifted to range over [0, max].
Form randomForm(std::mt19937 &rng, const std::vector<int64_t> &sizes,
                int64_t &max) {
  Form f;
  int64_t lo = 0, hi = 0;
  for (int64_t size : sizes) {
    int64_t c = rng() % 3 == 0 ? 0 : int64_t(rng() % 5) - 2;
    f.coeffs.push_back(c);
    (c < 0 ? lo : hi) += c * (size - 1);
  }
  f.constant = -lo + int64_t(rng() % 2);
  max = f.constant + hi;
  return f;
}

/// Calls `body` for every point of `sizes` in ascending lexicographic order.
void forEachPoint(const std::vector<int64_t> &sizes,
                  const std::function<void(const std::vector<int64_t> &)> &body) {
  std::vector<int64_t> point(sizes.size(), 0);
  while (true) {
    body(point);
    size_t k = sizes.size();
    while (k > 0 && ++point[k - 1] == sizes[k - 1])
      point[--k] = 0;
    if (k == 0)
      return;
  }
}

std::string sizesText(const std::vector<int64_t> &sizes, size_t from) {
  std::string text;
  for (size_t k = from; k < sizes.size(); ++k)
    text += std::to_string(sizes[k]) + " ";
  return text;
}

/// Imports `text` in a context of its own (the verifier runs the
/// analysis); its errors go to `diagnostics`, one per line.
bool importKernel(llvm::StringRef text, std::string &diagnostics) {
  MLIRContext context;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error)
      diagnostics += d.str() + "\n";
    return success();
  });
  return bool(importDojoString(text, &context));
}

TEST(Initialization, AgreesWithASimulation) {
  std::mt19937 rng(2026);
  unsigned rejected = 0, trials = 300;
  for (unsigned trial = 0; trial < trials; ++trial) {
    unsigned common = rng() % 3;
    std::vector<int64_t> commonSizes, sizes[2];
    for (unsigned k = 0; k < common; ++k)
      commonSizes.push_back(1 + rng() % 4);
    for (auto &s : sizes) {
      s = commonSizes;
      for (unsigned k = 0, own = rng() % 3; k < own; ++k)
        s.push_back(1 + rng() % 4);
    }
    // Leaf 0 writes t[f], leaf 1 reads it; `readerFirst` swaps their text
    // order (the write then only helps later iterations).
    int64_t max[2];
    Form write = randomForm(rng, sizes[0], max[0]);
    Form read = randomForm(rng, sizes[1], max[1]);
    bool readerFirst = rng() % 3 == 0;
    std::string writer = "t[" + write.text() + "] = x[0]\n";
    std::string reader = "y[0] = t[" + read.text() + "] * 2\n";
    std::string lines[2] = {sizesText(sizes[0], 0) + writer,
                            sizesText(sizes[1], 0) + reader};
    if (readerFirst)
      lines[0] = sizesText(sizes[1], 0) + reader,
      lines[1] = sizesText(sizes[0], 0) + writer;
    std::vector<int64_t> &second = readerFirst ? sizes[0] : sizes[1];
    lines[1] = (common ? std::string(common, '|') + " " : "") +
               sizesText(second, common) +
               (readerFirst ? writer : reader);
    std::string text = "x f32 [1] heap in\nt f32 [" +
                       std::to_string(std::max(max[0], max[1]) + 1) +
                       "] heap\ny f32 [1] heap out\n" + lines[0] + lines[1];

    // The simulation: instances in execution order, elements marked.
    std::vector<bool> written(std::max(max[0], max[1]) + 1, false);
    bool uninitialized = false;
    auto runLeaf = [&](int which, const std::vector<int64_t> &prefix) {
      std::vector<int64_t> own(sizes[which].begin() + common,
                               sizes[which].end());
      forEachPoint(own, [&](const std::vector<int64_t> &inner) {
        std::vector<int64_t> point = prefix;
        point.insert(point.end(), inner.begin(), inner.end());
        if (which == 0)
          written[write.at(point)] = true;
        else if (!written[read.at(point)])
          uninitialized = true;
      });
    };
    forEachPoint(commonSizes, [&](const std::vector<int64_t> &prefix) {
      runLeaf(readerFirst ? 1 : 0, prefix);
      runLeaf(readerFirst ? 0 : 1, prefix);
    });

    std::string diagnostics;
    bool imported = importKernel(text, diagnostics);
    if (uninitialized) {
      ++rejected;
      EXPECT_FALSE(imported) << text;
      EXPECT_NE(diagnostics.find("which no earlier leaf writes"),
                std::string::npos)
          << text << diagnostics;
    } else {
      EXPECT_TRUE(imported) << text << diagnostics;
    }
  }
  // Both verdicts occur often enough for the comparison to mean something.
  EXPECT_GT(rejected, trials / 10);
  EXPECT_LT(rejected, trials - trials / 10);
}

/// The errors `text` gets when imported, in a context of its own.
std::string importError(llvm::StringRef text) {
  std::string diagnostics;
  importKernel(text, diagnostics);
  return diagnostics;
}

// The check is memoized by what it computes from (Initialization.cpp): a
// kernel met again gets the same verdict and the same first element, and
// one that differs only in how far its writer reaches is not confused
// with it.
TEST(Initialization, MemoizedVerdictsKeepTheirElementAndTheirInputs) {
  const char *partial = "t f32 [8] heap\n"
                        "y f32 [8] heap out\n"
                        "5 t[{0}] = 1\n"
                        "8 y[{0}] = t[{0}]\n";
  const char *whole = "t f32 [8] heap\n"
                      "y f32 [8] heap out\n"
                      "8 t[{0}] = 1\n"
                      "8 y[{0}] = t[{0}]\n";
  std::string first = importError(partial);
  EXPECT_NE(first.find("t[5]"), std::string::npos) << first;
  EXPECT_EQ(importError(whole), "");
  EXPECT_EQ(importError(partial), first);
  EXPECT_EQ(importError(whole), "");
}

// An output written in pieces: each piece of the row [0, C) by its own
// leaf, its length split into factors and the loops reordered, over R
// rows; sometimes a piece is one short (a gap) or starts one early (an
// overlap, and a gap at its end unless another piece covers it).
TEST(Initialization, OutputsWrittenInPiecesAgreeWithASimulation) {
  std::mt19937 rng(7);
  unsigned rejected = 0, trials = 200;
  for (unsigned trial = 0; trial < trials; ++trial) {
    int64_t rows = 1 + rng() % 3, columns = 6 + rng() % 40;
    std::vector<int64_t> cuts = {0, columns};
    for (unsigned i = 0, n = rng() % 3; i < n; ++i)
      cuts.push_back(1 + rng() % (columns - 1));
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    std::string text = "x f32 [1] heap in\ny f32 [" + std::to_string(rows) +
                       ", " + std::to_string(columns) + "] heap out\n";
    std::vector<bool> written(rows * columns, false);
    for (size_t p = 0; p + 1 < cuts.size(); ++p) {
      int64_t start = cuts[p], length = cuts[p + 1] - cuts[p];
      switch (rng() % 6) {
      case 0: // a gap
        length = std::max<int64_t>(1, length - 1);
        break;
      case 1: // an overlap
        start = std::max<int64_t>(0, start - 1);
        break;
      case 2: // written twice
        text += std::to_string(rows) + " " + std::to_string(length) +
                " y[{0}, {1}+" + std::to_string(start) + "] = x[0]\n";
        break;
      }
      // length = f_0 * f_1 * ... (outermost first), loops shuffled.
      std::vector<int64_t> factors;
      int64_t rest = length;
      for (int64_t f = 2; f <= rest; ++f)
        while (rest % f == 0 && rest > f && rng() % 2) {
          factors.push_back(f);
          rest /= f;
        }
      factors.push_back(rest);
      std::vector<int64_t> strides(factors.size(), 1);
      for (size_t i = factors.size() - 1; i-- > 0;)
        strides[i] = strides[i + 1] * factors[i + 1];
      std::vector<unsigned> order(factors.size());
      std::iota(order.begin(), order.end(), 0u);
      std::shuffle(order.begin(), order.end(), rng);
      std::string line = std::to_string(rows) + " ", column;
      for (auto [depth, i] : llvm::enumerate(order)) {
        line += std::to_string(factors[i]) + " ";
        column += "{" + std::to_string(depth + 1) + "}*" +
                  std::to_string(strides[i]) + "+";
      }
      text += line + "y[{0}, " + column + std::to_string(start) +
              "] = x[0]\n";
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = start; c < start + length; ++c)
          written[r * columns + c] = true;
    }
    bool complete = llvm::all_of(written, [](bool w) { return w; });
    std::string diagnostics;
    bool imported = importKernel(text, diagnostics);
    if (!complete) {
      ++rejected;
      EXPECT_FALSE(imported) << text;
      EXPECT_NE(diagnostics.find("is never written at"), std::string::npos)
          << text << diagnostics;
    } else {
      EXPECT_TRUE(imported) << text << diagnostics;
    }
  }
  EXPECT_GT(rejected, trials / 10);
  EXPECT_LT(rejected, trials - trials / 10);
}

// The element count alone proves nothing: a leaf that writes half of an
// output twice has as many instances as the output has elements, and so do
// two leaves that overlap.
TEST(Initialization, OutputsWrittenTwiceAreNotCountedTwice) {
  std::string twice = importError("x f32 [1] heap in\n"
                                  "y f32 [4] heap out\n"
                                  "2 2 y[{1}] = x[0]\n");
  EXPECT_NE(twice.find("is never written at y[2]"), std::string::npos)
      << twice;
  std::string overlap = importError("x f32 [1] heap in\n"
                                    "y f32 [4] heap out\n"
                                    "2 y[{0}] = x[0]\n"
                                    "2 y[{0}+1] = x[0]\n");
  EXPECT_NE(overlap.find("is never written at y[3]"), std::string::npos)
      << overlap;
  EXPECT_EQ(importError("x f32 [1] heap in\n"
                        "y f32 [2, 6] heap out\n"
                        "2 2 y[{0}, {1}*2] = x[0]\n"
                        "2 2 y[{0}, {1}*2+1] = x[0]\n"
                        "2 2 y[{0}, {1}+4] = x[0]\n"),
            "");
}

} // namespace
