//===- ApproximateMath.cpp - vectorizable f32 transcendentals -------------===//

#include "perfdojo/Conversion/Passes.h"

#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace perfdojo {
#define GEN_PASS_DEF_DOJOAPPROXIMATEMATHPASS
#include "perfdojo/Conversion/Passes.h.inc"
} // namespace perfdojo

using namespace mlir;

LogicalResult perfdojo::approximateMath(Operation *root) {
  RewritePatternSet patterns(root->getContext());
  // The upstream approximations within a few f32 ulps of libm on any
  // argument, those hasPolynomialApproximation lists (the IR names them as
  // the math dialect does); upstream's sin, cos and atan are not (absolute
  // errors up to 6e-6 at |x| = 100) and stay libm calls. The patterns
  // match f32 (scalar or vector) operations, f16 and bf16 ones computed in
  // f32; f64 ones stay libm calls.
  auto accurate = [](StringRef name) {
    name.consume_front("math.");
    std::optional<dojo::OpKind> kind = dojo::symbolizeOpKind(name);
    return kind && hasPolynomialApproximation(*kind);
  };
  populateMathF32ExpansionPatterns(patterns, accurate);
  populateMathPolynomialApproximationPatterns(patterns, accurate);
  return applyPatternsGreedily(root, std::move(patterns));
}

bool perfdojo::hasPolynomialApproximation(dojo::OpKind kind) {
  switch (kind) {
  case dojo::OpKind::exp:
  case dojo::OpKind::log:
  case dojo::OpKind::tanh:
  case dojo::OpKind::sigmoid:
  case dojo::OpKind::asin:
  case dojo::OpKind::acos:
  case dojo::OpKind::erf:
    return true;
  default:
    return false;
  }
}

namespace {
struct DojoApproximateMathPass
    : perfdojo::impl::DojoApproximateMathPassBase<DojoApproximateMathPass> {
  void runOnOperation() override {
    if (failed(perfdojo::approximateMath(getOperation())))
      return signalPassFailure();
  }
};
} // namespace
