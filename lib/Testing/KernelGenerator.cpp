//===- KernelGenerator.cpp - random valid kernels from a grammar ----------===//
//
// A kernel is built as a small model (buffers, a tree of scopes and leaves
// with their statements already spelled) in execution order, printed as
// `.dojo` text, imported and verified; then modes, locations and `:N` marks
// are tried one at a time on the imported kernel, each kept only if the
// verifier still accepts the kernel, and the final text is printed from the
// model again and verified once more.
//
// Validity by construction:
//   * indices: every index is built from the iteration box so its range
//     (LinearForm::range) lies in the logical extent (S8);
//   * definedness: an output or scratch array is read (or reduced into)
//     only after a leaf wrote all of it, or inside the scopes that index the
//     slice just written (the array is "pinned" to them), so every element
//     read was written before (S11, and finer: no engine reads garbage);
//   * values: each buffer has a value range (its contract); a statement is
//     kept only if interval arithmetic shows its results stay inside it,
//     counting for reductions at most L terms per element, where L is the
//     product of the box sizes no output index pins. The contract holds at
//     every moment, so reads may assume it whatever runs before them.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Testing/KernelGenerator.h"
#include "ValueBounds.h"
#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"
#include "perfdojo/Dialect/Dojo/IR/ModeRules.h"
#include "perfdojo/Dialect/Dojo/IR/PhysicalLayout.h"
#include "perfdojo/Dialect/Dojo/IR/TargetDescription.h"
#include "perfdojo/Dialect/Dojo/IR/TextSyntax.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <functional>
#include <cmath>
#include <optional>
#include <random>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::kernelgen;
using dojo::BufferLocation;
using dojo::Mode;
using dojo::OpKind;
using dojo::ReduceKind;
using dojo::Role;

SmallVector<Type> perfdojo::getDojoElementTypes(MLIRContext *context) {
  Builder b(context);
  // Every scalar type a kernel could plausibly name; the verifier decides
  // which of them are element types of the IR.
  SmallVector<Type> candidates = {b.getF16Type(),         b.getBF16Type(),
                                  b.getF32Type(),         b.getF64Type(),
                                  b.getIntegerType(1),    b.getIntegerType(8),
                                  b.getIntegerType(16),   b.getIntegerType(32),
                                  b.getIntegerType(64)};
  SmallVector<Type> types;
  for (Type t : candidates)
    if (isSupportedElementType(t))
      types.push_back(t);
  return types;
}

bool perfdojo::isCpuExecutable(dojo::KernelOp kernel) {
  TargetDescription cpu = TargetDescription::getCpu();
  return llvm::all_of(collectScopes(kernel),
                      [&](dojo::ScopeOp s) {
                        return cpu.supports(s.getMode());
                      }) &&
         llvm::all_of(kernel.getBuffers(), [](dojo::BufferOp b) {
           BufferLocation loc = b.getLocation();
           return loc == BufferLocation::heap ||
                  loc == BufferLocation::stack || loc == BufferLocation::reg;
         });
}

namespace {

//===----------------------------------------------------------------------===//
// The model
//===----------------------------------------------------------------------===//

struct BufferModel {
  std::string name;
  Type type;
  SmallVector<int64_t, 4> shape, padding;
  SmallVector<bool, 4> reused;
  BufferLocation location = BufferLocation::heap;
  Role role = Role::internal;
  /// The arrays after `->`; empty for a buffer that is its own array.
  SmallVector<std::string, 2> shared;
  /// Written only by the fallback leaf (`= 0`), so that one always fits.
  bool fallbackSink = false;

  // The value contract and what the leaves so far may have stored.
  Range contract;
  std::optional<Range> assigned;
  ReduceKind reduceKind = ReduceKind::none;
  Range addSum{0, 0};
  double mulLo = 1, mulHi = 1;
  std::optional<Range> extremes;
  // The error contract (epsilons) and the errors written so far: of
  // assigned values, of reduction terms (each rounding once more), and for
  // `*=` the sum over all factors.
  double errorBound = 0;
  double assignedError = 0, termError = 0;

  bool isInteger() const { return isa<IntegerType>(type); }
  /// Every value any element may hold, given the writes accounted so far.
  std::optional<Range> effective() const {
    std::optional<Range> base = assigned;
    if (extremes)
      base = hullOf(base, *extremes);
    if (!base)
      return std::nullopt;
    Range r = *base;
    if (reduceKind == ReduceKind::mul)
      r = mulRange(r, Range{mulLo, mulHi});
    if (reduceKind == ReduceKind::add)
      r = Range{r.lo + addSum.lo, r.hi + addSum.hi};
    return r;
  }
  double effectiveError() const {
    if (reduceKind == ReduceKind::mul)
      return assignedError + termError;
    return std::max(assignedError, termError);
  }
  bool fits() const {
    if (effectiveError() > errorBound)
      return false;
    std::optional<Range> e = effective();
    if (!e)
      return true;
    // Sums accumulate without cancellation: every term and every starting
    // value of one sign.
    if (reduceKind == ReduceKind::add) {
      Range base = hullOf(assigned, Range{0, 0});
      bool up = base.lo >= 0 && addSum.lo >= 0;
      bool down = base.hi <= 0 && addSum.hi <= 0;
      if (!up && !down)
        return false;
    }
    return e->within(contract);
  }
};

struct ArrayModel {
  ArrayModel(std::string name, unsigned buffer)
      : name(std::move(name)), buffer(buffer) {}
  std::string name;
  unsigned buffer;
  enum class State { None, Pinned, Full } state = State::None;
  /// While pinned: (dimension, depth) pairs. Inside the scopes at these
  /// depths, the slice where each such dimension equals `{depth}` is
  /// written; the array may be read there only at that slice.
  SmallVector<std::pair<unsigned, unsigned>, 2> pins;
};

struct Node {
  bool isLeaf = false;
  int64_t size = 0;
  Mode mode = Mode::seq;
  std::vector<Node> children;
  std::string statement;
};

/// A random choice of operand, with the range of its values.
struct Operand {
  std::string text;
  Range range;
  /// Relative error bound, in units of the element type's epsilon.
  double error = 0;
};

struct Statement {
  OpKind kind;
  std::string rhs;
  Range range;
  double error = 0;
};

//===----------------------------------------------------------------------===//
// The builder of one kernel
//===----------------------------------------------------------------------===//

class KernelBuilder {
public:
  KernelBuilder(const KernelGenOptions &options, ArrayRef<Type> dtypes,
                uint64_t seed, GeneratedKernel &result)
      : options(options), allTypes(dtypes), rng(seed),
        result(result) {}

  /// Builds the model: buffers, then the tree in execution order.
  void build();
  /// Prints the model as `.dojo` text, with random variations of spelling
  /// the importer must accept (term order, coefficient side, spacing,
  /// comments).
  std::string print();
  /// Tries modes, locations and `:N` on the verified `kernel` and copies
  /// the ones the verifier keeps into the model.
  void assignModes(dojo::KernelOp kernel);

  bool isGpu() const { return gpu; }

private:
  // Random choices.
  bool chance(double p) {
    return std::uniform_real_distribution<double>(0, 1)(rng) < p;
  }
  unsigned pick(unsigned n) { return n ? rng() % n : 0; }
  template <typename T> const T &pickFrom(ArrayRef<T> list) {
    return list[pick(list.size())];
  }
  int64_t boxElements() const {
    int64_t n = 1;
    for (int64_t s : box)
      n *= s;
    return n;
  }
  void note(StringRef feature) { ++result.features[feature.str()]; }

  // Buffers.
  void declareBuffers();
  unsigned addBuffer(StringRef name, Type type, Role role, bool internal);
  SmallVector<int64_t, 4> randomShape();
  Range randomContract(Type type);
  unsigned getSink(Type type);

  // The tree.
  void genBody(std::vector<Node> &out);
  void genScope(std::vector<Node> &out);
  bool genInit(std::vector<Node> &out, bool accumulate,
               std::optional<unsigned> forced = std::nullopt);
  void genLeaf(std::vector<Node> &out);
  void closeScope(unsigned depth);
  int64_t pickScopeSize();
  SmallVector<std::pair<unsigned, unsigned>, 2> pickPins(const ArrayModel &a);

  // Statements.
  bool isReadable(const ArrayModel &a) const {
    return buffers[a.buffer].role == Role::in ||
           buffers[a.buffer].role == Role::inout ||
           a.state != ArrayModel::State::None;
  }
  SmallVector<ReduceKind, 4> reductionsOf(Type type) const;
  std::optional<Statement> genStatement(Type type, ReduceKind reduce,
                                        std::optional<unsigned> exclude);
  std::optional<Operand> genOperand(Type type, OpKind kind, unsigned operand,
                                    bool positive,
                                    std::optional<unsigned> exclude);
  std::optional<std::string> genConstant(Type type, OpKind kind,
                                         unsigned operand, bool positive,
                                         double &value);
  LinearForm randomIndex(int64_t extent);
  std::string accessText(const ArrayModel &a,
                         ArrayRef<LinearForm> indices);
  SmallVector<LinearForm, 4> readIndices(const ArrayModel &a);
  std::string printIndex(const LinearForm &form);
  std::string leafText(const ArrayModel &a, ArrayRef<LinearForm> indices,
                       ReduceKind reduce, StringRef rhs);
  Node makeLeaf(std::string text) {
    Node n;
    n.isLeaf = true;
    n.statement = std::move(text);
    ++leaves;
    return n;
  }

  // Printing.
  void printNodes(const std::vector<Node> &nodes,
                  SmallVectorImpl<const Node *> &path,
                  SmallVectorImpl<const Node *> &previous,
                  llvm::raw_ostream &os);

  const KernelGenOptions &options;
  ArrayRef<Type> allTypes;
  std::mt19937_64 rng;
  GeneratedKernel &result;

  bool gpu = false;
  TargetDescription target;
  SmallVector<Type, 2> types;
  std::vector<BufferModel> buffers;
  std::vector<ArrayModel> arrays;
  std::vector<Node> roots;
  SmallVector<int64_t, 8> box;
  unsigned leaves = 0;
};

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

SmallVector<int64_t, 4> KernelBuilder::randomShape() {
  static const int64_t extents[] = {1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 32};
  unsigned rank;
  double r = std::uniform_real_distribution<double>(0, 1)(rng);
  rank = r < 0.12 ? 0 : r < 0.4 ? 1 : r < 0.7 ? 2 : r < 0.9 ? 3 : 4;
  rank = std::min(rank, options.maxRank);
  SmallVector<int64_t, 4> shape;
  for (unsigned d = 0; d < rank; ++d)
    shape.push_back(pickFrom<int64_t>(extents));
  // Vector-friendly extents: the lanes of a `:v` scope over the type.
  if (rank && chance(0.2))
    shape.back() = target.getVectorLanes(types.front());
  auto elements = [&] {
    int64_t n = 1;
    for (int64_t e : shape)
      n *= e;
    return n;
  };
  while (elements() > options.maxElements) {
    int64_t &e = shape[pick(shape.size())];
    e = std::max<int64_t>(1, e / 2);
  }
  return shape;
}

Range KernelBuilder::randomContract(Type type) {
  double limit = getMagnitudeLimit(type);
  static const double bounds[] = {4, 64, 1e3, 1e6};
  double bound = std::min(limit, pickFrom<double>(bounds));
  if (isBoolType(type))
    return Range{0, 1};
  if (!isa<IntegerType>(type) && chance(0.3))
    return Range{kPositiveFloor, bound};
  return Range{-bound, bound};
}

unsigned KernelBuilder::addBuffer(StringRef name, Type type, Role role,
                            bool internal) {
  BufferModel b;
  b.name = name.str();
  b.type = type;
  b.role = role;
  b.shape = randomShape();
  b.padding.assign(b.shape.size(), 0);
  b.reused.assign(b.shape.size(), false);
  if (internal)
    for (int64_t &p : b.padding)
      if (chance(0.2))
        p = 1 + pick(3);
  if (role == Role::in || role == Role::inout) {
    b.contract = isBoolType(type) ? Range{0, 1}
                                  : Range{-getMagnitudeLimit(type),
                                          getMagnitudeLimit(type)};
    b.assigned = getInputRange(type, false);
  } else {
    b.contract = randomContract(type);
  }
  // Integers compute exactly. Outputs end within 6 epsilons (the
  // tolerance is 8 at least); scratch, read by later statements, tighter.
  static const double outputBounds[] = {4, 6}, scratchBounds[] = {2, 3, 4};
  if (role == Role::out || role == Role::inout)
    b.errorBound = pickFrom<double>(outputBounds);
  else if (role == Role::internal)
    b.errorBound = pickFrom<double>(scratchBounds);
  if (b.isInteger())
    b.errorBound = 0;
  buffers.push_back(std::move(b));
  unsigned index = buffers.size() - 1;
  arrays.push_back(ArrayModel{name.str(), index});
  return index;
}

void KernelBuilder::declareBuffers() {
  unsigned numIn = 1 + pick(3), numOut = 1 + pick(2);
  for (unsigned i = 0; i < numIn; ++i)
    addBuffer("x" + std::to_string(i), pickFrom<Type>(types), Role::in,
              false);
  for (unsigned i = 0; i < numOut; ++i)
    addBuffer("y" + std::to_string(i), pickFrom<Type>(types), Role::out,
              false);
  if (chance(0.3))
    addBuffer("z0", pickFrom<Type>(types), Role::inout, false);
  unsigned numScratch = pick(4);
  for (unsigned i = 0; i < numScratch; ++i)
    addBuffer("t" + std::to_string(i), pickFrom<Type>(types), Role::internal,
              true);
  if (chance(0.2)) {
    // One storage, two arrays: writes through one show through the other.
    unsigned b = addBuffer("s0", pickFrom<Type>(types), Role::internal, true);
    arrays.pop_back();
    buffers[b].shared = {"p0", "q0"};
    arrays.push_back(ArrayModel{"p0", b});
    arrays.push_back(ArrayModel{"q0", b});
  }
}

unsigned KernelBuilder::getSink(Type type) {
  for (auto [i, b] : llvm::enumerate(buffers))
    if (b.fallbackSink && b.type == type)
      return i;
  BufferModel b;
  b.name = "f" + std::to_string(buffers.size());
  b.type = type;
  b.fallbackSink = true;
  b.contract = isBoolType(type) ? Range{0, 1} : Range{-1, 1};
  buffers.push_back(std::move(b));
  arrays.push_back(ArrayModel{buffers.back().name, unsigned(buffers.size() - 1)});
  return buffers.size() - 1;
}

//===----------------------------------------------------------------------===//
// Indices and operands
//===----------------------------------------------------------------------===//

/// A random affine form over the box whose range lies in [0, extent).
LinearForm KernelBuilder::randomIndex(int64_t extent) {
  LinearForm form;
  form.coeffs.assign(box.size(), 0);
  int64_t width = extent - 1; // what the variable terms may still span
  SmallVector<unsigned, 8> depths;
  for (unsigned k = 0; k < box.size(); ++k)
    depths.push_back(k);
  std::shuffle(depths.begin(), depths.end(), rng);
  int64_t low = 0, high = 0; // range of the variable part
  unsigned terms = 0;
  for (unsigned k : depths) {
    if (!chance(terms == 0 ? 0.85 : 0.3))
      continue;
    int64_t span = box[k] - 1;
    static const int64_t coeffs[] = {1, 1, 1, -1, 2, -2, 3};
    int64_t c = pickFrom<int64_t>(coeffs);
    if (std::abs(c) * span > width) {
      c = 1;
      if (span > width)
        continue;
    }
    form.coeffs[k] = c;
    width -= std::abs(c) * span;
    (c > 0 ? high : low) += c * span;
    ++terms;
  }
  // An offset that keeps [low, high] inside [0, extent).
  int64_t minOffset = -low, maxOffset = extent - 1 - high;
  form.constant = minOffset + pick(maxOffset - minOffset + 1);
  return form;
}

std::string KernelBuilder::printIndex(const LinearForm &form) {
  struct Term {
    int64_t coeff;
    std::optional<unsigned> depth;
  };
  SmallVector<Term, 4> terms;
  for (auto [k, c] : llvm::enumerate(form.coeffs))
    if (c)
      terms.push_back({c, unsigned(k)});
  if (form.constant || terms.empty())
    terms.push_back({form.constant, std::nullopt});
  if (chance(0.25))
    std::shuffle(terms.begin(), terms.end(), rng);
  std::string text;
  llvm::raw_string_ostream os(text);
  bool spaced = chance(0.2);
  for (auto [i, t] : llvm::enumerate(terms)) {
    if (t.coeff < 0)
      os << (i ? (spaced ? " - " : "-") : "-");
    else if (i)
      os << (spaced ? " + " : "+");
    int64_t mag = std::abs(t.coeff);
    if (!t.depth) {
      os << mag;
      continue;
    }
    if (mag == 1)
      os << "{" << *t.depth << "}";
    else if (chance(0.3))
      os << mag << "*{" << *t.depth << "}";
    else
      os << "{" << *t.depth << "}*" << mag;
  }
  return text;
}

std::string KernelBuilder::accessText(const ArrayModel &a,
                                ArrayRef<LinearForm> indices) {
  std::string text = a.name + "[";
  for (auto [i, form] : llvm::enumerate(indices))
    text += (i ? ", " : "") + printIndex(form);
  return text + "]";
}

/// Indices for a read of `a`: in bounds, and at the pinned slice.
SmallVector<LinearForm, 4> KernelBuilder::readIndices(const ArrayModel &a) {
  const BufferModel &b = buffers[a.buffer];
  SmallVector<LinearForm, 4> indices;
  for (unsigned d = 0; d < b.shape.size(); ++d) {
    auto pin = llvm::find_if(a.pins, [&](auto p) { return p.first == d; });
    if (a.state == ArrayModel::State::Pinned && pin != a.pins.end()) {
      LinearForm f;
      f.coeffs.assign(pin->second + 1, 0);
      f.coeffs[pin->second] = 1;
      indices.push_back(f);
    } else {
      indices.push_back(randomIndex(b.shape[d]));
    }
  }
  return indices;
}

/// A constant operand `operand` of a `kind` statement in `type`, from a
/// pool of small values, keeping those the type holds
/// (findConstantViolation); nullopt when none is left.
std::optional<std::string>
KernelBuilder::genConstant(Type type, OpKind kind, unsigned operand,
                           bool positive, double &value) {
  static const double floats[] = {0,   1,    -1,   0.5, -0.5, 2,   -2,
                                  3,   0.25, 1.5,  -3.5, 10,  0.375, 1.0e-3};
  static const double positiveFloats[] = {0.5, 1, 1.5, 2, 3, 0.75};
  static const double ints[] = {0, 1, -1, 2, -2, 3, 5, -7};
  static const double positiveInts[] = {1, 2, 3, 4};
  bool integer = isa<IntegerType>(type);
  ArrayRef<double> pool = integer ? (positive ? ArrayRef<double>(positiveInts)
                                              : ArrayRef<double>(ints))
                                  : (positive ? ArrayRef<double>(positiveFloats)
                                              : ArrayRef<double>(floats));
  SmallVector<double, 16> allowed;
  for (double v : pool)
    if (!findConstantViolation(v, type, kind, operand))
      allowed.push_back(v);
  if (allowed.empty())
    return std::nullopt;
  value = pickFrom<double>(allowed);
  std::string text;
  llvm::raw_string_ostream os(text);
  if (!integer && value == std::trunc(value) && chance(0.2))
    os << llvm::format("%.1f", value); // `2.0` reads as 2
  else
    printConstant(os, value);
  return text;
}

std::optional<Operand>
KernelBuilder::genOperand(Type type, OpKind kind, unsigned operand,
                          bool positive, std::optional<unsigned> exclude) {
  SmallVector<unsigned, 8> candidates;
  for (auto [i, a] : llvm::enumerate(arrays)) {
    const BufferModel &b = buffers[a.buffer];
    if (b.type != type || !isReadable(a) || (exclude && a.buffer == *exclude))
      continue;
    if (positive && b.role != Role::in && !isPositive(b.contract))
      continue;
    candidates.push_back(i);
  }
  double r = std::uniform_real_distribution<double>(0, 1)(rng);
  if (!candidates.empty() && r < 0.6) {
    const ArrayModel &a = arrays[pickFrom<unsigned>(candidates)];
    const BufferModel &b = buffers[a.buffer];
    Range range = b.contract;
    if (b.role == Role::in)
      range = getInputRange(type, positive);
    return Operand{accessText(a, readIndices(a)), range, b.errorBound};
  }
  if (r < 0.85 || box.empty() || findIndexValueViolation(type)) {
    double value;
    std::optional<std::string> text =
        genConstant(type, kind, operand, positive, value);
    if (!text)
      return std::nullopt;
    // A constant the type does not hold exactly rounds once (1.0e-3).
    double error = 0;
    if (auto floatType = dyn_cast<FloatType>(type)) {
      llvm::APFloat f(value);
      bool losesInfo = false;
      f.convert(floatType.getFloatSemantics(),
                llvm::APFloat::rmNearestTiesToEven, &losesInfo);
      error = losesInfo ? 1 : 0;
    }
    return Operand{*text, Range{value, value}, error};
  }
  // An index value: `{k}` or an affine form, converted to the type.
  LinearForm form;
  form.coeffs.assign(box.size(), 0);
  unsigned k = pick(box.size());
  form.coeffs[k] = chance(0.7) ? 1 : chance(0.5) ? 2 : -1;
  if (chance(0.3)) {
    unsigned j = pick(box.size());
    form.coeffs[j] += 1;
  }
  form.constant = int64_t(pick(5)) - 2;
  auto range = form.range(box);
  if (positive)
    form.constant += 1 - range->first;
  range = form.range(box);
  bool plain = form.constant == 0 &&
               llvm::count_if(form.coeffs, [](int64_t c) { return c; }) == 1 &&
               form.coeffs[k] == 1;
  std::string text =
      plain ? "{" + std::to_string(k) + "}" : "(" + printIndex(form) + ")";
  return Operand{text, Range{double(range->first), double(range->second)}};
}

/// The reductions `type` gives a value to (findOperationTypeViolation).
SmallVector<ReduceKind, 4> KernelBuilder::reductionsOf(Type type) const {
  SmallVector<ReduceKind, 4> kinds;
  for (ReduceKind r : {ReduceKind::add, ReduceKind::mul, ReduceKind::max,
                       ReduceKind::min})
    if (!findOperationTypeViolation(OpKind::copy, r, type))
      kinds.push_back(r);
  return kinds;
}

std::optional<Statement>
KernelBuilder::genStatement(Type type, ReduceKind reduce,
                            std::optional<unsigned> exclude) {
  bool integer = isa<IntegerType>(type);
  // The operations `type` gives a value to (findOperationTypeViolation):
  // no transcendentals on integers, the logical ones on bool. Integers
  // divide by positive values only (constants, index values, inputs that
  // fillInputs keeps positive), so no run divides by 0.
  // Comparisons and selects, whose operands have other types than their
  // output, are not generated yet.
  SmallVector<OpKind, 16> kinds;
  for (unsigned i = 0; i <= dojo::getMaxEnumValForOpKind(); ++i)
    if (std::optional<OpKind> k = dojo::symbolizeOpKind(i))
      if (!findOperationTypeViolation(*k, reduce, type) &&
          !isComparison(*k) && *k != OpKind::select)
        kinds.push_back(*k);
  if (kinds.empty())
    return std::nullopt;
  OpKind kind = pickFrom<OpKind>(kinds);
  unsigned arity = dojo::LeafOp::getArity(kind);
  SmallVector<Operand, 2> operands;
  for (unsigned j = 0; j < arity; ++j) {
    bool positive = (kind == OpKind::div && j == 1) || kind == OpKind::log ||
                    kind == OpKind::sqrt || kind == OpKind::rsqrt;
    std::optional<Operand> op = genOperand(type, kind, j, positive, exclude);
    if (!op)
      return std::nullopt;
    operands.push_back(*op);
  }
  SmallVector<Range, 2> ranges;
  for (const Operand &op : operands)
    ranges.push_back(op.range);
  std::optional<Range> range = applyRange(kind, ranges, integer);
  if (!range)
    return std::nullopt;
  SmallVector<double, 2> errors;
  for (const Operand &op : operands)
    errors.push_back(op.error);
  std::optional<double> error =
      integer ? std::optional<double>(0) : propagateError(kind, ranges, errors);
  if (!error)
    return std::nullopt;
  std::string rhs;
  if (kind == OpKind::copy)
    rhs = operands[0].text;
  else if (char infix = getInfixSymbol(kind))
    rhs = operands[0].text + " " + infix + " " + operands[1].text;
  else if (arity == 1)
    rhs = getFunctionName(kind).str() + "(" + operands[0].text + ")";
  else
    rhs = getFunctionName(kind).str() + "(" + operands[0].text + ", " +
          operands[1].text + ")";
  return Statement{kind, rhs, *range, *error};
}

std::string KernelBuilder::leafText(const ArrayModel &a,
                              ArrayRef<LinearForm> indices, ReduceKind reduce,
                              StringRef rhs) {
  std::string text = accessText(a, indices) + " ";
  if (reduce != ReduceKind::none)
    text += getReduceSpelling(reduce).str();
  return text + "= " + rhs.str();
}

//===----------------------------------------------------------------------===//
// The tree
//===----------------------------------------------------------------------===//

int64_t KernelBuilder::pickScopeSize() {
  static const int64_t sizes[] = {1, 2, 3, 4, 5, 6, 7, 8};
  double r = std::uniform_real_distribution<double>(0, 1)(rng);
  int64_t size;
  if (r < 0.4) {
    // An extent of some dimension, so slices and `:N` line up.
    const BufferModel &b = buffers[pick(buffers.size())];
    size = b.shape.empty() ? 1 : b.shape[pick(b.shape.size())];
  } else if (r < 0.55) {
    size = target.getVectorLanes(pickFrom<Type>(types));
  } else if (r < 0.6 && gpu) {
    size = target.warpSize;
  } else {
    size = pickFrom<int64_t>(sizes);
  }
  int64_t room = options.maxElements / boxElements();
  return std::max<int64_t>(1, std::min(size, room));
}

SmallVector<std::pair<unsigned, unsigned>, 2>
KernelBuilder::pickPins(const ArrayModel &a) {
  const BufferModel &b = buffers[a.buffer];
  SmallVector<std::pair<unsigned, unsigned>, 2> pins;
  SmallVector<bool, 8> used(box.size(), false);
  for (unsigned d = 0; d < b.shape.size(); ++d) {
    if (!chance(0.5))
      continue;
    SmallVector<unsigned, 4> depths;
    for (unsigned k = 0; k < box.size(); ++k)
      if (!used[k] && box[k] == b.shape[d])
        depths.push_back(k);
    if (depths.empty())
      continue;
    unsigned k = pickFrom<unsigned>(depths);
    used[k] = true;
    pins.push_back({d, k});
  }
  return pins;
}

void KernelBuilder::closeScope(unsigned depth) {
  for (ArrayModel &a : arrays) {
    if (a.state != ArrayModel::State::Pinned)
      continue;
    llvm::erase_if(a.pins, [&](auto p) { return p.second >= depth; });
    if (a.pins.empty())
      a.state = ArrayModel::State::Full;
  }
}

/// Writes every element of an array (or the slice of the current iterations
/// of the scopes that pin some of its dimensions): new scopes over the other
/// dimensions and one leaf. With `accumulate`, the leaf writes the identity
/// of a reduction and a second nest reduces into every element.
bool KernelBuilder::genInit(std::vector<Node> &out, bool accumulate,
                      std::optional<unsigned> forced) {
  SmallVector<unsigned, 8> candidates;
  for (auto [i, a] : llvm::enumerate(arrays)) {
    const BufferModel &b = buffers[a.buffer];
    if (b.role != Role::in && !b.fallbackSink)
      candidates.push_back(i);
  }
  if (forced)
    candidates = {*forced};
  if (candidates.empty())
    return false;
  ArrayModel &a = arrays[pickFrom<unsigned>(candidates)];
  BufferModel &b = buffers[a.buffer];
  bool integer = b.isInteger();
  auto pins = pickPins(a);

  // The scopes over the unpinned dimensions: depth of each dimension.
  unsigned base = box.size();
  SmallVector<unsigned, 4> depthOf(b.shape.size());
  SmallVector<int64_t, 4> newSizes;
  int64_t elements = boxElements();
  for (unsigned d = 0; d < b.shape.size(); ++d) {
    auto pin = llvm::find_if(pins, [&](auto p) { return p.first == d; });
    if (pin != pins.end()) {
      depthOf[d] = pin->second;
      continue;
    }
    depthOf[d] = base + newSizes.size();
    newSizes.push_back(b.shape[d]);
    elements *= b.shape[d];
  }
  if (elements > options.maxElements)
    return false;
  auto slice = [&] {
    SmallVector<LinearForm, 4> indices;
    for (unsigned d = 0; d < b.shape.size(); ++d) {
      LinearForm f;
      f.coeffs.assign(depthOf[d] + 1, 0);
      f.coeffs[depthOf[d]] = 1;
      indices.push_back(f);
    }
    return indices;
  };
  // Wraps `body` in a chain of scopes of `sizes`, outermost first.
  auto nest = [](ArrayRef<int64_t> sizes, std::vector<Node> body) {
    for (int64_t s : llvm::reverse(sizes)) {
      Node scope;
      scope.size = s;
      scope.children = std::move(body);
      body = {std::move(scope)};
    }
    return body;
  };

  for (int64_t s : newSizes)
    box.push_back(s);
  std::vector<Node> made;
  bool ok = false;
  if (!accumulate) {
    for (unsigned attempt = 0; attempt < 6 && !ok; ++attempt) {
      std::optional<Statement> st =
          genStatement(b.type, ReduceKind::none, std::nullopt);
      if (!st)
        continue;
      BufferModel next = b;
      next.assigned = hullOf(b.assigned, st->range);
      next.assignedError = std::max(b.assignedError, st->error);
      if (!next.fits())
        continue;
      b = next;
      made = nest(newSizes, {makeLeaf(leafText(a, slice(), ReduceKind::none,
                                               st->rhs))});
      ok = true;
    }
  } else {
    SmallVector<ReduceKind, 4> kinds = reductionsOf(b.type);
    if (kinds.empty()) {
      box.resize(base);
      return false;
    }
    ReduceKind kind = pickFrom<ReduceKind>(kinds);
    bool boolean = isBoolType(b.type);
    // One or two reduction scopes, L terms per element.
    SmallVector<int64_t, 2> reductionSizes;
    int64_t terms = 1;
    for (unsigned i = 0, e = 1 + pick(2); i < e; ++i) {
      int64_t s = std::min<int64_t>(1 + pick(8),
                                    options.maxElements / (elements * terms));
      if (s < 1)
        break;
      reductionSizes.push_back(s);
      terms *= s;
    }
    // The identity of the reduction (getReductionIdentity); for max= and
    // min= also the contract's bound, which every term passes. An identity
    // outside the contract (-inf, the minimum of i8) is overwritten by the
    // first term, and nothing reads the array between the two nests.
    bool extreme = kind == ReduceKind::max || kind == ReduceKind::min;
    std::optional<double> identity = getReductionIdentity(kind, b.type);
    bool infinite = extreme && identity && chance(0.6);
    double init = identity ? *identity : 0;
    if (extreme && !infinite) {
      init = kind == ReduceKind::max ? b.contract.lo : b.contract.hi;
      if (!integer)
        init = std::trunc(init); // a constant the element type holds exactly
    }
    if (!extreme && !identity) {
      box.resize(base);
      return false;
    }
    // The reduction scopes sit inside the element scopes (one nest, the
    // init leaf first), or after them in a second nest in either order.
    bool fused = chance(0.5);
    bool reductionOuter = !fused && chance(0.4);
    for (unsigned attempt = 0; attempt < 6 && !ok; ++attempt) {
      // Depths of the reduction leaf's scopes.
      SmallVector<int64_t, 8> leafSizes;
      SmallVector<unsigned, 4> leafDepthOf = depthOf;
      if (reductionOuter) {
        leafSizes.append(reductionSizes.begin(), reductionSizes.end());
        for (unsigned d = 0; d < b.shape.size(); ++d)
          if (depthOf[d] >= base)
            leafDepthOf[d] = depthOf[d] + reductionSizes.size();
        leafSizes.append(newSizes.begin(), newSizes.end());
      } else {
        leafSizes.append(newSizes.begin(), newSizes.end());
        leafSizes.append(reductionSizes.begin(), reductionSizes.end());
      }
      box.resize(base);
      box.append(leafSizes.begin(), leafSizes.end());
      std::optional<Statement> st = genStatement(b.type, kind, a.buffer);
      if (!st)
        continue;
      Range v = st->range;
      double l = double(terms);
      Range res;
      double error = st->error;
      switch (kind) {
      case ReduceKind::add:
        // Terms of one sign: the sum does not cancel.
        if (!(v.lo >= 0 || v.hi <= 0))
          continue;
        res = Range{init + l * v.lo, init + l * v.hi};
        error = st->error + 1;
        break;
      case ReduceKind::mul:
        if (boolean) { // and: the minimum of the terms
          res = v;
          break;
        }
        if (!v.within(Range{0.5, 2}) || terms > 8)
          continue;
        res = Range{std::pow(v.lo, l), std::pow(v.hi, l)};
        error = l * (st->error + 1);
        break;
      case ReduceKind::max:
        res = infinite ? v : Range{std::max(init, v.lo), std::max(init, v.hi)};
        break;
      case ReduceKind::min:
        res = infinite ? v : Range{std::min(init, v.lo), std::min(init, v.hi)};
        break;
      case ReduceKind::none:
        break;
      }
      BufferModel next = b;
      next.assigned = hullOf(b.assigned, res);
      next.assignedError = std::max(b.assignedError, b.isInteger() ? 0 : error);
      if (!next.fits())
        continue;
      b = next;
      std::string initText;
      llvm::raw_string_ostream os(initText);
      printConstant(os, init);
      SmallVector<LinearForm, 4> reduceIndices;
      for (unsigned d = 0; d < b.shape.size(); ++d) {
        LinearForm f;
        f.coeffs.assign(leafDepthOf[d] + 1, 0);
        f.coeffs[leafDepthOf[d]] = 1;
        reduceIndices.push_back(f);
      }
      Node initLeaf = makeLeaf(leafText(a, slice(), ReduceKind::none, initText));
      Node reduceLeaf = makeLeaf(leafText(a, reduceIndices, kind, st->rhs));
      if (fused) {
        std::vector<Node> inner = nest(reductionSizes, {reduceLeaf});
        std::vector<Node> body = {initLeaf};
        body.insert(body.end(), inner.begin(), inner.end());
        made = nest(newSizes, std::move(body));
      } else {
        made = nest(newSizes, {initLeaf});
        std::vector<Node> second = nest(leafSizes, {reduceLeaf});
        made.insert(made.end(), second.begin(), second.end());
      }
      note("accumulate");
      ok = true;
    }
  }
  box.resize(base);
  if (!ok)
    return false;
  for (Node &n : made)
    out.push_back(std::move(n));
  if (!pins.empty())
    note("slice-init");
  if (pins.empty()) {
    a.state = ArrayModel::State::Full;
    a.pins.clear();
  } else if (a.state == ArrayModel::State::None) {
    a.state = ArrayModel::State::Pinned;
    a.pins = pins;
  }
  return true;
}

void KernelBuilder::genLeaf(std::vector<Node> &out) {
  SmallVector<unsigned, 8> writable;
  for (auto [i, a] : llvm::enumerate(arrays)) {
    const BufferModel &b = buffers[a.buffer];
    if (b.role != Role::in && !b.fallbackSink)
      writable.push_back(i);
  }
  for (unsigned attempt = 0; attempt < 8 && !writable.empty(); ++attempt) {
    ArrayModel &a = arrays[pickFrom<unsigned>(writable)];
    BufferModel &b = buffers[a.buffer];
    ReduceKind reduce = ReduceKind::none;
    SmallVector<ReduceKind, 4> kinds = reductionsOf(b.type);
    if (isReadable(a) && !kinds.empty() && chance(0.4))
      reduce = b.reduceKind != ReduceKind::none
                   ? b.reduceKind
                   : pickFrom<ReduceKind>(kinds);
    // The output index. A reduction pins each of its dimensions to a
    // constant or one variable, so the terms per element are known: the
    // product of the sizes of the other depths.
    SmallVector<LinearForm, 4> indices;
    int64_t terms = 1;
    if (reduce == ReduceKind::none) {
      for (int64_t e : b.shape)
        indices.push_back(randomIndex(e));
    } else {
      SmallVector<bool, 8> pinned(box.size(), false);
      for (unsigned d = 0; d < b.shape.size(); ++d) {
        auto pin = llvm::find_if(a.pins, [&](auto p) { return p.first == d; });
        LinearForm f;
        f.coeffs.assign(box.size(), 0);
        if (a.state == ArrayModel::State::Pinned && pin != a.pins.end()) {
          f.coeffs[pin->second] = 1;
          pinned[pin->second] = true;
        } else {
          SmallVector<unsigned, 4> free;
          for (unsigned k = 0; k < box.size(); ++k)
            if (!pinned[k] && box[k] - 1 <= b.shape[d] - 1)
              free.push_back(k);
          if (!free.empty() && chance(0.6)) {
            unsigned k = pickFrom<unsigned>(free);
            pinned[k] = true;
            f.coeffs[k] = chance(0.8) ? 1 : -1;
            int64_t span = box[k] - 1;
            f.constant = f.coeffs[k] < 0 ? span : 0;
            f.constant += pick(b.shape[d] - span);
          } else {
            f.constant = pick(b.shape[d]);
          }
        }
        indices.push_back(f);
      }
      for (unsigned k = 0; k < box.size(); ++k)
        if (!pinned[k])
          terms *= box[k];
    }
    std::optional<Statement> st = genStatement(b.type, reduce, std::nullopt);
    if (!st)
      continue;
    Range v = st->range;
    BufferModel next = b;
    double l = double(terms);
    double termError = b.isInteger() ? 0 : st->error + 1;
    switch (reduce) {
    case ReduceKind::none:
      next.assigned = hullOf(b.assigned, v);
      next.assignedError = std::max(b.assignedError, st->error);
      break;
    case ReduceKind::add:
      next.termError = std::max(b.termError, termError);
      next.reduceKind = reduce;
      next.addSum = Range{b.addSum.lo + std::min(0.0, l * v.lo),
                          b.addSum.hi + std::max(0.0, l * v.hi)};
      break;
    case ReduceKind::mul:
      if (isBoolType(b.type)) { // and: the minimum of the terms
        next.reduceKind = reduce;
        next.extremes = hullOf(b.extremes, v);
        break;
      }
      if (!v.within(Range{0.5, 2}) || terms > 8)
        continue;
      next.reduceKind = reduce;
      next.termError = b.termError + l * termError;
      next.mulLo = b.mulLo * std::min(1.0, std::pow(v.lo, l));
      next.mulHi = b.mulHi * std::max(1.0, std::pow(v.hi, l));
      break;
    case ReduceKind::max:
    case ReduceKind::min:
      next.reduceKind = reduce;
      next.termError = std::max(b.termError, st->error);
      next.extremes = hullOf(b.extremes, v);
      break;
    }
    if (!next.fits())
      continue;
    b = next;
    out.push_back(makeLeaf(leafText(a, indices, reduce, st->rhs)));
    return;
  }
  // Nothing fitted: the fallback writes 0 to a scalar of its own.
  unsigned sink = getSink(pickFrom<Type>(types));
  BufferModel &b = buffers[sink];
  b.assigned = hullOf(b.assigned, Range{0, 0});
  const ArrayModel &a = *llvm::find_if(
      arrays, [&](const ArrayModel &x) { return x.buffer == sink; });
  out.push_back(makeLeaf(leafText(a, {}, ReduceKind::none, "0")));
  note("fallback");
}

void KernelBuilder::genScope(std::vector<Node> &out) {
  Node scope;
  scope.size = pickScopeSize();
  box.push_back(scope.size);
  genBody(scope.children);
  closeScope(box.size() - 1);
  box.pop_back();
  out.push_back(std::move(scope));
}

void KernelBuilder::genBody(std::vector<Node> &out) {
  unsigned items = 1 + pick(3);
  for (unsigned i = 0; i < items; ++i) {
    if (leaves >= options.maxLeaves && !out.empty())
      break;
    double r = std::uniform_real_distribution<double>(0, 1)(rng);
    if (r < 0.15 && genInit(out, false))
      continue;
    if (r >= 0.15 && r < 0.3 && genInit(out, true))
      continue;
    if (r >= 0.3 && r < 0.62 && box.size() < options.maxDepth) {
      genScope(out);
      continue;
    }
    genLeaf(out);
  }
  if (out.empty())
    genLeaf(out);
}

void KernelBuilder::build() {
  gpu = chance(options.gpuFraction);
  target = gpu ? TargetDescription::getDefault() : TargetDescription::getCpu();
  types.push_back(pickFrom<Type>(allTypes));
  if (chance(0.25))
    types.push_back(pickFrom<Type>(allTypes));
  declareBuffers();
  unsigned tops = 1 + pick(3);
  for (unsigned i = 0; i < tops; ++i)
    genBody(roots);
  // Every element of every output is written (S10, per element): a
  // whole-array init after the body for any output not wholly written yet
  // (slices written under pins do not count).
  for (ArrayModel &a : arrays) {
    const BufferModel &b = buffers[a.buffer];
    if (b.role != Role::out || a.state == ArrayModel::State::Full)
      continue;
    a.state = ArrayModel::State::None;
    a.pins.clear();
    unsigned self = &a - arrays.data();
    for (unsigned tries = 0; tries < 16 && a.state != ArrayModel::State::Full;
         ++tries)
      genInit(roots, false, self);
    if (a.state == ArrayModel::State::Full)
      continue;
    // Last resort: a constant fill over the array's own scopes.
    SmallVector<LinearForm, 4> indices;
    for (unsigned d = 0; d < b.shape.size(); ++d) {
      LinearForm f;
      f.coeffs.assign(d + 1, 0);
      f.coeffs[d] = 1;
      indices.push_back(f);
    }
    std::string text = isPositive(b.contract) ? "1" : "0";
    std::vector<Node> body = {
        makeLeaf(leafText(a, indices, ReduceKind::none, text))};
    for (int64_t s : llvm::reverse(b.shape)) {
      Node scope;
      scope.size = s;
      scope.children = std::move(body);
      body = {std::move(scope)};
    }
    for (Node &n : body)
      roots.push_back(std::move(n));
    a.state = ArrayModel::State::Full;
    note("fallback");
  }
  for (Type t : types) {
    std::string name = getElementTypeName(t);
    if (!llvm::is_contained(result.dtypes, name))
      result.dtypes.push_back(name);
  }
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

void KernelBuilder::printNodes(const std::vector<Node> &nodes,
                         SmallVectorImpl<const Node *> &path,
                         SmallVectorImpl<const Node *> &previous,
                         llvm::raw_ostream &os) {
  for (const Node &n : nodes) {
    if (!n.isLeaf) {
      path.push_back(&n);
      printNodes(n.children, path, previous, os);
      path.pop_back();
      continue;
    }
    // Bars re-enter the scopes this line shares with the previous one.
    unsigned common = 0;
    while (common < path.size() && common < previous.size() &&
           path[common] == previous[common])
      ++common;
    if (chance(0.03))
      os << "# a comment line\n";
    for (unsigned i = 0; i < common; ++i)
      os << "| ";
    for (unsigned i = common; i < path.size(); ++i) {
      os << path[i]->size;
      if (path[i]->mode != Mode::seq)
        os << ":" << getModeSuffix(path[i]->mode);
      os << " ";
    }
    os << n.statement;
    if (chance(0.03))
      os << "  # trailing comment";
    os << "\n";
    previous.assign(path.begin(), path.end());
  }
}

std::string KernelBuilder::print() {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (const BufferModel &b : buffers) {
    os << b.name << " " << getElementTypeName(b.type) << " [";
    for (unsigned d = 0; d < b.shape.size(); ++d) {
      os << (d ? ", " : "") << b.shape[d];
      if (b.padding[d])
        os << "+" << b.padding[d];
      if (b.reused[d])
        os << ":N";
    }
    os << "] " << dojo::stringifyBufferLocation(b.location);
    if (b.role != Role::internal)
      os << " " << dojo::stringifyRole(b.role);
    if (!b.shared.empty())
      os << " -> " << llvm::join(b.shared, ", ");
    os << "\n";
  }
  if (chance(0.1))
    os << "\n";
  SmallVector<const Node *, 8> path, previous;
  printNodes(roots, path, previous, os);
  return text;
}

//===----------------------------------------------------------------------===//
// Modes, locations and `:N`
//===----------------------------------------------------------------------===//

/// Leaves in the code after unrolling: for each leaf, the product of the
/// sizes of its `:u` ancestors.
int64_t countUnrolledLeaves(dojo::KernelOp kernel) {
  int64_t total = 0;
  kernel.walk([&](dojo::LeafOp leaf) {
    int64_t copies = 1;
    for (auto s = leaf->getParentOfType<dojo::ScopeOp>(); s;
         s = s->getParentOfType<dojo::ScopeOp>())
      if (s.getMode() == Mode::unroll)
        copies *= s.getSize();
    total += copies;
  });
  return total;
}

/// Whether `kernel` verifies, with the diagnostics swallowed.
bool verifies(dojo::KernelOp kernel) {
  ScopedDiagnosticHandler quiet(kernel.getContext(),
                                [](Diagnostic &) { return success(); });
  return succeeded(verify(kernel));
}

void KernelBuilder::assignModes(dojo::KernelOp kernel) {
  // Scopes in pre-order, like the model's.
  SmallVector<dojo::ScopeOp> scopes = collectScopes(kernel);
  SmallVector<Node *> nodes;
  std::function<void(std::vector<Node> &)> collect =
      [&](std::vector<Node> &list) {
        for (Node &n : list)
          if (!n.isLeaf) {
            nodes.push_back(&n);
            collect(n.children);
          }
      };
  collect(roots);
  assert(nodes.size() == scopes.size() && "the model is the kernel");

  SmallVector<Mode, 8> modes;
  for (Mode m : {Mode::unroll, Mode::parallel, Mode::vector, Mode::gpu_grid,
                 Mode::gpu_block, Mode::gpu_warp})
    if (target.supports(m))
      modes.push_back(m);
  for (auto [scope, node] : llvm::zip(scopes, nodes)) {
    if (!chance(options.modeChance))
      continue;
    std::shuffle(modes.begin(), modes.end(), rng);
    // A GPU kernel tries its GPU modes first, so that `:b` and `:w` find
    // the `:g` and `:b` they need around them.
    if (gpu && chance(0.7)) {
      SmallVector<Mode, 8> ordered;
      for (bool first : {true, false})
        for (Mode m : modes)
          if (dojo::isGpuMode(m) == first)
            ordered.push_back(m);
      modes = ordered;
    }
    // Once the taxonomy and the target accept a mode, the verifier judges
    // the kernel; a rejection drops the mode (races, K1-K5).
    for (Mode m : modes) {
      if (dojo::findEnclosingModeViolation(scope, m) ||
          dojo::findEnclosedModeViolation(scope, m))
        continue;
      Type laneType;
      if (m == Mode::vector) {
        auto leaf = dyn_cast<dojo::LeafOp>(scope.getBlock().front());
        if (!leaf)
          continue;
        laneType = kernel.lookupArray(leaf.getArray()).getElementType();
      }
      if (target.findModeSizeViolation(m, scope.getSize(), laneType))
        continue;
      scope.setMode(m);
      if (m == Mode::unroll && countUnrolledLeaves(kernel) > options.maxUnrolled) {
        scope.setMode(Mode::seq);
        continue;
      }
      if (verifies(kernel)) {
        node->mode = m;
        break;
      }
      scope.setMode(Mode::seq);
      ++result.droppedModes;
      break;
    }
  }

  SmallVector<BufferLocation, 6> locations = {BufferLocation::stack,
                                              BufferLocation::reg};
  if (gpu)
    locations.append({BufferLocation::gpu_shared, BufferLocation::gpu_local,
                      BufferLocation::tcdm});
  for (dojo::BufferOp buffer : kernel.getBuffers()) {
    if (buffer.isArgument())
      continue;
    BufferModel &model = *llvm::find_if(
        buffers, [&](auto &b) { return b.name == buffer.getName(); });
    // `:N` marks first: they shrink the storage a location must hold.
    for (unsigned d = 0; d < buffer.getRank(); ++d) {
      if (!chance(options.reuseChance))
        continue;
      SmallVector<bool, 4> reused(buffer.getReused());
      reused[d] = true;
      buffer.setReused(reused);
      if (verifies(kernel)) {
        model.reused[d] = true;
        continue;
      }
      reused[d] = false;
      buffer.setReused(reused);
      ++result.droppedReuse;
    }
    if (!chance(options.locationChance))
      continue;
    BufferLocation loc = pickFrom<BufferLocation>(locations);
    if (target.findCapacityViolation(buffer, loc, getStorageElements(buffer)))
      continue;
    buffer.setLocation(loc);
    if (verifies(kernel)) {
      model.location = loc;
      continue;
    }
    buffer.setLocation(BufferLocation::heap);
    ++result.droppedLocations;
  }
}

/// Features read off the verified kernel: what it really contains.
void countFeatures(dojo::KernelOp kernel, GeneratedKernel &result) {
  auto note = [&](const std::string &f) { ++result.features[f]; };
  for (dojo::BufferOp b : kernel.getBuffers()) {
    note("rank:" + std::to_string(b.getRank()));
    if (b.getLocation() != BufferLocation::heap)
      note("loc:" + dojo::stringifyBufferLocation(b.getLocation()).str());
    if (llvm::any_of(b.getPadding(), [](int64_t p) { return p; }))
      note("padding");
    if (llvm::is_contained(b.getReused(), true))
      note("reuse");
    if (!b.getArrays().empty())
      note("shared");
    if (b.getRole() == Role::inout)
      note("inout");
  }
  for (dojo::ScopeOp s : collectScopes(kernel))
    if (s.getMode() != Mode::seq)
      note("mode:" + getModeSuffix(s.getMode()).str());
  auto noteIndex = [&](AffineMap map) {
    for (const LinearForm &f : getIndexForms(map)) {
      if (llvm::count_if(f.coeffs, [](int64_t c) { return c; }) > 1)
        note("affine-index");
      if (llvm::any_of(f.coeffs, [](int64_t c) { return c < 0; }))
        note("negative-stride");
      if (llvm::any_of(f.coeffs, [](int64_t c) { return std::abs(c) > 1; }))
        note("strided-index");
    }
  };
  for (dojo::LeafOp leaf : collectLeaves(kernel)) {
    note("op:" + dojo::stringifyOpKind(leaf.getKind()).str());
    if (leaf.getReduce() != ReduceKind::none)
      note("reduce:" + dojo::stringifyReduceKind(leaf.getReduce()).str());
    if (isa<dojo::KernelOp>(leaf->getParentOp()))
      note("top-level-leaf");
    noteIndex(leaf.getIndices());
    for (Attribute input : leaf.getInputs()) {
      if (auto access = dyn_cast<dojo::AccessAttr>(input))
        noteIndex(access.getIndices());
      else if (isa<dojo::IndexValueAttr>(input))
        note("index-value");
      else if (auto c = dyn_cast<FloatAttr>(input))
        note(std::isinf(c.getValueAsDouble()) ? "constant:inf" : "constant");
    }
  }
}

/// Verifies `text` in `context`; returns the diagnostics if it does not.
std::string importErrors(StringRef text, MLIRContext *context,
                         OwningOpRef<ModuleOp> &module) {
  std::string errors;
  ScopedDiagnosticHandler capture(context, [&](Diagnostic &d) {
    llvm::raw_string_ostream os(errors);
    os << d.getLocation() << ": " << d << "\n";
    return success();
  });
  module = importDojoString(text, context, "generated.dojo");
  if (!module && errors.empty())
    errors = "the kernel does not import\n";
  return errors;
}

} // namespace

KernelGenerator::KernelGenerator(MLIRContext *context, KernelGenOptions options)
    : context(context), options(std::move(options)) {
  if (this->options.dtypes.empty())
    this->options.dtypes = getDojoElementTypes(context);
}

GeneratedKernel KernelGenerator::generate(uint64_t seed) {
  GeneratedKernel result;
  result.seed = seed;
  KernelBuilder builder(options, options.dtypes, seed, result);
  builder.build();
  result.text = builder.print();
  OwningOpRef<ModuleOp> module;
  result.error = importErrors(result.text, context, module);
  if (!result.verified())
    return result;
  builder.assignModes(getSingleKernel(*module));
  result.text = builder.print();
  result.error = importErrors(result.text, context, module);
  if (!result.verified())
    return result;
  dojo::KernelOp kernel = getSingleKernel(*module);
  countFeatures(kernel, result);
  result.gpu = !isCpuExecutable(kernel);
  return result;
}
