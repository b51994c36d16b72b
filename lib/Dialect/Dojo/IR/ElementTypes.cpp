//===- ElementTypes.cpp - the element types of the IR and their rules -----===//

#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Dialect/Dojo/IR/TextSyntax.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

bool perfdojo::isBoolType(Type type) { return type.isSignlessInteger(1); }

bool perfdojo::isIntegerElementType(Type type) {
  return type.isSignlessInteger(8) || type.isSignlessInteger(16) ||
         type.isSignlessInteger(32) || type.isSignlessInteger(64);
}

bool perfdojo::isSupportedElementType(Type type) {
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64() ||
         isIntegerElementType(type) || isBoolType(type);
}

llvm::StringRef perfdojo::getSupportedElementTypeList() {
  return "f16, bf16, f32, f64, i8, i16, i32, i64 or bool";
}

std::string perfdojo::getElementTypeName(Type type) {
  if (isBoolType(type))
    return "bool";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

Type perfdojo::lookupElementType(llvm::StringRef name, MLIRContext *ctx) {
  Builder b(ctx);
  return llvm::StringSwitch<Type>(name)
      .Case("f16", b.getF16Type())
      .Case("bf16", b.getBF16Type())
      .Case("f32", b.getF32Type())
      .Case("f64", b.getF64Type())
      .Case("i8", b.getI8Type())
      .Case("i16", b.getI16Type())
      .Case("i32", b.getI32Type())
      .Case("i64", b.getI64Type())
      .Case("bool", b.getI1Type())
      .Default(Type());
}

/// How a statement spells `kind`: `exp`, `+`, or `=` for a copy.
static std::string getOperationSpelling(OpKind kind) {
  if (char infix = getInfixSymbol(kind))
    return std::string(1, infix);
  if (kind == OpKind::copy)
    return "=";
  return getFunctionName(kind).str();
}

std::optional<std::string>
perfdojo::findOperationTypeViolation(OpKind kind, ReduceKind reduce,
                                     Type type) {
  if (isa<FloatType>(type))
    return std::nullopt;
  if (isBoolType(type)) {
    // Bool is a truth value, not a number: only the operations that are
    // logical connectives on {0, 1} have a meaning.
    bool operationOk = kind == OpKind::copy || kind == OpKind::mul ||
                       kind == OpKind::max || kind == OpKind::min;
    if (!operationOk)
      return "'" + getOperationSpelling(kind) +
             "' has no meaning on bool (bool statements copy, and with '*' "
             "or min, or with max)";
    if (reduce == ReduceKind::add)
      return std::string("'+=' has no meaning on bool (bool statements "
                         "reduce with '*=' or 'min=' (and), 'max=' (or))");
    return std::nullopt;
  }
  if (isTranscendental(kind))
    return "'" + getOperationSpelling(kind) +
           "' needs a floating-point element type";
  return std::nullopt;
}

bool perfdojo::isConversionStatement(OpKind kind, ReduceKind reduce) {
  return kind == OpKind::copy && reduce == ReduceKind::none;
}

bool perfdojo::isTranscendental(OpKind kind) {
  switch (kind) {
  case OpKind::exp:
  case OpKind::log:
  case OpKind::sqrt:
  case OpKind::rsqrt:
  case OpKind::tanh:
  case OpKind::sigmoid:
    return true;
  default:
    return false;
  }
}

std::optional<std::string> perfdojo::findConstantViolation(double value,
                                                           Type type,
                                                           OpKind kind,
                                                           unsigned operand) {
  std::string name = "'" + getElementTypeName(type) + "'";
  auto bad = [&](llvm::StringRef why) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "constant operand " << operand << " (";
    printConstant(os, value);
    os << ") " << why << " " << name;
    return text;
  };
  if (isa<IntegerType>(type)) {
    double lo = 0, hi = 2; // bool: 0 and 1
    if (!isBoolType(type)) {
      unsigned width = type.getIntOrFloatBitWidth();
      lo = -std::ldexp(1.0, width - 1);
      hi = std::ldexp(1.0, width - 1);
    }
    if (!std::isfinite(value) || value != std::trunc(value))
      return bad("is not an integer, as the statement computes in");
    if (value < lo || value >= hi)
      return bad("is out of the range of");
    if (kind == OpKind::div && operand == 1 && value == 0)
      return "divides by the constant 0 in " + name + ", which has no value";
    return std::nullopt;
  }
  if (auto floatType = dyn_cast<FloatType>(type)) {
    if (!std::isfinite(value))
      return std::nullopt;
    llvm::APFloat converted(value);
    bool losesInfo;
    llvm::APFloat::opStatus status =
        converted.convert(floatType.getFloatSemantics(),
                          llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    if (status & llvm::APFloat::opOverflow)
      return bad("overflows to infinity in");
  }
  return std::nullopt;
}

std::optional<std::string> perfdojo::findIndexValueViolation(Type type) {
  if (isBoolType(type))
    return std::string("is no value of bool (an index is not a truth value)");
  return std::nullopt;
}

std::optional<double> perfdojo::getReductionIdentity(ReduceKind kind,
                                                     Type type) {
  switch (kind) {
  case ReduceKind::none:
    return std::nullopt;
  case ReduceKind::add:
    if (isBoolType(type))
      return std::nullopt;
    return 0.0;
  case ReduceKind::mul:
    return 1.0;
  case ReduceKind::max:
  case ReduceKind::min: {
    bool max = kind == ReduceKind::max;
    if (isa<FloatType>(type))
      return max ? -INFINITY : INFINITY;
    if (isBoolType(type))
      return max ? 0.0 : 1.0;
    unsigned width = type.getIntOrFloatBitWidth();
    // The maximum 2^(w-1) - 1 is no double for w = 64.
    if (max)
      return -std::ldexp(1.0, width - 1);
    if (width > 53)
      return std::nullopt;
    return std::ldexp(1.0, width - 1) - 1;
  }
  }
  return std::nullopt;
}
