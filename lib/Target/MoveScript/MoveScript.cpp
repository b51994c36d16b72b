//===- MoveScript.cpp - move scripts <-> Transform dialect IR ------------===//

#include "perfdojo/Target/MoveScript/MoveScript.h"
#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/TransformOps/DojoTransformOps.h"
#include "perfdojo/Moves/Move.h"
#include "perfdojo/Moves/Selector.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace perfdojo;

static constexpr StringLiteral kMovePrefix = "transform.dojo.";

OwningOpRef<ModuleOp> perfdojo::importMoveScript(llvm::SourceMgr &sourceMgr,
                                                 MLIRContext *context) {
  context->loadDialect<transform::TransformDialect, dojo::DojoDialect>();
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  StringAttr file = StringAttr::get(context, buffer->getBufferIdentifier());
  Location fileLoc = FileLineColLoc::get(file, 1, 1);

  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  (*module)->setAttr(transform::TransformDialect::kWithNamedSequenceAttrName,
                     UnitAttr::get(context));
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(module->getBody());
  Type anyOp = transform::AnyOpType::get(context);
  auto sequence = transform::NamedSequenceOp::create(
      builder, fileLoc, "__transform_main", TypeAttr::get(FunctionType::get(
                                                context, {anyOp}, {})),
      /*sym_visibility=*/nullptr, /*arg_attrs=*/nullptr,
      /*res_attrs=*/nullptr);
  Block *body = builder.createBlock(&sequence.getBody(), {}, {anyOp},
                                    {fileLoc});
  sequence.setArgAttr(0, transform::TransformDialect::kArgReadOnlyAttrName,
                      UnitAttr::get(context));
  builder.setInsertionPointToEnd(body);
  Value kernels = transform::GetKernelsOp::create(builder, fileLoc, anyOp,
                                                  body->getArgument(0),
                                                  /*name=*/nullptr);

  // Moves are separated by newlines or ';'; '#' starts a comment (not the
  // one of a selector `a#k`).
  SmallVector<StringRef> lines;
  buffer->getBuffer().split(lines, '\n');
  for (auto [lineIndex, line] : llvm::enumerate(lines)) {
    StringRef text = stripScriptComment(line);
    size_t column = 0;
    while (!text.empty()) {
      auto [part, rest] = text.split(';');
      size_t start = part.find_first_not_of(" \t\r");
      Location loc = FileLineColLoc::get(
          file, lineIndex + 1,
          column + (start == StringRef::npos ? 0 : start) + 1);
      column += part.size() + 1;
      text = rest;
      if (part.trim().empty())
        continue;
      llvm::Expected<MoveRequest> request = parseMoveRequest(part.trim());
      if (!request) {
        emitError(loc) << llvm::toString(request.takeError());
        return nullptr;
      }
      if (!lookupMove(request->name)) {
        emitError(loc) << "unknown move '" << request->name << "'";
        return nullptr;
      }
      OperationState state(loc, (kMovePrefix + request->name).str());
      if (!state.name.isRegistered()) {
        emitError(loc) << "move '" << request->name
                       << "' has no transform op yet";
        return nullptr;
      }
      state.addOperands(kernels);
      state.addAttribute("location", builder.getStringAttr(request->location));
      state.addAttribute("params",
                         builder.getDenseI64ArrayAttr(request->params));
      builder.create(state);
    }
  }
  transform::YieldOp::create(builder, fileLoc);
  return module;
}

LogicalResult perfdojo::exportMoveScript(Operation *op, llvm::raw_ostream &os) {
  WalkResult result = op->walk([&](Operation *nested) {
    StringRef name = nested->getName().getStringRef();
    if (!name.consume_front(kMovePrefix) || name == "get_kernels")
      return WalkResult::advance();
    auto location = nested->getAttrOfType<StringAttr>("location");
    auto params = nested->getAttrOfType<DenseI64ArrayAttr>("params");
    if (!location) {
      nested->emitError("move op without a 'location'");
      return WalkResult::interrupt();
    }
    MoveRequest request{name.str(), location.str(), {}};
    if (params)
      request.params.assign(params.asArrayRef().begin(),
                            params.asArrayRef().end());
    os << request.str() << "\n";
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

void perfdojo::registerMoveScriptTranslations() {
  auto dialects = [](DialectRegistry &registry) {
    registry.insert<transform::TransformDialect, dojo::DojoDialect>();
    dojo::registerTransformDialectExtension(registry);
  };
  TranslateToMLIRRegistration toTransform(
      "moves-to-transform",
      "turn a move script into a Transform dialect sequence",
      [](llvm::SourceMgr &sourceMgr, MLIRContext *context) {
        return OwningOpRef<Operation *>(
            importMoveScript(sourceMgr, context).release());
      },
      dialects);
  registerCheckedTranslationFromMLIR(
      "transform-to-moves",
      "print the move script of a Transform dialect sequence",
      [](Operation *op, llvm::raw_ostream &os) {
        return exportMoveScript(op, os);
      },
      dialects);
}
