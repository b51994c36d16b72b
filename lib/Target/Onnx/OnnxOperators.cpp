//===- OnnxOperators.cpp - ONNX operators as scope nests ------------------===//
//
// One function per operator family, each following the operator's
// specification (onnx.ai/onnx/operators) at the model's opset: attributes
// and their defaults, numpy-style broadcasting, and the arithmetic each
// output element is, written as leaves in the element type of the output.
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"

#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::onnx;

//===----------------------------------------------------------------------===//
// Elementwise (Elementwise.h)
//===----------------------------------------------------------------------===//

std::optional<SmallVector<int64_t, 4>> onnx::broadcast(ArrayRef<int64_t> a,
                                                       ArrayRef<int64_t> b) {
  SmallVector<int64_t, 4> out(std::max(a.size(), b.size()), 1);
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t x = i < out.size() - a.size() ? 1 : a[i - (out.size() - a.size())];
    int64_t y = i < out.size() - b.size() ? 1 : b[i - (out.size() - b.size())];
    if (x != y && x != 1 && y != 1)
      return std::nullopt;
    out[i] = std::max(x, y);
  }
  return out;
}

Index onnx::broadcastIndex(const GraphValue &value,
                           ArrayRef<AffineExpr> outIndex, MLIRContext *ctx) {
  Index index;
  size_t offset = outIndex.size() - value.rank();
  for (unsigned d = 0; d < value.rank(); ++d)
    index.push_back(value.shape[d] == 1 ? getAffineConstantExpr(0, ctx)
                                        : outIndex[offset + d]);
  return index;
}

void onnx::emitChain(GraphBuilder &g, const GraphValue &out,
                     ArrayRef<Step> steps) {
  g.emitNest(out.shape, [&](Nest &nest) {
    Index index = nest.vars(out.rank());
    for (const Step &step : steps) {
      SmallVector<Attribute, 3> inputs;
      for (const Operand &operand : step.operands) {
        if (operand.value)
          inputs.push_back(nest.read(
              *operand.value, broadcastIndex(*operand.value, index, g.ctx)));
        else if (operand.prev)
          inputs.push_back(nest.read(out, index));
        else
          inputs.push_back(nest.constant(operand.constant));
      }
      nest.leaf(out, index, step.kind, inputs);
    }
  });
}

void onnx::emitReduction(GraphBuilder &g, const GraphValue &x,
                         ArrayRef<bool> reduced, bool keep,
                         const GraphValue &out, OpKind contribution,
                         ReduceKind reduce, double identity) {
  // Kept dimensions outside, reduced ones inside.
  SmallVector<int64_t, 4> keptSizes, reducedSizes;
  SmallVector<unsigned, 4> keptDims, reducedDims;
  for (unsigned d = 0; d < x.rank(); ++d) {
    (reduced[d] ? reducedDims : keptDims).push_back(d);
    (reduced[d] ? reducedSizes : keptSizes).push_back(x.shape[d]);
  }
  g.emitNest(keptSizes, [&](Nest &nest) {
    Index kept = nest.vars(keptSizes.size());
    Index at;
    unsigned next = 0;
    for (unsigned d = 0; d < x.rank(); ++d) {
      if (!reduced[d])
        at.push_back(kept[next++]);
      else if (keep)
        at.push_back(getAffineConstantExpr(0, g.ctx));
    }
    nest.leaf(out, at, OpKind::copy, {nest.constant(identity)});
    for (int64_t size : reducedSizes)
      nest.enter(size);
    Index in(x.rank(), AffineExpr());
    for (auto [i, d] : llvm::enumerate(keptDims))
      in[d] = kept[i];
    for (auto [i, d] : llvm::enumerate(reducedDims))
      in[d] = nest.var(keptSizes.size() + i);
    Attribute element = nest.read(x, in);
    SmallVector<Attribute, 2> inputs = {element};
    if (contribution == OpKind::mul)
      inputs.push_back(element);
    nest.leaf(out, at, contribution, inputs, reduce);
  });
}

namespace {

/// Checks that `type` can take `kind` (a transcendental needs a float).
bool checkKind(GraphBuilder &g, const Node &node, OpKind kind, Type type) {
  if (std::optional<std::string> bad =
          findOperationTypeViolation(kind, ReduceKind::none, type)) {
    g.unsupported(node.opType + ": " + *bad);
    return false;
  }
  return true;
}

/// The ONNX operators that are one function of the IR each.
std::optional<OpKind> getElementwiseFunction(StringRef op) {
  return llvm::StringSwitch<std::optional<OpKind>>(op)
      .Case("Sin", OpKind::sin)
      .Case("Cos", OpKind::cos)
      .Case("Tan", OpKind::tan)
      .Case("Asin", OpKind::asin)
      .Case("Acos", OpKind::acos)
      .Case("Atan", OpKind::atan)
      .Case("Sinh", OpKind::sinh)
      .Case("Cosh", OpKind::cosh)
      .Case("Asinh", OpKind::asinh)
      .Case("Acosh", OpKind::acosh)
      .Case("Atanh", OpKind::atanh)
      .Case("Erf", OpKind::erf)
      .Case("Floor", OpKind::floor)
      .Case("Ceil", OpKind::ceil)
      .Case("Round", OpKind::round)
      .Case("Sign", OpKind::sign)
      .Default(std::nullopt);
}

void lowerUnary(GraphBuilder &g, const Node &node) {
  const GraphValue *x = g.input(node, 0);
  if (!x)
    return;
  Type type = x->type;
  StringRef op = node.opType;
  SmallVector<Step> steps;
  auto in = Operand::of(x);
  auto prev = Operand::previous();
  auto c = Operand::number;
  if (op == "Abs") steps = {{OpKind::abs, {in}}};
  else if (op == "Neg") steps = {{OpKind::neg, {in}}};
  else if (op == "Exp") steps = {{OpKind::exp, {in}}};
  else if (op == "Log") steps = {{OpKind::log, {in}}};
  else if (op == "Sqrt") steps = {{OpKind::sqrt, {in}}};
  else if (op == "Tanh") steps = {{OpKind::tanh, {in}}};
  else if (op == "Sigmoid") steps = {{OpKind::sigmoid, {in}}};
  else if (op == "Relu") steps = {{OpKind::relu, {in}}};
  else if (std::optional<OpKind> f = getElementwiseFunction(op))
    steps = {{*f, {in}}};
  else if (op == "Reciprocal") steps = {{OpKind::div, {c(1), in}}};
  else if (op == "Identity") steps = {{OpKind::copy, {in}}};
  else if (op == "Softplus")
    steps = {{OpKind::exp, {in}}, {OpKind::add, {prev, c(1)}},
             {OpKind::log, {prev}}};
  else if (op == "Softsign")
    steps = {{OpKind::abs, {in}}, {OpKind::add, {prev, c(1)}},
             {OpKind::div, {in, prev}}};
  else if (op == "HardSigmoid") {
    double alpha = node.getFloat("alpha", 0.2), beta = node.getFloat("beta", 0.5);
    steps = {{OpKind::mul, {in, c(alpha)}}, {OpKind::add, {prev, c(beta)}},
             {OpKind::min, {prev, c(1)}}, {OpKind::max, {prev, c(0)}}};
  } else if (op == "HardSwish") {
    // x * max(0, min(1, x / 6 + 1/2)), the specification's formula.
    steps = {{OpKind::div, {in, c(6)}}, {OpKind::add, {prev, c(0.5)}},
             {OpKind::min, {prev, c(1)}}, {OpKind::max, {prev, c(0)}},
             {OpKind::mul, {in, prev}}};
  } else if (op == "Celu") {
    // max(0, x) + min(0, alpha * (exp(x / alpha) - 1)), the specification's
    // formula.
    double alpha = node.getFloat("alpha", 1.0);
    if (alpha == 0)
      return g.unsupported("Celu with alpha 0 divides by 0");
    const GraphValue *neg = g.declareTemporary(type, x->shape);
    if (!neg)
      return;
    emitChain(g, *neg,
              {{OpKind::div, {in, c(alpha)}}, {OpKind::exp, {prev}},
               {OpKind::sub, {prev, c(1)}}, {OpKind::mul, {prev, c(alpha)}},
               {OpKind::min, {prev, c(0)}}});
    steps = {{OpKind::max, {in, c(0)}}, {OpKind::add, {prev, Operand::of(neg)}}};
  } else if (op == "Elu" || op == "Selu") {
    // alpha * (exp(x) - 1) for x < 0, x otherwise (Selu: x > 0 and
    // x <= 0, the same values), then times gamma for Selu.
    double alpha = node.getFloat("alpha", op == "Elu" ? 1.0 : 1.67326319217681884765625);
    double gamma = node.getFloat("gamma", 1.05070102214813232421875);
    const GraphValue *negative =
        g.declareTemporary(IntegerType::get(g.ctx, 1), x->shape);
    const GraphValue *neg = g.declareTemporary(type, x->shape);
    if (!negative || !neg || !checkKind(g, node, OpKind::exp, type))
      return;
    emitChain(g, *negative, {{OpKind::lt, {in, c(0)}}});
    emitChain(g, *neg,
              {{OpKind::exp, {in}}, {OpKind::sub, {prev, c(1)}},
               {OpKind::mul, {prev, c(alpha)}}});
    steps = {{OpKind::select,
              {Operand::of(negative), Operand::of(neg), in}}};
    if (op == "Selu")
      steps.push_back({OpKind::mul, {prev, c(gamma)}});
  } else if (op == "Dropout") {
    if (node.hasInput(2))
      return g.unsupported("Dropout with a training_mode input");
    if (node.outputs.size() > 1 && !node.outputs[1].empty())
      return g.unsupported("Dropout's mask output");
    steps = {{OpKind::copy, {in}}};
  }
  for (const Step &step : steps)
    if (!checkKind(g, node, step.kind, type))
      return;
  const GraphValue *y = g.defineOutput(node, 0, type, x->shape);
  if (y)
    emitChain(g, *y, steps);
}

void lowerBinary(GraphBuilder &g, const Node &node) {
  StringRef op = node.opType;
  OpKind kind = llvm::StringSwitch<OpKind>(op)
                    .Case("Add", OpKind::add)
                    .Case("Sub", OpKind::sub)
                    .Case("Mul", OpKind::mul)
                    .Case("Div", OpKind::div)
                    .Cases({"Max", "Min"}, op == "Max" ? OpKind::max : OpKind::min)
                    .Cases({"Sum", "Mean"}, OpKind::add)
                    .Default(OpKind::copy);
  SmallVector<const GraphValue *> inputs;
  for (const std::string &name : node.inputs) {
    const GraphValue *v = g.lookup(name);
    if (!v)
      return;
    if (!inputs.empty() && v->type != inputs.front()->type)
      return g.invalid(op + " mixes element types");
    inputs.push_back(v);
  }
  if (inputs.empty())
    return g.invalid(op + " has no inputs");
  SmallVector<int64_t, 4> shape(inputs.front()->shape);
  for (const GraphValue *v : inputs) {
    std::optional<SmallVector<int64_t, 4>> b = broadcast(shape, v->shape);
    if (!b)
      return g.invalid(op + ": shapes " + GraphBuilder::formatShape(shape) +
                       " and " + GraphBuilder::formatShape(v->shape) +
                       " do not broadcast");
    shape = *b;
  }
  Type type = inputs.front()->type;
  if (isBoolType(type))
    return g.unsupported(op + " on bool tensors");
  if (op == "Mean" && !isFloatType(type))
    return g.invalid("Mean needs a floating-point type");
  SmallVector<Step> steps;
  if (inputs.size() == 1)
    steps.push_back({OpKind::copy, {Operand::of(inputs[0])}});
  else
    steps.push_back({kind, {Operand::of(inputs[0]), Operand::of(inputs[1])}});
  for (size_t i = 2; i < inputs.size(); ++i)
    steps.push_back({kind, {Operand::previous(), Operand::of(inputs[i])}});
  if (op == "Mean")
    steps.push_back(
        {OpKind::div, {Operand::previous(), Operand::number(inputs.size())}});
  if (kind == OpKind::div && !isFloatType(type))
    return g.unsupported("integer Div (its rounding of negative quotients "
                         "is not checked yet)");
  const GraphValue *y = g.defineOutput(node, 0, type, shape);
  if (!y)
    return;
  // An input read after the output was written (a chain over aliasing
  // values) cannot happen: every input is a distinct buffer from `y`.
  emitChain(g, *y, steps);
}

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

void lowerMatMul(GraphBuilder &g, const Node &node) {
  const GraphValue *a = g.input(node, 0);
  const GraphValue *b = g.input(node, 1);
  if (!a || !b)
    return;
  if (a->type != b->type)
    return g.invalid("MatMul mixes element types");
  if (isBoolType(a->type))
    return g.unsupported("MatMul on bool tensors");
  // 1-D operands: a row vector on the left, a column on the right, the
  // added dimension dropped from the result.
  bool vectorA = a->rank() == 1, vectorB = b->rank() == 1;
  SmallVector<int64_t, 4> shapeA(a->shape), shapeB(b->shape);
  if (vectorA)
    shapeA.insert(shapeA.begin(), 1);
  if (vectorB)
    shapeB.push_back(1);
  int64_t m = shapeA[shapeA.size() - 2], k = shapeA.back();
  int64_t kb = shapeB[shapeB.size() - 2], n = shapeB.back();
  if (k != kb)
    return g.invalid("MatMul: inner dimensions " + std::to_string(k) +
                     " and " + std::to_string(kb) + " differ");
  std::optional<SmallVector<int64_t, 4>> batch =
      broadcast(ArrayRef<int64_t>(shapeA).drop_back(2),
                ArrayRef<int64_t>(shapeB).drop_back(2));
  if (!batch)
    return g.invalid("MatMul: batch dimensions do not broadcast");
  SmallVector<int64_t, 4> full(*batch);
  full.push_back(m);
  full.push_back(n);
  SmallVector<int64_t, 4> shape(*batch);
  if (!vectorA)
    shape.push_back(m);
  if (!vectorB)
    shape.push_back(n);
  const GraphValue *y = g.defineOutput(node, 0, a->type, shape);
  if (!y)
    return;
  unsigned nb = batch->size();
  g.emitNest(full, [&](Nest &nest) {
    Index all = nest.vars(full.size());
    Index out(all.begin(), all.begin() + nb);
    if (!vectorA)
      out.push_back(all[nb]);
    if (!vectorB)
      out.push_back(all[nb + 1]);
    nest.leaf(*y, out, OpKind::copy, {nest.constant(0)});
    nest.enter(k);
    AffineExpr kk = nest.var(full.size());
    // Operands: batch dimensions broadcast, then their own two.
    auto operandIndex = [&](const GraphValue &v, bool isA, bool isVector) {
      Index index;
      unsigned own = isVector ? 1 : 2;
      unsigned batchRank = v.rank() - own;
      for (unsigned d = 0; d < batchRank; ++d)
        index.push_back(v.shape[d] == 1
                            ? getAffineConstantExpr(0, g.ctx)
                            : all[nb - batchRank + d]);
      if (isA) {
        if (!isVector)
          index.push_back(all[nb]);
        index.push_back(kk);
      } else {
        index.push_back(kk);
        if (!isVector)
          index.push_back(all[nb + 1]);
      }
      return index;
    };
    nest.leaf(*y, out, OpKind::mul,
              {nest.read(*a, operandIndex(*a, true, vectorA)),
               nest.read(*b, operandIndex(*b, false, vectorB))},
              ReduceKind::add);
  });
}

void lowerGemm(GraphBuilder &g, const Node &node) {
  const GraphValue *a = g.input(node, 0);
  const GraphValue *b = g.input(node, 1);
  const GraphValue *c;
  if (!a || !b || !g.lookupOptional(node, 2, c))
    return;
  if (a->rank() != 2 || b->rank() != 2)
    return g.invalid("Gemm takes 2-D A and B");
  if (!isFloatType(a->type))
    return g.unsupported("Gemm on integers");
  bool transA = node.getInt("transA", 0), transB = node.getInt("transB", 0);
  double alpha = node.getFloat("alpha", 1.0), beta = node.getFloat("beta", 1.0);
  int64_t m = transA ? a->shape[1] : a->shape[0];
  int64_t k = transA ? a->shape[0] : a->shape[1];
  int64_t n = transB ? b->shape[0] : b->shape[1];
  if ((transB ? b->shape[1] : b->shape[0]) != k)
    return g.invalid("Gemm: inner dimensions differ");
  SmallVector<int64_t, 2> shape = {m, n};
  if (c && !broadcast(shape, c->shape))
    return g.invalid("Gemm: C does not broadcast to the result");
  const GraphValue *scaledC = nullptr;
  if (c && beta != 1.0) {
    scaledC = g.declareTemporary(a->type, shape);
    if (!scaledC)
      return;
    emitChain(g, *scaledC, {{OpKind::mul, {Operand::of(c), Operand::number(beta)}}});
  }
  const GraphValue *y = g.defineOutput(node, 0, a->type, shape);
  if (!y)
    return;
  g.emitNest(shape, [&](Nest &nest) {
    Index out = nest.vars(2);
    nest.leaf(*y, out, OpKind::copy, {nest.constant(0)});
    nest.enter(k);
    AffineExpr kk = nest.var(2);
    Index ia = transA ? Index{kk, out[0]} : Index{out[0], kk};
    Index ib = transB ? Index{out[1], kk} : Index{kk, out[1]};
    nest.leaf(*y, out, OpKind::mul, {nest.read(*a, ia), nest.read(*b, ib)},
              ReduceKind::add);
  });
  SmallVector<Step> steps;
  if (alpha != 1.0)
    steps.push_back({OpKind::mul, {Operand::previous(), Operand::number(alpha)}});
  if (c && beta != 0.0)
    steps.push_back({OpKind::add, {Operand::previous(),
                                   Operand::of(scaledC ? scaledC : c)}});
  if (!steps.empty())
    emitChain(g, *y, steps);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// The reduced axes of a Reduce* node (attribute or, from opset 13 for
/// ReduceSum and 18 for the others, a constant input); empty: all, unless
/// noop_with_empty_axes.
std::optional<SmallVector<bool, 4>> getReducedAxes(GraphBuilder &g,
                                                   const Node &node,
                                                   unsigned rank) {
  std::vector<int64_t> axes;
  if (node.hasInput(1)) {
    std::optional<std::vector<int64_t>> values = getConstantInts(g, node, 1);
    if (!values)
      return std::nullopt;
    axes = *values;
  } else if (std::optional<std::vector<int64_t>> attr = node.getInts("axes")) {
    axes = *attr;
  }
  SmallVector<bool, 4> reduced(rank, axes.empty());
  if (axes.empty() && node.getInt("noop_with_empty_axes", 0))
    reduced.assign(rank, false);
  for (int64_t axis : axes) {
    std::optional<unsigned> d = normalizeAxis(axis, rank);
    if (!d) {
      g.invalid(node.opType + ": axis " + std::to_string(axis) +
                " is out of range");
      return std::nullopt;
    }
    reduced[*d] = true;
  }
  return reduced;
}

void lowerReduce(GraphBuilder &g, const Node &node) {
  const GraphValue *x = g.input(node, 0);
  if (!x)
    return;
  StringRef op = node.opType;
  std::optional<SmallVector<bool, 4>> reduced =
      getReducedAxes(g, node, x->rank());
  if (!reduced)
    return;
  bool keep = node.getInt("keepdims", 1);
  Type type = x->type;
  if (isBoolType(type))
    return g.unsupported(op + " on bool tensors");
  // The reduction, the contribution of each element and the final step.
  ReduceKind reduce = llvm::StringSwitch<ReduceKind>(op)
                          .Cases({"ReduceMax"}, ReduceKind::max)
                          .Cases({"ReduceMin"}, ReduceKind::min)
                          .Cases({"ReduceProd"}, ReduceKind::mul)
                          .Default(ReduceKind::add);
  OpKind contribution = OpKind::copy;
  if (op == "ReduceSumSquare" || op == "ReduceL2")
    contribution = OpKind::mul;
  else if (op == "ReduceL1")
    contribution = OpKind::abs;
  else if (op == "ReduceLogSumExp")
    contribution = OpKind::exp;
  std::optional<OpKind> finish;
  if (op == "ReduceL2")
    finish = OpKind::sqrt;
  else if (op == "ReduceLogSum" || op == "ReduceLogSumExp")
    finish = OpKind::log;
  else if (op == "ReduceMean")
    finish = OpKind::div;
  if ((finish && *finish != OpKind::div && !isFloatType(type)) ||
      (contribution == OpKind::exp && !isFloatType(type)))
    return g.unsupported(op + " on integers");
  std::optional<double> identity = getReductionIdentity(reduce, type);
  if (!identity)
    return g.unsupported(op + ": the reduction's identity is no constant of " +
                         "the IR in this type");
  SmallVector<int64_t, 4> outShape;
  int64_t count = 1;
  for (unsigned d = 0; d < x->rank(); ++d) {
    if (!(*reduced)[d]) {
      outShape.push_back(x->shape[d]);
      continue;
    }
    count *= x->shape[d];
    if (keep)
      outShape.push_back(1);
  }
  if (finish == OpKind::div && !isFloatType(type))
    return g.unsupported("ReduceMean on integers");
  const GraphValue *y = g.defineOutput(node, 0, type, outShape);
  if (!y)
    return;
  emitReduction(g, *x, *reduced, keep, *y, contribution, reduce, *identity);
  if (finish) {
    Step step{*finish, {Operand::previous()}};
    if (*finish == OpKind::div)
      step.operands.push_back(Operand::number(count));
    emitChain(g, *y, {step});
  }
}

void lowerSoftmax(GraphBuilder &g, const Node &node) {
  const GraphValue *x = g.input(node, 0);
  if (!x)
    return;
  if (!isFloatType(x->type))
    return g.invalid(node.opType + " needs a floating-point type");
  bool log = node.opType == "LogSoftmax";
  int64_t axisAttr = node.getInt("axis", g.model.opset >= 13 ? -1 : 1);
  std::optional<unsigned> axis = normalizeAxis(axisAttr, x->rank());
  if (!axis)
    return g.invalid(node.opType + ": axis out of range");
  // Before opset 13 the input is coerced to 2-D at `axis`: the reduction
  // runs over every dimension from `axis` on.
  SmallVector<bool, 4> reduced(x->rank(), false);
  for (unsigned d = *axis; d < x->rank(); ++d)
    reduced[d] = g.model.opset >= 13 ? d == *axis : true;
  SmallVector<int64_t, 4> statShape, keptSizes, reducedSizes;
  for (unsigned d = 0; d < x->rank(); ++d) {
    statShape.push_back(reduced[d] ? 1 : x->shape[d]);
    (reduced[d] ? reducedSizes : keptSizes).push_back(x->shape[d]);
  }
  const GraphValue *m = g.declareTemporary(x->type, statShape);
  const GraphValue *s = m ? g.declareTemporary(x->type, statShape) : nullptr;
  const GraphValue *y = s ? g.defineOutput(node, 0, x->type, x->shape) : nullptr;
  if (!y)
    return;
  // Kept dimensions outside, reduced ones inside, in nests the naive pass
  // fuses: m = max x; y = x - m; s = sum exp(y); then y = exp(y) / s
  // (softmax) or s = log(s), y = y - s (log-softmax).
  unsigned outer = keptSizes.size();
  auto indices = [&](Nest &nest) {
    Index full, stat;
    unsigned kept = 0, red = 0;
    for (unsigned d = 0; d < x->rank(); ++d) {
      if (reduced[d]) {
        full.push_back(nest.var(outer + red++));
        stat.push_back(getAffineConstantExpr(0, g.ctx));
      } else {
        full.push_back(nest.var(kept++));
        stat.push_back(full.back());
      }
    }
    return std::make_pair(full, stat);
  };
  auto over = [&](bool inner,
                  llvm::function_ref<void(Nest &, Index &, Index &)> body) {
    g.emitNest(keptSizes, [&](Nest &nest) {
      if (inner)
        for (int64_t size : reducedSizes)
          nest.enter(size);
      auto [full, stat] = indices(nest);
      body(nest, full, stat);
    });
  };
  over(false, [&](Nest &n, Index &, Index &stat) {
    n.leaf(*m, stat, OpKind::copy, {n.constant(-INFINITY)});
    for (int64_t size : reducedSizes)
      n.enter(size);
    auto [full, st] = indices(n);
    n.leaf(*m, st, OpKind::copy, {n.read(*x, full)}, ReduceKind::max);
  });
  over(true, [&](Nest &n, Index &full, Index &stat) {
    n.leaf(*y, full, OpKind::sub, {n.read(*x, full), n.read(*m, stat)});
  });
  over(false, [&](Nest &n, Index &, Index &stat) {
    n.leaf(*s, stat, OpKind::copy, {n.constant(0)});
    for (int64_t size : reducedSizes)
      n.enter(size);
    auto [full, st] = indices(n);
    n.leaf(*s, st, OpKind::exp, {n.read(*y, full)}, ReduceKind::add);
  });
  if (log) {
    over(false, [&](Nest &n, Index &, Index &stat) {
      n.leaf(*s, stat, OpKind::log, {n.read(*s, stat)});
    });
    over(true, [&](Nest &n, Index &full, Index &stat) {
      n.leaf(*y, full, OpKind::sub, {n.read(*y, full), n.read(*s, stat)});
    });
    return;
  }
  over(true, [&](Nest &n, Index &full, Index &stat) {
    n.leaf(*y, full, OpKind::exp, {n.read(*y, full)});
    n.leaf(*y, full, OpKind::div, {n.read(*y, full), n.read(*s, stat)});
  });
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

void lowerTranspose(GraphBuilder &g, const Node &node) {
  const GraphValue *x = g.input(node, 0);
  if (!x)
    return;
  SmallVector<int64_t, 4> perm;
  if (std::optional<std::vector<int64_t>> p = node.getInts("perm"))
    perm.assign(p->begin(), p->end());
  else
    for (unsigned d = 0; d < x->rank(); ++d)
      perm.push_back(x->rank() - 1 - d);
  if (perm.size() != x->rank())
    return g.invalid("Transpose: perm has " + std::to_string(perm.size()) +
                     " entries for rank " + std::to_string(x->rank()));
  SmallVector<int64_t, 4> shape;
  SmallVector<bool, 4> seen(x->rank(), false);
  for (int64_t p : perm) {
    if (p < 0 || p >= int64_t(x->rank()) || seen[p])
      return g.invalid("Transpose: perm is not a permutation");
    seen[p] = true;
    shape.push_back(x->shape[p]);
  }
  const GraphValue *y = g.defineOutput(node, 0, x->type, shape);
  if (!y)
    return;
  g.emitNest(shape, [&](Nest &nest) {
    Index out = nest.vars(shape.size());
    Index in(x->rank(), AffineExpr());
    for (auto [i, p] : llvm::enumerate(perm))
      in[p] = out[i];
    nest.leaf(*y, out, OpKind::copy, {nest.read(*x, in)});
  });
}

} // namespace

std::optional<std::vector<int64_t>>
perfdojo::onnx::getConstantInts(GraphBuilder &g, const Node &node,
                                unsigned index) {
  if (!g.input(node, index))
    return std::nullopt;
  const std::string &name = node.inputs[index];
  if (const Tensor *known = g.findConstant(name); known && !known->isFloat())
    return known->ints;
  g.unsupported(node.opType + " takes input '" + name +
                "' at run time; the IR needs it as a constant (an "
                "initializer, or --constant)");
  return std::nullopt;
}

void perfdojo::onnx::lowerNode(GraphBuilder &g, const Node &node) {
  StringRef op = node.opType;
  if (lowerShapeNode(g, node) || lowerNetworkNode(g, node) ||
      lowerLogicalNode(g, node) || lowerIndexNode(g, node))
    return;
  if (llvm::is_contained({"Abs", "Neg", "Exp", "Log", "Sqrt", "Tanh",
                          "Sigmoid", "Relu", "Reciprocal", "Identity",
                          "Softplus", "Softsign", "HardSigmoid",
                          "Elu", "Selu", "Dropout", "HardSwish", "Celu"},
                         op) ||
      getElementwiseFunction(op))
    return lowerUnary(g, node);
  if (llvm::is_contained({"Add", "Sub", "Mul", "Div", "Max", "Min", "Sum",
                          "Mean"},
                         op))
    return lowerBinary(g, node);
  if (op == "MatMul")
    return lowerMatMul(g, node);
  if (op == "Gemm")
    return lowerGemm(g, node);
  if (op.starts_with("Reduce"))
    return lowerReduce(g, node);
  if (op == "Softmax" || op == "LogSoftmax")
    return lowerSoftmax(g, node);
  if (op == "Transpose")
    return lowerTranspose(g, node);
  g.unsupported("operator " + op + " is not supported by the importer");
}
