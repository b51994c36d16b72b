//===- TextSyntax.cpp - statement and buffer grammar ---------------------===//

#include "perfdojo/Dialect/Dojo/IR/TextSyntax.h"
#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace mlir;

namespace perfdojo {
using dojo::OpKind;
using dojo::ReduceKind;

std::optional<OpKind> lookupFunction(llvm::StringRef name) {
  // Every operation but the copy and the infix ones is spelled as a call
  // of its enum name: `exp(x)`, `max(a, b)`.
  std::optional<OpKind> kind = dojo::symbolizeOpKind(name);
  if (!kind || getFunctionName(*kind).empty())
    return std::nullopt;
  return kind;
}

llvm::StringRef getFunctionName(OpKind kind) {
  switch (kind) {
  case OpKind::copy:
  case OpKind::add:
  case OpKind::sub:
  case OpKind::mul:
  case OpKind::div:
    return {};
  default:
    return dojo::stringifyOpKind(kind);
  }
}

char getInfixSymbol(OpKind kind) {
  switch (kind) {
  case OpKind::add:
    return '+';
  case OpKind::sub:
    return '-';
  case OpKind::mul:
    return '*';
  case OpKind::div:
    return '/';
  default:
    return 0;
  }
}

llvm::StringRef getReduceSpelling(ReduceKind reduce) {
  switch (reduce) {
  case ReduceKind::none:
    return "";
  case ReduceKind::add:
    return "+";
  case ReduceKind::mul:
    return "*";
  case ReduceKind::max:
    return "max";
  case ReduceKind::min:
    return "min";
  }
  llvm_unreachable("unknown reduction");
}

llvm::StringRef getModeSuffix(dojo::Mode mode) {
  switch (mode) {
  case dojo::Mode::seq:
    return "";
  case dojo::Mode::unroll:
    return "u";
  case dojo::Mode::parallel:
    return "p";
  case dojo::Mode::vector:
    return "v";
  case dojo::Mode::gpu_grid:
    return "g";
  case dojo::Mode::gpu_block:
    return "b";
  case dojo::Mode::gpu_warp:
    return "w";
  case dojo::Mode::frep:
    return "f";
  }
  llvm_unreachable("unknown mode");
}

std::optional<dojo::Mode> symbolizeModeSuffix(llvm::StringRef suffix) {
  return llvm::StringSwitch<std::optional<dojo::Mode>>(suffix)
      .Case("u", dojo::Mode::unroll)
      .Case("p", dojo::Mode::parallel)
      .Case("v", dojo::Mode::vector)
      .Case("g", dojo::Mode::gpu_grid)
      .Case("b", dojo::Mode::gpu_block)
      .Case("w", dojo::Mode::gpu_warp)
      .Case("f", dojo::Mode::frep)
      .Default(std::nullopt);
}

void printBufferDecl(llvm::raw_ostream &os, dojo::BufferOp buffer) {
  os << buffer.getName() << " " << getElementTypeName(buffer.getElementType())
     << " [";
  for (unsigned d = 0, e = buffer.getRank(); d < e; ++d) {
    if (d)
      os << ", ";
    os << buffer.getShape()[d];
    if (buffer.getPadding()[d])
      os << "+" << buffer.getPadding()[d];
    if (buffer.getReused()[d])
      os << ":N";
  }
  os << "] " << dojo::stringifyBufferLocation(buffer.getLocation());
  if (buffer.getRole() != dojo::Role::internal)
    os << " " << dojo::stringifyRole(buffer.getRole());
  if (buffer.getNontemporal())
    os << " nontemporal";
  ArrayAttr arrays = buffer.getArrays();
  if (!arrays.empty()) {
    os << " -> ";
    llvm::interleaveComma(arrays, os, [&](Attribute a) {
      os << cast<StringAttr>(a).getValue();
    });
  }
}

void printScopeHeader(llvm::raw_ostream &os, dojo::ScopeOp scope) {
  os << scope.getSize();
  llvm::StringRef suffix = getModeSuffix(scope.getMode());
  if (!suffix.empty())
    os << ":" << suffix;
}

void printConstant(llvm::raw_ostream &os, double value) {
  if (std::isinf(value)) {
    os << (value < 0 ? "-inf" : "inf");
    return;
  }
  if (std::isnan(value)) {
    os << "nan";
    return;
  }
  char buf[64];
  // Integers print plainly (`720000`, not `7.2e5`) up to 2^63, so every
  // constant of an i64 statement reads as an integer; everything else as
  // the fewest "%g" digits that read back.
  if (value == std::trunc(value) && std::abs(value) <= 0x1.0p63) {
    std::snprintf(buf, sizeof(buf), "%.0f", value);
    os << (std::strcmp(buf, "-0") == 0 ? "-0.0" : buf);
    return;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, value);
    if (std::strtod(buf, nullptr) == value)
      break;
  }
  // Normalize the exponent (`e-05` -> `e-5`, `e+20` -> `e20`) and keep a
  // '.' before it: MLIR's lexer reads `1e5` as an integer and an identifier.
  llvm::StringRef text(buf);
  size_t e = text.find('e');
  if (e == llvm::StringRef::npos) {
    os << text;
    return;
  }
  llvm::StringRef mantissa = text.take_front(e);
  llvm::StringRef exponent = text.drop_front(e + 1);
  bool negative = exponent.consume_front("-");
  exponent.consume_front("+");
  exponent = exponent.ltrim('0');
  os << mantissa << (mantissa.contains('.') ? "" : ".0") << "e"
     << (negative ? "-" : "") << exponent;
}

void printOperand(llvm::raw_ostream &os, Attribute operand) {
  if (auto access = dyn_cast<dojo::AccessAttr>(operand)) {
    os << access.getArray().getValue();
    printIndexList(os, access.getIndices());
  } else if (auto index = dyn_cast<dojo::IndexValueAttr>(operand)) {
    AffineExpr e = index.getExpr().getResult(0);
    if (isa<AffineDimExpr>(e)) {
      printIndexExpr(os, e);
    } else {
      os << "(";
      printIndexExpr(os, e);
      os << ")";
    }
  } else if (auto constant = dyn_cast<FloatAttr>(operand)) {
    printConstant(os, constant.getValueAsDouble());
  } else {
    os << "<invalid operand " << operand << ">";
  }
}

void printStatement(llvm::raw_ostream &os, dojo::LeafOp leaf) {
  auto printMark = [&](unsigned position) {
    if (std::optional<unsigned> depth = leaf.getStreamDepth(position))
      os << ":s" << *depth;
  };
  os << leaf.getArray();
  printIndexList(os, leaf.getIndices());
  printMark(0);
  os << " " << getReduceSpelling(leaf.getReduce()) << "= ";
  ArrayRef<Attribute> inputs = leaf.getInputs().getValue();
  auto printInput = [&](unsigned i) {
    printOperand(os, inputs[i]);
    printMark(i + 1);
  };
  OpKind kind = leaf.getKind();
  if (char symbol = getInfixSymbol(kind); symbol && inputs.size() == 2) {
    printInput(0);
    os << " " << symbol << " ";
    printInput(1);
    return;
  }
  if (kind == OpKind::copy && inputs.size() == 1) {
    printInput(0);
    return;
  }
  os << dojo::stringifyOpKind(kind) << "(";
  llvm::interleaveComma(llvm::seq<unsigned>(0, inputs.size()), os,
                        [&](unsigned i) { printInput(i); });
  os << ")";
}

//===----------------------------------------------------------------------===//
// MLIRAsmSource
//===----------------------------------------------------------------------===//

bool MLIRAsmSource::consumeIf(char c) {
  mark();
  switch (c) {
  case '[':
    return succeeded(parser.parseOptionalLSquare());
  case ']':
    return succeeded(parser.parseOptionalRSquare());
  case '{':
    return succeeded(parser.parseOptionalLBrace());
  case '}':
    return succeeded(parser.parseOptionalRBrace());
  case '(':
    return succeeded(parser.parseOptionalLParen());
  case ')':
    return succeeded(parser.parseOptionalRParen());
  case ',':
    return succeeded(parser.parseOptionalComma());
  case '=':
    return succeeded(parser.parseOptionalEqual());
  case '+':
    return succeeded(parser.parseOptionalPlus());
  case '-':
    return succeeded(parser.parseOptionalMinus());
  case '*':
    return succeeded(parser.parseOptionalStar());
  case '/':
    return succeeded(parser.parseOptionalSlash());
  case ':':
    return succeeded(parser.parseOptionalColon());
  default:
    llvm_unreachable("punctuation not used by the statement grammar");
  }
}

OptionalParseResult MLIRAsmSource::parseOptionalInteger(int64_t &value) {
  // Callers consume '-' themselves, so a negative literal here is an error.
  mark();
  OptionalParseResult result = parser.parseOptionalInteger(value);
  if (!result.has_value() || failed(*result))
    return result;
  if (value < 0) {
    emitErrorAtLastToken("unexpected negative integer");
    return failure();
  }
  return success();
}

bool MLIRAsmSource::parseOptionalIdentifier(std::string &name) {
  mark();
  StringRef keyword;
  if (failed(parser.parseOptionalKeyword(&keyword)))
    return false;
  name = keyword.str();
  return true;
}

bool MLIRAsmSource::parseNumber(double &value) {
  // MLIR's float parser rejects integer literals; constants like `0` are
  // the common case here.
  APInt integer;
  OptionalParseResult asInteger = parser.parseOptionalInteger(integer);
  if (asInteger.has_value()) {
    if (failed(*asInteger))
      return false;
    // The literal may be wider than 64 bits (`100000000000000000000`);
    // round it to the nearest double as strtod does for `.dojo` text.
    APFloat converted(APFloat::IEEEdouble());
    converted.convertFromAPInt(integer, /*IsSigned=*/true,
                               APFloat::rmNearestTiesToEven);
    value = converted.convertToDouble();
    return true;
  }
  return succeeded(parser.parseFloat(value));
}

bool MLIRAsmSource::parseOptionalKeywordIn(
    std::string &word, llvm::ArrayRef<llvm::StringRef> allowed) {
  mark();
  StringRef keyword;
  if (failed(parser.parseOptionalKeyword(&keyword, allowed)))
    return false;
  word = keyword.str();
  return true;
}

bool MLIRAsmSource::consumeArrow() {
  return succeeded(parser.parseOptionalArrow());
}

bool MLIRAsmSource::parseElementType(Type &type) {
  // `bool` is the IR's spelling of i1, which MLIR's type grammar lacks.
  if (succeeded(parser.parseOptionalKeyword("bool"))) {
    type = lookupElementType("bool", parser.getContext());
    return true;
  }
  return succeeded(parser.parseType(type));
}

bool MLIRAsmSource::emitError(const llvm::Twine &msg) {
  parser.emitError(parser.getCurrentLocation(), msg);
  return false;
}

bool MLIRAsmSource::emitErrorAtLastToken(const llvm::Twine &msg) {
  return emitErrorAt(lastToken, msg);
}

bool MLIRAsmSource::emitErrorAt(llvm::SMLoc loc, const llvm::Twine &msg) {
  parser.emitError(loc, msg);
  return false;
}

} // namespace perfdojo

std::string perfdojo::getStatementText(dojo::LeafOp leaf) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printStatement(os, leaf);
  return text;
}
