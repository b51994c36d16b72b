//===- DojoTransformOps.cpp - one transform op per move -------------------===//
//
// Each `transform.dojo.<move>` op is a thin wrapper: it builds the move
// request from its `location` and `params` and runs the move's own check and
// rewrite (lib/Moves), so the transform ops, `perfdojo-opt --dojo-apply` and
// the C++ game API share one definition of every move.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Dialect/Dojo/TransformOps/DojoTransformOps.h"
#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Moves/Move.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace perfdojo;

DiagnosedSilenceableFailure
perfdojo::dojo::applyMoveOp(Operation *transformOp, MoveKind kind,
                            StringRef location, ArrayRef<int64_t> params,
                            Operation *target) {
  auto kernel = dyn_cast<dojo::KernelOp>(target);
  if (!kernel)
    return emitSilenceableFailure(transformOp,
                                  "expected the handle to point to "
                                  "dojo.kernel ops, not '")
           << target->getName() << "'";
  MoveRequest request{stringifyMoveKind(kind).str(), location.str(), {}};
  request.params.assign(params.begin(), params.end());
  MoveState state(kernel);
  DiagnosedSilenceableFailure failure = DiagnosedSilenceableFailure::success();
  if (failed(applyMove(state, request, transformOp->getLoc(), &failure)))
    return failure;
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// GetKernelsOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
transform::GetKernelsOp::apply(transform::TransformRewriter &rewriter,
                               transform::TransformResults &results,
                               transform::TransformState &state) {
  SmallVector<Operation *> kernels;
  for (Operation *root : state.getPayloadOps(getTarget()))
    root->walk([&](dojo::KernelOp kernel) {
      if (!getName() || kernel.getSymName() == *getName())
        kernels.push_back(kernel);
    });
  if (getName() && kernels.empty())
    return emitSilenceableFailure(getLoc(), "no dojo.kernel named '")
           << *getName() << "'";
  results.set(cast<OpResult>(getKernels()), kernels);
  return DiagnosedSilenceableFailure::success();
}

void transform::GetKernelsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getTargetMutable(), effects);
  transform::producesHandle(getOperation()->getOpResults(), effects);
  transform::onlyReadsPayload(effects);
}

// The move ops are generated from the move records (Moves.td), their
// applyToOne and getEffects included: each calls applyMoveOp.


#define GET_OP_CLASSES
#include "perfdojo/Dialect/Dojo/TransformOps/DojoTransformOps.cpp.inc"

namespace {
class DojoTransformDialectExtension
    : public transform::TransformDialectExtension<
          DojoTransformDialectExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DojoTransformDialectExtension)
  using Base::Base;

  void init() {
    declareDependentDialect<dojo::DojoDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "perfdojo/Dialect/Dojo/TransformOps/DojoTransformOps.cpp.inc"
        >();
  }
};
} // namespace

void perfdojo::dojo::registerTransformDialectExtension(
    DialectRegistry &registry) {
  registry.addExtensions<DojoTransformDialectExtension>();
}
