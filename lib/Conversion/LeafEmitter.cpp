//===- LeafEmitter.cpp - one leaf's computation, for every target ---------===//
//
// Leaves compute in the output's element type with the interpreter's
// formulas; inside a `:v` scope the same code runs on vectors of the
// scope's width. Shared by the CPU and GPU lowerings (LeafEmitter.h).
//
//===----------------------------------------------------------------------===//

#include "LeafEmitter.h"
#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Dialect/Dojo/IR/PhysicalLayout.h"
#include "perfdojo/Dialect/Dojo/IR/TargetDescription.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

namespace {

//===----------------------------------------------------------------------===//
// Scalar semantics shared by scalar and vector code.
//===----------------------------------------------------------------------===//

/// Leaf multiplies and the additions that consume them may be contracted
/// into fused multiply-adds (one rounding instead of two, as C compilers do
/// by default within an expression); results stay within the validation
/// tolerance, which assumes one rounding error per operation at most.
constexpr arith::FastMathFlags kContract = arith::FastMathFlags::contract;

bool isFloatLike(Type type) {
  return isa<FloatType>(getElementTypeOrSelf(type));
}

/// The constant `attr` of `type`'s element type, splat when `type` is a
/// vector.
Value emitSplatConstant(OpBuilder &b, Location loc, Type type, TypedAttr attr) {
  if (auto vec = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc, vec,
                                     SplatElementsAttr::get(vec, attr));
  return arith::ConstantOp::create(b, loc, attr);
}

Value emitConstant(OpBuilder &b, Location loc, Type type, double value) {
  Type elem = getElementTypeOrSelf(type);
  if (auto f = dyn_cast<FloatType>(elem))
    return emitSplatConstant(b, loc, type, b.getFloatAttr(f, value));
  return emitSplatConstant(b, loc, type,
                           b.getIntegerAttr(elem, static_cast<int64_t>(value)));
}

/// `a < b ? b : a`, the interpreter's max (and min with operands swapped).
Value emitSelectGreater(OpBuilder &b, Location loc, Value a, Value bv) {
  Value less =
      isFloatLike(a.getType())
          ? arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, a, bv)
                .getResult()
          : arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, a, bv)
                .getResult();
  return arith::SelectOp::create(b, loc, less, bv, a);
}
Value emitSelectLess(OpBuilder &b, Location loc, Value a, Value bv) {
  Value less =
      isFloatLike(a.getType())
          ? arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, bv, a)
                .getResult()
          : arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, bv, a)
                .getResult();
  return arith::SelectOp::create(b, loc, less, bv, a);
}

/// `a / d` truncating, with the IR's values where the hardware traps
/// (docs/ir.md, "Numbers"): `a / 0 = 0` and `MIN / -1 = MIN` (the wrapped
/// quotient, `0 - a`). The divisor is replaced by 1 in those cases, so the
/// division itself never traps.
Value emitIntegerDivision(OpBuilder &b, Location loc, Value a, Value d) {
  Type type = a.getType();
  Value zero = emitConstant(b, loc, type, 0);
  Value one = emitConstant(b, loc, type, 1);
  Value minusOne = emitConstant(b, loc, type, -1);
  Value isZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d, zero);
  Value isMinusOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d, minusOne);
  Value special = arith::OrIOp::create(b, loc, isZero, isMinusOne);
  Value safe = arith::SelectOp::create(b, loc, special, one, d);
  Value quotient = arith::DivSIOp::create(b, loc, a, safe);
  Value negated = arith::SubIOp::create(b, loc, zero, a);
  Value result = arith::SelectOp::create(b, loc, isMinusOne, negated, quotient);
  return arith::SelectOp::create(b, loc, isZero, zero, result);
}

/// -1, 0 or 1 by the sign of `a`; a float -0, +0 or NaN is its own sign
/// (the interpreter's `compute`).
Value emitSign(OpBuilder &b, Location loc, Value a) {
  Type type = a.getType();
  Value zero = emitConstant(b, loc, type, 0);
  bool fp = isFloatLike(type);
  auto compare = [&](bool greater) -> Value {
    if (fp)
      return arith::CmpFOp::create(b, loc,
                                   greater ? arith::CmpFPredicate::OGT
                                           : arith::CmpFPredicate::OLT,
                                   a, zero);
    return arith::CmpIOp::create(
        b, loc, greater ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt,
        a, zero);
  };
  Value rest = fp ? a : zero;
  Value negative = arith::SelectOp::create(
      b, loc, compare(false), emitConstant(b, loc, type, -1), rest);
  return arith::SelectOp::create(b, loc, compare(true),
                                 emitConstant(b, loc, type, 1), negative);
}

/// Bool values are bytes holding 0 or 1 (see `getStorageElementType`); the
/// operations bool has (ElementTypes.h) are the bitwise and and or.
Value emitBoolCompute(OpBuilder &b, Location loc, bool isOr, Value a, Value x) {
  return isOr ? arith::OrIOp::create(b, loc, a, x).getResult()
              : arith::AndIOp::create(b, loc, a, x).getResult();
}

/// A comparison of `a` and `x` (of the compared type) as a bool byte:
/// floats ordered (NaN compares unequal, and false but for ne), integers
/// signed.
Value emitComparison(OpBuilder &b, Location loc, OpKind kind, Value a,
                     Value x) {
  Value truth;
  if (isFloatLike(a.getType())) {
    arith::CmpFPredicate predicate =
        kind == OpKind::eq   ? arith::CmpFPredicate::OEQ
        : kind == OpKind::ne ? arith::CmpFPredicate::UNE
        : kind == OpKind::lt ? arith::CmpFPredicate::OLT
        : kind == OpKind::le ? arith::CmpFPredicate::OLE
        : kind == OpKind::gt ? arith::CmpFPredicate::OGT
                             : arith::CmpFPredicate::OGE;
    truth = arith::CmpFOp::create(b, loc, predicate, a, x);
  } else {
    arith::CmpIPredicate predicate =
        kind == OpKind::eq   ? arith::CmpIPredicate::eq
        : kind == OpKind::ne ? arith::CmpIPredicate::ne
        : kind == OpKind::lt ? arith::CmpIPredicate::slt
        : kind == OpKind::le ? arith::CmpIPredicate::sle
        : kind == OpKind::gt ? arith::CmpIPredicate::sgt
                             : arith::CmpIPredicate::sge;
    truth = arith::CmpIOp::create(b, loc, predicate, a, x);
  }
  Type byte = IntegerType::get(b.getContext(), 8);
  if (auto vec = dyn_cast<VectorType>(a.getType()))
    byte = VectorType::get(vec.getShape(), byte);
  return arith::ExtUIOp::create(b, loc, byte, truth);
}

FailureOr<Value> emitCompute(OpBuilder &b, LeafOp leaf, OpKind kind,
                             ArrayRef<Value> args, bool isBool) {
  Location loc = leaf.getLoc();
  Value a = args[0];
  Value x = args.size() > 1 ? args[1] : Value();
  if (isComparison(kind))
    return emitComparison(b, loc, kind, a, x);
  if (kind == OpKind::select) {
    // The condition is a bool byte: 0 or 1.
    Value truth = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, a,
                                        emitConstant(b, loc, a.getType(), 0));
    return arith::SelectOp::create(b, loc, truth, x, args[2]).getResult();
  }
  bool fp = isFloatLike(a.getType());
  Type type = a.getType();
  if (isBool &&
      (kind == OpKind::mul || kind == OpKind::max || kind == OpKind::min))
    return emitBoolCompute(b, loc, kind == OpKind::max, a, x);
  switch (kind) {
  case OpKind::copy:
    return a;
  case OpKind::add:
    return fp ? arith::AddFOp::create(b, loc, a, x, kContract).getResult()
              : arith::AddIOp::create(b, loc, a, x).getResult();
  case OpKind::sub:
    return fp ? arith::SubFOp::create(b, loc, a, x, kContract).getResult()
              : arith::SubIOp::create(b, loc, a, x).getResult();
  case OpKind::mul:
    return fp ? arith::MulFOp::create(b, loc, a, x, kContract).getResult()
              : arith::MulIOp::create(b, loc, a, x).getResult();
  case OpKind::div:
    return fp ? arith::DivFOp::create(b, loc, a, x).getResult()
              : emitIntegerDivision(b, loc, a, x);
  case OpKind::max:
    return emitSelectGreater(b, loc, a, x);
  case OpKind::min:
    return emitSelectLess(b, loc, a, x);
  case OpKind::neg:
    return fp ? arith::NegFOp::create(b, loc, a).getResult()
              : arith::SubIOp::create(b, loc, emitConstant(b, loc, type, 0), a)
                    .getResult();
  case OpKind::abs:
    return fp ? math::AbsFOp::create(b, loc, a).getResult()
              : math::AbsIOp::create(b, loc, a).getResult();
  case OpKind::relu: {
    Value zero = emitConstant(b, loc, type, 0);
    Value positive =
        fp ? arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, a, zero)
                 .getResult()
           : arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, a, zero)
                 .getResult();
    return arith::SelectOp::create(b, loc, positive, a, zero).getResult();
  }
  case OpKind::sign:
    return emitSign(b, loc, a);
  default:
    break;
  }
  // The verifier rejects these already (ElementTypes.h); this guards
  // kernels lowered without verification.
  if (!fp)
    return leaf.emitOpError(*findOperationTypeViolation(
               kind, ReduceKind::none, getElementTypeOrSelf(type)))
           << ", but the leaf computes in " << getElementTypeOrSelf(type);
  switch (kind) {
  case OpKind::exp:
    return math::ExpOp::create(b, loc, a).getResult();
  case OpKind::log:
    return math::LogOp::create(b, loc, a).getResult();
  case OpKind::sqrt:
    return math::SqrtOp::create(b, loc, a).getResult();
  case OpKind::rsqrt:
    return arith::DivFOp::create(b, loc, emitConstant(b, loc, type, 1),
                                 math::SqrtOp::create(b, loc, a))
        .getResult();
  case OpKind::tanh:
    return math::TanhOp::create(b, loc, a).getResult();
  case OpKind::sin:
    return math::SinOp::create(b, loc, a).getResult();
  case OpKind::cos:
    return math::CosOp::create(b, loc, a).getResult();
  case OpKind::tan:
    return math::TanOp::create(b, loc, a).getResult();
  case OpKind::asin:
    return math::AsinOp::create(b, loc, a).getResult();
  case OpKind::acos:
    return math::AcosOp::create(b, loc, a).getResult();
  case OpKind::atan:
    return math::AtanOp::create(b, loc, a).getResult();
  case OpKind::sinh:
    return math::SinhOp::create(b, loc, a).getResult();
  case OpKind::cosh:
    return math::CoshOp::create(b, loc, a).getResult();
  case OpKind::asinh:
    return math::AsinhOp::create(b, loc, a).getResult();
  case OpKind::acosh:
    return math::AcoshOp::create(b, loc, a).getResult();
  case OpKind::atanh:
    return math::AtanhOp::create(b, loc, a).getResult();
  case OpKind::erf:
    return math::ErfOp::create(b, loc, a).getResult();
  case OpKind::floor:
    return math::FloorOp::create(b, loc, a).getResult();
  case OpKind::ceil:
    return math::CeilOp::create(b, loc, a).getResult();
  case OpKind::round:
    return math::RoundEvenOp::create(b, loc, a).getResult();
  case OpKind::sigmoid: {
    Value one = emitConstant(b, loc, type, 1);
    Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, a));
    return arith::DivFOp::create(b, loc, one,
                                 arith::AddFOp::create(b, loc, one, e))
        .getResult();
  }
  default:
    llvm_unreachable("handled above");
  }
}

/// `acc op= v` with the interpreter's combine formulas.
Value emitCombine(OpBuilder &b, Location loc, ReduceKind kind, Value acc,
                  Value v, bool isBool) {
  bool fp = isFloatLike(v.getType());
  if (isBool && kind != ReduceKind::none)
    return emitBoolCompute(b, loc, kind == ReduceKind::max, acc, v);
  switch (kind) {
  case ReduceKind::none:
    return v;
  case ReduceKind::add:
    return fp ? arith::AddFOp::create(b, loc, acc, v, kContract).getResult()
              : arith::AddIOp::create(b, loc, acc, v).getResult();
  case ReduceKind::mul:
    return fp ? arith::MulFOp::create(b, loc, acc, v, kContract).getResult()
              : arith::MulIOp::create(b, loc, acc, v).getResult();
  case ReduceKind::max:
    return emitSelectGreater(b, loc, acc, v);
  case ReduceKind::min:
    return emitSelectLess(b, loc, acc, v);
  }
  llvm_unreachable("unknown reduction");
}

vector::CombiningKind getCombiningKind(ReduceKind kind, bool fp, bool isBool) {
  if (isBool)
    return kind == ReduceKind::max ? vector::CombiningKind::OR
                                   : vector::CombiningKind::AND;
  switch (kind) {
  case ReduceKind::mul:
    return vector::CombiningKind::MUL;
  case ReduceKind::max:
    return fp ? vector::CombiningKind::MAXNUMF : vector::CombiningKind::MAXSI;
  case ReduceKind::min:
    return fp ? vector::CombiningKind::MINNUMF : vector::CombiningKind::MINSI;
  default:
    return vector::CombiningKind::ADD;
  }
}

/// Converts a scalar or vector value to element type `elem`.
Value emitConvert(OpBuilder &b, Location loc, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  Type fe = getElementTypeOrSelf(from), te = getElementTypeOrSelf(to);
  if (isa<FloatType>(fe) && isa<FloatType>(te))
    return fe.getIntOrFloatBitWidth() < te.getIntOrFloatBitWidth()
               ? arith::ExtFOp::create(b, loc, to, v).getResult()
               : arith::TruncFOp::create(b, loc, to, v).getResult();
  if (isa<FloatType>(te))
    return arith::SIToFPOp::create(b, loc, to, v);
  if (isa<FloatType>(fe))
    return arith::FPToSIOp::create(b, loc, to, v);
  return fe.getIntOrFloatBitWidth() < te.getIntOrFloatBitWidth()
             ? arith::ExtSIOp::create(b, loc, to, v).getResult()
             : arith::TruncIOp::create(b, loc, to, v).getResult();
}

/// An integer constant of `type` (scalar or vector) with bits `value`.
Value emitIntegerConstant(OpBuilder &b, Location loc, Type type,
                          const APInt &value) {
  return emitSplatConstant(
      b, loc, type, b.getIntegerAttr(getElementTypeOrSelf(type), value));
}

/// The IR's conversion (docs/ir.md, "Conversions"; the interpreter's is
/// Runtime/ElementConversion.h) of `v`, loaded from an array of IR type
/// `from`, to IR type `to`, as a value of type `result` (`to`'s storage
/// type, scalar or vector).
Value emitElementConversion(OpBuilder &b, Location loc, Value v, Type from,
                            Type to, Type result) {
  if (from == to)
    return emitConvert(b, loc, v, result);
  Type vType = v.getType();
  if (isBoolType(to)) {
    // Not 0 (NaN is not 0), as a byte.
    Value zero = emitConstant(b, loc, vType, 0);
    Value nonzero =
        isFloatLike(vType)
            ? arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v, zero)
                  .getResult()
            : arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, zero)
                  .getResult();
    return arith::ExtUIOp::create(b, loc, result, nonzero);
  }
  if (!isFloatLike(vType) || isFloatLike(result))
    // Floats round, integers wrap or extend; a bool byte is 0 or 1.
    return emitConvert(b, loc, v, result);
  // Float to integer: truncate; NaN is 0; at or beyond +-2^(w-1), the
  // type's extremes (fptosi alone would be poison there). A bound the
  // float type cannot hold is +-inf, which the comparisons handle alike.
  unsigned w = getElementTypeOrSelf(result).getIntOrFloatBitWidth();
  double limit = std::ldexp(1.0, int(w) - 1);
  Value converted = arith::FPToSIOp::create(b, loc, result, v);
  Value high = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, v,
                                     emitConstant(b, loc, vType, limit));
  Value low = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, v,
                                    emitConstant(b, loc, vType, -limit));
  Value nan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
  converted = arith::SelectOp::create(
      b, loc, high,
      emitIntegerConstant(b, loc, result, APInt::getSignedMaxValue(w)),
      converted);
  converted = arith::SelectOp::create(
      b, loc, low,
      emitIntegerConstant(b, loc, result, APInt::getSignedMinValue(w)),
      converted);
  return arith::SelectOp::create(
      b, loc, nan, emitIntegerConstant(b, loc, result, APInt(w, 0)),
      converted);
}

/// Converts an `index` (or vector of index) value to element type `elem`.
Value emitIndexToElement(OpBuilder &b, Location loc, Value v, Type elem) {
  Type i64 = b.getI64Type();
  Type asI64 = i64, asElem = elem;
  if (auto vec = dyn_cast<VectorType>(v.getType())) {
    asI64 = VectorType::get(vec.getShape(), i64);
    asElem = VectorType::get(vec.getShape(), elem);
  }
  Value wide = arith::IndexCastOp::create(b, loc, asI64, v);
  return emitConvert(b, loc, wide, asElem);
}

} // namespace

//===----------------------------------------------------------------------===//
// Storage
//===----------------------------------------------------------------------===//

/// The element type a buffer is stored in: its own, except bool, which is
/// stored one byte per element (0 or 1), the layout of PhysicalLayout.h
/// and of the runtime's buffers. An i1 memref would do for scalars, but
/// LLVM packs vectors of i1 into bits, so `:v` loads would not read bytes.
Type perfdojo::getStorageElementType(Type elementType) {
  return isBoolType(elementType)
             ? IntegerType::get(elementType.getContext(), 8)
             : elementType;
}

Type perfdojo::getStorageElementType(BufferOp buffer) {
  return getStorageElementType(buffer.getElementType());
}

Storage &LeafEmitter::addStorage(BufferOp buffer, Attribute memorySpace,
                                 function_ref<bool(unsigned)> isOwnerDim) {
  Storage storage;
  storage.buffer = buffer;
  SmallVector<int64_t, 4> shape;
  for (unsigned d = 0, e = buffer.getRank(); d < e; ++d) {
    if (buffer.getReused()[d] || (isOwnerDim && isOwnerDim(d)))
      continue;
    storage.dims.push_back(d);
    shape.push_back(buffer.getAllocatedExtent(d));
  }
  storage.type = MemRefType::get(shape, getStorageElementType(buffer),
                                 MemRefLayoutAttrInterface(), memorySpace);
  for (StringRef array : buffer.getArrayNames())
    arrayStorage[array] = storages.size();
  storages.push_back(std::move(storage));
  return storages.back();
}

//===----------------------------------------------------------------------===//
// Indices
//===----------------------------------------------------------------------===//

Value LeafEmitter::emitLinear(OpBuilder &b, Location loc,
                                 const LinearForm &form, int64_t lane) {
  Value sum;
  int64_t constant = form.constant;
  for (auto [k, c] : llvm::enumerate(form.coeffs)) {
    if (c == 0)
      continue;
    if (laneDepth && k == *laneDepth) {
      constant += c * lane;
      continue;
    }
    Value term = ivs[k];
    if (c != 1)
      term = arith::MulIOp::create(
          b, loc, term, arith::ConstantIndexOp::create(b, loc, c));
    sum = sum ? arith::AddIOp::create(b, loc, sum, term).getResult() : term;
  }
  if (!sum)
    return arith::ConstantIndexOp::create(b, loc, constant);
  if (constant != 0)
    sum = arith::AddIOp::create(b, loc, sum,
                                arith::ConstantIndexOp::create(b, loc, constant));
  return sum;
}

SmallVector<Value> LeafEmitter::emitIndices(OpBuilder &b, Location loc,
                                               Storage &storage, AffineMap map,
                                               int64_t lane) {
  SmallVector<Value> indices;
  for (unsigned d : storage.dims)
    indices.push_back(
        emitLinear(b, loc, *getLinearForm(map.getResult(d)), lane));
  return indices;
}

LeafEmitter::LaneAccess LeafEmitter::classify(Storage &storage, AffineMap map) {
  bool uniform = true, contiguous = true;
  for (auto [i, d] : llvm::enumerate(storage.dims)) {
    int64_t c = getLinearForm(map.getResult(d))->coeff(*laneDepth);
    bool last = i + 1 == storage.dims.size();
    if (c != 0)
      uniform = false;
    if (last ? c != 1 : c != 0)
      contiguous = false;
  }
  if (uniform)
    return LaneAccess::Uniform;
  return contiguous ? LaneAccess::Contiguous : LaneAccess::Scattered;
}

llvm::MaybeAlign LeafEmitter::getVectorAlignment(Storage &storage,
                                                 AffineMap map) {
  if (baseAlignment <= 0)
    return std::nullopt;
  // The first lane's element offset is a sum of terms (constants and
  // multiples of the other iteration variables, times the row-major
  // strides of the stored dimensions): it is a multiple of their gcd.
  SmallVector<int64_t> strides = storage.type.getStridesAndOffset().first;
  uint64_t divisor = 0;
  for (auto [i, d] : llvm::enumerate(storage.dims)) {
    LinearForm form = *getLinearForm(map.getResult(d));
    divisor = std::gcd(divisor, uint64_t(std::abs(form.constant * strides[i])));
    for (auto [k, c] : llvm::enumerate(form.coeffs))
      if (k != *laneDepth)
        divisor = std::gcd(divisor, uint64_t(std::abs(c * strides[i])));
  }
  uint64_t elementBytes =
      std::max<uint64_t>(1, storage.type.getElementTypeBitWidth() / 8);
  uint64_t vectorBytes = llvm::bit_floor(uint64_t(laneWidth) * elementBytes);
  uint64_t alignment = std::min<uint64_t>(baseAlignment, vectorBytes);
  if (divisor != 0)
    alignment = std::min<uint64_t>(
        alignment, uint64_t(1) << llvm::countr_zero(divisor * elementBytes));
  return llvm::Align(std::max<uint64_t>(alignment, 1));
}

//===----------------------------------------------------------------------===//
// Leaves
//===----------------------------------------------------------------------===//

Value LeafEmitter::emitOperandConversion(OpBuilder &b, Location loc, Value v,
                                         Storage &operand, Type to,
                                         Type result) {
  // Without buffers (a storage the caller made up), types are storage
  // types and equal.
  if (!operand.buffer || !to)
    return emitConvert(b, loc, v, result);
  return emitElementConversion(b, loc, v, operand.buffer.getElementType(), to,
                               result);
}

SmallVector<LeafEmitter::OperandType, 3>
LeafEmitter::getOperandTypes(LeafOp leaf) {
  auto irTypeOf = [&](Storage &storage) {
    return storage.buffer ? storage.buffer.getElementType()
                          : storage.type.getElementType();
  };
  Storage &out = storageOf(leaf.getArray());
  Type compared = getComparedType(leaf, [&](StringRef array) {
    return irTypeOf(storageOf(array));
  });
  SmallVector<OperandType, 3> types;
  for (unsigned j = 0, e = leaf.getInputs().size(); j < e; ++j) {
    Type ir = getOperandType(leaf.getKind(), j, irTypeOf(out), compared);
    types.push_back({out.buffer ? ir : Type(), getStorageElementType(ir)});
  }
  return types;
}

FailureOr<Value> LeafEmitter::emitScalarOperand(OpBuilder &b, Location loc,
                                                Attribute input,
                                                OperandType type,
                                                int64_t lane) {
  if (auto access = dyn_cast<AccessAttr>(input)) {
    Storage &storage = storageOf(access.getArray().getValue());
    Value v = memref::LoadOp::create(
        b, loc, storage.memref,
        emitIndices(b, loc, storage, access.getIndices(), lane));
    return emitOperandConversion(b, loc, v, storage, type.ir, type.storage);
  }
  if (auto constant = dyn_cast<FloatAttr>(input))
    return emitConstant(b, loc, type.storage, constant.getValueAsDouble());
  if (auto index = dyn_cast<IndexValueAttr>(input)) {
    Value v = emitLinear(b, loc, *getLinearForm(index.getExpr().getResult(0)),
                         lane);
    return emitIndexToElement(b, loc, v, type.storage);
  }
  return emitError(loc) << "unsupported leaf operand " << input;
}

FailureOr<Value> LeafEmitter::emitLeafValue(LeafOp leaf, OpBuilder &b) {
  Location loc = leaf.getLoc();
  bool isBool = isBoolType(storageOf(leaf.getArray()).buffer.getElementType());
  SmallVector<OperandType, 3> types = getOperandTypes(leaf);
  SmallVector<Value, 3> args;
  for (auto [input, type] : llvm::zip_equal(leaf.getInputs(), types)) {
    FailureOr<Value> v = emitScalarOperand(b, loc, input, type);
    if (failed(v))
      return failure();
    args.push_back(*v);
  }
  return emitCompute(b, leaf, leaf.getKind(), args, isBool);
}

Value LeafEmitter::emitLeafCombine(LeafOp leaf, OpBuilder &b, Value acc,
                                   Value v) {
  bool isBool = isBoolType(storageOf(leaf.getArray()).buffer.getElementType());
  return emitCombine(b, leaf.getLoc(), leaf.getReduce(), acc, v, isBool);
}

Value LeafEmitter::emitLeafIdentity(LeafOp leaf, OpBuilder &b) {
  Storage &out = storageOf(leaf.getArray());
  std::optional<double> identity =
      getReductionIdentity(leaf.getReduce(), out.buffer.getElementType());
  if (!identity)
    return Value();
  return emitConstant(b, leaf.getLoc(), out.type.getElementType(), *identity);
}

void LeafEmitter::emitLeafStore(LeafOp leaf, Value value, OpBuilder &b) {
  Location loc = leaf.getLoc();
  Storage &out = storageOf(leaf.getArray());
  SmallVector<Value> indices = emitIndices(b, loc, out, leaf.getIndices());
  if (leaf.getReduce() != ReduceKind::none)
    value = emitLeafCombine(
        leaf, b, memref::LoadOp::create(b, loc, out.memref, indices), value);
  memref::StoreOp::create(b, loc, value, out.memref, indices);
}

LogicalResult LeafEmitter::lowerLeaf(LeafOp leaf, OpBuilder &b) {
  FailureOr<Value> value = emitLeafValue(leaf, b);
  if (failed(value))
    return failure();
  emitLeafStore(leaf, *value, b);
  return success();
}

LogicalResult LeafEmitter::lowerVectorScope(ScopeOp scope, OpBuilder &b) {
  // The mode rules (ModeRules.h) made the body exactly one leaf.
  laneDepth = ivs.size();
  laneWidth = scope.getSize();
  ivs.push_back(Value()); // lanes are addressed through `lane` constants
  LogicalResult result =
      lowerVectorLeaf(cast<LeafOp>(scope.getBlock().front()), b);
  ivs.pop_back();
  laneDepth.reset();
  return result;
}

std::optional<TransposingCopy>
LeafEmitter::getTransposingCopy(ScopeOp unroll) {
  std::optional<TransposingCopy> copy = matchTransposingCopy(unroll, target);
  if (!copy)
    return std::nullopt;
  auto source = cast<AccessAttr>(copy->lanes.leaf.getInputs()[0]);
  if (!storageOf(source.getArray().getValue()).memref ||
      !storageOf(copy->lanes.leaf.getArray()).memref)
    return std::nullopt;
  return copy;
}

LogicalResult LeafEmitter::lowerTransposingCopy(TransposingCopy &copy,
                                                OpBuilder &b) {
  LeafOp leaf = copy.lanes.leaf;
  Location loc = leaf.getLoc();
  auto source = cast<AccessAttr>(leaf.getInputs()[0]);
  AffineMap map = source.getIndices();
  Storage &in = storageOf(source.getArray().getValue());
  Storage &out = storageOf(leaf.getArray());
  Type elem = out.type.getElementType();
  unsigned first = ivs.size();
  for (size_t k = 0; k < copy.rows.size(); ++k)
    ivs.push_back(arith::ConstantIndexOp::create(b, loc, 0));
  laneDepth = ivs.size();
  laneWidth = copy.lanes.lanes.getSize();
  ivs.push_back(Value());
  // Each lane's run, read from a flat view of the source in blocks of the
  // square's side.
  SmallVector<ReassociationIndices> all(1);
  for (int64_t d = 0, e = in.type.getRank(); d < e; ++d)
    all.front().push_back(d);
  Value flat = memref::CollapseShapeOp::create(b, loc, in.memref, all);
  SmallVector<int64_t> strides = in.type.getStridesAndOffset().first;
  SmallVector<Value> starts;
  for (int64_t l = 0; l < laneWidth; ++l) {
    Value offset;
    for (auto [index, stride] :
         llvm::zip_equal(emitIndices(b, loc, in, map, l), strides)) {
      Value term = arith::MulIOp::create(
          b, loc, index, arith::ConstantIndexOp::create(b, loc, stride));
      offset = offset ? arith::AddIOp::create(b, loc, offset, term) : term;
    }
    starts.push_back(offset);
  }
  // Squares of `side` lanes x `side` run elements; wider lanes are
  // several squares side by side, each storing a part of every row.
  int64_t side = copy.lanes.square;
  auto squareType = VectorType::get({side, side}, elem);
  auto rowType = VectorType::get({side}, elem);
  llvm::MaybeAlign alignment = getVectorAlignment(out, leaf.getIndices());
  int64_t elementBytes = getElementBytes(elem);
  for (int64_t block = 0; block < copy.run; block += side) {
    for (int64_t group = 0; group < laneWidth; group += side) {
      Value square = arith::ConstantOp::create(
          b, loc, squareType, cast<TypedAttr>(b.getZeroAttr(squareType)));
      for (int64_t l = 0; l < side; ++l) {
        Value at = arith::AddIOp::create(
            b, loc, starts[group + l],
            arith::ConstantIndexOp::create(b, loc, block));
        Value v = vector::LoadOp::create(b, loc, rowType, flat, at);
        square = vector::InsertOp::create(b, loc, v, square, l);
      }
      Value transposed = vector::TransposeOp::create(b, loc, square, {1, 0});
      llvm::MaybeAlign partAlignment;
      if (alignment)
        partAlignment = llvm::commonAlignment(*alignment, group * elementBytes);
      for (int64_t r = 0; r < side; ++r) {
        // The row's unrolled coordinates, innermost fastest.
        int64_t rest = block + r;
        for (size_t k = copy.rows.size(); k-- > 0;) {
          int64_t size = copy.rows[k].getSize();
          ivs[first + k] = arith::ConstantIndexOp::create(b, loc, rest % size);
          rest /= size;
        }
        Value v = vector::ExtractOp::create(b, loc, transposed, r);
        vector::StoreOp::create(
            b, loc, v, out.memref,
            emitIndices(b, loc, out, leaf.getIndices(), group),
            /*nontemporal=*/out.buffer && out.buffer.getNontemporal(),
            partAlignment);
      }
    }
  }
  ivs.resize(first);
  laneDepth.reset();
  return success();
}

LogicalResult LeafEmitter::lowerVectorLeaf(LeafOp leaf, OpBuilder &b) {
  Location loc = leaf.getLoc();
  Storage &out = storageOf(leaf.getArray());
  Type elem = out.type.getElementType();
  bool isBool = isBoolType(out.buffer.getElementType());
  auto vecType = VectorType::get({laneWidth}, elem);

  SmallVector<OperandType, 3> types = getOperandTypes(leaf);
  SmallVector<Value, 3> args;
  for (auto [input, type] : llvm::zip_equal(leaf.getInputs(), types)) {
    auto argType = VectorType::get({laneWidth}, type.storage);
    if (auto access = dyn_cast<AccessAttr>(input)) {
      Storage &storage = storageOf(access.getArray().getValue());
      AffineMap map = access.getIndices();
      Type storedVec =
          VectorType::get({laneWidth}, storage.type.getElementType());
      switch (classify(storage, map)) {
      case LaneAccess::Uniform: {
        Value v = memref::LoadOp::create(b, loc, storage.memref,
                                         emitIndices(b, loc, storage, map));
        args.push_back(vector::BroadcastOp::create(
            b, loc, argType,
            emitOperandConversion(b, loc, v, storage, type.ir,
                                  type.storage)));
        break;
      }
      case LaneAccess::Contiguous: {
        Value v = vector::LoadOp::create(b, loc, storedVec, storage.memref,
                                         emitIndices(b, loc, storage, map),
                                         /*nontemporal=*/false,
                                         getVectorAlignment(storage, map));
        args.push_back(
            emitOperandConversion(b, loc, v, storage, type.ir, argType));
        break;
      }
      case LaneAccess::Scattered: {
        SmallVector<Value> lanes;
        for (int64_t l = 0; l < laneWidth; ++l)
          lanes.push_back(*emitScalarOperand(b, loc, input, type, l));
        args.push_back(vector::FromElementsOp::create(b, loc, argType, lanes));
        break;
      }
      }
      continue;
    }
    if (auto constant = dyn_cast<FloatAttr>(input)) {
      args.push_back(
          emitConstant(b, loc, argType, constant.getValueAsDouble()));
      continue;
    }
    if (auto index = dyn_cast<IndexValueAttr>(input)) {
      // base + c * lane, computed in integers like the interpreter does.
      LinearForm form = *getLinearForm(index.getExpr().getResult(0));
      auto indexVec = VectorType::get({laneWidth}, b.getIndexType());
      Value base = vector::BroadcastOp::create(
          b, loc, indexVec, emitLinear(b, loc, form, /*lane=*/0));
      Value steps = vector::StepOp::create(b, loc, indexVec);
      int64_t c = form.coeff(*laneDepth);
      Value scaled = arith::MulIOp::create(
          b, loc, steps,
          arith::ConstantOp::create(
              b, loc, indexVec,
              SplatElementsAttr::get(indexVec, b.getIndexAttr(c))));
      Value v = arith::AddIOp::create(b, loc, base, scaled);
      args.push_back(emitIndexToElement(b, loc, v, type.storage));
      continue;
    }
    return leaf.emitOpError("unsupported operand ") << input;
  }
  FailureOr<Value> value = emitCompute(b, leaf, leaf.getKind(), args, isBool);
  if (failed(value))
    return failure();

  AffineMap map = leaf.getIndices();
  ReduceKind reduce = leaf.getReduce();
  switch (classify(out, map)) {
  case LaneAccess::Contiguous: {
    SmallVector<Value> indices = emitIndices(b, loc, out, map);
    Value result = *value;
    if (reduce != ReduceKind::none) {
      Value old = vector::LoadOp::create(b, loc, vecType, out.memref, indices,
                                         /*nontemporal=*/false,
                                         getVectorAlignment(out, map));
      result = emitCombine(b, loc, reduce, old, result, isBool);
    }
    // A whole-vector store of a `nontemporal` buffer skips the caches
    // (DojoToSCF fences these stores before the kernel returns).
    vector::StoreOp::create(
        b, loc, result, out.memref, indices,
        /*nontemporal=*/out.buffer && out.buffer.getNontemporal() &&
            reduce == ReduceKind::none,
        getVectorAlignment(out, map));
    return success();
  }
  case LaneAccess::Uniform: {
    // Every lane updates one element: a horizontal reduction (reassociated
    // under the reduction policy), or, for a plain write, the last lane wins
    // as it does sequentially.
    SmallVector<Value> indices = emitIndices(b, loc, out, map);
    Value result;
    if (reduce == ReduceKind::none) {
      result = vector::ExtractOp::create(b, loc, *value, laneWidth - 1);
    } else {
      // A tree over the lanes, not a chain: the moves allowed this
      // reduction to be reordered (reassociation policy).
      Value lanes = vector::ReductionOp::create(
          b, loc, getCombiningKind(reduce, isFloatLike(elem), isBool), *value,
          arith::FastMathFlags::reassoc);
      Value old = memref::LoadOp::create(b, loc, out.memref, indices);
      result = emitCombine(b, loc, reduce, old, lanes, isBool);
    }
    memref::StoreOp::create(b, loc, result, out.memref, indices);
    return success();
  }
  case LaneAccess::Scattered: {
    // Lane by lane, in lane order: exactly the sequential semantics.
    for (int64_t l = 0; l < laneWidth; ++l) {
      SmallVector<Value> indices = emitIndices(b, loc, out, map, l);
      Value result = vector::ExtractOp::create(b, loc, *value, l);
      if (reduce != ReduceKind::none) {
        Value old = memref::LoadOp::create(b, loc, out.memref, indices);
        result = emitCombine(b, loc, reduce, old, result, isBool);
      }
      memref::StoreOp::create(b, loc, result, out.memref, indices);
    }
    return success();
  }
  }
  llvm_unreachable("unknown lane access");
}
