//===- Emit.h - ahead-of-time emission of kernel libraries -----*- C++ -*-===//
//
// `perfdojo-translate --emit=llvm|asm|obj|c-header`: compiles every dojo
// kernel of a module for one target (see CodeGen.h) and writes LLVM IR,
// assembly, an object file, or the C header that declares the kernels.
//
// Kernel ABI (the same as the JIT's): each kernel `k` is an external C
// function `void k(T *a0, T *a1, ...)` with one pointer per argument buffer
// (role in, out or inout) in declaration order, each dense row-major over
// the buffer's logical shape. `in` buffers are only read. Kernels with `:p`
// scopes call the LLVM OpenMP runtime (`__kmpc_*`, libomp).
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TARGET_LLVM_EMIT_H
#define PERFDOJO_TARGET_LLVM_EMIT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace perfdojo {

enum class EmitKind {
  LLVMIR,
  Assembly,
  Object,
  CHeader,
  /// GPU kinds (EmitGpu.cpp): `--target` names the chip.
  Ptx,
  GpuAssembly,
  Hsaco,
  LaunchPlan,
};

/// `llvm`, `asm`, `obj`, `c-header`, `ptx`, `gpu-asm`, `hsaco` or
/// `launch-plan`.
std::optional<EmitKind> parseEmitKind(llvm::StringRef name);
llvm::StringRef getEmitKindsHelp();

struct EmitOptions {
  EmitKind kind = EmitKind::Object;
  /// A name accepted by createTargetMachine (`host`, `x86_64-avx512`, ...).
  std::string target = "host";
  /// LLVM optimization and code generation level, 0-3.
  unsigned optLevel = 3;
  /// Polynomial f32 transcendentals (see `dojo-approximate-math`).
  bool approximateMath = true;
  /// Include guard of a C header; `PERFDOJO_<FIRST KERNEL>_H` when empty.
  std::string headerGuard;
};

/// Writes a C header declaring every `dojo.kernel` of `module`: one
/// prototype per kernel in module order, `const` pointers for `in`
/// buffers, a comment per argument with its type, shape and role, an
/// include guard and `extern "C"`. Element types map to float (f32),
/// double (f64), uint16_t (f16 and bf16 bit patterns), int8_t (i8) and
/// int32_t (i32). Fails, with an error at the kernel, when a kernel name is
/// not usable as a C identifier.
mlir::LogicalResult emitCHeader(mlir::ModuleOp module, llvm::raw_ostream &os,
                                llvm::StringRef guard = "");

/// Whether `kind` compiles for a GPU (`--target` is then a chip name).
bool isGpuEmitKind(EmitKind kind);

/// The GPU kinds: compiles the one kernel of `module` for the chip
/// `options.target` (`host` stands for sm_90, or gfx942 for `hsaco`) and
/// writes its PTX, device assembly, AMDGPU code object, or launch plan
/// (GpuRuntime/LaunchPlan.h).
llvm::Error emitGpuKernel(mlir::ModuleOp module, const EmitOptions &options,
                          llvm::raw_ostream &os);

/// Compiles every kernel of `module` for `options.target` and writes
/// `options.kind` to `os`. The module is lowered in place (except for a C
/// header). Diagnostics with source locations go to the context's handler;
/// the error names the failed stage.
llvm::Error emitKernelLibrary(mlir::ModuleOp module, const EmitOptions &options,
                              llvm::raw_ostream &os);

} // namespace perfdojo

#endif // PERFDOJO_TARGET_LLVM_EMIT_H
