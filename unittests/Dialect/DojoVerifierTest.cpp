//===- DojoVerifierTest.cpp - verifier checks textual IR cannot reach ----===//
//
// Every other verifier message has a case in test/Dialect/Dojo/invalid.mlir.
// An index-value operand with several expressions cannot be written in
// either text form (`#dojo.index<(...)>` holds exactly one), so it is built
// here.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

namespace {

TEST(DojoVerifier, IndexValueWithTwoExpressionsIsRejected) {
  MLIRContext ctx;
  ctx.loadDialect<DojoDialect>();
  std::string messages;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    messages += diag.str() + "\n";
    return success();
  });

  OpBuilder b(&ctx);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  auto kernel = KernelOp::create(b, loc, "k");
  b.setInsertionPointToEnd(&kernel.getBlock());
  BufferOp::create(b, loc, b.getStringAttr("y"), TypeAttr::get(b.getF32Type()),
                   b.getDenseI64ArrayAttr({4}), b.getDenseI64ArrayAttr({0}),
                   b.getDenseBoolArrayAttr({false}),
                   BufferLocationAttr::get(&ctx, BufferLocation::heap),
                   RoleAttr::get(&ctx, Role::out), b.getStrArrayAttr({}));
  auto scope = ScopeOp::create(b, loc, 4, Mode::seq);
  b.setInsertionPointToEnd(&scope.getBlock());
  AffineExpr d0 = b.getAffineDimExpr(0);
  auto twoResults = IndexValueAttr::get(&ctx, makeIndexMap({d0, d0}, &ctx));
  LeafOp::create(b, loc, b.getStringAttr("y"),
                 AffineMapAttr::get(makeIndexMap({d0}, &ctx)),
                 OpKindAttr::get(&ctx, OpKind::copy),
                 ReduceKindAttr::get(&ctx, ReduceKind::none),
                 b.getArrayAttr({twoResults}));

  EXPECT_TRUE(failed(verify(*module)));
  EXPECT_NE(messages.find("index value operand 0 must have exactly one "
                          "expression"),
            std::string::npos)
      << messages;
}

} // namespace
