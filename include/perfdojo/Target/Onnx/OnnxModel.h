//===- OnnxModel.h - an ONNX model as plain data -----------------*- C++ -*-===//
//
// The part of an ONNX model the importer reads, copied out of the protobuf
// messages (and after ONNX's own shape inference), so that no other file
// includes protobuf or ONNX headers: OnnxModel.cpp is the only one.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TARGET_ONNX_ONNXMODEL_H
#define PERFDOJO_TARGET_ONNX_ONNXMODEL_H

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace perfdojo::onnx {

/// ONNX's TensorProto.DataType numbers the importer knows.
enum class ElementKind : int {
  Undefined = 0, Float = 1, UInt8 = 2, Int8 = 3, UInt16 = 4, Int16 = 5,
  Int32 = 6, Int64 = 7, String = 8, Bool = 9, Float16 = 10, Double = 11,
  UInt32 = 12, UInt64 = 13, Complex64 = 14, Complex128 = 15, BFloat16 = 16,
};

/// ONNX's name of a data type (`FLOAT`, `INT64`, ...), for messages.
const char *getElementKindName(int kind);

/// A tensor with data: an initializer, a Constant's value, a test's `.pb`.
struct Tensor {
  std::string name;
  int elementKind = 0;
  std::vector<int64_t> dims;
  /// The values in row-major order: floating-point kinds in `floats`, the
  /// integer and bool kinds in `ints` (exact for every int64).
  std::vector<double> floats;
  std::vector<int64_t> ints;

  int64_t getNumElements() const;
  bool isFloat() const;
};

/// A value's type: element kind and shape (a dimension < 0 is unknown).
struct ValueType {
  /// A tensor (not a sequence, map or optional).
  bool isTensor = true;
  int elementKind = 0;
  std::vector<int64_t> dims;
  bool hasShape = false;
};

struct NodeAttribute {
  enum class Kind { Float, Int, String, Tensor, Floats, Ints, Strings, Other };
  std::string name;
  Kind kind = Kind::Other;
  double f = 0;
  int64_t i = 0;
  std::string s;
  std::vector<double> floats;
  std::vector<int64_t> ints;
  std::optional<onnx::Tensor> tensor;
};

struct Node {
  std::string opType, domain, name;
  std::vector<std::string> inputs, outputs; ///< "" for an omitted optional
  std::vector<NodeAttribute> attributes;

  const NodeAttribute *getAttribute(llvm::StringRef attribute) const;
  /// Whether optional input `index` is given (present and not "").
  bool hasInput(unsigned index) const {
    return index < inputs.size() && !inputs[index].empty();
  }
  /// An int attribute, or `otherwise`.
  int64_t getInt(llvm::StringRef attribute, int64_t otherwise) const;
  double getFloat(llvm::StringRef attribute, double otherwise) const;
  std::optional<std::vector<int64_t>> getInts(llvm::StringRef attribute) const;
  std::string getString(llvm::StringRef attribute,
                        llvm::StringRef otherwise) const;
};

struct Model {
  std::string graphName;
  /// The opset of the default ("" or "ai.onnx") domain.
  int64_t opset = 0;
  /// Graph inputs that are not initializers, and graph outputs, in order.
  std::vector<std::string> inputs, outputs;
  std::vector<Tensor> initializers;
  std::vector<Node> nodes;
  /// Every value's type: inputs, outputs and value_info after ONNX's shape
  /// inference.
  llvm::StringMap<ValueType> types;
  /// Values of graph inputs the caller fixes (a node test's data): where an
  /// operator needs an input as a constant (axes, shapes), these count like
  /// initializers. The inputs stay kernel arguments.
  llvm::StringMap<Tensor> constants;
};

/// Reads `path` and runs ONNX's shape inference on it. An error names the
/// file and what is wrong with it.
llvm::Expected<Model> readModel(llvm::StringRef path);

/// Reads a serialized TensorProto (the node tests' `input_0.pb`, ...).
llvm::Expected<Tensor> readTensor(llvm::StringRef path);

} // namespace perfdojo::onnx

#endif // PERFDOJO_TARGET_ONNX_ONNXMODEL_H
