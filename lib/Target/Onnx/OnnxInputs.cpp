//===- OnnxInputs.cpp - ONNX tensors as kernel arguments ------------------===//

#include "perfdojo/Target/Onnx/OnnxInputs.h"
#include "perfdojo/Target/Onnx/OnnxImport.h"

#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Support/FileIO.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"

using namespace perfdojo;
using namespace perfdojo::onnx;

std::string perfdojo::onnx::getDefaultKernelName(llvm::StringRef path) {
  llvm::StringRef stem = llvm::sys::path::stem(path);
  if (stem == "model") {
    llvm::StringRef dir = llvm::sys::path::filename(
        llvm::sys::path::parent_path(path));
    if (!dir.empty())
      stem = dir;
  }
  std::string name;
  for (char c : stem)
    name += llvm::isAlnum(c) || c == '_' ? c : '_';
  if (name.empty() || llvm::isDigit(name[0]))
    name = "k_" + name;
  return name;
}

llvm::Error perfdojo::onnx::copyTensor(const Tensor &tensor,
                                       HostBuffer &buffer) {
  if (tensor.getNumElements() != buffer.size())
    return llvm::createStringError(
        "tensor '" + tensor.name + "' has " +
        llvm::Twine(tensor.getNumElements()) + " element(s), argument '" +
        buffer.getName() + "' " + llvm::Twine(buffer.size()));
  for (int64_t i = 0; i < buffer.size(); ++i) {
    if (tensor.isFloat())
      buffer.set(i, tensor.floats[i]);
    else if (isFloatScalarType(buffer.getType()))
      buffer.set(i, static_cast<double>(tensor.ints[i]));
    else
      buffer.setInt(i, tensor.ints[i]);
  }
  return llvm::Error::success();
}

llvm::Error perfdojo::onnx::writeInitializers(const Model &model,
                                              llvm::StringRef path) {
  mlir::MLIRContext context;
  llvm::StringMap<std::string> names = getBufferNames(model);
  std::string text;
  llvm::raw_string_ostream os(text);
  for (const Tensor &init : model.initializers) {
    mlir::Type type = getElementType(init.elementKind, &context);
    if (!type)
      return llvm::createStringError(
          llvm::Twine("initializer '") + init.name + "' has element type " +
          getElementKindName(init.elementKind) + ", which the IR lacks");
    os << "# " << names.lookup(init.name) << " " << getElementTypeName(type)
       << " [";
    llvm::interleaveComma(init.dims, os);
    os << "]\n";
    if (init.isFloat()) {
      const char *fmt = type.isF64() ? "%.17g\n" : "%.9g\n";
      for (double v : init.floats)
        os << llvm::format(fmt, v);
    } else {
      for (int64_t v : init.ints)
        os << v << "\n";
    }
  }
  return writeFile(path, text);
}
