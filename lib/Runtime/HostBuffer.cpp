//===- HostBuffer.cpp - kernel data in host memory ------------------------===//

#include "perfdojo/Runtime/HostBuffer.h"
#include "perfdojo/Dialect/Dojo/IR/PhysicalLayout.h"

#include "llvm/Support/MathExtras.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/ErrorHandling.h"

#include <cmath>
#include <cstring>
#include <limits>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

std::optional<ScalarType> perfdojo::getScalarType(Type type) {
  if (type.isF32())
    return ScalarType::f32;
  if (type.isF64())
    return ScalarType::f64;
  return std::nullopt;
}

llvm::StringRef perfdojo::stringifyScalarType(ScalarType type) {
  return type == ScalarType::f32 ? "f32" : "f64";
}

static size_t elementSize(ScalarType type) {
  return type == ScalarType::f32 ? sizeof(float) : sizeof(double);
}

HostBuffer::HostBuffer(std::string name, ScalarType type, int64_t numElements)
    : name(std::move(name)), type(type), numElements(numElements) {
  allocate();
}

void HostBuffer::allocate() {
  size_t bytes = static_cast<size_t>(numElements) * elementSize(type);
  // Large buffers are aligned to 2 MiB and asked to be backed by huge
  // pages: every timed evaluation allocates and fills many copies of its
  // arguments, and with 4 KiB pages the page faults alone cost more than a
  // fast kernel's timed calls. aligned_alloc needs a size that is a
  // multiple of the alignment.
  constexpr size_t hugePage = size_t(2) << 20;
  size_t alignment = bytes >= 2 * hugePage ? hugePage : 64;
  size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  storage.reset(static_cast<char *>(
      std::aligned_alloc(alignment, rounded ? rounded : alignment)));
#ifdef MADV_HUGEPAGE
  // Advisory only: without transparent huge pages the call fails and the
  // buffer stays on small pages.
  if (storage && alignment == hugePage)
    (void)::madvise(storage.get(), rounded, MADV_HUGEPAGE);
#endif
  if (!storage)
    llvm::report_fatal_error(llvm::Twine("out of memory allocating buffer '") +
                                 name + "' (" + llvm::Twine(rounded) +
                                 " bytes)",
                             /*gen_crash_diag=*/false);
}

HostBuffer::HostBuffer(const HostBuffer &other)
    : name(other.name), type(other.type), numElements(other.numElements) {
  allocate();
  std::memcpy(data(), other.data(), numElements * elementSize(type));
}

HostBuffer &HostBuffer::operator=(const HostBuffer &other) {
  if (this != &other)
    *this = HostBuffer(other);
  return *this;
}

void HostBuffer::fill(double v) {
  for (int64_t i = 0; i < numElements; ++i)
    set(i, v);
}

void HostBuffer::assign(const HostBuffer &other) {
  assert(other.size() == size() && "size mismatch");
  if (other.type == type) {
    std::memcpy(data(), other.data(), numElements * elementSize(type));
    return;
  }
  for (int64_t i = 0; i < numElements; ++i)
    set(i, other.get(i));
}

std::vector<HostBuffer>
perfdojo::allocateArguments(KernelOp kernel, std::optional<ScalarType> type) {
  std::vector<HostBuffer> args;
  for (BufferOp buffer : kernel.getBuffers()) {
    if (!buffer.isArgument())
      continue;
    int64_t n = 1;
    for (int64_t extent : buffer.getShape())
      n *= extent;
    ScalarType t = type ? *type
                        : getScalarType(buffer.getElementType())
                              .value_or(ScalarType::f64);
    args.emplace_back(buffer.getName().str(), t, n);
  }
  return args;
}

namespace {
/// splitmix64: small, fast, and good enough for test data.
struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1) with 53 random bits.
  double uniform() { return (next() >> 11) * 0x1.0p-53; }
};

uint64_t hashName(llvm::StringRef name) {
  uint64_t h = 1469598103934665603ULL; // FNV-1a
  for (char c : name)
    h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return h;
}

/// Arrays whose values must be positive: operands of log, sqrt, rsqrt and
/// divisors.
llvm::StringSet<> findPositiveArrays(KernelOp kernel) {
  llvm::StringSet<> positive;
  kernel.walk([&](LeafOp leaf) {
    OpKind kind = leaf.getKind();
    ArrayRef<Attribute> inputs = leaf.getInputs().getValue();
    auto mark = [&](Attribute a) {
      if (auto access = dyn_cast<AccessAttr>(a))
        positive.insert(access.getArray().getValue());
    };
    if (kind == OpKind::log || kind == OpKind::sqrt || kind == OpKind::rsqrt)
      mark(inputs[0]);
    if (kind == OpKind::div)
      mark(inputs[1]);
  });
  return positive;
}
} // namespace

void perfdojo::fillInputs(KernelOp kernel, llvm::MutableArrayRef<HostBuffer> args,
                          uint64_t seed) {
  llvm::StringSet<> positive = findPositiveArrays(kernel);
  for (HostBuffer &arg : args) {
    BufferOp buffer = kernel.lookupArray(arg.getName());
    if (!buffer || buffer.getRole() == Role::out) {
      arg.fill(std::numeric_limits<double>::quiet_NaN());
      continue;
    }
    SplitMix64 rng{seed ^ hashName(arg.getName())};
    bool pos = positive.contains(arg.getName());
    for (int64_t i = 0, e = arg.size(); i < e; ++i) {
      double u = rng.uniform();
      arg.set(i, pos ? 0.5 + 1.5 * u : 2.0 * u - 1.0);
    }
  }
}

mlir::LogicalResult perfdojo::checkArgumentSizes(dojo::KernelOp kernel,
                                                 llvm::StringRef tool) {
  constexpr int64_t kMaxArgumentElements = int64_t(1) << 36;
  int64_t needed = 0;
  for (dojo::BufferOp buffer : kernel.getBuffers()) {
    int64_t elements = buffer.isArgument() ? getLogicalElements(buffer)
                                           : getStorageElements(buffer);
    if (buffer.isArgument() && elements > kMaxArgumentElements)
      return buffer.emitOpError("buffer '")
             << buffer.getName() << "' has more than 2^36 elements; " << tool
             << " does not allocate buffers this large";
    if (!buffer.isArgument() &&
        buffer.getLocation() != dojo::BufferLocation::heap)
      continue;
    int64_t bytes;
    if (llvm::MulOverflow(elements, getElementBytes(buffer), bytes) ||
        llvm::AddOverflow(needed, bytes, needed))
      needed = INT64_MAX;
  }
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  int64_t memory = pages > 0 && pageSize > 0 ? int64_t(pages) * pageSize : 0;
  if (memory > 0 && needed > memory)
    return kernel.emitOpError("needs ")
           << needed << " bytes for its arguments and heap buffers, more than "
           << "the " << memory << " bytes of memory of this machine; " << tool
           << " does not run it";
  return mlir::success();
}

std::string perfdojo::describeArgumentType(BufferOp buffer) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << buffer.getElementType() << " [";
  llvm::interleaveComma(buffer.getShape(), os);
  os << "]";
  return s;
}
