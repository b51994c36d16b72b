//===- JitKernel.h - compile and call a dojo kernel in-process -*- C++ -*-===//
//
// Lowers one kernel with the CPU pipeline, JIT-compiles it for the host with
// MLIR's ExecutionEngine, and calls it on HostBuffers. Used by perfdojo-run
// (`--engine=jit`) and the benchmarks; the search evaluates candidates
// through it.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_EXECUTIONENGINE_JITKERNEL_H
#define PERFDOJO_EXECUTIONENGINE_JITKERNEL_H

#include "perfdojo/Conversion/Pipelines.h"
#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Runtime/HostBuffer.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace perfdojo {

struct JitOptions {
  /// LLVM optimization and code generation level, 0-3.
  unsigned optLevel = 3;
  /// Polynomial f32 transcendentals (see `dojo-approximate-math`).
  bool approximateMath = true;
};

/// Wall time of each compilation stage, in milliseconds.
struct CompileTimes {
  double lowerMs = 0;     ///< dojo -> LLVM dialect
  double translateMs = 0; ///< LLVM dialect -> LLVM IR
  double codegenMs = 0;   ///< LLVM optimization + machine code
  double totalMs() const { return lowerMs + translateMs + codegenMs; }
};

class JitKernel {
public:
  /// Compiles `kernel` (not modified). Lowering diagnostics are reported
  /// through the kernel's context; the error summarizes the failed stage.
  static llvm::Expected<std::unique_ptr<JitKernel>>
  compile(dojo::KernelOp kernel, const JitOptions &options = {});
  ~JitKernel();

  /// Calls the kernel on its arguments in declaration order, as allocated
  /// by `allocateArguments` (element types must match the kernel's).
  llvm::Error run(llvm::MutableArrayRef<HostBuffer> args);

  /// Calls the kernel on raw pointers, one per argument; no checks.
  void call(void **pointers) const;

  const CompileTimes &getCompileTimes() const { return times; }
  unsigned getNumArguments() const { return argumentTypes.size(); }

private:
  JitKernel() = default;

  std::unique_ptr<mlir::ExecutionEngine> engine;
  void (*entry)(void **) = nullptr;
  std::vector<ScalarType> argumentTypes;
  std::vector<int64_t> argumentSizes;
  CompileTimes times;
};

/// Sets the number of OpenMP threads `:p` scopes run on (0: runtime default).
void setJitThreads(unsigned threads);

} // namespace perfdojo

#endif // PERFDOJO_EXECUTIONENGINE_JITKERNEL_H
