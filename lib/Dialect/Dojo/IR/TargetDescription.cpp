//===- TargetDescription.cpp - what a target accepts of a kernel ----------===//

#include "perfdojo/Dialect/Dojo/IR/TargetDescription.h"
#include "perfdojo/Dialect/Dojo/IR/PhysicalLayout.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace perfdojo;
using namespace perfdojo::dojo;

int64_t TargetDescription::getVectorLanes(mlir::Type elementType) const {
  int64_t bytes =
      std::max<int64_t>(1, (elementType.getIntOrFloatBitWidth() + 7) / 8);
  return std::max<int64_t>(1, vectorBytes / bytes);
}

TargetDescription TargetDescription::getCpu(int64_t vectorBytes) {
  TargetDescription target;
  target.name = "cpu";
  target.modes = 0;
  for (Mode mode : {Mode::seq, Mode::unroll, Mode::parallel, Mode::vector})
    target.modes |= 1u << static_cast<unsigned>(mode);
  target.vectorBytes = vectorBytes;
  // AVX-512 has 32 vector registers, AVX2 16.
  target.vectorRegisters = vectorBytes >= 64 ? 32 : 16;
  return target;
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
    int64_t lanes = getVectorLanes(laneType);
    if (size == lanes)
      return std::nullopt;
    std::string typeName;
    llvm::raw_string_ostream(typeName) << laneType;
    return "vector scope size " + std::to_string(size) +
           " does not match the vector width: " + std::to_string(lanes) +
           " " + typeName + " lanes in " + std::to_string(vectorBytes) +
           " bytes";
  }
  case Mode::gpu_block:
    if (size > maxBlockSize)
      return "scope size " + std::to_string(size) + " exceeds " +
             std::to_string(maxBlockSize) + " threads per block";
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
  if (location == BufferLocation::stack) {
    int64_t bytes = getElementBytes(buffer);
    int64_t total = elements > INT64_MAX / bytes ? INT64_MAX : elements * bytes;
    if (total <= stackBytes)
      return std::nullopt;
    return name + " would allocate " + std::to_string(total) +
           " bytes, over the stack budget of " + std::to_string(stackBytes) +
           " bytes";
  }
  return std::nullopt;
}
