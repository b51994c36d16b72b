//===- PhysicalLayout.cpp - where a buffer's elements are stored ----------===//

#include "perfdojo/Dialect/Dojo/IR/PhysicalLayout.h"

#include "perfdojo/Support/SaturatingArithmetic.h"

#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

SmallVector<int64_t, 4> perfdojo::getElementStrides(BufferOp buffer) {
  SmallVector<int64_t, 4> strides(buffer.getRank(), 0);
  int64_t running = 1;
  for (int d = buffer.getRank() - 1; d >= 0; --d) {
    if (buffer.getReused()[d])
      continue;
    strides[d] = running;
    running = saturatingMul(running, buffer.getAllocatedExtent(d));
  }
  return strides;
}

LinearForm perfdojo::getElementOffset(BufferOp buffer,
                                      ArrayRef<LinearForm> forms) {
  LinearForm offset;
  for (auto [form, stride] : llvm::zip(forms, getElementStrides(buffer))) {
    offset.constant =
        saturatingAdd(offset.constant, saturatingMul(form.constant, stride));
    if (offset.coeffs.size() < form.coeffs.size())
      offset.coeffs.resize(form.coeffs.size(), 0);
    for (auto [k, coeff] : llvm::enumerate(form.coeffs))
      offset.coeffs[k] =
          saturatingAdd(offset.coeffs[k], saturatingMul(coeff, stride));
  }
  return offset;
}

int64_t perfdojo::getStrideAlong(BufferOp buffer, ArrayRef<LinearForm> forms,
                                 unsigned depth) {
  return getElementOffset(buffer, forms).coeff(depth);
}

int64_t perfdojo::getStorageElements(BufferOp buffer) {
  int64_t elements = 1;
  for (unsigned d = 0; d < buffer.getRank(); ++d)
    if (!buffer.getReused()[d])
      elements = saturatingMul(elements, buffer.getAllocatedExtent(d));
  return elements;
}

int64_t perfdojo::getLogicalElements(BufferOp buffer) {
  int64_t elements = 1;
  for (int64_t extent : buffer.getShape())
    elements = saturatingMul(elements, extent);
  return elements;
}

int64_t perfdojo::getElementBytes(mlir::Type elementType) {
  return std::max<int64_t>(1, (elementType.getIntOrFloatBitWidth() + 7) / 8);
}

int64_t perfdojo::getElementBytes(BufferOp buffer) {
  return getElementBytes(buffer.getElementType());
}

std::optional<std::string>
perfdojo::findLayoutOverflow(StringRef name, int64_t elementBytes,
                             ArrayRef<int64_t> shape, ArrayRef<int64_t> padding,
                             ArrayRef<bool> reused) {
  std::optional<int64_t> bytes = elementBytes;
  for (auto [d, size] : llvm::enumerate(shape)) {
    std::optional<int64_t> extent = llvm::checkedAdd(size, padding[d]);
    if (!extent)
      return "dimension " + std::to_string(d) + " of '" + name.str() +
             "' overflows 64-bit integers with its padding";
    if (bytes && !reused[d])
      bytes = llvm::checkedMul(*bytes, *extent);
  }
  if (!bytes)
    return "the storage of '" + name.str() + "' overflows 64-bit byte offsets";
  return std::nullopt;
}
