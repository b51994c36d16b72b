//===- Passes.td - lowering passes for dojo kernels ------*- tablegen -*-===//
#ifndef PERFDOJO_CONVERSION_PASSES_TD
#define PERFDOJO_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertDojoToSCFPass : Pass<"convert-dojo-to-scf", "::mlir::ModuleOp"> {
  let summary = "Lower dojo kernels to func/scf/memref/arith/math/vector";
  let description = [{
    Replaces every `dojo.kernel @k` by `func.func @k` taking one statically
    shaped memref per argument buffer (declaration order) and returning
    nothing. Buffers: arguments are the function's memrefs; internal
    buffers become `memref.alloc` (`heap`, 64-byte aligned, freed before
    the return) or `memref.alloca` (`stack`, `reg`), with `:N` dimensions
    dropped from the storage and padding added to the allocated extent;
    arrays that share a buffer use the same memref. A buffer private to a
    `:p` scope by its location (getPrivatizingScope, the rule the moves'
    dependence test uses) is allocated inside that scope's body, one copy
    per iteration.

    Scopes: plain -> `scf.for`; `:u` -> the body repeated with constant
    indices; `:p` -> `scf.parallel` (OpenMP after `convert-scf-to-openmp`);
    `:v` -> one `vector<size x T>` operation per leaf operation: operands
    with lane stride 1 on the innermost stored dimension become
    `vector.load`, stride 0 a broadcast, anything else a per-lane gather;
    a reduction into a lane-invariant element becomes `vector.reduction`.
    GPU modes (`:g`, `:b`, `:w`) and the `gpu_shared`, `gpu_local` and
    `tcdm` locations are errors on this CPU path.

    Leaves compute in the output's element type with the interpreter's
    exact formulas (`max(a, b) = a < b ? b : a`, `relu(a) = a > 0 ? a : 0`,
    `sigmoid(a) = 1 / (1 + exp(-a))`, `rsqrt(a) = 1 / sqrt(a)`).
  }];
  let dependentDialects = [
    "::mlir::func::FuncDialect", "::mlir::scf::SCFDialect",
    "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect", "::mlir::vector::VectorDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

def DojoApproximateMathPass : Pass<"dojo-approximate-math", "::mlir::ModuleOp"> {
  let summary = "Replace f32 transcendental math ops by vectorizable polynomials";
  let description = [{
    Applies MLIR's polynomial approximations (`exp`, `log`, `tanh`, ...) to
    f32 scalar and vector math operations, so a vectorized `exp` stays a
    sequence of vector instructions instead of one libm call per lane. The
    approximations are accurate to a few ULP; `perfdojo-run` validation
    tolerances cover them. f64 operations are left to libm.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect"
  ];
}

#endif // PERFDOJO_CONVERSION_PASSES_TD
