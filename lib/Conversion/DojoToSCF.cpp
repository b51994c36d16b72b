//===- DojoToSCF.cpp - lower dojo kernels to loops over memrefs -----------===//
//
// A scope tree is structural (buffers are declared once, leaves address them
// through affine maps over the enclosing scopes' variables), so the lowering
// is one walk per kernel rather than a set of local patterns:
//
//   1. Storage: one memref per buffer over its materialized dimensions
//      (allocated extents, `:N` dimensions dropped). Arguments are the
//      function's parameters; internal buffers are allocated at function
//      entry or, when privatized by location, inside their `:p` scope.
//   2. Scopes become loops according to their mode (see Passes.td).
//   3. Each leaf loads its operands, computes with the interpreter's
//      formulas, combines with the old value for reductions, and stores.
//      Inside a `:v` scope the same code runs on vectors of the scope's
//      width.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Conversion/Passes.h"
#include "perfdojo/Analysis/Privatization.h"
#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"
#include "perfdojo/Dialect/Dojo/IR/ModeRules.h"
#include "perfdojo/Dialect/Dojo/IR/TargetDescription.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringMap.h"

namespace perfdojo {
#define GEN_PASS_DEF_CONVERTDOJOTOSCFPASS
#include "perfdojo/Conversion/Passes.h.inc"
} // namespace perfdojo

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

namespace {

/// The memref that stores one declared buffer.
struct Storage {
  BufferOp buffer;
  /// Buffer dimensions that occupy memory, in order (the memref's dims).
  SmallVector<unsigned, 4> dims;
  MemRefType type;
  /// The `:p` scope inside which each iteration allocates its own copy, or
  /// null for storage allocated once at function entry.
  ScopeOp privateTo;
  Value memref;
};

/// How the lanes of a `:v` scope address one access.
enum class LaneAccess { Uniform, Contiguous, Scattered };

class KernelLowering {
public:
  explicit KernelLowering(KernelOp kernel) : kernel(kernel) {}
  LogicalResult run();

private:
  LogicalResult planStorage();
  LogicalResult allocate(Storage &storage, OpBuilder &b);
  LogicalResult lowerNodes(Block &block, OpBuilder &b);
  LogicalResult lowerScope(ScopeOp scope, OpBuilder &b);
  LogicalResult lowerParallelBody(ScopeOp scope, Value iv, OpBuilder &b);
  LogicalResult lowerLeaf(LeafOp leaf, OpBuilder &b);
  LogicalResult lowerVectorLeaf(LeafOp leaf, OpBuilder &b);

  Storage &storageOf(StringRef array) {
    return storages[arrayStorage.lookup(array)];
  }
  /// Memref indices of `map` for `storage` at the current iteration point;
  /// `lane` substitutes a constant for the vector lane variable.
  SmallVector<Value> emitIndices(OpBuilder &b, Location loc, Storage &storage,
                                 AffineMap map, int64_t lane = 0);
  Value emitLinear(OpBuilder &b, Location loc, const LinearForm &form,
                   int64_t lane);
  LaneAccess classify(Storage &storage, AffineMap map);
  /// The value of operand `input` in the leaf's type (scalar mode).
  FailureOr<Value> emitScalarOperand(OpBuilder &b, Location loc,
                                     Attribute input, Type type,
                                     int64_t lane = 0);

  KernelOp kernel;
  std::vector<Storage> storages;
  llvm::StringMap<unsigned> arrayStorage;
  DenseMap<Operation *, SmallVector<unsigned, 2>> privateAllocations;
  /// Loop variable of every enclosing scope, by depth (index type).
  SmallVector<Value, 8> ivs;
  /// The kernel's function, and how many parallel bodies were outlined.
  func::FuncOp function;
  SmallVector<func::FuncOp> outlined;
  /// Depth and width of the enclosing `:v` scope, if any.
  std::optional<unsigned> laneDepth;
  int64_t laneWidth = 0;
};

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

Value emitConstant(OpBuilder &b, Location loc, Type type, double value) {
  Type elem = getElementTypeOrSelf(type);
  TypedAttr attr;
  if (auto f = dyn_cast<FloatType>(elem))
    attr = b.getFloatAttr(f, value);
  else
    attr = b.getIntegerAttr(elem, static_cast<int64_t>(value));
  if (auto vec = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc, vec,
                                     SplatElementsAttr::get(vec, attr));
  return arith::ConstantOp::create(b, loc, attr);
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

/// Bool values are bytes holding 0 or 1 (see `getStorageElementType`); the
/// operations bool has (ElementTypes.h) are the bitwise and and or.
Value emitBoolCompute(OpBuilder &b, Location loc, bool isOr, Value a, Value x) {
  return isOr ? arith::OrIOp::create(b, loc, a, x).getResult()
              : arith::AndIOp::create(b, loc, a, x).getResult();
}

FailureOr<Value> emitCompute(OpBuilder &b, LeafOp leaf, OpKind kind,
                             ArrayRef<Value> args, bool isBool) {
  Location loc = leaf.getLoc();
  Value a = args[0];
  Value x = args.size() > 1 ? args[1] : Value();
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

/// The element type a buffer is stored in: its own, except bool, which is
/// stored one byte per element (0 or 1), the layout of PhysicalLayout.h
/// and of the runtime's buffers. An i1 memref would do for scalars, but
/// LLVM packs vectors of i1 into bits, so `:v` loads would not read bytes.
Type getStorageElementType(BufferOp buffer) {
  Type type = buffer.getElementType();
  return isBoolType(type) ? IntegerType::get(type.getContext(), 8) : type;
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

//===----------------------------------------------------------------------===//
// Storage
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::planStorage() {
  for (BufferOp buffer : kernel.getBuffers()) {
    switch (buffer.getLocation()) {
    case BufferLocation::heap:
    case BufferLocation::stack:
    case BufferLocation::reg:
      break;
    default:
      return buffer.emitOpError("buffer '")
             << buffer.getName() << "' is located in "
             << stringifyBufferLocation(buffer.getLocation())
             << " memory, which the CPU target does not have";
    }
    Storage storage;
    storage.buffer = buffer;
    SmallVector<int64_t, 4> shape;
    for (unsigned d = 0, e = buffer.getRank(); d < e; ++d) {
      if (buffer.getReused()[d])
        continue;
      storage.dims.push_back(d);
      shape.push_back(buffer.getAllocatedExtent(d));
    }
    storage.type = MemRefType::get(shape, getStorageElementType(buffer));
    for (StringRef array : buffer.getArrayNames())
      arrayStorage[array] = storages.size();
    storages.push_back(std::move(storage));
  }

  // Privatization by location: the one rule the moves' dependence test
  // also uses (Analysis/Privatization.h). A buffer private to a `:p` scope
  // gets one copy per iteration: it is allocated in the scope's outlined
  // body (once per thread after inlining; every read is covered by a write
  // of the same iteration, so reusing the copy across iterations is exact).
  for (Storage &storage : storages) {
    ScopeOp scope = getPrivatizingScope(kernel, storage.buffer);
    if (!scope || scope.getMode() != Mode::parallel)
      continue;
    storage.privateTo = scope;
    privateAllocations[scope].push_back(&storage - storages.data());
  }
  return success();
}

LogicalResult KernelLowering::allocate(Storage &storage, OpBuilder &b) {
  Location loc = storage.buffer.getLoc();
  IntegerAttr alignment = b.getI64IntegerAttr(64);
  if (storage.buffer.getLocation() == BufferLocation::heap)
    storage.memref = memref::AllocOp::create(b, loc, storage.type, alignment);
  else
    storage.memref = memref::AllocaOp::create(b, loc, storage.type, alignment);
  return success();
}

//===----------------------------------------------------------------------===//
// Indices
//===----------------------------------------------------------------------===//

Value KernelLowering::emitLinear(OpBuilder &b, Location loc,
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

SmallVector<Value> KernelLowering::emitIndices(OpBuilder &b, Location loc,
                                               Storage &storage, AffineMap map,
                                               int64_t lane) {
  SmallVector<Value> indices;
  for (unsigned d : storage.dims)
    indices.push_back(
        emitLinear(b, loc, *getLinearForm(map.getResult(d)), lane));
  return indices;
}

LaneAccess KernelLowering::classify(Storage &storage, AffineMap map) {
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

//===----------------------------------------------------------------------===//
// Tree
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::lowerNodes(Block &block, OpBuilder &b) {
  for (Operation &op : block) {
    if (auto scope = dyn_cast<ScopeOp>(op)) {
      if (failed(lowerScope(scope, b)))
        return failure();
    } else if (auto leaf = dyn_cast<LeafOp>(op)) {
      if (failed(laneDepth ? lowerVectorLeaf(leaf, b) : lowerLeaf(leaf, b)))
        return failure();
    }
  }
  return success();
}

LogicalResult KernelLowering::lowerScope(ScopeOp scope, OpBuilder &b) {
  Location loc = scope.getLoc();
  int64_t size = scope.getSize();
  static const TargetDescription cpu = TargetDescription::getCpu();
  if (!cpu.supports(scope.getMode()))
    return scope.emitOpError("has mode ")
           << describeMode(scope.getMode()) << ", which the " << cpu.name
           << " target cannot execute";
  switch (scope.getMode()) {
  case Mode::seq: {
    Value lb = arith::ConstantIndexOp::create(b, loc, 0);
    Value ub = arith::ConstantIndexOp::create(b, loc, size);
    Value step = arith::ConstantIndexOp::create(b, loc, 1);
    auto loop = scf::ForOp::create(b, loc, lb, ub, step);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    ivs.push_back(loop.getInductionVar());
    LogicalResult result = lowerNodes(scope.getBlock(), b);
    ivs.pop_back();
    return result;
  }
  case Mode::parallel: {
    if (laneDepth)
      return scope.emitOpError("a ':p' scope cannot be nested in a ':v' scope");
    Value lb = arith::ConstantIndexOp::create(b, loc, 0);
    Value ub = arith::ConstantIndexOp::create(b, loc, size);
    Value step = arith::ConstantIndexOp::create(b, loc, 1);
    auto loop = scf::ParallelOp::create(b, loc, lb, ub, step);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    return lowerParallelBody(scope, loop.getInductionVars().front(), b);
  }
  case Mode::unroll: {
    for (int64_t i = 0; i < size; ++i) {
      ivs.push_back(arith::ConstantIndexOp::create(b, loc, i));
      LogicalResult result = lowerNodes(scope.getBlock(), b);
      ivs.pop_back();
      if (failed(result))
        return failure();
    }
    return success();
  }
  case Mode::vector: {
    // The mode rules (ModeRules.h) made the body exactly one leaf.
    Block &body = scope.getBlock();
    laneDepth = ivs.size();
    laneWidth = size;
    ivs.push_back(Value()); // lanes are addressed through `lane` constants
    LogicalResult result = lowerVectorLeaf(cast<LeafOp>(body.front()), b);
    ivs.pop_back();
    laneDepth.reset();
    return result;
  }
  case Mode::gpu_grid:
  case Mode::gpu_block:
  case Mode::gpu_warp:
    break; // refused above: not a mode of the CPU target
  }
  llvm_unreachable("unknown mode");
}

/// The body of a `:p` scope becomes a private function called once per
/// iteration, taking every memref and loop variable it uses as arguments,
/// with `noalias` on the memrefs. The OpenMP lowering passes the captured
/// pointers through a structure, which hides that kernel arguments never
/// alias; LLVM inlines the function back and keeps the `noalias` facts as
/// alias scopes, so accumulators stay in registers inside parallel loops.
/// Privatized buffers are allocated in the function: after inlining, once
/// per thread.
LogicalResult KernelLowering::lowerParallelBody(ScopeOp scope, Value iv,
                                                OpBuilder &b) {
  Location loc = scope.getLoc();
  SmallVector<Value> captured;
  SmallVector<Type> types;
  SmallVector<unsigned> capturedStorages;
  for (auto [index, storage] : llvm::enumerate(storages))
    if (storage.memref) {
      capturedStorages.push_back(index);
      captured.push_back(storage.memref);
      types.push_back(storage.type);
    }
  unsigned numMemrefs = captured.size();
  for (Value outer : ivs)
    captured.push_back(outer);
  captured.push_back(iv);
  types.append(ivs.size() + 1, b.getIndexType());

  OpBuilder moduleBuilder(function);
  std::string name = (kernel.getSymName() + "_par" +
                      llvm::Twine(outlined.size()))
                         .str();
  auto body = func::FuncOp::create(moduleBuilder, loc, name,
                                   b.getFunctionType(types, {}));
  body.setPrivate();
  // Internal linkage: no exported symbol in objects, no JIT entry point.
  body->setAttr("llvm.linkage", LLVM::LinkageAttr::get(
                                    b.getContext(), LLVM::Linkage::Internal));
  outlined.push_back(body);
  for (unsigned i = 0; i < numMemrefs; ++i)
    body.setArgAttr(i, "llvm.noalias", b.getUnitAttr());
  Block *entry = body.addEntryBlock();

  // Lower the scope's children into the function, its arguments standing
  // in for the caller's memrefs and loop variables.
  SmallVector<Value> savedMemrefs, savedIvs(ivs.begin(), ivs.end());
  for (unsigned index : capturedStorages)
    savedMemrefs.push_back(storages[index].memref);
  for (auto [i, index] : llvm::enumerate(capturedStorages))
    storages[index].memref = entry->getArgument(i);
  for (unsigned k = 0; k < ivs.size(); ++k)
    ivs[k] = entry->getArgument(numMemrefs + k);
  ivs.push_back(entry->getArgument(numMemrefs + savedIvs.size()));

  OpBuilder inner = OpBuilder::atBlockEnd(entry);
  LogicalResult result = success();
  for (unsigned index : privateAllocations.lookup(scope))
    if (failed(allocate(storages[index], inner)))
      result = failure();
  if (succeeded(result))
    result = lowerNodes(scope.getBlock(), inner);
  func::ReturnOp::create(inner, loc);

  ivs.assign(savedIvs.begin(), savedIvs.end());
  for (auto [i, index] : llvm::enumerate(capturedStorages))
    storages[index].memref = savedMemrefs[i];
  for (unsigned index : privateAllocations.lookup(scope))
    storages[index].memref = Value();
  if (failed(result))
    return failure();
  func::CallOp::create(b, loc, body, captured);
  return success();
}

FailureOr<Value> KernelLowering::emitScalarOperand(OpBuilder &b, Location loc,
                                                   Attribute input, Type type,
                                                   int64_t lane) {
  if (auto access = dyn_cast<AccessAttr>(input)) {
    Storage &storage = storageOf(access.getArray().getValue());
    Value v = memref::LoadOp::create(
        b, loc, storage.memref,
        emitIndices(b, loc, storage, access.getIndices(), lane));
    return emitConvert(b, loc, v, type);
  }
  if (auto constant = dyn_cast<FloatAttr>(input))
    return emitConstant(b, loc, type, constant.getValueAsDouble());
  if (auto index = dyn_cast<IndexValueAttr>(input)) {
    Value v = emitLinear(b, loc, *getLinearForm(index.getExpr().getResult(0)),
                         lane);
    return emitIndexToElement(b, loc, v, type);
  }
  return emitError(loc) << "unsupported leaf operand " << input;
}

LogicalResult KernelLowering::lowerLeaf(LeafOp leaf, OpBuilder &b) {
  Location loc = leaf.getLoc();
  Storage &out = storageOf(leaf.getArray());
  Type type = out.type.getElementType();
  bool isBool = isBoolType(out.buffer.getElementType());
  SmallVector<Value, 2> args;
  for (Attribute input : leaf.getInputs()) {
    FailureOr<Value> v = emitScalarOperand(b, loc, input, type);
    if (failed(v))
      return failure();
    args.push_back(*v);
  }
  FailureOr<Value> value = emitCompute(b, leaf, leaf.getKind(), args, isBool);
  if (failed(value))
    return failure();
  SmallVector<Value> indices =
      emitIndices(b, loc, out, leaf.getIndices());
  Value result = *value;
  if (leaf.getReduce() != ReduceKind::none) {
    Value old = memref::LoadOp::create(b, loc, out.memref, indices);
    result = emitCombine(b, loc, leaf.getReduce(), old, result, isBool);
  }
  memref::StoreOp::create(b, loc, result, out.memref, indices);
  return success();
}

LogicalResult KernelLowering::lowerVectorLeaf(LeafOp leaf, OpBuilder &b) {
  Location loc = leaf.getLoc();
  Storage &out = storageOf(leaf.getArray());
  Type elem = out.type.getElementType();
  bool isBool = isBoolType(out.buffer.getElementType());
  auto vecType = VectorType::get({laneWidth}, elem);

  SmallVector<Value, 2> args;
  for (Attribute input : leaf.getInputs()) {
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
            b, loc, vecType, emitConvert(b, loc, v, elem)));
        break;
      }
      case LaneAccess::Contiguous: {
        Value v = vector::LoadOp::create(b, loc, storedVec, storage.memref,
                                         emitIndices(b, loc, storage, map));
        args.push_back(emitConvert(b, loc, v, vecType));
        break;
      }
      case LaneAccess::Scattered: {
        SmallVector<Value> lanes;
        for (int64_t l = 0; l < laneWidth; ++l)
          lanes.push_back(*emitScalarOperand(b, loc, input, elem, l));
        args.push_back(vector::FromElementsOp::create(b, loc, vecType, lanes));
        break;
      }
      }
      continue;
    }
    if (auto constant = dyn_cast<FloatAttr>(input)) {
      args.push_back(
          emitConstant(b, loc, vecType, constant.getValueAsDouble()));
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
      args.push_back(emitIndexToElement(b, loc, v, elem));
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
      Value old = vector::LoadOp::create(b, loc, vecType, out.memref, indices);
      result = emitCombine(b, loc, reduce, old, result, isBool);
    }
    vector::StoreOp::create(b, loc, result, out.memref, indices);
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

LogicalResult KernelLowering::run() {
  if (failed(planStorage()))
    return failure();
  OpBuilder b(kernel);
  Location loc = kernel.getLoc();
  SmallVector<Type> argumentTypes;
  for (Storage &storage : storages)
    if (storage.buffer.isArgument())
      argumentTypes.push_back(storage.type);
  auto func = func::FuncOp::create(b, loc, kernel.getSymName(),
                                   b.getFunctionType(argumentTypes, {}));
  function = func;
  // Kernel arguments never alias each other (docs/ir.md, the moves'
  // dependence test assumes it): tell LLVM, so it can keep accumulators in
  // registers across loops and vectorize without runtime alias checks.
  for (unsigned i = 0, e = argumentTypes.size(); i < e; ++i)
    func.setArgAttr(i, "llvm.noalias", b.getUnitAttr());
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  unsigned argument = 0;
  for (Storage &storage : storages) {
    if (storage.buffer.isArgument())
      storage.memref = entry->getArgument(argument++);
    else if (!storage.privateTo && failed(allocate(storage, b)))
      return failure();
  }
  if (failed(lowerNodes(kernel.getBlock(), b))) {
    func.erase();
    for (func::FuncOp body : outlined)
      body.erase();
    return failure();
  }
  for (Storage &storage : storages)
    if (!storage.buffer.isArgument() && !storage.privateTo &&
        storage.buffer.getLocation() == BufferLocation::heap)
      memref::DeallocOp::create(b, loc, storage.memref);
  func::ReturnOp::create(b, loc);
  kernel.erase();
  return success();
}

struct ConvertDojoToSCFPass
    : perfdojo::impl::ConvertDojoToSCFPassBase<ConvertDojoToSCFPass> {
  void runOnOperation() override {
    SmallVector<KernelOp> kernels(getOperation().getOps<KernelOp>());
    for (KernelOp kernel : kernels)
      if (failed(KernelLowering(kernel).run()))
        return signalPassFailure();
  }
};

} // namespace
