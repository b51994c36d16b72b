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
#include "perfdojo/Support/PageBacking.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace perfdojo {

/// The element types of the IR (ElementTypes.h), as runtime storage: f16
/// and bf16 are 16-bit patterns (Support/Float16.h), integers are their
/// two's complement integers, bool (i1) is a byte holding 0 or 1.
enum class ScalarType { f16, bf16, f32, f64, i1, i8, i16, i32, i64 };

/// The runtime type of element type `type`, if it is one of the IR's.
std::optional<ScalarType> getScalarType(mlir::Type type);
/// The `.dojo` spelling: "f32", "i64", "bool".
llvm::StringRef stringifyScalarType(ScalarType type);
/// Bytes per element.
size_t getScalarBytes(ScalarType type);
/// f16, bf16, f32 or f64.
bool isFloatScalarType(ScalarType type);
/// The type the f64 reference mode computes `type` in: f64 for floats,
/// the type itself for integers and bool (their arithmetic is exact).
ScalarType getReferenceScalarType(ScalarType type);

/// A dense, 64-byte aligned array of elements of one ScalarType.
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
  size_t getElementBytes() const { return getScalarBytes(type); }
  void *data() { return storage.get(); }
  const void *data() const { return storage.get(); }

  /// Element `i` as a double: exact for floats and for integers of at most
  /// 53 bits (i64 values beyond 2^53 round; use getInt for them).
  double get(int64_t i) const;
  /// Stores `v` in element `i`: floats round to the type; integers take
  /// `v` truncated toward zero, which must lie in the type's range (NaN
  /// and values out of range store the type's minimum); bool stores v != 0.
  void set(int64_t i, double v);
  /// Element `i` of an integer or bool buffer, exactly (floats: truncated
  /// toward zero, saturating).
  int64_t getInt(int64_t i) const;
  /// Stores `v` in element `i`, modulo 2^w for integers of width w (so it
  /// wraps like the IR's arithmetic); bool stores v != 0; floats round.
  void setInt(int64_t i, int64_t v);
  /// Sets every element to `v`.
  void fill(double v);
  /// Copies values from `other` (same size): bytes when the types are
  /// equal, else element by element through integers (both integer types)
  /// or doubles.
  void assign(const HostBuffer &other);

  /// The pages buffers allocated from now on in this process live on
  /// (PageBacking.h; huge by default). A timing sets it before it
  /// allocates its arguments.
  static void setPageBacking(PageBacking pages);

private:
  struct FreeDeleter {
    void operator()(char *p) const { std::free(p); }
  };
  /// Allocates 64-byte aligned storage for `numElements` elements.
  void allocate();
  template <typename T> const T &at(int64_t i) const {
    return static_cast<const T *>(data())[i];
  }
  template <typename T> T &at(int64_t i) { return static_cast<T *>(data())[i]; }

  std::string name;
  ScalarType type = ScalarType::f64;
  int64_t numElements = 0;
  std::unique_ptr<char[], FreeDeleter> storage;
};

/// Element type and shape of an argument, e.g. "f32 [4, 16]".
std::string describeArgumentType(dojo::BufferOp buffer);

/// The machine's physical memory in bytes; 0 where the system does not say.
int64_t getPhysicalMemoryBytes();

/// Refuses, with an error at the buffer, a kernel whose argument has more
/// than 2^36 elements: `tool` does not allocate buffers that large, and
/// failing in the allocator would be a crash instead of a diagnostic.
/// Refuses, with an error at the kernel, one whose arguments and heap
/// buffers together need more bytes than the machine's physical memory
/// (stack and register buffers are bounded by the verifier).
mlir::LogicalResult checkArgumentSizes(dojo::KernelOp kernel,
                                       llvm::StringRef tool);

/// One HostBuffer per argument buffer (role in, out or inout) of `kernel`, in
/// declaration order, sized to the logical shape. `type` overrides the
/// element type of each float buffer (used for the f64 reference mode);
/// integer and bool buffers keep theirs (getReferenceScalarType).
std::vector<HostBuffer>
allocateArguments(dojo::KernelOp kernel,
                  std::optional<ScalarType> type = std::nullopt);

/// The arrays whose generated inputs must be positive: operands of log,
/// sqrt and rsqrt, and divisors.
llvm::StringSet<> findPositiveArrays(dojo::KernelOp kernel);

/// Fills the `in` and `inout` arguments with seeded pseudo-random values
/// (Support/InputValues.h).
/// Floats: uniform in [-1, 1), or [0.5, 2) for arrays that feed log, sqrt,
/// rsqrt or a divisor. Integers: uniform in [-8, 8) (products of a few stay
/// in range; i8 products may wrap), or [1, 8) for divisors, so no division
/// by zero. Bool: 0 or 1. Each buffer's values depend only on the seed and
/// its name, so reordering declarations does not change the data. `out`
/// buffers are filled with the undefined pattern (fillUndefined).
void fillInputs(dojo::KernelOp kernel, llvm::MutableArrayRef<HostBuffer> args,
                uint64_t seed);

/// Fills the arguments of a run: the `in` and `inout` ones with
/// `initial`'s contents when given (one buffer per argument in declaration
/// order, each with the argument's element count, in any ScalarType:
/// values convert as HostBuffer::assign does), else as fillInputs does from
/// `seed`; `out` arguments start undefined either way. Fails, naming the
/// argument, on a count that differs.
llvm::Error fillArguments(dojo::KernelOp kernel,
                          llvm::MutableArrayRef<HostBuffer> args,
                          std::optional<llvm::ArrayRef<HostBuffer>> initial,
                          uint64_t seed);

/// Fills `buffer` with the value that stands for "undefined" (docs/ir.md,
/// "Initial contents"): NaN for floats, every byte 0xA5 for integers and
/// bool (-91 in i8, -1515870811 in i32), so a read before a write shows.
void fillUndefined(HostBuffer &buffer);

} // namespace perfdojo

#endif // PERFDOJO_RUNTIME_HOSTBUFFER_H
