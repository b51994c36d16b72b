//===- FileIO.h - writing a whole file --------------------------*- C++ -*-===//
//
// The tools' and libraries' outputs (reports, kernels, move scripts, GPU
// bundles) are written whole, with one error message for every writer.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SUPPORT_FILEIO_H
#define PERFDOJO_SUPPORT_FILEIO_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace perfdojo {

/// Writes `contents` (bytes, written as they are) to `path`, replacing it;
/// the error names the file and the reason.
inline llvm::Error writeFile(const llvm::Twine &path,
                             llvm::StringRef contents) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path.str(), ec);
  if (!ec) {
    os << contents;
    os.close();
    ec = os.error();
  }
  if (ec)
    return llvm::createStringError("cannot write '" + path.str() +
                                   "': " + ec.message());
  return llvm::Error::success();
}

} // namespace perfdojo

#endif // PERFDOJO_SUPPORT_FILEIO_H
