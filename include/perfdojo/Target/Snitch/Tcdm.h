//===- Tcdm.h - the Snitch cluster's data memory ----------------*- C++ -*-===//
//
// A byte-addressable, little-endian model of the tightly coupled data memory
// (TCDM) at SnitchCore::memory.tcdmBase, SnitchCore::memory.tcdmBytes long:
// the only memory the executable model gives a kernel (streams can only
// address TCDM, snitch-target.md §2.7). Element accesses must be naturally
// aligned and in range; anything else is an error naming the address. Bank
// structure and conflicts are not modelled.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TARGET_SNITCH_TCDM_H
#define PERFDOJO_TARGET_SNITCH_TCDM_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace perfdojo::snitch {

struct SnitchCore;

class Tcdm {
public:
  /// A zero-filled TCDM of the size and base address `core` describes.
  explicit Tcdm(const SnitchCore &core);

  uint32_t getBase() const { return base; }
  uint32_t getSizeInBytes() const {
    return static_cast<uint32_t>(bytes.size());
  }
  /// Whether [address, address + size) lies inside the TCDM.
  bool contains(uint32_t address, uint64_t size) const;

  /// Element access. T is one of uint8_t, uint16_t, uint32_t, uint64_t,
  /// float, double; the address must be a multiple of sizeof(T).
  template <typename T> llvm::Expected<T> read(uint32_t address) const;
  template <typename T> llvm::Error write(uint32_t address, T value);

  /// Raw byte copies (no alignment requirement).
  llvm::Error copyIn(uint32_t address, llvm::ArrayRef<uint8_t> data);
  llvm::Error copyOut(uint32_t address,
                      llvm::MutableArrayRef<uint8_t> data) const;

  /// Copies an array of elements in or out, element by element, with the
  /// alignment checks of read and write.
  template <typename T>
  llvm::Error copyInArray(uint32_t address, llvm::ArrayRef<T> values) {
    for (size_t i = 0; i < values.size(); ++i)
      if (llvm::Error err = write<T>(address + i * sizeof(T), values[i]))
        return err;
    return llvm::Error::success();
  }
  template <typename T>
  llvm::Expected<std::vector<T>> copyOutArray(uint32_t address,
                                              size_t count) const {
    std::vector<T> values;
    values.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      llvm::Expected<T> value = read<T>(address + i * sizeof(T));
      if (!value)
        return value.takeError();
      values.push_back(*value);
    }
    return values;
  }

private:
  llvm::Error checkAccess(uint32_t address, uint64_t size, bool aligned) const;

  uint32_t base;
  std::vector<uint8_t> bytes;
};

extern template llvm::Expected<uint8_t> Tcdm::read<uint8_t>(uint32_t) const;
extern template llvm::Expected<uint16_t> Tcdm::read<uint16_t>(uint32_t) const;
extern template llvm::Expected<uint32_t> Tcdm::read<uint32_t>(uint32_t) const;
extern template llvm::Expected<uint64_t> Tcdm::read<uint64_t>(uint32_t) const;
extern template llvm::Expected<float> Tcdm::read<float>(uint32_t) const;
extern template llvm::Expected<double> Tcdm::read<double>(uint32_t) const;
extern template llvm::Error Tcdm::write<uint8_t>(uint32_t, uint8_t);
extern template llvm::Error Tcdm::write<uint16_t>(uint32_t, uint16_t);
extern template llvm::Error Tcdm::write<uint32_t>(uint32_t, uint32_t);
extern template llvm::Error Tcdm::write<uint64_t>(uint32_t, uint64_t);
extern template llvm::Error Tcdm::write<float>(uint32_t, float);
extern template llvm::Error Tcdm::write<double>(uint32_t, double);

} // namespace perfdojo::snitch

#endif // PERFDOJO_TARGET_SNITCH_TCDM_H
