//===- OutputFile.cpp - kernel outputs saved as a reference ---------------===//
//
// Layout (little-endian host order; the file never leaves the machine):
//   "PDJOUT3\n", u64 seed, u64 count, then per buffer
//   u64 name length, name bytes, u8 set (0 reference, 1 run), u8 type
//   (the ScalarType's value: 0 f16, 1 bf16, 2 f32, 3 f64, 4 bool, 5 i8,
//   6 i16, 7 i32, 8 i64), u64 elements, the elements in that type.
// The reference's float outputs are f64, the run's in their own type. The
// version in the magic changes with the layout or the type codes; older
// files are refused as not an output file.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Runtime/OutputFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace perfdojo;

static constexpr llvm::StringLiteral kMagic = "PDJOUT3\n";
static constexpr uint8_t kMaxTypeCode = uint8_t(ScalarType::i64);

const HostBuffer *SavedOutputs::find(llvm::ArrayRef<HostBuffer> buffers,
                                     llvm::StringRef name) {
  for (const HostBuffer &buffer : buffers)
    if (buffer.getName() == name)
      return &buffer;
  return nullptr;
}

llvm::Error
perfdojo::writeOutputFile(llvm::StringRef path, uint64_t seed,
                          llvm::ArrayRef<const HostBuffer *> reference,
                          llvm::ArrayRef<const HostBuffer *> run) {
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
    u64(reference.size() + run.size());
    llvm::ArrayRef<const HostBuffer *> sets[] = {reference, run};
    for (char set : {0, 1})
      for (const HostBuffer *buffer : sets[int(set)]) {
        u64(buffer->getName().size());
        os << buffer->getName();
        os << set << char(static_cast<uint8_t>(buffer->getType()));
        u64(buffer->size());
        os.write(static_cast<const char *>(buffer->data()),
                 buffer->size() * buffer->getElementBytes());
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

llvm::Expected<SavedOutputs> perfdojo::readOutputFile(llvm::StringRef path,
                                                      uint64_t seed) {
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
  SavedOutputs saved;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t nameSize, elements;
    if (!u64(nameSize) || data.size() < nameSize)
      return malformed();
    std::string name = data.take_front(nameSize).str();
    data = data.drop_front(nameSize);
    if (data.size() < 2 || uint8_t(data[0]) > 1 ||
        uint8_t(data[1]) > kMaxTypeCode)
      return malformed();
    bool isRun = data[0] == 1;
    auto type = static_cast<ScalarType>(uint8_t(data[1]));
    size_t elementBytes = getScalarBytes(type);
    data = data.drop_front(2);
    if (!u64(elements) || elements > data.size() / elementBytes)
      return malformed();
    HostBuffer buffer(name, type, static_cast<int64_t>(elements));
    size_t bytes = elements * elementBytes;
    std::memcpy(buffer.data(), data.data(), bytes);
    data = data.drop_front(bytes);
    (isRun ? saved.run : saved.reference).push_back(std::move(buffer));
  }
  if (!data.empty())
    return malformed();
  return saved;
}
