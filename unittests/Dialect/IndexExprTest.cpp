//===- IndexExprTest.cpp - affine index forms and their text --------------===//

#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"
#include "perfdojo/Dialect/Dojo/IR/TextSyntax.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <limits>

using namespace mlir;
using namespace perfdojo;

namespace {
std::string print(AffineExpr e) {
  std::string s;
  llvm::raw_string_ostream os(s);
  printIndexExpr(os, e);
  return s;
}

std::string printConst(double v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  printConstant(os, v);
  return s;
}

TEST(IndexExpr, CanonicalTextSortsTermsAndPutsConstantLast) {
  MLIRContext ctx;
  AffineExpr d0 = getAffineDimExpr(0, &ctx), d1 = getAffineDimExpr(1, &ctx),
             d2 = getAffineDimExpr(2, &ctx);
  EXPECT_EQ(print(d1 + d0 * 512), "{0}*512+{1}");
  EXPECT_EQ(print(3 - d2 * 2 + d0), "{0}-{2}*2+3");
  EXPECT_EQ(print(d0 - d0), "0");
  EXPECT_EQ(print(-d1 - 5), "-{1}-5");
  EXPECT_EQ(print(getAffineConstantExpr(-7, &ctx)), "-7");
}

TEST(IndexExpr, LinearFormRangeIsExactOverTheBox) {
  MLIRContext ctx;
  AffineExpr d0 = getAffineDimExpr(0, &ctx), d1 = getAffineDimExpr(1, &ctx);
  LinearForm f = *getLinearForm(d0 * 4 - d1 + 3);
  auto [lo, hi] = *f.range({8, 4});
  EXPECT_EQ(lo, 0);       // {0}=0, {1}=3
  EXPECT_EQ(hi, 28 + 3);  // {0}=7, {1}=0
}

TEST(IndexExpr, LinearFormRangeReportsOverflow) {
  MLIRContext ctx;
  AffineExpr d0 = getAffineDimExpr(0, &ctx);
  EXPECT_FALSE(getLinearForm(d0 * (int64_t(1) << 40))
                   ->range({int64_t(1) << 40})
                   .has_value());
}

TEST(IndexExpr, NonAffineFormsAreRejected) {
  MLIRContext ctx;
  AffineExpr d0 = getAffineDimExpr(0, &ctx), d1 = getAffineDimExpr(1, &ctx);
  EXPECT_FALSE(getLinearForm(d0 * d1).has_value());
  EXPECT_FALSE(getLinearForm(d0 % 4).has_value());
  EXPECT_FALSE(getLinearForm(d0.floorDiv(2)).has_value());
}

TEST(IndexExpr, MapsUseTheSmallestDimensionCount) {
  MLIRContext ctx;
  AffineExpr d2 = getAffineDimExpr(2, &ctx);
  EXPECT_EQ(makeIndexMap({d2, getAffineConstantExpr(1, &ctx)}, &ctx)
                .getNumDims(),
            3u);
  EXPECT_EQ(makeIndexMap({getAffineConstantExpr(1, &ctx)}, &ctx).getNumDims(),
            0u);
}

TEST(TextSyntax, ConstantsPrintShortestAndReadBack) {
  EXPECT_EQ(printConst(0), "0");
  EXPECT_EQ(printConst(1.5), "1.5");
  EXPECT_EQ(printConst(1.5e-5), "1.5e-5");
  EXPECT_EQ(printConst(1e20), "1.0e20");
  EXPECT_EQ(printConst(40), "40");
  EXPECT_EQ(printConst(720000), "720000");
  EXPECT_EQ(printConst(-3), "-3");
  // Every integer an i64 statement can hold prints as its digits.
  EXPECT_EQ(printConst(-0x1.0p63), "-9223372036854775808");
  EXPECT_EQ(printConst(0x1.0p53), "9007199254740992");
  EXPECT_EQ(printConst(0x1.0p64), "1.8446744073709552e19");
  EXPECT_EQ(printConst(-0.1), "-0.1");
  EXPECT_EQ(printConst(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(printConst(-std::numeric_limits<double>::infinity()), "-inf");
  for (double v : {0.1, 1.0 / 3.0, 6.02214076e23, 1e-300, 123456789.0})
    EXPECT_EQ(std::strtod(printConst(v).c_str(), nullptr), v);
}
} // namespace
