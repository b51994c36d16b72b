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

bool perfdojo::isComparison(OpKind kind) {
  switch (kind) {
  case OpKind::eq:
  case OpKind::ne:
  case OpKind::lt:
  case OpKind::le:
  case OpKind::gt:
  case OpKind::ge:
    return true;
  default:
    return false;
  }
}

Type perfdojo::getComparedType(
    LeafOp leaf, llvm::function_ref<Type(llvm::StringRef)> elementTypeOf) {
  if (!isComparison(leaf.getKind()))
    return Type();
  bool hasIndexValue = false;
  for (Attribute input : leaf.getInputs()) {
    if (auto access = dyn_cast<AccessAttr>(input))
      return elementTypeOf(access.getArray().getValue());
    hasIndexValue |= isa<IndexValueAttr>(input);
  }
  Builder b(leaf.getContext());
  return hasIndexValue ? Type(b.getI64Type()) : Type(b.getF64Type());
}

Type perfdojo::getOperandType(OpKind kind, unsigned operand, Type output,
                              Type compared) {
  if (isComparison(kind))
    return compared;
  if (kind == OpKind::select && operand == 0)
    return IntegerType::get(output.getContext(), 1);
  return output;
}

std::optional<std::string>
perfdojo::findComparisonTypeViolation(OpKind kind, Type compared) {
  if (isBoolType(compared) && kind != OpKind::eq && kind != OpKind::ne)
    return "'" + getFunctionName(kind).str() +
           "' has no meaning on bool (bool operands compare with eq and ne)";
  return std::nullopt;
}

std::optional<std::string>
perfdojo::findOperationTypeViolation(OpKind kind, ReduceKind reduce,
                                     Type type) {
  if (isComparison(kind) || kind == OpKind::select) {
    if (reduce != ReduceKind::none)
      return "'" + getFunctionName(kind).str() +
             "' does not reduce (a comparison or select writes its value; "
             "reduce the array it writes)";
    if (isComparison(kind) && !isBoolType(type))
      return "'" + getFunctionName(kind).str() + "' gives a bool";
    return std::nullopt;
  }
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
  if (needsFloatType(kind))
    return "'" + getOperationSpelling(kind) +
           "' needs a floating-point element type";
  return std::nullopt;
}

bool perfdojo::isConversionStatement(OpKind kind, ReduceKind reduce) {
  return kind == OpKind::copy && reduce == ReduceKind::none;
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
