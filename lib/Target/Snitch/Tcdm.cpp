//===- Tcdm.cpp - the Snitch cluster's data memory ------------------------===//
//
// Element accesses go through one bounds-and-alignment check and are
// encoded little endian explicitly, so the model behaves the same on any
// host. Floating-point elements are stored as their IEEE bit patterns.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Target/Snitch/Tcdm.h"
#include "perfdojo/Target/Snitch/SnitchCore.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <type_traits>

using namespace perfdojo::snitch;

namespace {
/// The unsigned integer with the bit pattern of T.
template <typename T>
using BitsOf = std::conditional_t<
    sizeof(T) == 1, uint8_t,
    std::conditional_t<sizeof(T) == 2, uint16_t,
                       std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;

template <typename T>
constexpr bool isElementType =
    std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> ||
    std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t> ||
    std::is_same_v<T, float> || std::is_same_v<T, double>;

std::string hex(uint64_t value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format_hex(value, 10);
  return text;
}
} // namespace

Tcdm::Tcdm(const SnitchCore &core)
    : base(core.memory.tcdmBase), bytes(core.memory.tcdmBytes, 0) {}

bool Tcdm::contains(uint32_t address, uint64_t size) const {
  // 64-bit arithmetic: base + size may pass 2^32.
  uint64_t begin = address, end = begin + size;
  return begin >= base && end <= uint64_t(base) + bytes.size();
}

llvm::Error Tcdm::checkAccess(uint32_t address, uint64_t size,
                              bool aligned) const {
  if (!contains(address, size))
    return llvm::make_error<llvm::StringError>(
        "TCDM access of " + std::to_string(size) + " bytes at " + hex(address) +
            " is outside [" + hex(base) + ", " +
            hex(uint64_t(base) + bytes.size()) + ")",
        llvm::inconvertibleErrorCode());
  if (aligned && size > 1 && address % size != 0)
    return llvm::make_error<llvm::StringError>(
        "misaligned " + std::to_string(size) + "-byte TCDM access at " +
            hex(address),
        llvm::inconvertibleErrorCode());
  return llvm::Error::success();
}

template <typename T> llvm::Expected<T> Tcdm::read(uint32_t address) const {
  static_assert(isElementType<T>, "not a TCDM element type");
  if (llvm::Error err = checkAccess(address, sizeof(T), /*aligned=*/true))
    return std::move(err);
  auto raw = llvm::support::endian::read<BitsOf<T>, llvm::endianness::little>(
      bytes.data() + (address - base));
  return llvm::bit_cast<T>(raw);
}

template <typename T> llvm::Error Tcdm::write(uint32_t address, T value) {
  static_assert(isElementType<T>, "not a TCDM element type");
  if (llvm::Error err = checkAccess(address, sizeof(T), /*aligned=*/true))
    return err;
  llvm::support::endian::write<BitsOf<T>, llvm::endianness::little>(
      bytes.data() + (address - base), llvm::bit_cast<BitsOf<T>>(value));
  return llvm::Error::success();
}

llvm::Error Tcdm::copyIn(uint32_t address, llvm::ArrayRef<uint8_t> data) {
  if (llvm::Error err = checkAccess(address, data.size(), /*aligned=*/false))
    return err;
  if (!data.empty())
    std::memcpy(bytes.data() + (address - base), data.data(), data.size());
  return llvm::Error::success();
}

llvm::Error Tcdm::copyOut(uint32_t address,
                          llvm::MutableArrayRef<uint8_t> data) const {
  if (llvm::Error err = checkAccess(address, data.size(), /*aligned=*/false))
    return err;
  if (!data.empty())
    std::memcpy(data.data(), bytes.data() + (address - base), data.size());
  return llvm::Error::success();
}

namespace perfdojo::snitch {
template llvm::Expected<uint8_t> Tcdm::read<uint8_t>(uint32_t) const;
template llvm::Expected<uint16_t> Tcdm::read<uint16_t>(uint32_t) const;
template llvm::Expected<uint32_t> Tcdm::read<uint32_t>(uint32_t) const;
template llvm::Expected<uint64_t> Tcdm::read<uint64_t>(uint32_t) const;
template llvm::Expected<float> Tcdm::read<float>(uint32_t) const;
template llvm::Expected<double> Tcdm::read<double>(uint32_t) const;
template llvm::Error Tcdm::write<uint8_t>(uint32_t, uint8_t);
template llvm::Error Tcdm::write<uint16_t>(uint32_t, uint16_t);
template llvm::Error Tcdm::write<uint32_t>(uint32_t, uint32_t);
template llvm::Error Tcdm::write<uint64_t>(uint32_t, uint64_t);
template llvm::Error Tcdm::write<float>(uint32_t, float);
template llvm::Error Tcdm::write<double>(uint32_t, double);
} // namespace perfdojo::snitch
