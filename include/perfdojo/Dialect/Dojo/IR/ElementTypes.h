//===- ElementTypes.h - element types of the IR and their rules -*- C++ -*-===//
//
// The one statement of what element types the IR has, how `.dojo` spells
// them, and which statements each type gives a value to (docs/ir.md,
// "Numbers"): the verifier rejects what these functions reject, the
// lowerings and the interpreter execute what they accept, and the moves
// take reduction identities from here.
//
//   floats   f16 bf16 f32 f64   IEEE arithmetic, every operation rounds to
//                               the type
//   integers i8 i16 i32 i64     two's complement; + - * wrap, / truncates
//   bool     (i1 in MLIR)       0 = false, 1 = true; `*` and min are and,
//                               max is or
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_DIALECT_DOJO_IR_ELEMENTTYPES_H
#define PERFDOJO_DIALECT_DOJO_IR_ELEMENTTYPES_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>

namespace perfdojo {

/// f16, bf16, f32, f64, i8, i16, i32, i64 or bool (i1).
bool isSupportedElementType(mlir::Type type);
/// The list of element types for messages: "f16, bf16, ..., i64 or bool".
llvm::StringRef getSupportedElementTypeList();

/// The bool type: a signless i1.
bool isBoolType(mlir::Type type);
/// i8, i16, i32 or i64 (bool is not an integer type of the IR).
bool isIntegerElementType(mlir::Type type);

/// The `.dojo` spelling of a supported type (`f32`, `i64`, `bool`); the
/// MLIR spelling for any other type.
std::string getElementTypeName(mlir::Type type);
/// The type spelled `name` in `.dojo` text, or null.
mlir::Type lookupElementType(llvm::StringRef name, mlir::MLIRContext *ctx);

/// Whether `kind` is a transcendental function (exp, log, sqrt, rsqrt,
/// tanh, sigmoid, the trigonometric and hyperbolic functions and their
/// inverses, erf). Constexpr: the interpreter instantiates its typed loops
/// by it.
constexpr bool isTranscendental(dojo::OpKind kind) {
  using dojo::OpKind;
  switch (kind) {
  case OpKind::exp:
  case OpKind::log:
  case OpKind::sqrt:
  case OpKind::rsqrt:
  case OpKind::tanh:
  case OpKind::sigmoid:
  case OpKind::sin:
  case OpKind::cos:
  case OpKind::tan:
  case OpKind::asin:
  case OpKind::acos:
  case OpKind::atan:
  case OpKind::sinh:
  case OpKind::cosh:
  case OpKind::asinh:
  case OpKind::acosh:
  case OpKind::atanh:
  case OpKind::erf:
    return true;
  default:
    return false;
  }
}
/// Whether `kind` is defined on floating-point element types only: the
/// transcendental functions and the roundings floor, ceil and round.
constexpr bool needsFloatType(dojo::OpKind kind) {
  return isTranscendental(kind) || kind == dojo::OpKind::floor ||
         kind == dojo::OpKind::ceil || kind == dojo::OpKind::round;
}

/// Whether `kind` is a comparison (eq, ne, lt, le, gt, ge): two operands
/// of one type, the compared type, and a bool result.
bool isComparison(dojo::OpKind kind);

/// The type a comparison leaf compares in: the element type of its array
/// operands (`elementTypeOf` gives an array's), i64 when it has none but
/// an index value, f64 when it compares constants only. Null for any
/// other leaf.
mlir::Type getComparedType(dojo::LeafOp leaf,
                           llvm::function_ref<mlir::Type(llvm::StringRef)>
                               elementTypeOf);

/// The element type operand `operand` of a `kind` statement computes in
/// (docs/ir.md, "Comparisons and selects"): a comparison's operands the
/// compared type, select's condition (operand 0) bool, every other operand
/// the output's type `output`. (A conversion, isConversionStatement, reads
/// an array of any type and converts it to `output`.)
mlir::Type getOperandType(dojo::OpKind kind, unsigned operand,
                          mlir::Type output, mlir::Type compared);

/// Why a comparison `kind` has no value on operands of type `compared`
/// ("'lt' has no meaning on bool ..."); nullopt when it has one.
std::optional<std::string> findComparisonTypeViolation(dojo::OpKind kind,
                                                       mlir::Type compared);

/// Why a statement `kind` (with reduction `reduce`) has no value in element
/// type `type`, naming the operation ("'exp' needs a floating-point element
/// type"); nullopt when it has one. `type` is the output's: a comparison
/// gives bool, and comparisons and selects do not reduce.
std::optional<std::string> findOperationTypeViolation(dojo::OpKind kind,
                                                      dojo::ReduceKind reduce,
                                                      mlir::Type type);

/// Whether a `kind` statement with reduction `reduce` may read an array of
/// another element type than its output's: only a plain copy `y = x`, the
/// IR's conversion (docs/ir.md, "Conversions"; convertElement in
/// Runtime/ElementConversion.h and emitElementConversion in the lowering
/// implement it). Every other statement reads arrays of its output's type.
bool isConversionStatement(dojo::OpKind kind, dojo::ReduceKind reduce);

/// Why the constant `value`, operand `operand` of a `kind` statement, is no
/// value of `type`, as a message ("constant operand 1 (128) is out of the
/// range of 'i8'"); nullopt when it is one. Integer and bool constants are
/// exact integers in the type's range (bool: 0 or 1), an integer division
/// by the constant 0 has no value, a finite float literal must not round to
/// infinity.
std::optional<std::string> findConstantViolation(double value, mlir::Type type,
                                                 dojo::OpKind kind,
                                                 unsigned operand);

/// Why an index value operand (`{k}`, `(index)`) has no value in `type`,
/// to follow "index value operand j " (bool: an index is no truth value);
/// nullopt when it has one.
std::optional<std::string> findIndexValueViolation(mlir::Type type);

/// The identity of reduction `kind` in `type`, as the constant a leaf
/// would write: 0 for `+=`, 1 for `*=`, -inf/inf (floats), the type's
/// minimum/maximum (integers) or false/true (bool) for `max=`/`min=`.
/// nullopt where the identity is no constant of the IR (the maximum of i64,
/// 2^63 - 1, has no f64 spelling).
std::optional<double> getReductionIdentity(dojo::ReduceKind kind,
                                           mlir::Type type);

} // namespace perfdojo

#endif // PERFDOJO_DIALECT_DOJO_IR_ELEMENTTYPES_H
