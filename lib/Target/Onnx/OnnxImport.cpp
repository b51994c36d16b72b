//===- OnnxImport.cpp - an ONNX graph as one dojo kernel ------------------===//
//
// Each node becomes scope nests that write its outputs' buffers; the
// operators live in OnnxOperators.cpp, over the small builder interface of
// GraphBuilder.h. This file declares the buffers and drives the nodes.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Target/Onnx/OnnxImport.h"

#include "GraphBuilder.h"

#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"

#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::onnx;

llvm::StringMap<std::string> perfdojo::onnx::getBufferNames(const Model &model) {
  llvm::StringMap<std::string> names;
  llvm::StringSet<> taken;
  auto add = [&](llvm::StringRef value) {
    if (value.empty() || names.count(value))
      return;
    std::string name;
    for (char c : value)
      name += llvm::isAlnum(c) || c == '_' ? c : '_';
    if (name.empty() || llvm::isDigit(name[0]))
      name = "v_" + name;
    std::string unique = name;
    for (unsigned k = 1; !taken.insert(unique).second; ++k)
      unique = name + "_" + std::to_string(k);
    names[value] = unique;
  };
  for (const std::string &input : model.inputs)
    add(input);
  for (const Tensor &init : model.initializers)
    add(init.name);
  for (const Node &node : model.nodes) {
    for (const std::string &input : node.inputs)
      add(input);
    for (const std::string &output : node.outputs)
      add(output);
  }
  for (const std::string &output : model.outputs)
    add(output);
  return names;
}

Type GraphBuilder::getElementType(int kind) {
  return onnx::getElementType(kind, ctx);
}

Type GraphBuilder::getBoolType() {
  return getElementType(static_cast<int>(ElementKind::Bool));
}

Type perfdojo::onnx::getElementType(int kind, MLIRContext *ctx) {
  switch (static_cast<ElementKind>(kind)) {
  case ElementKind::Float:
    return Float32Type::get(ctx);
  case ElementKind::Double:
    return Float64Type::get(ctx);
  case ElementKind::Float16:
    return Float16Type::get(ctx);
  case ElementKind::BFloat16:
    return BFloat16Type::get(ctx);
  case ElementKind::Int8:
    return IntegerType::get(ctx, 8);
  case ElementKind::Int16:
    return IntegerType::get(ctx, 16);
  case ElementKind::Int32:
    return IntegerType::get(ctx, 32);
  case ElementKind::Int64:
    return IntegerType::get(ctx, 64);
  case ElementKind::Bool:
    return IntegerType::get(ctx, 1);
  default:
    return nullptr;
  }
}

void GraphBuilder::unsupported(const llvm::Twine &message) {
  if (!failed) {
    failed = true;
    why.unsupported = true;
    why.message = message.str();
  }
}

void GraphBuilder::invalid(const llvm::Twine &message) {
  if (!failed) {
    failed = true;
    why.unsupported = false;
    why.message = message.str();
  }
}

const GraphValue *GraphBuilder::lookup(llvm::StringRef name) {
  auto it = values.find(name);
  if (it != values.end())
    return &it->second;
  invalid("value '" + name + "' is used before any node defines it");
  return nullptr;
}

const GraphValue *GraphBuilder::input(const Node &node, unsigned index) {
  if (!node.hasInput(index)) {
    invalid(node.opType + " needs input " + llvm::Twine(index));
    return nullptr;
  }
  return lookup(node.inputs[index]);
}

bool GraphBuilder::lookupOptional(const Node &node, unsigned index,
                                  const GraphValue *&value) {
  value = node.hasInput(index) ? lookup(node.inputs[index]) : nullptr;
  return value || !node.hasInput(index);
}

const GraphValue *GraphBuilder::declare(llvm::StringRef onnxName, Type type,
                                   llvm::ArrayRef<int64_t> shape, Role role) {
  for (int64_t d : shape) {
    if (d < 0) {
      unsupported("value '" + onnxName + "' has a dynamic shape");
      return nullptr;
    }
    if (d == 0) {
      unsupported("value '" + onnxName + "' is empty (a dimension of size 0)");
      return nullptr;
    }
  }
  std::string name = bufferNames.lookup(onnxName);
  if (name.empty())
    name = bufferNames[onnxName] = "t_" + std::to_string(bufferNames.size());
  OpBuilder b(ctx);
  if (firstNode)
    b.setInsertionPoint(firstNode);
  else
    b.setInsertionPointToEnd(&kernel.getBlock());
  BufferOp::create(b, loc, name, type, shape, BufferLocation::heap, role);
  GraphValue &value = values[onnxName];
  value.array = name;
  value.type = type;
  value.shape.assign(shape.begin(), shape.end());
  return &value;
}

const GraphValue *GraphBuilder::declareTemporary(Type type,
                                            llvm::ArrayRef<int64_t> shape) {
  std::string name = "tmp" + std::to_string(temporaries++);
  while (bufferNames.count(name))
    name = "tmp" + std::to_string(temporaries++);
  bufferNames[name] = name;
  return declare(name, type, shape, Role::internal);
}

const GraphValue *GraphBuilder::defineOutput(const Node &node, unsigned index,
                                        Type type,
                                        llvm::ArrayRef<int64_t> shape) {
  if (index >= node.outputs.size() || node.outputs[index].empty())
    return nullptr;
  const std::string &name = node.outputs[index];
  if (values.count(name)) {
    invalid("value '" + name + "' is defined twice");
    return nullptr;
  }
  // ONNX's shape inference, where it ran, must agree with the importer's.
  auto known = model.types.find(name);
  if (known != model.types.end() && known->second.hasShape &&
      known->second.dims.size() == shape.size())
    for (auto [inferred, ours] : llvm::zip(known->second.dims, shape))
      if (inferred >= 0 && inferred != ours) {
        invalid("value '" + name + "': the importer computes shape " +
                formatShape(shape) + ", ONNX's shape inference " +
                formatShape(known->second.dims));
        return nullptr;
      }
  bool isOutput = llvm::is_contained(model.outputs, name);
  return declare(name, type, shape, isOutput ? Role::out : Role::internal);
}

const Tensor *GraphBuilder::findConstant(llvm::StringRef name) const {
  auto constant = constantValues.find(name);
  if (constant != constantValues.end())
    return &constant->second;
  for (const Tensor &init : model.initializers)
    if (init.name == name)
      return &init;
  auto fixed = model.constants.find(name);
  return fixed != model.constants.end() ? &fixed->second : nullptr;
}

std::string GraphBuilder::formatShape(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

void GraphBuilder::emitNest(llvm::ArrayRef<int64_t> sizes,
                            llvm::function_ref<void(Nest &)> body) {
  Block &block = kernel.getBlock();
  Operation *last = block.empty() ? nullptr : &block.back();
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(&block);
  for (int64_t size : sizes) {
    auto scope = ScopeOp::create(b, loc, size, Mode::seq);
    b.setInsertionPointToStart(&scope.getBlock());
  }
  Nest nest{*this, b, static_cast<unsigned>(sizes.size())};
  body(nest);
  // The first node of the tree: later buffers go before it.
  Operation *first = last ? last->getNextNode() : (block.empty() ? nullptr
                                                                 : &block.front());
  if (!firstNode && first)
    firstNode = first;
}

AffineExpr Nest::var(unsigned depth) const {
  return getAffineDimExpr(depth, builder.ctx);
}

Index Nest::vars(unsigned count, unsigned first) const {
  Index index;
  for (unsigned d = 0; d < count; ++d)
    index.push_back(var(first + d));
  return index;
}

void Nest::leaf(const GraphValue &out, llvm::ArrayRef<AffineExpr> index,
                OpKind kind, llvm::ArrayRef<Attribute> inputs,
                ReduceKind reduce) {
  LeafOp::create(b, builder.loc, b.getStringAttr(out.array),
                 AffineMapAttr::get(makeIndexMap(index, builder.ctx)),
                 OpKindAttr::get(builder.ctx, kind),
                 ReduceKindAttr::get(builder.ctx, reduce),
                 b.getArrayAttr(inputs));
}

Attribute Nest::read(const GraphValue &value, llvm::ArrayRef<AffineExpr> index) {
  return AccessAttr::get(builder.ctx, StringAttr::get(builder.ctx, value.array),
                         makeIndexMap(index, builder.ctx));
}

Attribute Nest::constant(double value) {
  return FloatAttr::get(Float64Type::get(builder.ctx), value);
}

Attribute Nest::indexValue(AffineExpr expr) {
  return IndexValueAttr::get(builder.ctx, makeIndexMap(expr, builder.ctx));
}

void Nest::enter(int64_t size) {
  auto scope = ScopeOp::create(b, builder.loc, size, Mode::seq);
  b.setInsertionPointToStart(&scope.getBlock());
  ++depth;
}

OwningOpRef<ModuleOp> perfdojo::onnx::importModel(const Model &model,
                                                  llvm::StringRef name,
                                                  MLIRContext *context,
                                                  ImportError &why) {
  context->getOrLoadDialect<DojoDialect>();
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(context));
  OpBuilder b(context);
  b.setInsertionPointToEnd(module->getBody());
  Location loc = FileLineColLoc::get(context, name, 1, 1);
  auto kernel = KernelOp::create(b, loc, name);
  GraphBuilder builder(model, kernel, why);
  if (!builder.run())
    return nullptr;
  std::string diagnostics;
  {
    ScopedDiagnosticHandler capture(context, [&](Diagnostic &diag) {
      if (diagnostics.empty())
        diagnostics = diag.str();
      return success();
    });
    if (failed(verify(*module))) {
      why.unsupported = false;
      why.message = "the imported kernel does not verify: " + diagnostics;
      return nullptr;
    }
  }
  return module;
}

bool GraphBuilder::run() {
  bufferNames = getBufferNames(model);
  for (const Node &node : model.nodes)
    if (!node.domain.empty() && node.domain != "ai.onnx") {
      unsupported("operator " + node.domain + "." + node.opType +
                  " is outside the default ONNX domain");
      return false;
    }
  if (model.opset == 0) {
    invalid("the model imports no opset of the default ONNX domain");
    return false;
  }
  for (const auto &entry : model.types)
    if (!entry.second.isTensor) {
      unsupported("value '" + entry.first() +
                  "' is a sequence, map or optional, not a tensor");
      return false;
    }
  auto declareArgument = [&](llvm::StringRef name) {
    auto it = model.types.find(name);
    if (it == model.types.end() || !it->second.hasShape) {
      unsupported("input '" + name + "' has no static shape");
      return;
    }
    Type type = getElementType(it->second.elementKind);
    if (!type) {
      unsupported(llvm::Twine("input '") + name + "' has element type " +
                  getElementKindName(it->second.elementKind) +
                  ", which the IR lacks");
      return;
    }
    declare(name, type, it->second.dims, Role::in);
  };
  for (const std::string &input : model.inputs)
    declareArgument(input);
  for (const Tensor &init : model.initializers)
    declareArgument(init.name);
  for (const Node &node : model.nodes) {
    if (failed)
      return false;
    if (!node.domain.empty() && node.domain != "ai.onnx") {
      unsupported("operator " + node.domain + "." + node.opType +
                  " is outside the default ONNX domain");
      return false;
    }
    loc = FileLineColLoc::get(ctx, node.name.empty() ? node.opType : node.name,
                              1, 1);
    lowerNode(*this, node);
  }
  if (failed)
    return false;
  for (const std::string &output : model.outputs) {
    const GraphValue *value = lookup(output);
    if (!value)
      return false;
    // An output that is also an input, or read straight from an
    // initializer, still needs its own `out` buffer: copy.
    if (kernel.lookupArray(value->array).getRole() != Role::out) {
      unsupported("graph output '" + output +
                  "' is a graph input or initializer itself");
      return false;
    }
  }
  return !failed;
}
