//===- KernelFiles.h - the kernels a benchmark runs over --------*- C++ -*-===//
//
// Both benchmarks take `--kernels=DIR` (default: a library directory) and
// register one benchmark per `.dojo` file in it, in name order.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_BENCHMARKS_KERNELFILES_H
#define PERFDOJO_BENCHMARKS_KERNELFILES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace perfdojo {

/// Removes `--kernels=DIR` from argv (returning DIR, or `defaultDir`) and
/// leaves the remaining arguments for Google Benchmark in `rest`.
inline std::string takeKernelDir(int argc, char **argv,
                                 const std::string &defaultDir,
                                 std::vector<char *> &rest) {
  std::string dir = defaultDir;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--kernels=", 10) == 0)
      dir = argv[i] + 10;
    else
      rest.push_back(argv[i]);
  }
  return dir;
}

/// The `.dojo` files of `dir`, sorted.
inline std::vector<std::string> listKernelFiles(const std::string &dir) {
  std::error_code ec;
  std::vector<std::string> files;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::StringRef(it->path()).ends_with(".dojo"))
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace perfdojo

#endif // PERFDOJO_BENCHMARKS_KERNELFILES_H
