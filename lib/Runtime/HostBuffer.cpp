//===- HostBuffer.cpp - kernel data in host memory ------------------------===//

#include "perfdojo/Runtime/HostBuffer.h"
#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Dialect/Dojo/IR/PhysicalLayout.h"
#include "perfdojo/Support/Float16.h"
#include "perfdojo/Support/InputValues.h"

#include "llvm/Support/MathExtras.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/ErrorHandling.h"

#include <atomic>
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
  if (type.isF16())
    return ScalarType::f16;
  if (type.isBF16())
    return ScalarType::bf16;
  if (type.isF32())
    return ScalarType::f32;
  if (type.isF64())
    return ScalarType::f64;
  if (isBoolType(type))
    return ScalarType::i1;
  if (type.isSignlessInteger(8))
    return ScalarType::i8;
  if (type.isSignlessInteger(16))
    return ScalarType::i16;
  if (type.isSignlessInteger(32))
    return ScalarType::i32;
  if (type.isSignlessInteger(64))
    return ScalarType::i64;
  return std::nullopt;
}

llvm::StringRef perfdojo::stringifyScalarType(ScalarType type) {
  switch (type) {
  case ScalarType::f16:
    return "f16";
  case ScalarType::bf16:
    return "bf16";
  case ScalarType::f32:
    return "f32";
  case ScalarType::f64:
    return "f64";
  case ScalarType::i1:
    return "bool";
  case ScalarType::i8:
    return "i8";
  case ScalarType::i16:
    return "i16";
  case ScalarType::i32:
    return "i32";
  case ScalarType::i64:
    return "i64";
  }
  llvm_unreachable("unknown scalar type");
}

size_t perfdojo::getScalarBytes(ScalarType type) {
  switch (type) {
  case ScalarType::i1:
  case ScalarType::i8:
    return 1;
  case ScalarType::f16:
  case ScalarType::bf16:
  case ScalarType::i16:
    return 2;
  case ScalarType::f32:
  case ScalarType::i32:
    return 4;
  case ScalarType::f64:
  case ScalarType::i64:
    return 8;
  }
  llvm_unreachable("unknown scalar type");
}

bool perfdojo::isFloatScalarType(ScalarType type) {
  return type == ScalarType::f16 || type == ScalarType::bf16 ||
         type == ScalarType::f32 || type == ScalarType::f64;
}

ScalarType perfdojo::getReferenceScalarType(ScalarType type) {
  return isFloatScalarType(type) ? ScalarType::f64 : type;
}

static size_t elementSize(ScalarType type) { return getScalarBytes(type); }

double HostBuffer::get(int64_t i) const {
  switch (type) {
  case ScalarType::f16:
    return halfToDouble(at<uint16_t>(i));
  case ScalarType::bf16:
    return bfloat16ToDouble(at<uint16_t>(i));
  case ScalarType::f32:
    return at<float>(i);
  case ScalarType::f64:
    return at<double>(i);
  default:
    return static_cast<double>(getInt(i));
  }
}

void HostBuffer::set(int64_t i, double v) {
  switch (type) {
  case ScalarType::f16:
    at<uint16_t>(i) = doubleToHalf(v);
    return;
  case ScalarType::bf16:
    at<uint16_t>(i) = doubleToBFloat16(v);
    return;
  case ScalarType::f32:
    at<float>(i) = static_cast<float>(v);
    return;
  case ScalarType::f64:
    at<double>(i) = v;
    return;
  case ScalarType::i1:
    at<uint8_t>(i) = v != 0;
    return;
  default: {
    // In range: the truncated value; else (NaN included) the minimum.
    double t = std::trunc(v);
    int bits = 8 * static_cast<int>(elementSize(type));
    double lo = -std::ldexp(1.0, bits - 1), hi = std::ldexp(1.0, bits - 1);
    setInt(i, t >= lo && t < hi ? static_cast<int64_t>(t)
                                : static_cast<int64_t>(lo));
    return;
  }
  }
}

int64_t HostBuffer::getInt(int64_t i) const {
  switch (type) {
  case ScalarType::i1:
    return at<uint8_t>(i);
  case ScalarType::i8:
    return at<int8_t>(i);
  case ScalarType::i16:
    return at<int16_t>(i);
  case ScalarType::i32:
    return at<int32_t>(i);
  case ScalarType::i64:
    return at<int64_t>(i);
  default: {
    double v = std::trunc(get(i));
    if (std::isnan(v))
      return 0;
    if (v >= 0x1.0p63)
      return std::numeric_limits<int64_t>::max();
    if (v < -0x1.0p63)
      return std::numeric_limits<int64_t>::min();
    return static_cast<int64_t>(v);
  }
  }
}

void HostBuffer::setInt(int64_t i, int64_t v) {
  // Conversions to narrower signed types are modulo 2^w (C++20).
  switch (type) {
  case ScalarType::i1:
    at<uint8_t>(i) = v != 0;
    return;
  case ScalarType::i8:
    at<int8_t>(i) = static_cast<int8_t>(v);
    return;
  case ScalarType::i16:
    at<int16_t>(i) = static_cast<int16_t>(v);
    return;
  case ScalarType::i32:
    at<int32_t>(i) = static_cast<int32_t>(v);
    return;
  case ScalarType::i64:
    at<int64_t>(i) = v;
    return;
  default:
    set(i, static_cast<double>(v));
    return;
  }
}

HostBuffer::HostBuffer(std::string name, ScalarType type, int64_t numElements)
    : name(std::move(name)), type(type), numElements(numElements) {
  allocate();
}

/// Set once by a timing before it allocates; atomic because evaluations
/// of the in-process APIs may allocate on several threads.
static std::atomic<PageBacking> pageBacking{PageBacking::Huge};

void HostBuffer::setPageBacking(PageBacking pages) { pageBacking = pages; }

void HostBuffer::allocate() {
  size_t bytes = static_cast<size_t>(numElements) * elementSize(type);
  // Large buffers are aligned to 2 MiB and, on huge pages, asked to be
  // backed by them: every timed evaluation allocates and fills many copies
  // of its arguments, and with 4 KiB pages the page faults alone cost more
  // than a fast kernel's timed calls. On small pages they are kept off
  // huge pages even where the system would give them. aligned_alloc needs
  // a size that is a multiple of the alignment.
  constexpr size_t hugePage = size_t(2) << 20;
  size_t alignment = bytes >= 2 * hugePage ? hugePage : 64;
  size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  storage.reset(static_cast<char *>(
      std::aligned_alloc(alignment, rounded ? rounded : alignment)));
#if defined(MADV_HUGEPAGE) && defined(MADV_NOHUGEPAGE)
  // Advisory only: without transparent huge pages the call fails and the
  // buffer stays on small pages.
  if (storage && alignment == hugePage)
    (void)::madvise(storage.get(), rounded,
                    pageBacking == PageBacking::Small ? MADV_NOHUGEPAGE
                                                      : MADV_HUGEPAGE);
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
  if (!isFloatScalarType(type) && !isFloatScalarType(other.type)) {
    for (int64_t i = 0; i < numElements; ++i)
      setInt(i, other.getInt(i));
    return;
  }
  for (int64_t i = 0; i < numElements; ++i)
    set(i, other.get(i));
}

void perfdojo::fillUndefined(HostBuffer &buffer) {
  if (isFloatScalarType(buffer.getType()))
    buffer.fill(std::numeric_limits<double>::quiet_NaN());
  else
    std::memset(buffer.data(), 0xA5, buffer.size() * buffer.getElementBytes());
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
    ScalarType t =
        getScalarType(buffer.getElementType()).value_or(ScalarType::f64);
    if (type && isFloatScalarType(t))
      t = *type;
    args.emplace_back(buffer.getName().str(), t, n);
  }
  return args;
}

llvm::StringSet<> perfdojo::findPositiveArrays(KernelOp kernel) {
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

void perfdojo::fillInputs(KernelOp kernel, llvm::MutableArrayRef<HostBuffer> args,
                          uint64_t seed) {
  llvm::StringSet<> positive = findPositiveArrays(kernel);
  for (HostBuffer &arg : args) {
    BufferOp buffer = kernel.lookupArray(arg.getName());
    if (!buffer || buffer.getRole() == Role::out) {
      fillUndefined(arg);
      continue;
    }
    SplitMix64 rng = getInputStream(seed, arg.getName());
    bool pos = positive.contains(arg.getName());
    ScalarType type = arg.getType();
    for (int64_t i = 0, e = arg.size(); i < e; ++i) {
      double u = rng.uniform();
      if (isFloatScalarType(type))
        arg.set(i, getFloatInput(u, pos));
      else if (type == ScalarType::i1)
        arg.setInt(i, getBoolInput(u));
      else
        arg.setInt(i, getIntegerInput(u, pos));
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
  int64_t memory = getPhysicalMemoryBytes();
  if (memory > 0 && needed > memory)
    return kernel.emitOpError("needs ")
           << needed << " bytes for its arguments and heap buffers, more than "
           << "the " << memory << " bytes of memory of this machine; " << tool
           << " does not run it";
  return mlir::success();
}

int64_t perfdojo::getPhysicalMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && pageSize > 0 ? int64_t(pages) * pageSize : 0;
}

std::string perfdojo::describeArgumentType(BufferOp buffer) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << getElementTypeName(buffer.getElementType()) << " [";
  llvm::interleaveComma(buffer.getShape(), os);
  os << "]";
  return s;
}

llvm::Error
perfdojo::fillArguments(KernelOp kernel, llvm::MutableArrayRef<HostBuffer> args,
                        std::optional<llvm::ArrayRef<HostBuffer>> initial,
                        uint64_t seed) {
  if (!initial) {
    fillInputs(kernel, args, seed);
    return llvm::Error::success();
  }
  if (initial->size() != args.size())
    return llvm::createStringError(
        "kernel '" + kernel.getSymName() + "' takes " +
        llvm::Twine(args.size()) + " argument(s), " +
        llvm::Twine(initial->size()) + " given");
  for (size_t i = 0; i < args.size(); ++i) {
    const HostBuffer &given = (*initial)[i];
    if (given.size() != args[i].size())
      return llvm::createStringError(
          "argument '" + args[i].getName() + "' has " +
          llvm::Twine(args[i].size()) + " element(s), " +
          llvm::Twine(given.size()) + " given");
    if (kernel.lookupArray(args[i].getName()).getRole() == Role::out)
      fillUndefined(args[i]);
    else
      args[i].assign(given);
  }
  return llvm::Error::success();
}
