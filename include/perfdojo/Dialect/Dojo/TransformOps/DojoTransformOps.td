//===- DojoTransformOps.td - one transform op per move ------*- tablegen -*-===//
//
// Every move of the catalogue as a Transform dialect op, so move scripts are
// MLIR, replayable by the upstream `--transform-interpreter` and embeddable
// in other MLIR compilers. The ops are generated from the move records of
// perfdojo/Moves/Moves.td, whose descriptions are the user-facing catalogue
// (generated into docs by add_mlir_doc).
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_DIALECT_DOJO_TRANSFORMOPS_TD
#define PERFDOJO_DIALECT_DOJO_TRANSFORMOPS_TD

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Dialect/Transform/IR/TransformTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"
include "perfdojo/Moves/Moves.td"

def Dojo_GetKernelsOp : Op<Transform_Dialect, "dojo.get_kernels", [
    DeclareOpInterfaceMethods<TransformOpInterface>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Collect the dojo.kernel ops under the target";
  let description = [{
    Returns a handle to every `dojo.kernel` nested in the payload of
    `target` (in order), or only the one called `name` when given.

    #### Return modes

    Fails silenceably when `name` is given and no kernel has that name.
    Only reads `target`; produces a new handle.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<StrAttr>:$name);
  let results = (outs TransformHandleTypeInterface:$kernels);
  let assemblyFormat =
      "(`named` $name^)? `in` $target attr-dict `:` functional-type(operands, results)";
}

// A move applied to every kernel the handle points to. `location` and
// `params` are the move's arguments exactly as `perfdojo-opt --dojo-apply`
// writes them: `transform.dojo.split_scope "y@0" params [16] in %k`. The op
// is a thin wrapper around the move's own check and rewrite (lib/Moves).
class Dojo_MoveOp<Dojo_Move move>
    : Op<Transform_Dialect, "dojo." # move.moveName, [
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
        TransformOpInterface, TransformEachOpTrait]> {
  let summary = move.summary;
  let description = move.description # [{

  **Post-verification.** Like every move, this one is also refused when
  its result would break an invariant of the kernel: a `:N` mark
  (NM2-NM4, for moves that restructure the tree), the concurrency
  condition of any `:p`, `:v`, `:g`, `:b` or `:w` scope (privatization by
  location and the GPU `:b` phase rule included), one block shape per GPU
  kernel, or the compile-time addressability of a `reg` buffer
  (docs/moves.md, sections 4 and 10).

  #### Return modes

  Applies the move to each kernel the `target` handle points to. If the
  move is illegal at `location` in a kernel (unknown location, violated
  precondition or a dependence), the op fails silenceably with a message
  naming the violated condition and notes on the offending leaves and
  scopes, and that kernel is left untouched. The handle is only read and
  stays valid: moves rewrite the kernel in place.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       StrAttr:$location,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$params);
  let results = (outs);
  let assemblyFormat =
      "$location (`params` $params^)? `in` $target attr-dict `:` type($target)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    applyToOne(::mlir::transform::TransformRewriter &rewriter,
               ::mlir::Operation *target,
               ::mlir::transform::ApplyToEachResultList &results,
               ::mlir::transform::TransformState &state);
    static constexpr ::perfdojo::MoveKind getMoveKind() {
      return ::perfdojo::MoveKind::}] # move.cppName # [{;
    }
  }];
  let extraClassDefinition = [{
    ::mlir::DiagnosedSilenceableFailure $cppClass::applyToOne(
        ::mlir::transform::TransformRewriter &, ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &,
        ::mlir::transform::TransformState &) {
      return ::perfdojo::dojo::applyMoveOp(getOperation(), getMoveKind(),
                                           getLocation(), getParams(), target);
    }
    void $cppClass::getEffects(
        ::llvm::SmallVectorImpl<::mlir::MemoryEffects::EffectInstance>
            &effects) {
      ::mlir::transform::onlyReadsHandle(getTargetMutable(), effects);
      ::mlir::transform::modifiesPayload(effects);
    }
  }];
}

// One op per move of the catalogue, `Dojo_<CppName>Op`.
foreach move = Dojo_MoveCatalogue in
def "Dojo_" # move.cppName # "Op" : Dojo_MoveOp<move>;

#endif // PERFDOJO_DIALECT_DOJO_TRANSFORMOPS_TD
