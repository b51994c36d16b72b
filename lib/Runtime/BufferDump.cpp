//===- BufferDump.cpp - kernel arguments as a text file -------------------===//

#include "perfdojo/Runtime/BufferDump.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
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

llvm::Expected<std::vector<HostBuffer>>
perfdojo::readBufferDump(dojo::KernelOp kernel, llvm::StringRef path) {
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file)
    return llvm::createStringError("cannot read '" + path +
                                   "': " + file.getError().message());
  std::vector<HostBuffer> args = allocateArguments(kernel);
  llvm::StringMap<size_t> position;
  for (auto [i, arg] : llvm::enumerate(args))
    position[arg.getName()] = i;
  llvm::StringMap<bool> seen;
  auto error = [&](size_t line, const llvm::Twine &message) {
    return llvm::createStringError(path + ":" + llvm::Twine(line) + ": " +
                                   message);
  };

  llvm::SmallVector<llvm::StringRef> lines;
  (*file)->getBuffer().split(lines, '\n');
  HostBuffer *current = nullptr;
  int64_t filled = 0;
  size_t headerLine = 0;
  auto finish = [&]() -> llvm::Error {
    if (current && filled != current->size())
      return error(headerLine, "'" + current->getName() + "' has " +
                                   llvm::Twine(current->size()) +
                                   " element(s), the file gives " +
                                   llvm::Twine(filled));
    return llvm::Error::success();
  };
  for (auto [index, raw] : llvm::enumerate(lines)) {
    size_t line = index + 1;
    llvm::StringRef text = raw.trim();
    if (text.empty())
      continue;
    if (text.consume_front("#")) {
      if (llvm::Error e = finish())
        return std::move(e);
      auto [name, type] = text.trim().split(' ');
      auto it = position.find(name);
      if (it == position.end())
        return error(line, "kernel '" + kernel.getSymName() +
                               "' has no argument '" + name + "'");
      if (seen[name])
        return error(line, "'" + name + "' is given twice");
      seen[name] = true;
      dojo::BufferOp buffer = kernel.lookupArray(name);
      std::string expected = describeArgumentType(buffer);
      if (type.trim() != expected)
        return error(line, "'" + name + "' is " + expected + ", the file says " +
                               type.trim());
      current = &args[it->second];
      filled = 0;
      headerLine = line;
      continue;
    }
    if (!current)
      return error(line, "a value before the first '# name type [shape]' "
                         "header");
    if (filled >= current->size())
      return error(line, "more than the " + llvm::Twine(current->size()) +
                             " element(s) of '" + current->getName() + "'");
    if (isFloatScalarType(current->getType())) {
      double value;
      if (text.getAsDouble(value))
        return error(line, "expected a number, got '" + text + "'");
      current->set(filled++, value);
    } else {
      int64_t value;
      if (text.getAsInteger(10, value))
        return error(line, "expected an integer, got '" + text + "'");
      current->setInt(filled++, value);
    }
  }
  if (llvm::Error e = finish())
    return std::move(e);
  for (const HostBuffer &arg : args)
    if (!seen.lookup(arg.getName()) &&
        kernel.lookupArray(arg.getName()).getRole() != dojo::Role::out)
      return llvm::createStringError(path + ": no values for argument '" +
                                     arg.getName() + "'");
  return args;
}
