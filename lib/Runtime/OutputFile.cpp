//===- OutputFile.cpp - kernel outputs saved as a reference ---------------===//
//
// Layout (little-endian host order; the file never leaves the machine):
//   "PDJOUT2\n", u64 seed, u64 count, then per buffer
//   u64 name length, name bytes, u8 type (the ScalarType's value: 0 f16,
//   1 bf16, 2 f32, 3 f64, 4 bool, 5 i8, 6 i16, 7 i32, 8 i64), u64
//   elements, data. The version in the magic changes with the type codes.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Runtime/OutputFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace perfdojo;

static constexpr llvm::StringLiteral kMagic = "PDJOUT2\n";
static constexpr uint8_t kMaxTypeCode = uint8_t(ScalarType::i64);

static size_t getElementBytes(ScalarType type) { return getScalarBytes(type); }

llvm::Error perfdojo::writeOutputFile(
    llvm::StringRef path, uint64_t seed,
    llvm::ArrayRef<const HostBuffer *> buffers) {
  // Written under a unique name, then renamed over `path`.
  llvm::SmallString<128> temporary(path);
  temporary += ".%%%%%%";
  int fd;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueFile(temporary, fd, temporary))
    return llvm::createStringError(ec, "cannot write '" + path +
                                           "': " + ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    auto u64 = [&](uint64_t v) {
      os.write(reinterpret_cast<const char *>(&v), sizeof(v));
    };
    os << kMagic;
    u64(seed);
    u64(buffers.size());
    for (const HostBuffer *buffer : buffers) {
      u64(buffer->getName().size());
      os << buffer->getName();
      os << char(static_cast<uint8_t>(buffer->getType()));
      u64(buffer->size());
      os.write(static_cast<const char *>(buffer->data()),
               buffer->size() * getElementBytes(buffer->getType()));
    }
    if (os.has_error()) {
      os.clear_error();
      llvm::sys::fs::remove(temporary);
      return llvm::createStringError("cannot write '" + path + "'");
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    return llvm::createStringError(ec, "cannot write '" + path +
                                           "': " + ec.message());
  }
  return llvm::Error::success();
}

llvm::Expected<std::vector<HostBuffer>>
perfdojo::readOutputFile(llvm::StringRef path, uint64_t seed) {
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file)
    return llvm::createStringError(file.getError(),
                                   "cannot read '" + path +
                                       "': " + file.getError().message());
  llvm::StringRef data = (*file)->getBuffer();
  auto malformed = [&] {
    return llvm::createStringError("'" + path +
                                   "' is not a perfdojo output file");
  };
  auto u64 = [&](uint64_t &v) {
    if (data.size() < sizeof(v))
      return false;
    std::memcpy(&v, data.data(), sizeof(v));
    data = data.drop_front(sizeof(v));
    return true;
  };
  if (!data.consume_front(kMagic))
    return malformed();
  uint64_t fileSeed, count;
  if (!u64(fileSeed) || !u64(count))
    return malformed();
  if (fileSeed != seed)
    return llvm::createStringError(
        "'" + path + "' holds outputs for input seed " +
        llvm::Twine(fileSeed) + ", not " + llvm::Twine(seed));
  std::vector<HostBuffer> buffers;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t nameSize, elements;
    if (!u64(nameSize) || data.size() < nameSize)
      return malformed();
    std::string name = data.take_front(nameSize).str();
    data = data.drop_front(nameSize);
    if (data.empty() || uint8_t(data.front()) > kMaxTypeCode)
      return malformed();
    auto type = static_cast<ScalarType>(uint8_t(data.front()));
    data = data.drop_front();
    if (!u64(elements) || elements > data.size() / getElementBytes(type))
      return malformed();
    HostBuffer buffer(name, type, static_cast<int64_t>(elements));
    size_t bytes = elements * getElementBytes(type);
    std::memcpy(buffer.data(), data.data(), bytes);
    data = data.drop_front(bytes);
    buffers.push_back(std::move(buffer));
  }
  if (!data.empty())
    return malformed();
  return buffers;
}
