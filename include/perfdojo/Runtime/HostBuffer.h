//===- HostBuffer.h - kernel data in host memory ---------------*- C++ -*-===//
//
// A HostBuffer holds the elements of one kernel argument in host memory, in
// an executable element type, row-major over the buffer's dimensions. The
// input generator fills argument buffers deterministically.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_RUNTIME_HOSTBUFFER_H
#define PERFDOJO_RUNTIME_HOSTBUFFER_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace perfdojo {

/// Element types the interpreter executes.
enum class ScalarType { f32, f64 };

/// The executable type of `type`, if it has one.
std::optional<ScalarType> getScalarType(mlir::Type type);
llvm::StringRef stringifyScalarType(ScalarType type);

/// A dense, 64-byte aligned array of f32 or f64 elements.
class HostBuffer {
public:
  HostBuffer() = default;
  HostBuffer(std::string name, ScalarType type, int64_t numElements);

  HostBuffer(const HostBuffer &other);
  HostBuffer &operator=(const HostBuffer &other);
  HostBuffer(HostBuffer &&) noexcept = default;
  HostBuffer &operator=(HostBuffer &&) noexcept = default;

  const std::string &getName() const { return name; }
  ScalarType getType() const { return type; }
  int64_t size() const { return numElements; }
  void *data() { return storage.get(); }
  const void *data() const { return storage.get(); }

  double get(int64_t i) const {
    return type == ScalarType::f32 ? static_cast<const float *>(data())[i]
                                   : static_cast<const double *>(data())[i];
  }
  void set(int64_t i, double v) {
    if (type == ScalarType::f32)
      static_cast<float *>(data())[i] = static_cast<float>(v);
    else
      static_cast<double *>(data())[i] = v;
  }
  /// Sets every element to `v`.
  void fill(double v);
  /// Copies values from `other` (same size), converting the element type.
  void assign(const HostBuffer &other);

private:
  struct FreeDeleter {
    void operator()(char *p) const { std::free(p); }
  };
  /// Allocates 64-byte aligned storage for `numElements` elements.
  void allocate();

  std::string name;
  ScalarType type = ScalarType::f64;
  int64_t numElements = 0;
  std::unique_ptr<char[], FreeDeleter> storage;
};

/// Element type and shape of an argument, e.g. "f32 [4, 16]".
std::string describeArgumentType(dojo::BufferOp buffer);

/// Refuses, with an error at the buffer, a kernel whose argument has more
/// than 2^36 elements: `tool` does not allocate buffers that large, and
/// failing in the allocator would be a crash instead of a diagnostic.
/// Refuses, with an error at the kernel, one whose arguments and heap
/// buffers together need more bytes than the machine's physical memory
/// (stack and register buffers are bounded by the verifier).
mlir::LogicalResult checkArgumentSizes(dojo::KernelOp kernel,
                                       llvm::StringRef tool);

/// One HostBuffer per argument buffer (role in, out or inout) of `kernel`, in
/// declaration order, sized to the logical shape. `type` overrides each
/// buffer's own element type (used for the f64 reference mode).
std::vector<HostBuffer>
allocateArguments(dojo::KernelOp kernel,
                  std::optional<ScalarType> type = std::nullopt);

/// Fills the `in` and `inout` arguments with seeded pseudo-random values:
/// uniform in [-1, 1), or [0.5, 2) for arrays that feed log, sqrt, rsqrt or
/// a divisor. Each buffer's values depend only on the seed and its name, so
/// reordering declarations does not change the data. `out` buffers are
/// filled with NaN so reading them before writing shows.
void fillInputs(dojo::KernelOp kernel, llvm::MutableArrayRef<HostBuffer> args,
                uint64_t seed);

} // namespace perfdojo

#endif // PERFDOJO_RUNTIME_HOSTBUFFER_H
