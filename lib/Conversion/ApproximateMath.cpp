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
  // The upstream set of approximations; each pattern only matches f32
  // (scalar or vector) operations, f64 ones stay libm calls.
  populateMathPolynomialApproximationPatterns(patterns);
  return applyPatternsGreedily(root, std::move(patterns));
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
