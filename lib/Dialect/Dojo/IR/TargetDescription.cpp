//===- TargetDescription.cpp - what a target accepts of a kernel ----------===//

#include "perfdojo/Dialect/Dojo/IR/TargetDescription.h"

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
