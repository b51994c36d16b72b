//===- DojoOps.cpp - dojo operations: builders and custom assembly -------===//
//
// The custom assembly of every op reuses the `.dojo` grammar in
// TextSyntax.h, so an MLIR kernel reads like the `.dojo` text.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"
#include "perfdojo/Dialect/Dojo/IR/TextSyntax.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

void KernelOp::build(OpBuilder &builder, OperationState &state,
                     StringRef name) {
  state.getOrAddProperties<Properties>().sym_name =
      builder.getStringAttr(name);
  state.addRegion()->emplaceBlock();
}

BufferOp KernelOp::lookupArray(StringRef array) {
  for (BufferOp buffer : getBuffers())
    for (StringRef name : buffer.getArrayNames())
      if (name == array)
        return buffer;
  return {};
}

//===----------------------------------------------------------------------===//
// BufferOp
//===----------------------------------------------------------------------===//

SmallVector<StringRef> BufferOp::getArrayNames() {
  SmallVector<StringRef> names;
  if (getArrays().empty())
    names.push_back(getName());
  for (Attribute a : getArrays())
    names.push_back(cast<StringAttr>(a).getValue());
  return names;
}

ParseResult BufferOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRAsmSource src(parser);
  TextParser<MLIRAsmSource> grammar(src, std::nullopt);
  BufferDecl decl;
  if (!grammar.parseBufferDecl(decl))
    return failure();
  Builder b(parser.getContext());
  Properties &props = result.getOrAddProperties<Properties>();
  props.name = b.getStringAttr(decl.name);
  props.element_type = TypeAttr::get(decl.elementType);
  props.shape = b.getDenseI64ArrayAttr(decl.shape);
  props.padding = b.getDenseI64ArrayAttr(decl.padding);
  props.reused = b.getDenseBoolArrayAttr(decl.reused);
  props.location = BufferLocationAttr::get(b.getContext(), decl.location);
  props.role = RoleAttr::get(b.getContext(), decl.role);
  SmallVector<StringRef> arrays(decl.arrays.begin(), decl.arrays.end());
  props.arrays = b.getStrArrayAttr(arrays);
  if (decl.nontemporal)
    props.nontemporal = b.getUnitAttr();
  return success();
}

void BufferOp::print(OpAsmPrinter &printer) {
  printer << " ";
  printBufferDecl(printer.getStream(), *this);
}

//===----------------------------------------------------------------------===//
// ScopeOp
//===----------------------------------------------------------------------===//

void ScopeOp::build(OpBuilder &builder, OperationState &state, int64_t size,
                    Mode mode) {
  Properties &props = state.getOrAddProperties<Properties>();
  props.size = builder.getI64IntegerAttr(size);
  props.mode = ModeAttr::get(builder.getContext(), mode);
  state.addRegion()->emplaceBlock();
}

unsigned ScopeOp::getDepth() { return getNodeDepth(*this); }

ParseResult ScopeOp::parse(OpAsmParser &parser, OperationState &result) {
  int64_t size;
  if (parser.parseInteger(size))
    return failure();
  Mode mode = Mode::seq;
  if (succeeded(parser.parseOptionalColon())) {
    SMLoc loc = parser.getCurrentLocation();
    StringRef suffix;
    if (parser.parseKeyword(&suffix))
      return failure();
    std::optional<Mode> parsed = symbolizeModeSuffix(suffix);
    if (!parsed)
      return parser.emitError(loc, "unknown scope mode ':")
             << suffix << "'; expected one of u, p, v, g, b, w";
    mode = *parsed;
  }
  Properties &props = result.getOrAddProperties<Properties>();
  props.size = parser.getBuilder().getI64IntegerAttr(size);
  props.mode = ModeAttr::get(parser.getContext(), mode);
  Region *body = result.addRegion();
  if (parser.parseRegion(*body))
    return failure();
  if (body->empty())
    body->emplaceBlock();
  return success();
}

void ScopeOp::print(OpAsmPrinter &printer) {
  printer << " ";
  printScopeHeader(printer.getStream(), *this);
  printer << " ";
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/false);
}

//===----------------------------------------------------------------------===//
// LeafOp
//===----------------------------------------------------------------------===//

unsigned LeafOp::getDepth() { return getNodeDepth(*this); }

unsigned LeafOp::getArity(OpKind kind) {
  if (isComparison(kind))
    return 2;
  switch (kind) {
  case OpKind::add:
  case OpKind::sub:
  case OpKind::mul:
  case OpKind::div:
  case OpKind::max:
  case OpKind::min:
    return 2;
  case OpKind::select:
    return 3;
  default:
    return 1;
  }
}

ParseResult LeafOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRAsmSource src(parser);
  TextParser<MLIRAsmSource> grammar(src, std::nullopt);
  Statement stmt;
  if (!grammar.parseStatement(stmt))
    return failure();
  Builder b(parser.getContext());
  Properties &props = result.getOrAddProperties<Properties>();
  props.array = b.getStringAttr(stmt.array);
  props.indices = AffineMapAttr::get(makeIndexMap(stmt.indices, b.getContext()));
  props.kind = OpKindAttr::get(b.getContext(), stmt.kind);
  props.reduce = ReduceKindAttr::get(b.getContext(), stmt.reduce);
  props.inputs = b.getArrayAttr(stmt.inputs);
  if (!stmt.streams.empty())
    props.streams = b.getDenseI64ArrayAttr(stmt.getStreams());
  return success();
}

std::optional<unsigned> LeafOp::getStreamDepth(unsigned position) {
  std::optional<ArrayRef<int64_t>> streams = getStreams();
  if (!streams || position >= streams->size() || (*streams)[position] < 0)
    return std::nullopt;
  return static_cast<unsigned>((*streams)[position]);
}

void LeafOp::setStreamDepth(unsigned position, std::optional<unsigned> depth) {
  SmallVector<int64_t, 3> streams(getInputs().size() + 1, -1);
  if (std::optional<ArrayRef<int64_t>> old = getStreams())
    for (auto [i, value] : llvm::enumerate(*old))
      if (i < streams.size())
        streams[i] = value;
  streams[position] = depth ? static_cast<int64_t>(*depth) : -1;
  if (llvm::all_of(streams, [](int64_t v) { return v < 0; }))
    removeStreamsAttr();
  else
    setStreams(streams);
}

void LeafOp::print(OpAsmPrinter &printer) {
  printer << " ";
  printStatement(printer.getStream(), *this);
}

#define GET_OP_CLASSES
#include "perfdojo/Dialect/Dojo/IR/DojoOps.cpp.inc"
