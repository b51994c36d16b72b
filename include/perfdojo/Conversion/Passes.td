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
    indices; `:p` -> `scf.parallel` (OpenMP after
    `convert-parallel-scopes-to-openmp`);
    `:v` -> one `vector<size x T>` operation per leaf operation: operands
    with lane stride 1 on the innermost stored dimension become
    `vector.load`, stride 0 a broadcast, anything else a per-lane gather;
    a reduction into a lane-invariant element becomes `vector.reduction`.
    GPU modes (`:g`, `:b`, `:w`) and the `gpu_shared`, `gpu_local` and
    `tcdm` locations are errors on this CPU path.

    Leaves compute in the output's element type with the interpreter's
    exact formulas (`max(a, b) = a < b ? b : a`, `relu(a) = a > 0 ? a : 0`,
    `sigmoid(a) = 1 / (1 + exp(-a))`, `rsqrt(a) = 1 / sqrt(a)`).

    `vector-bytes` is the width of the CPU's vector registers that the code
    is compiled for (TargetDescription::getCpu): the side of a transposing
    copy's register squares follows from it. The JIT passes its host's, an
    ahead-of-time build its `--target`'s (Target/LLVM/CodeGen.h).
  }];
  let options = [
    Option<"vectorBytes", "vector-bytes", "int64_t", /*default=*/"64",
           "Bytes of one vector register of the CPU compiled for">
  ];
  let dependentDialects = [
    "::mlir::func::FuncDialect", "::mlir::scf::SCFDialect",
    "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect", "::mlir::vector::VectorDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

def ConvertParallelScopesToOpenMPPass
    : Pass<"convert-parallel-scopes-to-openmp", "::mlir::ModuleOp"> {
  let summary = "Lower one-dimensional scf.parallel loops to omp.parallel "
                "regions that split their iterations themselves";
  let description = [{
    Replaces every one-dimensional `scf.parallel` without reductions (what
    `convert-dojo-to-scf` makes of a `:p` scope) by an `omp.parallel`
    region in which each thread runs an `scf.for` over its own block of
    iterations: thread t of T runs the iterations
    `[t*q + min(t, r), (t+1)*q + min(t+1, r))` with `q = n / T` and
    `r = n % T`, which is OpenMP's static schedule without a chunk size.
    The thread number and count come from `omp_get_thread_num` and
    `omp_get_num_threads` (declared `() -> i32` where absent; a module that
    defines either name otherwise is refused with an error at it).

    Why not `omp.wsloop`: its lowering calls `__kmpc_for_static_init` in
    every thread of every region, and the libomp builds that Debian ships
    format a trace string there on each call (an allocation and a
    `vsnprintf`), about 0.5 us per region and thread. A `:p` scope
    nested in a loop pays that once per iteration of the loop.

    Other `scf.parallel` loops (several dimensions, reductions) are left
    for `convert-scf-to-openmp`.
  }];
  let dependentDialects = [
    "::mlir::func::FuncDialect", "::mlir::scf::SCFDialect",
    "::mlir::arith::ArithDialect", "::mlir::omp::OpenMPDialect"
  ];
}

def ConvertDojoToGPUPass : Pass<"convert-dojo-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Lower dojo kernels to a host launch sequence and a gpu.module";
  let description = [{
    Replaces every `dojo.kernel @k` by `func.func @k` (the host side: one
    memref per argument buffer, `dojo.buffer`/`dojo.role` argument
    attributes, `memref.alloc` of shared internal buffers in device global
    memory, `scf.for` host loops and `gpu.launch_func`) and
    `gpu.module @k_device` holding one `gpu.func` kernel per launch.

    Every outermost `:g` scope is one launch: its perfect nest of `:g`
    scopes is the grid (blockIdx.x, innermost scope fastest), the `:b`
    sizes of its phases and, if any, the `:w` lanes are the block
    (threadIdx.x, innermost fastest). Plain scopes around `:g` scopes are
    host loops whose variables the kernels take as `index` arguments; runs
    of nodes without `:g` scopes become single-thread launches. A
    `gpu_shared` buffer is a view of the launch's dynamic shared memory
    (16-byte aligned offsets); a `reg` or `gpu_local` buffer private to a
    GPU thread is a per-thread `memref.alloca`. Leaves compute exactly as
    on the CPU (the same emitter). Block barriers (`gpu.barrier`) order
    what the concurrency rules do not make independent (docs/gpu.md).

    Refused with a diagnostic: exp, log, tanh and sigmoid in f64 (or in any
    type without `approximate-math`: no vendor device library is linked),
    modes the chip cannot execute (`:p`), `:g`
    scopes that are not a perfect nest at a kernel's top, blocks of more
    threads or shared memory than the chip has, `tcdm` buffers, and
    `gpu_shared` buffers not private to one `:g` scope's blocks.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "The GPU: sm_80, sm_86, sm_89, sm_90, gfx90a or gfx942">,
    Option<"approximateMath", "approximate-math", "bool", /*default=*/"true",
           "f32 transcendentals will be expanded into polynomials "
           "(dojo-approximate-math); the only GPU implementation of exp, "
           "log, tanh and sigmoid">
  ];
  let dependentDialects = [
    "::mlir::func::FuncDialect", "::mlir::scf::SCFDialect",
    "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect", "::mlir::vector::VectorDialect",
    "::mlir::gpu::GPUDialect"
  ];
}

def ConvertDojoGpuToNVVMPass
    : Pass<"convert-dojo-gpu-to-nvvm", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower a gpu.module's kernels to NVVM, math to LLVM intrinsics";
  let description = [{
    The upstream GPU-to-NVVM patterns plus the arith, cf, func, index,
    math, memref, ub and vector to LLVM patterns, with kernel memrefs as
    bare pointers. Unlike `convert-gpu-to-nvvm`, LLVM math intrinsics stay
    legal instead of becoming libdevice calls, so the module needs no CUDA
    toolkit (transcendentals are expected to be expanded before).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def ConvertDojoGpuToROCDLPass
    : Pass<"convert-dojo-gpu-to-rocdl", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower a gpu.module's kernels to ROCDL, math to LLVM intrinsics";
  let description = [{
    As `convert-dojo-gpu-to-nvvm`, with the upstream GPU-to-ROCDL patterns
    (HIP runtime conventions) and AMDGPU address spaces: no call into the
    ROCm device libraries remains.
  }];
  let options = [
    Option<"chipset", "chipset", "std::string", /*default=*/"\"gfx942\"",
           "The AMDGPU chip">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::ROCDL::ROCDLDialect"];
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

def ConvertDojoToSnitchPass
    : Pass<"convert-dojo-to-snitch", "::mlir::ModuleOp"> {
  let summary = "Lower dojo kernels to snitch functions for one Snitch core";
  let description = [{
    Replaces every `dojo.kernel @k` by `snitch.function @k`: scalar
    RV32IMAFD code for one Snitch core with every buffer in its TCDM
    (docs/snitch.md, "Lowering dojo kernels"). The argument buffers arrive
    as pointers in `a0`-`a7` in declaration order; internal buffers live
    in the stack frame. Scopes become count-down loops, each access a
    pointer register advanced by the loops it depends on, and leaves
    compute in the output's type (f32 or f64).

    Refused with a diagnostic: element types other than f32 and f64, more
    than eight argument buffers, modes the Snitch target lacks (anything but
    plain, `:u` and `:f`), GPU locations, log and tanh (exp and sigmoid
    are emitted as a range reduction and a polynomial), and top-level
    scopes that need more registers than the core has.
  }];
  let dependentDialects = ["::perfdojo::snitch::SnitchDialect"];
}

def ConvertLinalgToDojoPass
    : Pass<"convert-linalg-to-dojo", "::mlir::ModuleOp"> {
  let summary = "Turn statically shaped linalg ops on memrefs into dojo kernels";
  let description = [{
    For every `linalg` structured op in the module's functions (generic and
    the named ops: matmul, batch_matmul, the conv_2d and pooling families,
    fill, copy, transpose, broadcast, map, reduce, elementwise), after
    bufferization, builds an equivalent `dojo.kernel` in the module and
    marks the op with `dojo.outline = @kernel` (and the operands the kernel
    takes, `dojo.outline_operands`) for `dojo-outline-kernels`. The op
    itself stays, so a module is valid and runnable after this pass.

    The loops become a scope nest, parallel loops outside reduction loops
    (each keeps its order); the indexing maps become the leaves' index
    lists; the body's arith/math operations become leaves, one per
    operation, with a temporary buffer over the whole iteration space for
    every intermediate value (`dojo-naive` shrinks them). A reduction's
    body must combine the output with `+`, `*`, `max` or `min`; a
    `linalg.fill` of a constant that initializes the reduction's output
    just before it is folded into the kernel (`c = 0` above the reduction
    loops; the fill is marked `dojo.folded_into`). Identical kernels are
    built once.

    Left untouched, with a remark saying why: tensor operands (bufferize
    first), dynamic shapes, memrefs with a non-identity layout or a memory
    space, element types the IR lacks, non-linear indexing maps, outputs
    indexed other than by a permutation of the parallel loops, an operand
    that is (a view of) an output too, non-constant scalar operands, and body
    operations without a leaf operation (comparisons, selects, casts other
    than of `linalg.index`, unsigned division and extrema).

    Results follow the leaves' formulas (docs/ir.md): `max(a, b) = a < b ?
    b : a`, so `arith.maximumf` and `arith.maxnumf` agree with the kernel
    except on NaN operands and on the sign of a zero result.
  }];
  let dependentDialects = ["::perfdojo::dojo::DojoDialect"];
}

def DojoOutlineKernelsPass
    : Pass<"dojo-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "Replace converted linalg ops by calls to their lowered kernels";
  let description = [{
    Lowers every `dojo.kernel` of the module to a function
    (`convert-dojo-to-scf`: one memref argument per argument buffer, in
    declaration order), then replaces each op marked `dojo.outline =
    @kernel` by `func.call @kernel` on the operands `dojo.outline_operands`
    names, and erases the `linalg.fill`s folded into a kernel. The rest of
    the module is untouched: a compiler continues with its own lowering
    (the kernels need `convert-parallel-scopes-to-openmp`, or upstream's
    `convert-scf-to-openmp`, for `:p` scopes and the
    vector lowering for `:v` ones). A kernel's function takes its memrefs
    as `llvm.noalias` arguments: the conversion refuses an op whose
    operands are views of one another, but memrefs of one allocation that
    reach the op by other routes (function arguments) must not overlap. A
    kernel whose arguments no longer match the call's operands is an error.
  }];
  let options = [
    Option<"approximateMath", "approximate-math", "bool", /*default=*/"true",
           "Expand f32 transcendentals of the kernels (not of the rest of "
           "the module) into vectorizable polynomials, as dojo-to-llvm does">
  ];
  let dependentDialects = [
    "::mlir::func::FuncDialect", "::mlir::scf::SCFDialect",
    "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect", "::mlir::vector::VectorDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

#endif // PERFDOJO_CONVERSION_PASSES_TD
