//===- FileIO.h - whole files written and JSON files read -------*- C++ -*-===//
//
// The tools' and libraries' outputs (reports, kernels, move scripts, GPU
// bundles) are written whole, with one error message for every writer; JSON
// descriptions (saved models, training states, model configurations) are
// read with one message for every reader.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SUPPORT_FILEIO_H
#define PERFDOJO_SUPPORT_FILEIO_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
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

/// The JSON object in the file at `path`; the error names the file and says
/// whether it could not be read, is not JSON or is not an object.
inline llvm::Expected<llvm::json::Object>
readJsonObject(const llvm::Twine &path) {
  std::string name = path.str();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(name);
  if (!file)
    return llvm::createStringError("cannot read '" + name +
                                   "': " + file.getError().message());
  llvm::Expected<llvm::json::Value> value =
      llvm::json::parse((*file)->getBuffer());
  if (!value)
    return llvm::createStringError("'" + name + "' is not JSON: " +
                                   llvm::toString(value.takeError()));
  if (llvm::json::Object *object = value->getAsObject())
    return std::move(*object);
  return llvm::createStringError("'" + name + "' is not a JSON object");
}

} // namespace perfdojo

#endif // PERFDOJO_SUPPORT_FILEIO_H
