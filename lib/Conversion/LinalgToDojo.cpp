//===- LinalgToDojo.cpp - linalg structured ops as dojo kernels -----------===//
//
// A structured op on memrefs is already a loop nest with affine accesses and
// a scalar body: its loops become scopes (parallel ones outside), its
// indexing maps the leaves' index lists, and each arith/math operation of
// its body one leaf. Values the body computes and uses again live in
// temporaries over the whole iteration space, which the naive pass shrinks.
// Anything the IR cannot say exactly is left alone with a remark: the
// conversion never guesses.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Conversion/Passes.h"
#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

namespace perfdojo {
#define GEN_PASS_DEF_CONVERTLINALGTODOJOPASS
#include "perfdojo/Conversion/Passes.h.inc"
} // namespace perfdojo

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

namespace {

/// Why an op is left as it is (the remark's text).
using Reason = std::string;

/// The leaf operation of a body operation, for the ones the IR has.
std::optional<OpKind> getLeafKind(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<OpKind>>(op)
      .Case<arith::AddFOp, arith::AddIOp>([](auto) { return OpKind::add; })
      .Case<arith::SubFOp, arith::SubIOp>([](auto) { return OpKind::sub; })
      .Case<arith::MulFOp, arith::MulIOp>([](auto) { return OpKind::mul; })
      .Case<arith::DivFOp, arith::DivSIOp>([](auto) { return OpKind::div; })
      .Case<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp>(
          [](auto) { return OpKind::max; })
      .Case<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp>(
          [](auto) { return OpKind::min; })
      .Case<arith::NegFOp>([](auto) { return OpKind::neg; })
      .Case<math::AbsFOp, math::AbsIOp>([](auto) { return OpKind::abs; })
      .Case<math::ExpOp>([](auto) { return OpKind::exp; })
      .Case<math::LogOp>([](auto) { return OpKind::log; })
      .Case<math::SqrtOp>([](auto) { return OpKind::sqrt; })
      .Case<math::RsqrtOp>([](auto) { return OpKind::rsqrt; })
      .Case<math::TanhOp>([](auto) { return OpKind::tanh; })
      .Case<math::SinOp>([](auto) { return OpKind::sin; })
      .Case<math::CosOp>([](auto) { return OpKind::cos; })
      .Case<math::TanOp>([](auto) { return OpKind::tan; })
      .Case<math::AsinOp>([](auto) { return OpKind::asin; })
      .Case<math::AcosOp>([](auto) { return OpKind::acos; })
      .Case<math::AtanOp>([](auto) { return OpKind::atan; })
      .Case<math::SinhOp>([](auto) { return OpKind::sinh; })
      .Case<math::CoshOp>([](auto) { return OpKind::cosh; })
      .Case<math::AsinhOp>([](auto) { return OpKind::asinh; })
      .Case<math::AcoshOp>([](auto) { return OpKind::acosh; })
      .Case<math::AtanhOp>([](auto) { return OpKind::atanh; })
      .Case<math::ErfOp>([](auto) { return OpKind::erf; })
      .Case<math::FloorOp>([](auto) { return OpKind::floor; })
      .Case<math::CeilOp>([](auto) { return OpKind::ceil; })
      .Case<math::RoundEvenOp>([](auto) { return OpKind::round; })
      .Default([](Operation *) { return std::nullopt; });
}

/// The reduction a combining operation performs (`out = out + x`).
std::optional<ReduceKind> getReduceKind(Operation *op) {
  std::optional<OpKind> kind = getLeafKind(op);
  if (!kind)
    return std::nullopt;
  switch (*kind) {
  case OpKind::add:
    return ReduceKind::add;
  case OpKind::mul:
    return ReduceKind::mul;
  case OpKind::max:
    return ReduceKind::max;
  case OpKind::min:
    return ReduceKind::min;
  default:
    return std::nullopt;
  }
}

/// The value of a constant scalar, or nullopt.
std::optional<double> getConstantValue(Value value) {
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValueAsDouble();
  if (auto i = dyn_cast<IntegerAttr>(attr)) {
    if (i.getType().isInteger(1))
      return i.getValue().getBoolValue() ? 1.0 : 0.0;
    // Leaf constants are f64: only integers it holds exactly.
    int64_t exact = i.getValue().getSExtValue();
    double value = static_cast<double>(exact);
    if (value >= 0x1p63 || static_cast<int64_t>(value) != exact)
      return std::nullopt;
    return value;
  }
  return std::nullopt;
}

/// A statically shaped memref with the identity layout in the default
/// memory space and an element type of the IR; a reason otherwise.
std::optional<Reason> findMemRefViolation(MemRefType type, unsigned operand) {
  std::string which = "operand " + std::to_string(operand);
  if (!type.hasStaticShape())
    return which + " has a dynamic shape";
  if (!type.getLayout().isIdentity())
    return which + " has a non-identity layout (a strided view)";
  if (type.getMemorySpace())
    return which + " is in a memory space";
  if (!isSupportedElementType(type.getElementType()))
    return which + " has element type " +
           llvm::formatv("{0}", type.getElementType()).str() +
           ", not one of " + getSupportedElementTypeList().str();
  return std::nullopt;
}

/// The memref `value` is a view of (through casts and other view-like ops).
Value getViewSource(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

/// Builds the kernel of one structured op (with the fills folded into it).
class KernelBuilder {
public:
  KernelBuilder(linalg::LinalgOp op, DenseMap<unsigned, linalg::FillOp> folds)
      : op(op), folds(std::move(folds)), ctx(op->getContext()) {}

  /// The kernel, created before `op`'s enclosing symbol table's op
  /// (detached when it fails), or why there is none.
  FailureOr<KernelOp> build(StringRef name, Reason &why);

  /// Operand numbers of `op` the kernel's argument buffers stand for, in
  /// declaration order.
  ArrayRef<int64_t> getArgumentOperands() const { return argumentOperands; }

private:
  std::optional<Reason> checkOperandsAndLoops();
  std::optional<Reason> declareBuffers(OpBuilder &b);
  std::optional<Reason> planBody();
  FailureOr<Attribute> getLeafOperand(Value value, Reason &why);
  std::optional<Reason> emitLeaf(OpBuilder &b, StringRef array,
                                 AffineMap indices, OpKind kind,
                                 ReduceKind reduce, ArrayRef<Value> operands,
                                 Location loc);
  /// `map` of `op`'s loops over the kernel's depths.
  AffineMap toDepths(AffineMap map) const;

  linalg::LinalgOp op;
  /// Output (init) number -> the fill it absorbs.
  DenseMap<unsigned, linalg::FillOp> folds;
  MLIRContext *ctx;

  SmallVector<int64_t> loopSizes;           ///< by loop of `op`
  SmallVector<unsigned> depthOfLoop;        ///< loop of `op` -> depth
  SmallVector<unsigned> loopAtDepth;        ///< depth -> loop of `op`
  unsigned parallelLoops = 0;
  /// The array each memref operand's buffer holds.
  DenseMap<Value, std::string> arrays;
  SmallVector<int64_t> argumentOperands;
  /// Body values held in temporaries, by their array name.
  DenseMap<Value, std::string> temporaries;
  SmallVector<Operation *> materialized; ///< in body order
  SmallVector<std::string> temporaryNames; ///< of `materialized`
  KernelOp kernel;
};

std::optional<Reason> KernelBuilder::checkOperandsAndLoops() {
  if (!op.hasPureBufferSemantics())
    return std::string("it has tensor operands (bufferize first, e.g. "
                       "one-shot-bufferize)");
  for (OpOperand &operand : op->getOpOperands()) {
    Type type = operand.get().getType();
    if (auto memref = dyn_cast<MemRefType>(type)) {
      if (std::optional<Reason> why =
              findMemRefViolation(memref, operand.getOperandNumber()))
        return why;
    } else if (isa<ShapedType>(type)) {
      return "operand " + std::to_string(operand.getOperandNumber()) +
             " is neither a memref nor a scalar";
    }
  }
  for (int64_t size : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(size))
      return std::string("its loop ranges are not static");
    if (size <= 0)
      return std::string("its iteration space is empty");
  }
  loopSizes = op.getStaticLoopRanges();
  // Parallel loops outside reduction loops, each group in its order.
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  depthOfLoop.assign(iterators.size(), 0);
  for (bool parallel : {true, false})
    for (auto [loop, iterator] : llvm::enumerate(iterators))
      if ((iterator == utils::IteratorType::parallel) == parallel) {
        depthOfLoop[loop] = loopAtDepth.size();
        loopAtDepth.push_back(loop);
      }
  parallelLoops = llvm::count(iterators, utils::IteratorType::parallel);
  if (std::optional<std::string> tooDeep =
          findScopeDepthViolation(loopAtDepth.size()))
    return *tooDeep;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (map.getNumSymbols())
      return "the indexing map of operand " +
             std::to_string(operand.getOperandNumber()) + " has symbols";
    for (AffineExpr e : map.getResults())
      if (!getLinearForm(e))
        return "the indexing map of operand " +
               std::to_string(operand.getOperandNumber()) +
               " is not linear (floordiv, mod or a product of loops)";
  }
  // Outputs: one element per point of the parallel loops.
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    bool permutation =
        map.isProjectedPermutation() &&
        map.getNumResults() == parallelLoops &&
        llvm::all_of(map.getResults(), [&](AffineExpr e) {
          return iterators[cast<AffineDimExpr>(e).getPosition()] ==
                 utils::IteratorType::parallel;
        });
    if (!permutation)
      return "output operand " + std::to_string(init.getOperandNumber()) +
             " is not indexed by a permutation of the parallel loops";
    // The kernel's function takes non-overlapping (`noalias`) memrefs.
    for (OpOperand &other : op->getOpOperands())
      if (&other != &init && isa<MemRefType>(other.get().getType()) &&
          getViewSource(other.get()) == getViewSource(init.get()))
        return (op.isDpsInput(&other) ? "input operand " : "output operand ") +
               std::to_string(other.getOperandNumber()) +
               (other.get() == init.get() ? " is also output operand "
                                          : " is a view of output operand ") +
               std::to_string(init.getOperandNumber());
  }
  return std::nullopt;
}

AffineMap KernelBuilder::toDepths(AffineMap map) const {
  SmallVector<AffineExpr> dims;
  for (unsigned loop = 0; loop < map.getNumDims(); ++loop)
    dims.push_back(getAffineDimExpr(depthOfLoop[loop], ctx));
  SmallVector<AffineExpr> results;
  for (AffineExpr e : map.getResults())
    results.push_back(e.replaceDims(dims));
  return makeIndexMap(results, ctx);
}

std::optional<Reason> KernelBuilder::declareBuffers(OpBuilder &b) {
  Block *body = op.getBlock();
  auto declare = [&](OpOperand &operand, StringRef name, Role role) {
    auto type = cast<MemRefType>(operand.get().getType());
    BufferOp::create(b, op.getLoc(), name, type.getElementType(),
                     type.getShape(), BufferLocation::heap, role);
    arrays[operand.get()] = name.str();
    argumentOperands.push_back(operand.getOperandNumber());
  };
  // Inputs the body reads, each memref once.
  unsigned inputs = 0;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!isa<MemRefType>(input->get().getType()) ||
        arrays.count(input->get()) ||
        body->getArgument(input->getOperandNumber()).use_empty())
      continue;
    declare(*input, "in" + std::to_string(inputs++), Role::in);
  }
  unsigned outputs = 0;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    if (arrays.count(init.get()))
      return "output operand " + std::to_string(init.getOperandNumber()) +
             " is another output too";
    bool readsOld = !body->getArgument(init.getOperandNumber()).use_empty() &&
                    !folds.count(init.getOperandNumber() -
                                 op.getNumDpsInputs());
    declare(init, "out" + std::to_string(outputs++),
            readsOld ? Role::inout : Role::out);
  }
  return std::nullopt;
}

FailureOr<Attribute> KernelBuilder::getLeafOperand(Value value, Reason &why) {
  Block *body = op.getBlock();
  if (auto arg = dyn_cast<BlockArgument>(value); arg && arg.getOwner() == body) {
    OpOperand &operand = op->getOpOperand(arg.getArgNumber());
    if (isa<MemRefType>(operand.get().getType()))
      return Attribute(AccessAttr::get(
          ctx, StringAttr::get(ctx, arrays.lookup(operand.get())),
          toDepths(op.getMatchingIndexingMap(&operand))));
    value = operand.get(); // a scalar operand: a constant, or unsupported
  }
  if (std::optional<double> constant = getConstantValue(value))
    return Attribute(FloatAttr::get(Float64Type::get(ctx), *constant));
  // linalg.index, converted to the element type: an index value.
  Value index = value;
  while (Operation *def = index.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::SIToFPOp,
             arith::UIToFPOp>(def))
      break;
    index = def->getOperand(0);
  }
  if (auto linalgIndex = index.getDefiningOp<linalg::IndexOp>())
    return Attribute(IndexValueAttr::get(
        ctx, makeIndexMap({getAffineDimExpr(depthOfLoop[linalgIndex.getDim()],
                                            ctx)},
                          ctx)));
  if (auto it = temporaries.find(value); it != temporaries.end()) {
    SmallVector<AffineExpr> all;
    for (unsigned d = 0; d < loopAtDepth.size(); ++d)
      all.push_back(getAffineDimExpr(d, ctx));
    return Attribute(AccessAttr::get(ctx, StringAttr::get(ctx, it->second),
                                     makeIndexMap(all, ctx)));
  }
  if (matchPattern(value, m_Constant()))
    why = "a constant of its body has no exact f64 value (leaf constants "
          "are f64)";
  else if (!value.getParentBlock() || value.getParentBlock() != body)
    why = "its body uses a value from outside that is not a constant";
  else if (Operation *def = value.getDefiningOp())
    why = "body operation '" + def->getName().getStringRef().str() +
          "' has no dojo leaf operation";
  else
    why = "its body has an unsupported block argument";
  return failure();
}

std::optional<Reason> KernelBuilder::emitLeaf(OpBuilder &b, StringRef array,
                                              AffineMap indices, OpKind kind,
                                              ReduceKind reduce,
                                              ArrayRef<Value> operands,
                                              Location loc) {
  SmallVector<Attribute> inputs;
  Type type = kernel.lookupArray(array).getElementType();
  for (auto [position, value] : llvm::enumerate(operands)) {
    Reason why;
    FailureOr<Attribute> operand = getLeafOperand(value, why);
    if (failed(operand))
      return why;
    if (auto constant = dyn_cast<FloatAttr>(*operand))
      if (std::optional<std::string> bad = findConstantViolation(
              constant.getValueAsDouble(), type, kind, position))
        return *bad;
    inputs.push_back(*operand);
  }
  if (std::optional<std::string> bad =
          findOperationTypeViolation(kind, reduce, type))
    return *bad;
  LeafOp::create(b, loc, b.getStringAttr(array), AffineMapAttr::get(indices),
                 OpKindAttr::get(ctx, kind), ReduceKindAttr::get(ctx, reduce),
                 b.getArrayAttr(inputs));
  return std::nullopt;
}

FailureOr<KernelOp> KernelBuilder::build(StringRef name, Reason &why) {
  if (std::optional<Reason> bad = checkOperandsAndLoops()) {
    why = *bad;
    return failure();
  }
  OpBuilder b(ctx);
  kernel = KernelOp::create(b, op.getLoc(), name);
  auto fail = [&](Reason reason) -> FailureOr<KernelOp> {
    why = std::move(reason);
    kernel->erase();
    return failure();
  };
  b.setInsertionPointToEnd(&kernel.getBlock());
  if (std::optional<Reason> bad = declareBuffers(b))
    return fail(*bad);

  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  unsigned numInputs = op.getNumDpsInputs();
  bool reduces = parallelLoops < loopAtDepth.size();

  // Each output's final statement: the operation its leaf performs (the
  // root, unless it is a plain value), the reduction, and the values it
  // reads.
  struct Statement {
    OpKind kind = OpKind::copy;
    ReduceKind reduce = ReduceKind::none;
    Operation *root = nullptr; ///< performed by the output's own leaf
    SmallVector<Value, 2> operands;
  };
  SmallVector<Statement> statements;
  for (auto [j, yielded] : llvm::enumerate(yield.getValues())) {
    BlockArgument outArg = body->getArgument(numInputs + j);
    Statement s;
    Value contribution = yielded;
    if (reduces) {
      Operation *combiner = yielded.getDefiningOp();
      std::optional<ReduceKind> reduce =
          combiner && combiner->getBlock() == body ? getReduceKind(combiner)
                                                   : std::nullopt;
      int outSide = !reduce ? -1
                    : combiner->getOperand(0) == outArg ? 0
                    : combiner->getOperand(1) == outArg ? 1
                                                        : -1;
      if (outSide < 0 || !combiner->hasOneUse() || !outArg.hasOneUse() ||
          combiner->getOperand(0) == combiner->getOperand(1))
        return fail("its reduction body does not combine output " +
                    std::to_string(j) +
                    " as `out = out (+ | * | max | min) f(inputs)`");
      s.reduce = *reduce;
      contribution = combiner->getOperand(1 - outSide);
    }
    Operation *def = contribution.getDefiningOp();
    if (def && def->getBlock() == body && getLeafKind(def) &&
        contribution.hasOneUse()) {
      s.kind = *getLeafKind(def);
      s.root = def;
      s.operands.assign(def->operand_begin(), def->operand_end());
    } else {
      s.operands.push_back(contribution);
    }
    statements.push_back(std::move(s));
  }
  // The outputs' leaves run in order: one must not read the new value of
  // an output written before it (the body reads old values only).
  for (auto [j, s] : llvm::enumerate(statements))
    for (Value v : s.operands)
      if (auto arg = dyn_cast<BlockArgument>(v);
          arg && arg.getOwner() == body && arg.getArgNumber() >= numInputs &&
          arg.getArgNumber() < numInputs + j)
        return fail("output " + std::to_string(j) +
                    " is computed from the old value of an earlier output");

  // Temporaries: every other body operation a statement depends on, in
  // body order (operands before their users).
  llvm::SmallPtrSet<Operation *, 8> needed;
  SmallVector<Value> worklist;
  for (Statement &s : statements)
    llvm::append_range(worklist, s.operands);
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != body || !needed.insert(def).second)
      continue;
    if (!getLeafKind(def))
      continue; // a constant, an index, or unsupported: getLeafOperand says
    llvm::append_range(worklist, def->getOperands());
  }
  for (Operation &bodyOp : body->without_terminator()) {
    if (!needed.contains(&bodyOp) || !getLeafKind(&bodyOp))
      continue;
    Type type = bodyOp.getResult(0).getType();
    if (!isSupportedElementType(type))
      return fail("body operation '" + bodyOp.getName().getStringRef().str() +
                  "' computes a type the IR lacks");
    std::string array = "t" + std::to_string(materialized.size());
    SmallVector<int64_t> shape;
    for (unsigned loop : loopAtDepth)
      shape.push_back(loopSizes[loop]);
    b.setInsertionPointToEnd(&kernel.getBlock());
    BufferOp::create(b, bodyOp.getLoc(), array, type, shape,
                     BufferLocation::heap, Role::internal);
    materialized.push_back(&bodyOp);
    temporaryNames.push_back(array);
  }

  // The tree: parallel scopes, the folded initializations, reduction
  // scopes, then the temporaries' leaves and the outputs' leaves.
  b.setInsertionPointToEnd(&kernel.getBlock());
  unsigned depth = 0;
  for (; depth < parallelLoops; ++depth) {
    auto scope = ScopeOp::create(b, op.getLoc(), loopSizes[loopAtDepth[depth]],
                                 Mode::seq);
    b.setInsertionPointToStart(&scope.getBlock());
  }
  SmallVector<unsigned> folded;
  for (auto &entry : folds)
    folded.push_back(entry.first);
  llvm::sort(folded);
  for (unsigned j : folded) {
    linalg::FillOp fill = folds.lookup(j);
    OpOperand *init = op.getDpsInitOperand(j);
    if (std::optional<Reason> bad = emitLeaf(
            b, arrays.lookup(init->get()),
            toDepths(op.getMatchingIndexingMap(init)), OpKind::copy,
            ReduceKind::none, {fill.getInputs()[0]}, fill.getLoc()))
      return fail(*bad);
  }
  for (; depth < loopAtDepth.size(); ++depth) {
    auto scope = ScopeOp::create(b, op.getLoc(), loopSizes[loopAtDepth[depth]],
                                 Mode::seq);
    b.setInsertionPointToStart(&scope.getBlock());
  }
  SmallVector<AffineExpr> all;
  for (unsigned d = 0; d < loopAtDepth.size(); ++d)
    all.push_back(getAffineDimExpr(d, ctx));
  for (auto [bodyOp, array] : llvm::zip(materialized, temporaryNames)) {
    if (std::optional<Reason> bad =
            emitLeaf(b, array, makeIndexMap(all, ctx), *getLeafKind(bodyOp),
                     ReduceKind::none,
                     SmallVector<Value>(bodyOp->getOperands()), bodyOp->getLoc()))
      return fail(*bad);
    temporaries[bodyOp->getResult(0)] = array;
  }
  for (auto [j, s] : llvm::enumerate(statements)) {
    OpOperand *init = op.getDpsInitOperand(j);
    if (std::optional<Reason> bad = emitLeaf(
            b, arrays.lookup(init->get()),
            toDepths(op.getMatchingIndexingMap(init)), s.kind, s.reduce,
            s.operands, s.root ? s.root->getLoc() : op.getLoc()))
      return fail(*bad);
  }

  // The IR's own checks have the last word: a kernel that breaks a rule is
  // a conversion the IR cannot express, never one to emit.
  std::string diagnostics;
  {
    ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &diag) {
      if (diagnostics.empty())
        diagnostics = diag.str();
      return success();
    });
    if (failed(verify(kernel)))
      return fail("the kernel built for it does not verify: " + diagnostics);
  }
  return kernel;
}

/// The `linalg.fill` of a constant that initializes output `init` of `op`
/// right before it: same block, and nothing in between touches the memref
/// or has effects the conversion cannot see.
linalg::FillOp findFoldableFill(linalg::LinalgOp op, OpOperand &init) {
  Value memref = init.get();
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(prev)) {
      if (fill.getOutputs()[0] == memref) {
        if (fill->hasAttr(kOutlineAttrName) || fill->hasAttr(kFoldedIntoAttrName) ||
            !getConstantValue(fill.getInputs()[0]) ||
            fill.getInputs()[0].getType() !=
                cast<MemRefType>(memref.getType()).getElementType())
          return nullptr;
        return fill;
      }
    }
    if (llvm::is_contained(prev->getOperands(), memref))
      return nullptr;
    auto effects = dyn_cast<MemoryEffectOpInterface>(prev);
    if (!effects && !prev->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return nullptr;
    if (effects) {
      SmallVector<MemoryEffects::EffectInstance> instances;
      effects.getEffects(instances);
      for (MemoryEffects::EffectInstance &effect : instances)
        if (!effect.getValue() || effect.getValue() == memref)
          return nullptr;
    } else if (!isMemoryEffectFree(prev)) {
      return nullptr;
    }
  }
  return nullptr;
}

class ConvertLinalgToDojoPass
    : public perfdojo::impl::ConvertLinalgToDojoPassBase<
          ConvertLinalgToDojoPass> {
public:
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // Kernels by canonical text: identical ops share one kernel.
    llvm::StringMap<std::string> byText;
    // Reductions first, so the fills they absorb are not converted alone.
    SmallVector<linalg::LinalgOp> ops;
    for (bool reductions : {true, false})
      module.walk([&](linalg::LinalgOp op) {
        if (!op->hasAttr(kOutlineAttrName) && !op->hasAttr(kFoldedIntoAttrName) &&
            (op.getNumReductionLoops() > 0) == reductions)
          ops.push_back(op);
      });
    unsigned counter = 0;
    for (linalg::LinalgOp op : ops) {
      if (op->hasAttr(kFoldedIntoAttrName))
        continue;
      DenseMap<unsigned, linalg::FillOp> folds;
      if (op.getNumReductionLoops() > 0 && op.hasPureBufferSemantics())
        for (OpOperand &init : op.getDpsInitsMutable())
          if (linalg::FillOp fill = findFoldableFill(op, init))
            folds[init.getOperandNumber() - op.getNumDpsInputs()] = fill;
      std::string name = getKernelName(op, counter++);
      KernelBuilder builder(op, folds);
      Reason why;
      FailureOr<KernelOp> kernel = builder.build(name, why);
      if (failed(kernel)) {
        op->emitRemark() << "not converted to a dojo kernel: " << why;
        continue;
      }
      std::string text;
      llvm::raw_string_ostream os(text);
      exportDojo(*kernel, os);
      auto [it, inserted] = byText.try_emplace(text, name);
      if (inserted) {
        symbols.insert(*kernel);
        it->second = kernel->getSymName().str();
      } else {
        (*kernel)->erase();
      }
      auto symbol = FlatSymbolRefAttr::get(&getContext(), it->second);
      op->setAttr(kOutlineAttrName, symbol);
      op->setAttr(kOutlineOperandsAttrName, DenseI64ArrayAttr::get(
                                            &getContext(),
                                            builder.getArgumentOperands()));
      for (auto &entry : folds)
        entry.second->setAttr(kFoldedIntoAttrName, symbol);
    }
  }

private:
  /// `<function>_<op>_<n>`, e.g. `forward_matmul_0`.
  static std::string getKernelName(linalg::LinalgOp op, unsigned counter) {
    std::string function = "kernel";
    if (auto parent = op->getParentOfType<SymbolOpInterface>())
      function = parent.getName().str();
    StringRef opName = op->getName().stripDialect();
    std::string name = function + "_" + opName.str() + "_" +
                       std::to_string(counter);
    std::replace(name.begin(), name.end(), '.', '_');
    return name;
  }
};

} // namespace
