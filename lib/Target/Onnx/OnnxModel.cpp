//===- OnnxModel.cpp - an ONNX model as plain data ------------------------===//
//
// The only file that includes protobuf and ONNX headers.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Target/Onnx/OnnxModel.h"
#include "perfdojo/Support/Float16.h"

#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <cstring>
#include <fstream>
#include <sstream>

using namespace perfdojo;
using namespace perfdojo::onnx;

const char *perfdojo::onnx::getElementKindName(int kind) {
  if (::onnx::TensorProto_DataType_IsValid(kind))
    return ::onnx::TensorProto_DataType_Name(
               static_cast<::onnx::TensorProto_DataType>(kind))
        .c_str();
  return "UNKNOWN";
}

int64_t Tensor::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

bool Tensor::isFloat() const {
  switch (static_cast<ElementKind>(elementKind)) {
  case ElementKind::Float:
  case ElementKind::Double:
  case ElementKind::Float16:
  case ElementKind::BFloat16:
    return true;
  default:
    return false;
  }
}

const NodeAttribute *Node::getAttribute(llvm::StringRef attribute) const {
  for (const NodeAttribute &a : attributes)
    if (a.name == attribute)
      return &a;
  return nullptr;
}

int64_t Node::getInt(llvm::StringRef attribute, int64_t otherwise) const {
  const NodeAttribute *a = getAttribute(attribute);
  return a && a->kind == NodeAttribute::Kind::Int ? a->i : otherwise;
}

double Node::getFloat(llvm::StringRef attribute, double otherwise) const {
  const NodeAttribute *a = getAttribute(attribute);
  return a && a->kind == NodeAttribute::Kind::Float ? a->f : otherwise;
}

std::optional<std::vector<int64_t>>
Node::getInts(llvm::StringRef attribute) const {
  const NodeAttribute *a = getAttribute(attribute);
  if (!a || a->kind != NodeAttribute::Kind::Ints)
    return std::nullopt;
  return a->ints;
}

std::string Node::getString(llvm::StringRef attribute,
                            llvm::StringRef otherwise) const {
  const NodeAttribute *a = getAttribute(attribute);
  return a && a->kind == NodeAttribute::Kind::String ? a->s : otherwise.str();
}

namespace {

/// Little-endian raw bytes as values of `T`.
template <typename T> std::vector<T> fromRaw(const std::string &raw) {
  std::vector<T> values(raw.size() / sizeof(T));
  std::memcpy(values.data(), raw.data(), values.size() * sizeof(T));
  return values;
}

llvm::Expected<Tensor> convertTensor(const ::onnx::TensorProto &proto) {
  Tensor t;
  t.name = proto.name();
  t.elementKind = proto.data_type();
  t.dims.assign(proto.dims().begin(), proto.dims().end());
  if (proto.data_location() == ::onnx::TensorProto_DataLocation_EXTERNAL)
    return llvm::createStringError("tensor '" + proto.name() +
                                   "' keeps its data in an external file");
  int64_t count = t.getNumElements();
  const std::string &raw = proto.raw_data();
  bool hasRaw = proto.has_raw_data();
  auto ints = [&](auto values) {
    t.ints.assign(values.begin(), values.end());
  };
  auto floats = [&](auto values) {
    t.floats.assign(values.begin(), values.end());
  };
  switch (static_cast<ElementKind>(t.elementKind)) {
  case ElementKind::Float:
    hasRaw ? floats(fromRaw<float>(raw)) : floats(proto.float_data());
    break;
  case ElementKind::Double:
    hasRaw ? floats(fromRaw<double>(raw)) : floats(proto.double_data());
    break;
  case ElementKind::Float16:
  case ElementKind::BFloat16: {
    std::vector<uint16_t> bits;
    if (hasRaw)
      bits = fromRaw<uint16_t>(raw);
    else
      bits.assign(proto.int32_data().begin(), proto.int32_data().end());
    bool half = t.elementKind == int(ElementKind::Float16);
    for (uint16_t b : bits)
      t.floats.push_back(half ? halfToDouble(b) : bfloat16ToDouble(b));
    break;
  }
  case ElementKind::Int8:
    hasRaw ? ints(fromRaw<int8_t>(raw)) : ints(proto.int32_data());
    break;
  case ElementKind::UInt8:
    hasRaw ? ints(fromRaw<uint8_t>(raw)) : ints(proto.int32_data());
    break;
  case ElementKind::Int16:
    hasRaw ? ints(fromRaw<int16_t>(raw)) : ints(proto.int32_data());
    break;
  case ElementKind::UInt16:
    hasRaw ? ints(fromRaw<uint16_t>(raw)) : ints(proto.int32_data());
    break;
  case ElementKind::Int32:
    hasRaw ? ints(fromRaw<int32_t>(raw)) : ints(proto.int32_data());
    break;
  case ElementKind::Bool:
    hasRaw ? ints(fromRaw<uint8_t>(raw)) : ints(proto.int32_data());
    break;
  case ElementKind::Int64:
    hasRaw ? ints(fromRaw<int64_t>(raw)) : ints(proto.int64_data());
    break;
  case ElementKind::UInt32:
    hasRaw ? ints(fromRaw<uint32_t>(raw)) : ints(proto.uint64_data());
    break;
  default:
    return llvm::createStringError(
        std::string("tensor '") + proto.name() + "' has element type " +
        getElementKindName(t.elementKind) + ", which the importer cannot read");
  }
  int64_t got = t.isFloat() ? t.floats.size() : t.ints.size();
  if (got != count)
    return llvm::createStringError(
        "tensor '" + proto.name() + "' has " + std::to_string(got) +
        " value(s) for " + std::to_string(count) + " element(s)");
  return t;
}

ValueType convertType(const ::onnx::TypeProto &type) {
  ValueType v;
  if (!type.has_tensor_type()) {
    v.isTensor = false;
    return v;
  }
  v.elementKind = type.tensor_type().elem_type();
  if (!type.tensor_type().has_shape())
    return v;
  v.hasShape = true;
  for (const auto &dim : type.tensor_type().shape().dim())
    v.dims.push_back(dim.has_dim_value() ? dim.dim_value() : -1);
  return v;
}

llvm::Expected<NodeAttribute> convertAttribute(const ::onnx::AttributeProto &a) {
  NodeAttribute result;
  result.name = a.name();
  switch (a.type()) {
  case ::onnx::AttributeProto_AttributeType_FLOAT:
    result.kind = NodeAttribute::Kind::Float;
    result.f = a.f();
    break;
  case ::onnx::AttributeProto_AttributeType_INT:
    result.kind = NodeAttribute::Kind::Int;
    result.i = a.i();
    break;
  case ::onnx::AttributeProto_AttributeType_STRING:
    result.kind = NodeAttribute::Kind::String;
    result.s = a.s();
    break;
  case ::onnx::AttributeProto_AttributeType_FLOATS:
    result.kind = NodeAttribute::Kind::Floats;
    result.floats.assign(a.floats().begin(), a.floats().end());
    break;
  case ::onnx::AttributeProto_AttributeType_INTS:
    result.kind = NodeAttribute::Kind::Ints;
    result.ints.assign(a.ints().begin(), a.ints().end());
    break;
  case ::onnx::AttributeProto_AttributeType_TENSOR: {
    result.kind = NodeAttribute::Kind::Tensor;
    llvm::Expected<Tensor> t = convertTensor(a.t());
    if (!t)
      return t.takeError();
    result.tensor = std::move(*t);
    break;
  }
  default:
    result.kind = NodeAttribute::Kind::Other;
    break;
  }
  return result;
}

llvm::Error parseFile(llvm::StringRef path,
                      google::protobuf::MessageLite &message) {
  std::ifstream in(path.str(), std::ios::binary);
  if (!in)
    return llvm::createStringError("cannot read '" + path + "'");
  std::stringstream bytes;
  bytes << in.rdbuf();
  if (!message.ParseFromString(bytes.str()))
    return llvm::createStringError("'" + path +
                                   "' is not a valid ONNX protobuf file");
  return llvm::Error::success();
}

} // namespace

llvm::Expected<Tensor> perfdojo::onnx::readTensor(llvm::StringRef path) {
  ::onnx::TensorProto proto;
  if (llvm::Error error = parseFile(path, proto))
    return std::move(error);
  llvm::Expected<Tensor> t = convertTensor(proto);
  if (!t)
    return llvm::createStringError(path + ": " + llvm::toString(t.takeError()));
  return t;
}

llvm::Expected<Model> perfdojo::onnx::readModel(llvm::StringRef path) {
  ::onnx::ModelProto proto;
  if (llvm::Error error = parseFile(path, proto))
    return std::move(error);
  Model model;
  for (const auto &opset : proto.opset_import())
    if (opset.domain().empty() || opset.domain() == "ai.onnx")
      model.opset = opset.version();
  // ONNX's own shape inference fills value_info for every intermediate
  // value it can; a model it rejects is reported as such.
  try {
    ::onnx::shape_inference::InferShapes(proto);
  } catch (const std::exception &e) {
    return llvm::createStringError(path + ": shape inference failed: " +
                                   e.what());
  }
  const ::onnx::GraphProto &graph = proto.graph();
  model.graphName = graph.name();
  llvm::StringMap<bool> initialized;
  for (const auto &init : graph.initializer()) {
    llvm::Expected<Tensor> t = convertTensor(init);
    if (!t)
      return llvm::createStringError(path + ": " +
                                     llvm::toString(t.takeError()));
    initialized[init.name()] = true;
    model.types[init.name()] = ValueType{true, t->elementKind, t->dims, true};
    model.initializers.push_back(std::move(*t));
  }
  for (const auto &input : graph.input()) {
    if (!initialized.count(input.name()))
      model.inputs.push_back(input.name());
    model.types[input.name()] = convertType(input.type());
  }
  for (const auto &output : graph.output()) {
    model.outputs.push_back(output.name());
    model.types[output.name()] = convertType(output.type());
  }
  for (const auto &info : graph.value_info())
    model.types[info.name()] = convertType(info.type());
  for (const auto &n : graph.node()) {
    Node node;
    node.opType = n.op_type();
    node.domain = n.domain();
    node.name = n.name();
    node.inputs.assign(n.input().begin(), n.input().end());
    node.outputs.assign(n.output().begin(), n.output().end());
    for (const auto &a : n.attribute()) {
      llvm::Expected<NodeAttribute> attribute = convertAttribute(a);
      if (!attribute)
        return llvm::createStringError(path + ": node '" + n.name() + "' (" +
                                       n.op_type() + "): " +
                                       llvm::toString(attribute.takeError()));
      node.attributes.push_back(std::move(*attribute));
    }
    model.nodes.push_back(std::move(node));
  }
  return model;
}
