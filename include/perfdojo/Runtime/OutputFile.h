//===- OutputFile.h - kernel outputs saved as a reference ------*- C++ -*-===//
//
// A binary file of a kernel's output buffers (name, element type, values),
// tagged with the seed of the inputs that produced them. perfdojo-search
// saves the validated outputs of the original kernel once and validates
// every candidate against the file, instead of compiling and running the
// original again in every worker.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_RUNTIME_OUTPUTFILE_H
#define PERFDOJO_RUNTIME_OUTPUTFILE_H

#include "perfdojo/Runtime/HostBuffer.h"

#include "llvm/Support/Error.h"

namespace perfdojo {

/// Writes `buffers` and `seed` to `path` (replacing it atomically, so a
/// concurrent reader never sees half a file).
llvm::Error writeOutputFile(llvm::StringRef path, uint64_t seed,
                            llvm::ArrayRef<const HostBuffer *> buffers);

/// The buffers of the file at `path`, if it was written for `seed`.
llvm::Expected<std::vector<HostBuffer>> readOutputFile(llvm::StringRef path,
                                                       uint64_t seed);

} // namespace perfdojo

#endif // PERFDOJO_RUNTIME_OUTPUTFILE_H
