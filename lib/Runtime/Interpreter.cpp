//===- Interpreter.cpp - reference interpreter for dojo kernels ----------===//
//
//   1. Storage: every buffer gets row-major strides over its allocated
//      extents, with stride 0 for `:N` dimensions (one slot reused across
//      that dimension); arrays of one buffer share its storage.
//   2. Each access becomes `offset + sum_k stride_k * {k}` in elements.
//   3. Each leaf gets a loop function specialized for (type, op, reduction)
//      that runs n iterations with per-operand strides; constants are
//      stride-0 operands and index values are materialized per loop.
//   4. Execution walks the tree; a scope whose only child is a leaf runs
//      that leaf as one loop, everything else one point at a time.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Runtime/Interpreter.h"
#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"
#include "perfdojo/Dialect/Dojo/IR/PhysicalLayout.h"
#include "perfdojo/Runtime/ElementConversion.h"
#include "perfdojo/Support/Float16.h"
#include "perfdojo/Support/SaturatingArithmetic.h"

#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <limits>
#include <type_traits>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

namespace perfdojo {
namespace {

using LoopFn = void (*)(void *out, int64_t so, const void *a, int64_t sa,
                        const void *b, int64_t sb, int64_t n);

//===----------------------------------------------------------------------===//
// Element types. Each has a storage type (what buffers hold) and a value
// type (what one operation computes in); `store` rounds a value to the
// element type. f16 and bf16 compute one operation in f32 and round its
// result, which is the correctly rounded f16/bf16 result for + - * / and
// sqrt (f32 has at least twice their precision plus two bits) and what
// the compiled code does for the functions (an f32 libm call, rounded).
//===----------------------------------------------------------------------===//

template <typename S, typename V> struct SameTraits {
  using Storage = S;
  using Value = V;
  static constexpr bool isFloat = std::is_floating_point_v<V>;
  static constexpr bool isBool = false;
  static V load(S s) { return s; }
  static S store(V v) { return v; }
  static V round(V v) { return v; }
  static S fromDouble(double d) { return static_cast<S>(d); }
  /// Index values: integers wrap to the width (C++20 conversions are
  /// modular), floats round once.
  static S fromIndex(int64_t v) { return static_cast<S>(v); }
};

template <uint16_t (*FromDouble)(double), float (*ToFloat)(uint16_t)>
struct HalfTraits {
  using Storage = uint16_t;
  using Value = float;
  static constexpr bool isFloat = true;
  static constexpr bool isBool = false;
  static float load(uint16_t s) { return ToFloat(s); }
  static uint16_t store(float v) { return FromDouble(v); }
  static float round(float v) { return load(store(v)); }
  static uint16_t fromDouble(double d) { return FromDouble(d); }
  static uint16_t fromIndex(int64_t v) {
    return FromDouble(static_cast<double>(v));
  }
};

/// Bool: a byte holding 0 or 1; its operations are and (`*`, min) and or
/// (max), computed bitwise as the compiled code does.
struct BoolTraits : SameTraits<uint8_t, uint8_t> {
  static constexpr bool isBool = true;
  static uint8_t fromDouble(double d) { return d != 0; }
  static uint8_t fromIndex(int64_t v) { return v != 0; }
};

template <ScalarType T> struct Traits;
template <> struct Traits<ScalarType::f32> : SameTraits<float, float> {};
template <> struct Traits<ScalarType::f64> : SameTraits<double, double> {};
template <>
struct Traits<ScalarType::f16> : HalfTraits<doubleToHalf, halfToFloat> {};
template <>
struct Traits<ScalarType::bf16>
    : HalfTraits<doubleToBFloat16, bfloat16ToFloat> {};
template <> struct Traits<ScalarType::i1> : BoolTraits {};
template <> struct Traits<ScalarType::i8> : SameTraits<int8_t, int8_t> {};
template <> struct Traits<ScalarType::i16> : SameTraits<int16_t, int16_t> {};
template <> struct Traits<ScalarType::i32> : SameTraits<int32_t, int32_t> {};
template <> struct Traits<ScalarType::i64> : SameTraits<int64_t, int64_t> {};

/// Two's complement arithmetic modulo 2^w: through uint64_t, whose
/// arithmetic wraps, and back with a modular conversion.
template <typename I> I wrapAdd(I a, I b) {
  return static_cast<I>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
template <typename I> I wrapSub(I a, I b) {
  return static_cast<I>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
template <typename I> I wrapMul(I a, I b) {
  return static_cast<I>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
/// Truncating division, with the IR's values where hardware traps
/// (docs/ir.md, "Numbers"): a / 0 = 0, MIN / -1 = MIN (the wrapped
/// quotient), as the lowering emits them.
template <typename I> I truncDiv(I a, I b) {
  if (b == 0)
    return 0;
  if (b == I(-1))
    return wrapSub(I(0), a);
  return static_cast<I>(a / b);
}

/// Whether the interpreter has code for `K` in `Tr`. What a kernel may ask
/// is the verifier's (ElementTypes.h); this only keeps meaningless
/// combinations from being instantiated.
template <typename Tr, OpKind K> constexpr bool hasCode() {
  if constexpr (Tr::isBool)
    return K == OpKind::copy || K == OpKind::mul || K == OpKind::max ||
           K == OpKind::min;
  else if constexpr (!Tr::isFloat)
    return !needsFloatType(K);
  else
    return true;
}

template <typename Tr, OpKind K>
inline typename Tr::Value compute(typename Tr::Value a, typename Tr::Value b) {
  using V = typename Tr::Value;
  if constexpr (Tr::isBool) {
    switch (K) {
    case OpKind::mul:
    case OpKind::min:
      return a & b;
    case OpKind::max:
      return a | b;
    default:
      return a;
    }
  } else if constexpr (!Tr::isFloat) {
    switch (K) {
    case OpKind::add:
      return wrapAdd(a, b);
    case OpKind::sub:
      return wrapSub(a, b);
    case OpKind::mul:
      return wrapMul(a, b);
    case OpKind::div:
      return truncDiv(a, b);
    case OpKind::max:
      return a < b ? b : a;
    case OpKind::min:
      return b < a ? b : a;
    case OpKind::neg:
      return wrapSub(V(0), a);
    case OpKind::abs:
      return a < 0 ? wrapSub(V(0), a) : a;
    case OpKind::relu:
      return a > V(0) ? a : V(0);
    case OpKind::sign:
      return a > V(0) ? V(1) : a < V(0) ? V(-1) : V(0);
    default:
      return a;
    }
  } else {
    // Compound formulas round after every step, as the lowering emits one
    // operation per step.
    switch (K) {
    case OpKind::copy:
      return a;
    case OpKind::add:
      return a + b;
    case OpKind::sub:
      return a - b;
    case OpKind::mul:
      return a * b;
    case OpKind::div:
      return a / b;
    case OpKind::max:
      return a < b ? b : a;
    case OpKind::min:
      return b < a ? b : a;
    case OpKind::neg:
      return -a;
    case OpKind::abs:
      return std::abs(a);
    case OpKind::exp:
      return std::exp(a);
    case OpKind::log:
      return std::log(a);
    case OpKind::sqrt:
      return std::sqrt(a);
    case OpKind::rsqrt:
      return V(1) / Tr::round(std::sqrt(a));
    case OpKind::tanh:
      return std::tanh(a);
    case OpKind::sigmoid:
      return V(1) / Tr::round(V(1) + Tr::round(std::exp(-a)));
    case OpKind::relu:
      return a > V(0) ? a : V(0);
    case OpKind::sin:
      return std::sin(a);
    case OpKind::cos:
      return std::cos(a);
    case OpKind::tan:
      return std::tan(a);
    case OpKind::asin:
      return std::asin(a);
    case OpKind::acos:
      return std::acos(a);
    case OpKind::atan:
      return std::atan(a);
    case OpKind::sinh:
      return std::sinh(a);
    case OpKind::cosh:
      return std::cosh(a);
    case OpKind::asinh:
      return std::asinh(a);
    case OpKind::acosh:
      return std::acosh(a);
    case OpKind::atanh:
      return std::atanh(a);
    case OpKind::erf:
      return std::erf(a);
    case OpKind::floor:
      return std::floor(a);
    case OpKind::ceil:
      return std::ceil(a);
    case OpKind::round:
      // Halves to even: the default rounding mode, as llvm.roundeven.
      return std::nearbyint(a);
    case OpKind::sign:
      // -0, +0 and NaN are their own sign.
      return a > V(0) ? V(1) : a < V(0) ? V(-1) : a;
    default:
      // Comparisons and select run as mixed leaves (computeMixed).
      return a;
    }
  }
}

template <typename Tr, ReduceKind R>
inline typename Tr::Value combine(typename Tr::Value acc,
                                  typename Tr::Value v) {
  if constexpr (Tr::isBool) {
    return R == ReduceKind::max ? acc | v : acc & v;
  } else if constexpr (!Tr::isFloat) {
    switch (R) {
    case ReduceKind::none:
      return v;
    case ReduceKind::add:
      return wrapAdd(acc, v);
    case ReduceKind::mul:
      return wrapMul(acc, v);
    case ReduceKind::max:
      return acc < v ? v : acc;
    case ReduceKind::min:
      return v < acc ? v : acc;
    }
    return v;
  } else {
    switch (R) {
    case ReduceKind::none:
      return v;
    case ReduceKind::add:
      return acc + v;
    case ReduceKind::mul:
      return acc * v;
    case ReduceKind::max:
      return acc < v ? v : acc;
    case ReduceKind::min:
      return v < acc ? v : acc;
    }
    return v;
  }
}

constexpr bool isBinary(OpKind k) {
  return k == OpKind::add || k == OpKind::sub || k == OpKind::mul ||
         k == OpKind::div || k == OpKind::max || k == OpKind::min;
}

template <typename Tr, OpKind K, ReduceKind R>
void loop(void *outp, int64_t so, const void *ap, int64_t sa, const void *bp,
          int64_t sb, int64_t n) {
  using S = typename Tr::Storage;
  using V = typename Tr::Value;
  S *out = static_cast<S *>(outp);
  const S *a = static_cast<const S *>(ap);
  const S *b = static_cast<const S *>(bp);
  for (int64_t i = 0; i < n; ++i) {
    V v;
    if constexpr (isBinary(K))
      v = compute<Tr, K>(Tr::load(a[i * sa]), Tr::load(b[i * sb]));
    else
      v = compute<Tr, K>(Tr::load(a[i * sa]), V(0));
    if constexpr (R == ReduceKind::none)
      out[i * so] = Tr::store(v);
    else
      out[i * so] =
          Tr::store(combine<Tr, R>(Tr::load(out[i * so]), Tr::round(v)));
  }
}

template <typename Tr, OpKind K> LoopFn selectReduce(ReduceKind r) {
  if constexpr (!hasCode<Tr, K>()) {
    return nullptr;
  } else {
    switch (r) {
    case ReduceKind::none:
      return &loop<Tr, K, ReduceKind::none>;
    case ReduceKind::add:
      if constexpr (Tr::isBool)
        return nullptr;
      else
        return &loop<Tr, K, ReduceKind::add>;
    case ReduceKind::mul:
      return &loop<Tr, K, ReduceKind::mul>;
    case ReduceKind::max:
      return &loop<Tr, K, ReduceKind::max>;
    case ReduceKind::min:
      return &loop<Tr, K, ReduceKind::min>;
    }
    return nullptr;
  }
}

template <typename Tr> LoopFn selectLoop(OpKind k, ReduceKind r) {
  switch (k) {
#define PERFDOJO_OP_CASE(K)                                                    \
  case OpKind::K:                                                              \
    return selectReduce<Tr, OpKind::K>(r);
    PERFDOJO_OP_CASE(copy)
    PERFDOJO_OP_CASE(add)
    PERFDOJO_OP_CASE(sub)
    PERFDOJO_OP_CASE(mul)
    PERFDOJO_OP_CASE(div)
    PERFDOJO_OP_CASE(max)
    PERFDOJO_OP_CASE(min)
    PERFDOJO_OP_CASE(neg)
    PERFDOJO_OP_CASE(abs)
    PERFDOJO_OP_CASE(exp)
    PERFDOJO_OP_CASE(log)
    PERFDOJO_OP_CASE(sqrt)
    PERFDOJO_OP_CASE(rsqrt)
    PERFDOJO_OP_CASE(tanh)
    PERFDOJO_OP_CASE(sigmoid)
    PERFDOJO_OP_CASE(relu)
    PERFDOJO_OP_CASE(sin)
    PERFDOJO_OP_CASE(cos)
    PERFDOJO_OP_CASE(tan)
    PERFDOJO_OP_CASE(asin)
    PERFDOJO_OP_CASE(acos)
    PERFDOJO_OP_CASE(atan)
    PERFDOJO_OP_CASE(sinh)
    PERFDOJO_OP_CASE(cosh)
    PERFDOJO_OP_CASE(asinh)
    PERFDOJO_OP_CASE(acosh)
    PERFDOJO_OP_CASE(atanh)
    PERFDOJO_OP_CASE(erf)
    PERFDOJO_OP_CASE(floor)
    PERFDOJO_OP_CASE(ceil)
    PERFDOJO_OP_CASE(round)
    PERFDOJO_OP_CASE(sign)
#undef PERFDOJO_OP_CASE
  default:
    // Comparisons and select run as mixed leaves (computeMixed).
    break;
  }
  return nullptr;
}

/// The code of one element type: loops, and the conversion of constants
/// and index values to its storage.
struct TypeCode {
  size_t bytes = 0;
  LoopFn (*select)(OpKind, ReduceKind) = nullptr;
  void (*storeConstant)(void *dst, double value) = nullptr;
  void (*storeIndices)(void *dst, int64_t base, int64_t inc,
                       int64_t n) = nullptr;
};

template <ScalarType T> TypeCode makeTypeCode() {
  using Tr = Traits<T>;
  using S = typename Tr::Storage;
  TypeCode code;
  code.bytes = sizeof(S);
  code.select = &selectLoop<Tr>;
  code.storeConstant = [](void *dst, double value) {
    *static_cast<S *>(dst) = Tr::fromDouble(value);
  };
  code.storeIndices = [](void *dst, int64_t base, int64_t inc, int64_t n) {
    S *out = static_cast<S *>(dst);
    for (int64_t i = 0; i < n; ++i)
      out[i] = Tr::fromIndex(base + inc * i);
  };
  return code;
}

const TypeCode &getTypeCode(ScalarType type) {
  static const TypeCode codes[] = {
      makeTypeCode<ScalarType::f16>(), makeTypeCode<ScalarType::bf16>(),
      makeTypeCode<ScalarType::f32>(), makeTypeCode<ScalarType::f64>(),
      makeTypeCode<ScalarType::i1>(),  makeTypeCode<ScalarType::i8>(),
      makeTypeCode<ScalarType::i16>(), makeTypeCode<ScalarType::i32>(),
      makeTypeCode<ScalarType::i64>()};
  static_assert(sizeof(codes) / sizeof(codes[0]) == size_t(ScalarType::i64) + 1,
                "one entry per ScalarType, in order");
  return codes[static_cast<size_t>(type)];
}

/// `offset + sum_k strides[k] * {k}` elements into buffer `buffer`.
struct Access {
  unsigned buffer = 0;
  int64_t offset = 0;
  SmallVector<int64_t, 8> strides;
};

constexpr unsigned kMaxOperands = 3;

struct Operand {
  enum Kind { Memory, Constant, Index } kind = Memory;
  Access access;                    // Memory
  alignas(8) char constant[8] = {}; // Constant, stored in the leaf's type
  ElementValue value;               // Constant, for a mixed leaf
  LinearForm index;                 // Index
};

/// A leaf whose operands have other types than its output, run element by
/// element (ElementConversion.h) instead of by a typed loop: a conversion
/// between types (ElementTypes.h isConversionStatement), a comparison, a
/// select. Each operand is loaded from its slot (f64 for floats in
/// reference mode) and brought to `operandType`: a conversion's and a
/// comparison's operands to their declared type, so in reference mode
/// they see the value the kernel would; select's condition to bool, its
/// values to the output's slot type.
struct MixedLeaf {
  OpKind kind = OpKind::copy;
  ScalarType slot[kMaxOperands] = {};
  ScalarType operandType[kMaxOperands] = {};
  /// A conversion's target, the output's declared type.
  ScalarType toDeclared = ScalarType::f64;
};

struct Leaf {
  ScalarType type;
  const TypeCode *code = nullptr;
  Access out;
  SmallVector<Operand, kMaxOperands> operands;
  /// Bytes of an element of each operand (the output's, but for a mixed
  /// leaf's arrays of other types).
  int64_t operandBytes[kMaxOperands] = {0, 0, 0};
  LoopFn fn = nullptr;
  std::optional<MixedLeaf> mixed;
};

struct Node {
  int64_t size = 0;
  int leaf = -1; // index into leaves for a leaf node
  std::vector<Node> children;
};

/// A leaf with its addresses resolved for one innermost loop.
struct PreparedLeaf {
  const Leaf *leaf = nullptr;
  char *out = nullptr;
  int64_t outStep = 0;
  const void *ptr[kMaxOperands] = {nullptr, nullptr, nullptr};
  int64_t step[kMaxOperands] = {0, 0, 0};
  int64_t indexBase[kMaxOperands] = {0, 0, 0};
  int64_t indexStep[kMaxOperands] = {0, 0, 0};
};

/// Storage of one declared buffer: an argument slot or internal scratch.
struct BufferSlot {
  int argument = -1;
  HostBuffer scratch;
  ScalarType type;     ///< as stored: f64 for floats in reference mode
  ScalarType declared; ///< the buffer's own type
  int64_t logicalSize = 0;
  SmallVector<int64_t, 4> strides;
};

} // namespace

class CompiledKernel {
public:
  LogicalResult compile(KernelOp kernel, InterpreterOptions options);
  llvm::Error run(llvm::MutableArrayRef<HostBuffer> args);
  int64_t evaluations = 0;

private:
  LogicalResult compileBuffers(KernelOp kernel, bool reference);
  FailureOr<Node> compileNode(Operation *op, SmallVectorImpl<int64_t> &sizes,
                              bool reference);
  Access compileAccess(StringRef array, AffineMap map, unsigned depth);
  void exec(const std::vector<Node> &nodes, unsigned depth);
  /// Resolves a leaf's addresses at the current iteration point; with
  /// loopDepth >= 0 also the per-iteration steps along that depth.
  PreparedLeaf prepare(const Leaf &leaf, int loopDepth);
  /// Runs iterations [first, first + n) of a prepared leaf.
  void execute(const PreparedLeaf &p, int64_t first, int64_t n);
  /// The same for a mixed leaf, element by element.
  void executeMixed(const PreparedLeaf &p, int64_t first, int64_t n);
  char *address(const Access &a, size_t elementSize);

  std::vector<BufferSlot> slots;
  llvm::StringMap<unsigned> arraySlot;
  unsigned numArguments = 0;
  std::vector<Leaf> leaves;
  std::vector<Node> roots;
  unsigned maxDepth = 0;

  // Run state.
  std::vector<char *> bases;
  SmallVector<int64_t, 16> iv;
  /// Index values of one run of a leaf, per operand (8-byte aligned).
  std::vector<uint64_t> scratchIndices[2];
};

LogicalResult CompiledKernel::compileBuffers(KernelOp kernel, bool reference) {
  for (BufferOp buffer : kernel.getBuffers()) {
    std::optional<ScalarType> type = getScalarType(buffer.getElementType());
    if (!type)
      return buffer.emitOpError("the interpreter does not execute buffer '")
             << buffer.getName() << "' of element type "
             << buffer.getElementType();
    BufferSlot slot;
    slot.type = reference ? getReferenceScalarType(*type) : *type;
    slot.declared = *type;
    // The physical layout (PhysicalLayout.h): a `:N` dimension has stride 0.
    slot.strides = getElementStrides(buffer);
    int64_t running = getStorageElements(buffer);
    int64_t logical = getLogicalElements(buffer);
    slot.logicalSize = logical;
    // Refuse absurd sizes up front rather than failing inside malloc.
    constexpr int64_t kMaxElements = int64_t(1) << 36;
    if (logical > kMaxElements || running > kMaxElements)
      return buffer.emitOpError("buffer '")
             << buffer.getName() << "' has more than 2^36 elements; the "
             << "interpreter does not execute buffers this large";
    if (buffer.isArgument())
      slot.argument = numArguments++;
    else
      slot.scratch = HostBuffer(buffer.getName().str(), slot.type, running);
    for (StringRef array : buffer.getArrayNames())
      arraySlot[array] = slots.size();
    slots.push_back(std::move(slot));
  }
  return success();
}

Access CompiledKernel::compileAccess(StringRef array, AffineMap map,
                                     unsigned depth) {
  Access access;
  access.buffer = arraySlot.lookup(array);
  access.strides.assign(depth, 0);
  const BufferSlot &slot = slots[access.buffer];
  for (auto [d, e] : llvm::enumerate(map.getResults())) {
    LinearForm form = *getLinearForm(e);
    access.offset += slot.strides[d] * form.constant;
    for (auto [k, c] : llvm::enumerate(form.coeffs))
      access.strides[k] += slot.strides[d] * c;
  }
  return access;
}

FailureOr<Node> CompiledKernel::compileNode(Operation *op,
                                            SmallVectorImpl<int64_t> &sizes,
                                            bool reference) {
  Node node;
  if (auto scope = dyn_cast<ScopeOp>(op)) {
    node.size = scope.getSize();
    sizes.push_back(node.size);
    maxDepth = std::max<unsigned>(maxDepth, sizes.size());
    for (Operation &child : scope.getBlock()) {
      FailureOr<Node> c = compileNode(&child, sizes, reference);
      if (failed(c))
        return failure();
      node.children.push_back(std::move(*c));
    }
    sizes.pop_back();
    return node;
  }
  auto leafOp = cast<LeafOp>(op);
  unsigned depth = sizes.size();
  Leaf leaf;
  leaf.out = compileAccess(leafOp.getArray(), leafOp.getIndices(), depth);
  leaf.type = slots[leaf.out.buffer].type;
  leaf.code = &getTypeCode(leaf.type);
  const BufferSlot &to = slots[leaf.out.buffer];
  OpKind kind = leafOp.getKind();
  // The types the statement computes its operands in (ElementTypes.h).
  KernelOp kernel = leafOp->getParentOfType<KernelOp>();
  auto elementTypeOf = [&](StringRef array) {
    return kernel.lookupArray(array).getElementType();
  };
  Type compared = getComparedType(leafOp, elementTypeOf);
  Type outType = kernel.lookupArray(leafOp.getArray()).getElementType();
  MixedLeaf mixed;
  mixed.kind = kind;
  mixed.toDeclared = to.declared;
  bool isMixed = compared || kind == OpKind::select;
  for (auto [j, input] : llvm::enumerate(leafOp.getInputs())) {
    Operand operand;
    leaf.operandBytes[j] = leaf.code->bytes;
    ScalarType operandType =
        *getScalarType(getOperandType(kind, j, outType, compared));
    // Select's values keep the output's slot type (f64 in reference mode).
    mixed.operandType[j] =
        kind == OpKind::select && j > 0 ? to.type : operandType;
    mixed.slot[j] = mixed.operandType[j];
    if (auto access = dyn_cast<AccessAttr>(input)) {
      operand.kind = Operand::Memory;
      operand.access = compileAccess(access.getArray().getValue(),
                                     access.getIndices(), depth);
      const BufferSlot &from = slots[operand.access.buffer];
      mixed.slot[j] = from.type;
      if (isConversionStatement(kind, leafOp.getReduce()) &&
          from.declared != to.declared) {
        isMixed = true;
        mixed.operandType[j] = from.declared;
      }
      leaf.operandBytes[j] = getScalarBytes(from.type);
    } else if (auto index = dyn_cast<IndexValueAttr>(input)) {
      operand.kind = Operand::Index;
      operand.index = *getLinearForm(index.getExpr().getResult(0));
    } else {
      operand.kind = Operand::Constant;
      double value = cast<FloatAttr>(input).getValueAsDouble();
      leaf.code->storeConstant(operand.constant, value);
      operand.value =
          isFloatScalarType(mixed.operandType[j])
              ? ElementValue{false, 0, value}
              : ElementValue{true, static_cast<int64_t>(value), 0};
    }
    leaf.operands.push_back(std::move(operand));
  }
  if (isMixed)
    leaf.mixed = mixed;
  else
    leaf.fn = leaf.code->select(kind, leafOp.getReduce());
  if (!leaf.fn && !leaf.mixed)
    return leafOp.emitOpError("the interpreter has no ")
           << stringifyScalarType(leaf.type) << " code for this statement";
  int64_t points = 1;
  for (int64_t s : sizes)
    points = saturatingMul(points, s);
  evaluations = saturatingAdd(evaluations, points);
  node.leaf = leaves.size();
  leaves.push_back(std::move(leaf));
  return node;
}

LogicalResult CompiledKernel::compile(KernelOp kernel,
                                      InterpreterOptions options) {
  if (failed(verify(kernel)))
    return failure();
  if (failed(compileBuffers(kernel, options.reference)))
    return failure();
  SmallVector<int64_t, 16> sizes;
  for (Operation &op : kernel.getBlock()) {
    if (isa<BufferOp>(op))
      continue;
    FailureOr<Node> node = compileNode(&op, sizes, options.reference);
    if (failed(node))
      return failure();
    roots.push_back(std::move(*node));
  }
  iv.assign(maxDepth + 1, 0);
  bases.assign(slots.size(), nullptr);
  return success();
}

char *CompiledKernel::address(const Access &a, size_t elementSize) {
  int64_t offset = a.offset;
  for (auto [k, s] : llvm::enumerate(a.strides))
    offset += s * iv[k];
  return bases[a.buffer] + offset * static_cast<int64_t>(elementSize);
}

PreparedLeaf CompiledKernel::prepare(const Leaf &leaf, int loopDepth) {
  PreparedLeaf p;
  p.leaf = &leaf;
  size_t elementSize = leaf.code->bytes;
  auto step = [&](const Access &a) -> int64_t {
    return loopDepth >= 0 ? a.strides[loopDepth] : 0;
  };
  p.out = address(leaf.out, elementSize);
  p.outStep = step(leaf.out);
  for (auto [j, operand] : llvm::enumerate(leaf.operands)) {
    switch (operand.kind) {
    case Operand::Memory:
      p.ptr[j] = address(operand.access, leaf.operandBytes[j]);
      p.step[j] = step(operand.access);
      break;
    case Operand::Constant:
      p.ptr[j] = operand.constant;
      break;
    case Operand::Index: {
      int64_t base = operand.index.constant;
      for (auto [k, c] : llvm::enumerate(operand.index.coeffs))
        base += c * iv[k];
      p.indexBase[j] = base;
      p.indexStep[j] = loopDepth >= 0 ? operand.index.coeff(loopDepth) : 0;
      break;
    }
    }
  }
  return p;
}

/// Comparison `kind` of two values of one type (C++'s operators: a NaN
/// compares unequal and unordered, as IEEE says).
template <typename T> bool compareValues(OpKind kind, T a, T b) {
  switch (kind) {
  case OpKind::eq:
    return a == b;
  case OpKind::ne:
    return a != b;
  case OpKind::lt:
    return a < b;
  case OpKind::le:
    return a <= b;
  case OpKind::gt:
    return a > b;
  default:
    return a >= b;
  }
}

/// What a mixed leaf computes from its operands, each already of its
/// MixedLeaf::operandType.
ElementValue computeMixed(const MixedLeaf &m, const ElementValue *v) {
  if (m.kind == OpKind::select)
    return v[0].integer ? v[1] : v[2];
  if (isComparison(m.kind)) {
    // Both operands have the compared type: both integers or both floats
    // (IEEE: NaN is unordered, so only ne holds for it).
    bool holds = v[0].isInteger
                     ? compareValues(m.kind, v[0].integer, v[1].integer)
                     : compareValues(m.kind, v[0].real, v[1].real);
    return ElementValue{true, holds, 0};
  }
  // A conversion: to the output's declared type.
  return convertElement(v[0], m.toDeclared);
}

void CompiledKernel::executeMixed(const PreparedLeaf &p, int64_t first,
                                  int64_t n) {
  const Leaf &leaf = *p.leaf;
  const MixedLeaf &m = *leaf.mixed;
  int64_t elementSize = leaf.code->bytes;
  char *out = p.out + first * p.outStep * elementSize;
  ElementValue v[kMaxOperands];
  for (int64_t i = 0; i < n; ++i) {
    for (auto [j, operand] : llvm::enumerate(leaf.operands)) {
      switch (operand.kind) {
      case Operand::Memory:
        v[j] = loadElement(m.slot[j], static_cast<const char *>(p.ptr[j]) +
                                          (first + i) * p.step[j] *
                                              leaf.operandBytes[j]);
        break;
      case Operand::Constant:
        v[j] = operand.value;
        break;
      case Operand::Index:
        v[j] = ElementValue{true, p.indexBase[j] + p.indexStep[j] * (first + i),
                            0};
        break;
      }
      v[j] = convertElement(v[j], m.operandType[j]);
    }
    storeElement(leaf.type, out + i * p.outStep * elementSize,
                 convertElement(computeMixed(m, v), leaf.type));
  }
}

void CompiledKernel::execute(const PreparedLeaf &p, int64_t first,
                             int64_t n) {
  const Leaf &leaf = *p.leaf;
  if (leaf.mixed)
    return executeMixed(p, first, n);
  int64_t elementSize = leaf.code->bytes;
  const void *ptr[2];
  int64_t stride[2] = {0, 0};
  for (auto [j, operand] : llvm::enumerate(leaf.operands)) {
    if (operand.kind != Operand::Index) {
      ptr[j] = static_cast<const char *>(p.ptr[j]) +
               first * p.step[j] * leaf.operandBytes[j];
      stride[j] = p.step[j];
      continue;
    }
    // Materialize the n values of the affine index for this run.
    int64_t base = p.indexBase[j] + p.indexStep[j] * first;
    int64_t inc = p.indexStep[j];
    scratchIndices[j].resize((n * elementSize + 7) / 8);
    leaf.code->storeIndices(scratchIndices[j].data(), base, inc, n);
    ptr[j] = scratchIndices[j].data();
    stride[j] = 1;
  }
  char *out = p.out + first * p.outStep * elementSize;
  leaf.fn(out, p.outStep, ptr[0],
          stride[0], leaf.operands.size() > 1 ? ptr[1] : nullptr, stride[1],
          n);
}

void CompiledKernel::exec(const std::vector<Node> &nodes, unsigned depth) {
  for (const Node &node : nodes) {
    if (node.leaf >= 0) {
      execute(prepare(leaves[node.leaf], /*loopDepth=*/-1), 0, 1);
      continue;
    }
    bool onlyLeaves = llvm::all_of(
        node.children, [](const Node &child) { return child.leaf >= 0; });
    if (!onlyLeaves) {
      for (int64_t i = 0; i < node.size; ++i) {
        iv[depth] = i;
        exec(node.children, depth + 1);
      }
      continue;
    }
    // Innermost scope: addresses are affine in {depth}, so prepare every
    // leaf once and step through the iterations.
    iv[depth] = 0;
    if (node.children.size() == 1) {
      execute(prepare(leaves[node.children.front().leaf], depth), 0,
              node.size);
      continue;
    }
    SmallVector<PreparedLeaf, 4> prepared;
    for (const Node &child : node.children)
      prepared.push_back(prepare(leaves[child.leaf], depth));
    for (int64_t i = 0; i < node.size; ++i)
      for (const PreparedLeaf &p : prepared)
        execute(p, i, 1);
  }
}

llvm::Error CompiledKernel::run(llvm::MutableArrayRef<HostBuffer> args) {
  if (args.size() != numArguments)
    return llvm::createStringError("kernel takes %u argument buffer(s) but %zu "
                                   "were given",
                                   numArguments, args.size());
  for (auto [i, slot] : llvm::enumerate(slots)) {
    if (slot.argument < 0) {
      // Scratch starts undefined; NaN (or 0xA5 bytes for integers) makes a
      // read-before-write visible.
      fillUndefined(slot.scratch);
      bases[i] = static_cast<char *>(slot.scratch.data());
      continue;
    }
    HostBuffer &arg = args[slot.argument];
    if (arg.getType() != slot.type || arg.size() != slot.logicalSize)
      return llvm::createStringError(
          "argument '%s' must hold %lld %s elements but holds %lld %s",
          arg.getName().c_str(), (long long)slot.logicalSize,
          stringifyScalarType(slot.type).data(), (long long)arg.size(),
          stringifyScalarType(arg.getType()).data());
    bases[i] = static_cast<char *>(arg.data());
  }
  exec(roots, 0);
  return llvm::Error::success();
}

} // namespace perfdojo

Interpreter::Interpreter(std::unique_ptr<CompiledKernel> compiled)
    : compiled(std::move(compiled)) {}
Interpreter::~Interpreter() = default;
Interpreter::Interpreter(Interpreter &&) noexcept = default;
Interpreter &Interpreter::operator=(Interpreter &&) noexcept = default;

FailureOr<Interpreter> Interpreter::create(KernelOp kernel,
                                           InterpreterOptions options) {
  auto compiled = std::make_unique<CompiledKernel>();
  if (failed(compiled->compile(kernel, options)))
    return failure();
  return Interpreter(std::move(compiled));
}

llvm::Error Interpreter::run(llvm::MutableArrayRef<HostBuffer> args) {
  return compiled->run(args);
}

int64_t Interpreter::getLeafEvaluations() const {
  return compiled->evaluations;
}
