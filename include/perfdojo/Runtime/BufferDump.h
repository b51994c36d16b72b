//===- BufferDump.h - kernel arguments as a text file -----------*- C++ -*-===//
//
// A text dump of argument buffers, for programs outside PerfDojo (a C
// program calling an ahead-of-time compiled kernel, a comparison script) to
// run on and check against the same data as perfdojo-run. The format: for
// each buffer a `# name type [shape]` line, then one element per line (9
// significant digits for f16, bf16 and f32, 17 for f64, so values read back
// exactly; integers in decimal, bool as 0 or 1).
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_RUNTIME_BUFFERDUMP_H
#define PERFDOJO_RUNTIME_BUFFERDUMP_H

#include "perfdojo/Runtime/HostBuffer.h"

#include "llvm/Support/Error.h"

namespace perfdojo {

/// Writes the arguments of `kernel` held in `args` (declaration order, see
/// allocateArguments) to `path`, except those whose role is `skip`: pass
/// `Role::in` to dump outputs, `Role::out` to dump inputs.
llvm::Error writeBufferDump(dojo::KernelOp kernel,
                            llvm::ArrayRef<HostBuffer> args, dojo::Role skip,
                            llvm::StringRef path);

/// Reads the arguments of `kernel` from a dump at `path` (the format
/// above, as --dump-inputs writes it): one buffer per argument in
/// declaration order (allocateArguments). Every `in` and `inout` argument
/// must be in the file, by name, with its element type and shape; `out`
/// arguments may be left out (they start undefined in every run). Buffers
/// may come in any order. Errors name the file and line.
llvm::Expected<std::vector<HostBuffer>>
readBufferDump(dojo::KernelOp kernel, llvm::StringRef path);

} // namespace perfdojo

#endif // PERFDOJO_RUNTIME_BUFFERDUMP_H
