//===- Manifest.h - what perfdojo-tune is asked to tune ---------*- C++ -*-===//
//
// A library manifest (docs/distributed.md): a JSON object whose `entries`
// each name a kernel file (relative to the manifest), the thread counts to
// tune it for, a search strategy and its budget. Every field is checked
// when the manifest is read, and an error names the entry and the field, so
// a typo fails before hours of tuning rather than after.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TUNE_MANIFEST_H
#define PERFDOJO_TUNE_MANIFEST_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace perfdojo::tune {

struct ManifestEntry {
  /// The kernel file as written in the manifest, and resolved against the
  /// manifest's directory.
  std::string kernel, kernelPath;
  /// The C name of the tuned functions (`<name>_t<threads>`); default: the
  /// kernel file's stem.
  std::string name;
  llvm::SmallVector<unsigned, 2> threads = {1};
  std::string strategy = "heuristic";
  /// 0: none (strategies that need a budget need one of the two).
  unsigned budgetEvals = 0;
  double budgetSeconds = 0;
  uint64_t seed = 0;
  /// What the kernel is tuned for; `cpu` (the machine the ranks run on) is
  /// the one target perfdojo-tune evaluates.
  std::string target = "cpu";
};

struct Manifest {
  std::string path;
  std::vector<ManifestEntry> entries;
};

/// Parses the manifest text `text` read from `path`. Errors name the
/// manifest, the entry (`entries[2]`, with its kernel) and the field.
llvm::Expected<Manifest> parseManifest(llvm::StringRef text,
                                       llvm::StringRef path);

/// Reads and parses the manifest file `path`.
llvm::Expected<Manifest> readManifest(llvm::StringRef path);

} // namespace perfdojo::tune

#endif // PERFDOJO_TUNE_MANIFEST_H
