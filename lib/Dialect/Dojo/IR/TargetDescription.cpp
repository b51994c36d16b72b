//===- TargetDescription.cpp - what a target accepts of a kernel ----------===//

#include "perfdojo/Dialect/Dojo/IR/TargetDescription.h"

#include "perfdojo/Dialect/Dojo/IR/PhysicalLayout.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>

using namespace perfdojo;
using namespace perfdojo::dojo;

int64_t TargetDescription::getVectorLanes(mlir::Type elementType) const {
  return std::max<int64_t>(1, vectorBytes / getElementBytes(elementType));
}

int64_t TargetDescription::getTransposeLanes(mlir::Type elementType) const {
  int64_t side = std::min(getVectorLanes(elementType),
                          transposeBytes / getElementBytes(elementType));
  return side >= 2 ? side : 0;
}

TargetDescription TargetDescription::getCpu(int64_t vectorBytes) {
  TargetDescription target;
  target.name = "cpu";
  target.modes = 0;
  for (Mode mode : {Mode::seq, Mode::unroll, Mode::parallel, Mode::vector})
    target.modes |= 1u << static_cast<unsigned>(mode);
  target.locations = 0;
  for (BufferLocation location :
       {BufferLocation::heap, BufferLocation::stack, BufferLocation::reg})
    target.locations |= 1u << static_cast<unsigned>(location);
  target.vectorBytes = vectorBytes;
  target.transposeBytes = std::min<int64_t>(32, vectorBytes);
  target.streamDataMovers = 0;
  // AVX-512 has 32 vector registers, AVX2 16.
  target.vectorRegisters = vectorBytes >= 64 ? 32 : 16;
  return target;
}

namespace {
/// The facts of one GPU part that the IR's checks read.
struct GpuChip {
  llvm::StringRef name;
  llvm::StringRef vendor;
  int64_t warpSize;
  /// Opt-in maximum of dynamic shared memory (LDS) per block.
  int64_t sharedBytes;
};
// NVIDIA: the opt-in shared memory per block of the CUDA programming
// guide's compute capability table; AMD CDNA: 64 KiB of LDS per workgroup.
constexpr GpuChip kGpuChips[] = {
    {"sm_80", "NVIDIA", 32, 166912}, {"sm_86", "NVIDIA", 32, 101376},
    {"sm_89", "NVIDIA", 32, 101376}, {"sm_90", "NVIDIA", 32, 232448},
    {"gfx90a", "AMD", 64, 65536},    {"gfx942", "AMD", 64, 65536},
};
} // namespace

std::optional<TargetDescription>
TargetDescription::getGpu(llvm::StringRef chip) {
  for (const GpuChip &part : kGpuChips) {
    if (part.name != chip)
      continue;
    TargetDescription target;
    target.name = chip.str();
    target.vendor = part.vendor.str();
    target.modes = 0;
    for (Mode mode : {Mode::seq, Mode::unroll, Mode::vector, Mode::gpu_grid,
                      Mode::gpu_block, Mode::gpu_warp})
      target.modes |= 1u << static_cast<unsigned>(mode);
    // Every location but Snitch's TCDM; `heap` and `stack` are global
    // memory unless privatized (docs/gpu.md).
    target.locations =
        ~0u & ~(1u << static_cast<unsigned>(BufferLocation::tcdm));
    target.vectorBytes = 16;
    target.transposeBytes = 0;
    target.streamDataMovers = 0;
    target.vectorRegisters = 255 / 4; // 255 32-bit registers per thread
    target.warpSize = part.warpSize;
    target.sharedBytes = part.sharedBytes;
    return target;
  }
  return std::nullopt;
}

TargetDescription TargetDescription::getHost() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  int64_t vectorBytes = 16;
  if (features.lookup("avx512f"))
    vectorBytes = 64;
  else if (features.lookup("avx"))
    vectorBytes = 32;
  TargetDescription target = getCpu(vectorBytes);
  target.name = "host";
  return target;
}

TargetDescription TargetDescription::getSnitch() {
  TargetDescription target;
  target.name = "snitch";
  target.modes = 0;
  for (Mode mode : {Mode::seq, Mode::unroll, Mode::frep})
    target.modes |= 1u << static_cast<unsigned>(mode);
  target.locations = 0;
  for (BufferLocation location :
       {BufferLocation::heap, BufferLocation::stack, BufferLocation::reg,
        BufferLocation::tcdm})
    target.locations |= 1u << static_cast<unsigned>(location);
  // One 64-bit FP register (packed SIMD is not modelled).
  target.vectorBytes = 8;
  target.transposeBytes = 0;
  target.vectorRegisters = 32;
  // The Snitch lowering gives every element of a `reg` buffer its own FP
  // register: 29 are allocatable (ft0-ft2 are kept for SSR streams), and a
  // leaf needs up to three temporaries and its node's constants besides.
  target.registerElements = 24;
  return target;
}

llvm::StringRef TargetDescription::resolveGpuAlias(llvm::StringRef name) {
  if (name == "cuda")
    return "sm_90";
  if (name == "rocm")
    return "gfx942";
  return name;
}

llvm::ArrayRef<llvm::StringRef> TargetDescription::getGpuChips() {
  static const llvm::SmallVector<llvm::StringRef> names = [] {
    llvm::SmallVector<llvm::StringRef> out;
    for (const GpuChip &part : kGpuChips)
      out.push_back(part.name);
    return out;
  }();
  return names;
}

std::optional<std::string>
TargetDescription::findModeSizeViolation(Mode mode, int64_t size,
                                         mlir::Type laneType) const {
  switch (mode) {
  case Mode::unroll:
    if (size > unrollLimit)
      return "scope size " + std::to_string(size) +
             " exceeds the unroll limit " + std::to_string(unrollLimit);
    return std::nullopt;
  case Mode::vector: {
    // A full register, or a narrower power of two of at least two lanes:
    // the tail of a row that is not a multiple of the width runs on a
    // half, a quarter, ... of a register instead of lane by lane.
    int64_t lanes = getVectorLanes(laneType);
    if (size == lanes ||
        (size >= 2 && size < lanes && llvm::isPowerOf2_64(size)))
      return std::nullopt;
    std::string typeName;
    llvm::raw_string_ostream(typeName) << laneType;
    return "vector scope size " + std::to_string(size) +
           " is neither the vector width (" + std::to_string(lanes) + " " +
           typeName + " lanes in " + std::to_string(vectorBytes) +
           " bytes) nor a power of two of at least 2 below it";
  }
  case Mode::gpu_block:
    if (size > maxBlockSize)
      return "scope size " + std::to_string(size) + " exceeds " +
             std::to_string(maxBlockSize) + " threads per block";
    return std::nullopt;
  case Mode::frep:
    if (size > frepRepetitions)
      return "scope size " + std::to_string(size) + " exceeds the " +
             std::to_string(frepRepetitions) +
             " repetitions of the FREP sequencer";
    return std::nullopt;
  case Mode::gpu_warp:
    if (size != warpSize)
      return "a warp scope must have the warp size " +
             std::to_string(warpSize) + ", not " + std::to_string(size);
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

std::optional<std::string>
TargetDescription::findBlockReductionViolation(int64_t size,
                                               mlir::Type type) const {
  if (!supports(Mode::gpu_block))
    return "the " + name + " target has no thread blocks";
  if (!(type.isF32() || type.isInteger(32))) {
    std::string typeName;
    llvm::raw_string_ostream(typeName) << type;
    return "threads combine a reduction by warp shuffles of 32-bit values "
           "(f32, i32), not " + typeName;
  }
  int64_t lanes = getBlockReductionLanes(size);
  if (lanes / warpSize <= warpSize && lanes <= maxBlockSize)
    return std::nullopt;
  return "threads combine a reduction by warp shuffles over at most " +
         std::to_string(std::min(warpSize * warpSize, maxBlockSize)) +
         " lanes (whole " + std::to_string(warpSize) + "-lane warps), not " +
         std::to_string(lanes) + " for " + std::to_string(size) + " threads";
}

int64_t TargetDescription::getBlockReductionLanes(int64_t size) const {
  if ((size <= warpSize && llvm::isPowerOf2_64(size)) || size % warpSize == 0)
    return size;
  return llvm::alignTo(size, warpSize);
}

std::optional<std::string>
TargetDescription::findCapacityViolation(BufferOp buffer,
                                         BufferLocation location,
                                         int64_t elements) const {
  std::string name = "'" + buffer.getName().str() + "'";
  if (location == BufferLocation::reg) {
    if (elements <= registerElements)
      return std::nullopt;
    return name + " would allocate " + std::to_string(elements) +
           " elements, over the register budget of " +
           std::to_string(registerElements) + " elements";
  }
  if (location == BufferLocation::stack ||
      location == BufferLocation::gpu_shared) {
    bool stack = location == BufferLocation::stack;
    int64_t bytes = getElementBytes(buffer);
    int64_t total = elements > INT64_MAX / bytes ? INT64_MAX : elements * bytes;
    int64_t capacity = stack ? stackBytes : sharedBytes;
    if (total <= capacity)
      return std::nullopt;
    return name + " would allocate " + std::to_string(total) + " bytes, over " +
           (stack ? "the stack budget of " : "the block-shared memory of ") +
           std::to_string(capacity) + " bytes";
  }
  return std::nullopt;
}

std::optional<TargetDescription>
TargetDescription::lookup(llvm::StringRef name) {
  if (name == "default")
    return getDefault();
  if (name == "cpu")
    return getCpu();
  if (name == "host")
    return getHost();
  if (name == "snitch")
    return getSnitch();
  return getGpu(resolveGpuAlias(name));
}

llvm::Expected<TargetDescription>
TargetDescription::lookupOrError(llvm::StringRef name) {
  if (std::optional<TargetDescription> target = lookup(name))
    return *target;
  return llvm::createStringError("unknown target '" + name +
                                 "' (expected one of: " +
                                 llvm::join(getNames(), ", ") + ")");
}

llvm::SmallVector<llvm::StringRef> TargetDescription::getNames() {
  llvm::SmallVector<llvm::StringRef> names = {"default", "cpu", "host",
                                              "snitch"};
  llvm::append_range(names, getGpuChips());
  names.append({"cuda", "rocm"});
  return names;
}
