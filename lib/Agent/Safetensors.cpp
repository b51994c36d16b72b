//===- Safetensors.cpp - tensors from a .safetensors file -----------------===//

#include "perfdojo/Agent/Safetensors.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SwapByteOrder.h"

#include <cstring>

using namespace perfdojo;
using namespace perfdojo::agent;

llvm::Expected<std::map<std::string, torch::Tensor>>
agent::readSafetensors(llvm::StringRef path) {
  auto fail = [&](const llvm::Twine &why) {
    return llvm::createStringError("'" + path + "': " + why);
  };
  if (llvm::sys::IsBigEndianHost)
    return fail("safetensors files are little-endian; this host is not");
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return fail("cannot read it: " + file.getError().message());
  llvm::StringRef bytes = (*file)->getBuffer();
  if (bytes.size() < 8)
    return fail("too short for a safetensors header");
  uint64_t headerSize =
      llvm::support::endian::read64le(bytes.data());
  if (headerSize > bytes.size() - 8)
    return fail("its header length runs past the end of the file");
  llvm::Expected<llvm::json::Value> header =
      llvm::json::parse(bytes.substr(8, headerSize));
  if (!header)
    return fail("bad header: " + llvm::toString(header.takeError()));
  const llvm::json::Object *entries = header->getAsObject();
  if (!entries)
    return fail("the header is not a JSON object");
  llvm::StringRef data = bytes.drop_front(8 + headerSize);

  std::map<std::string, torch::Tensor> tensors;
  for (const auto &[name, value] : *entries) {
    if (name == "__metadata__")
      continue;
    const llvm::json::Object *entry = value.getAsObject();
    const llvm::json::Array *shape = entry ? entry->getArray("shape") : nullptr;
    const llvm::json::Array *offsets =
        entry ? entry->getArray("data_offsets") : nullptr;
    std::optional<llvm::StringRef> dtype =
        entry ? entry->getString("dtype") : std::nullopt;
    if (!shape || !offsets || offsets->size() != 2 || !dtype)
      return fail("tensor '" + name.str() +
                  "' lacks a dtype, a shape or two data offsets");
    if (*dtype != "F32")
      continue;
    std::vector<int64_t> sizes;
    uint64_t elements = 1;
    for (const llvm::json::Value &dim : *shape) {
      std::optional<int64_t> size = dim.getAsInteger();
      if (!size || *size < 0)
        return fail("tensor '" + name.str() + "' has a bad shape");
      sizes.push_back(*size);
      elements *= static_cast<uint64_t>(*size);
    }
    std::optional<int64_t> begin = (*offsets)[0].getAsInteger();
    std::optional<int64_t> end = (*offsets)[1].getAsInteger();
    if (!begin || !end || *begin < 0 || *end < *begin ||
        static_cast<uint64_t>(*end) > data.size())
      return fail("tensor '" + name.str() + "' lies outside the file");
    if (static_cast<uint64_t>(*end - *begin) != elements * sizeof(float))
      return fail("tensor '" + name.str() + "' has " +
                  llvm::Twine(*end - *begin) + " bytes for " +
                  llvm::Twine(elements) + " floats");
    // Copied out of the buffer, which goes away.
    torch::Tensor tensor = torch::empty(sizes, torch::kFloat32);
    std::memcpy(tensor.data_ptr<float>(), data.data() + *begin,
                elements * sizeof(float));
    tensors.emplace(name.str(), std::move(tensor));
  }
  return tensors;
}
