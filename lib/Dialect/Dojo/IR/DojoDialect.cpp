//===- DojoDialect.cpp - dojo dialect registration and attributes --------===//

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/IR/TextSyntax.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

#include "perfdojo/Dialect/Dojo/IR/DojoOpsDialect.cpp.inc"

#include "perfdojo/Dialect/Dojo/IR/DojoEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "perfdojo/Dialect/Dojo/IR/DojoAttrs.cpp.inc"

void DojoDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "perfdojo/Dialect/Dojo/IR/DojoOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "perfdojo/Dialect/Dojo/IR/DojoAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// #dojo.access<x[{0}, {1}*2]>
//===----------------------------------------------------------------------===//

Attribute AccessAttr::parse(AsmParser &parser, Type) {
  MLIRAsmSource src(parser);
  TextParser<MLIRAsmSource> grammar(src, std::nullopt);
  std::string name;
  SmallVector<AffineExpr, 4> indices;
  if (parser.parseLess())
    return {};
  if (!src.parseOptionalIdentifier(name)) {
    src.emitError("expected an array name");
    return {};
  }
  if (!grammar.parseIndexList(indices) || parser.parseGreater())
    return {};
  MLIRContext *ctx = parser.getContext();
  return AccessAttr::get(ctx, StringAttr::get(ctx, name),
                         makeIndexMap(indices, ctx));
}

void AccessAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printOperand(printer.getStream(), *this);
  printer << ">";
}

//===----------------------------------------------------------------------===//
// #dojo.index<({0}*24+{1})>
//===----------------------------------------------------------------------===//

Attribute IndexValueAttr::parse(AsmParser &parser, Type) {
  MLIRAsmSource src(parser);
  TextParser<MLIRAsmSource> grammar(src, std::nullopt);
  AffineExpr expr;
  if (parser.parseLess() || parser.parseLParen() || !grammar.parseIndex(expr) ||
      parser.parseRParen() || parser.parseGreater())
    return {};
  return IndexValueAttr::get(parser.getContext(),
                             makeIndexMap(expr, parser.getContext()));
}

void IndexValueAttr::print(AsmPrinter &printer) const {
  printer << "<(";
  printIndexExpr(printer.getStream(), getExpr().getResult(0));
  printer << ")>";
}
