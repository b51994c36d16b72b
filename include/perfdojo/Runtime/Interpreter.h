//===- Interpreter.h - reference interpreter for dojo kernels --*- C++ -*-===//
//
// Executes a verified kernel on host buffers exactly as docs/ir.md defines:
// children in order, scopes from 0 to size-1, modes ignored (they never
// change results), `:N` dimensions sharing storage, shared arrays aliasing
// one buffer, padding allocated. It is the semantic oracle for moves,
// lowerings and search candidates. Every element type of the IR runs with
// the semantics of docs/ir.md ("Numbers"): integers wrap, `/` truncates,
// f16 and bf16 round after every operation like the compiled code.
//
// Compilation precomputes, for every access, an element offset and one
// stride per enclosing depth; scopes whose only child is a leaf run as one
// tight, type-specialized loop.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_RUNTIME_INTERPRETER_H
#define PERFDOJO_RUNTIME_INTERPRETER_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Runtime/HostBuffer.h"

#include <memory>

namespace perfdojo {

struct InterpreterOptions {
  /// Computes every float leaf and stores every float buffer in f64,
  /// whatever the declared float types: the accurate reference that
  /// validation compares with. Integer and bool buffers keep their types,
  /// whose arithmetic is exact (getReferenceScalarType).
  bool reference = false;
};

class CompiledKernel;

class Interpreter {
public:
  ~Interpreter();
  Interpreter(Interpreter &&) noexcept;
  Interpreter &operator=(Interpreter &&) noexcept;

  /// Prepares `kernel` for execution. Fails with a diagnostic on the kernel
  /// if it does not verify or uses an element type the interpreter cannot
  /// execute.
  static mlir::FailureOr<Interpreter> create(dojo::KernelOp kernel,
                                             InterpreterOptions options = {});

  /// Runs the kernel once. `args` holds one buffer per argument buffer in
  /// declaration order (see allocateArguments), in the declared element type
  /// (f64 for floats in reference mode). Fails with a message on mismatched
  /// arguments.
  llvm::Error run(llvm::MutableArrayRef<HostBuffer> args);

  /// Number of scalar leaf evaluations one run performs.
  int64_t getLeafEvaluations() const;

private:
  explicit Interpreter(std::unique_ptr<CompiledKernel> compiled);
  std::unique_ptr<CompiledKernel> compiled;
};

} // namespace perfdojo

#endif // PERFDOJO_RUNTIME_INTERPRETER_H
