//===- BufferDump.cpp - kernel arguments as a text file -------------------===//

#include "perfdojo/Runtime/BufferDump.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace perfdojo;

llvm::Error perfdojo::writeBufferDump(dojo::KernelOp kernel,
                                      llvm::ArrayRef<HostBuffer> args,
                                      dojo::Role skip, llvm::StringRef path) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file =
      mlir::openOutputFile(path, &error);
  if (!file)
    return llvm::createStringError("cannot write '" + path + "': " + error);
  llvm::raw_ostream &os = file->os();
  for (const HostBuffer &arg : args) {
    dojo::BufferOp buffer = kernel.lookupArray(arg.getName());
    if (buffer.getRole() == skip)
      continue;
    os << "# " << arg.getName() << " " << describeArgumentType(buffer) << "\n";
    ScalarType type = arg.getType();
    if (!isFloatScalarType(type)) {
      for (int64_t i = 0; i < arg.size(); ++i)
        os << arg.getInt(i) << "\n";
      continue;
    }
    const char *fmt = type == ScalarType::f64 ? "%.17g\n" : "%.9g\n";
    for (int64_t i = 0; i < arg.size(); ++i)
      os << llvm::format(fmt, arg.get(i));
  }
  file->keep();
  return llvm::Error::success();
}
