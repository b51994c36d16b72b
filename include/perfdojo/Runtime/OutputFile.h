//===- OutputFile.h - kernel outputs saved as a reference ------*- C++ -*-===//
//
// A binary file of a kernel's outputs, tagged with the seed of the inputs
// that produced them: the f64 reference outputs that validated a run, and
// that run's own outputs. perfdojo-search saves them once, from the run of
// the original kernel, and validates every candidate against the file
// instead of computing the reference again in every worker; the
// original's own outputs tell a candidate that reproduces the original's
// numerics (an overflow, a long f32 reduction) from a wrong one.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_RUNTIME_OUTPUTFILE_H
#define PERFDOJO_RUNTIME_OUTPUTFILE_H

#include "perfdojo/Runtime/HostBuffer.h"

#include "llvm/Support/Error.h"

namespace perfdojo {

/// The buffers of an output file, by output name: f32 where the saved
/// buffer was f32, else f64.
struct SavedOutputs {
  /// The f64 reference's outputs.
  std::vector<HostBuffer> reference;
  /// The outputs of the run that saved the file (empty for none), in their
  /// own element types.
  std::vector<HostBuffer> run;

  /// The buffer of output `name` in `buffers`, or null.
  static const HostBuffer *find(llvm::ArrayRef<HostBuffer> buffers,
                                llvm::StringRef name);
};

/// Writes `reference`, `run` (may be empty) and `seed` to `path` (replacing
/// it atomically, so a concurrent reader never sees half a file).
llvm::Error writeOutputFile(llvm::StringRef path, uint64_t seed,
                            llvm::ArrayRef<const HostBuffer *> reference,
                            llvm::ArrayRef<const HostBuffer *> run);

/// The buffers of the file at `path`, if it was written for `seed`.
llvm::Expected<SavedOutputs> readOutputFile(llvm::StringRef path,
                                            uint64_t seed);

} // namespace perfdojo

#endif // PERFDOJO_RUNTIME_OUTPUTFILE_H
