//===- OnnxLogicalOperators.cpp - comparisons, logic and selects ----------===//
//
// The operators that compare values, combine truth values or choose
// between values, written with the IR's comparisons (a bool result) and
// its select (docs/ir.md, "Comparisons and selects"), each following the
// operator's specification with numpy-style broadcasting.
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"

#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"

#include "llvm/ADT/StringSwitch.h"

#include <limits>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::onnx;

namespace {

/// The broadcast shape of `values`; null after an invalid-model error.
std::optional<SmallVector<int64_t, 4>>
broadcastAll(GraphBuilder &g, const Node &node,
             ArrayRef<const GraphValue *> values) {
  SmallVector<int64_t, 4> shape(values.front()->shape);
  for (const GraphValue *v : values.drop_front()) {
    std::optional<SmallVector<int64_t, 4>> b = broadcast(shape, v->shape);
    if (!b) {
      g.invalid(node.opType + ": shapes " + GraphBuilder::formatShape(shape) +
                " and " + GraphBuilder::formatShape(v->shape) +
                " do not broadcast");
      return std::nullopt;
    }
    shape = *b;
  }
  return shape;
}

/// Equal, Less, LessOrEqual, Greater, GreaterOrEqual; And, Or, Xor on bool
/// (min, max and ne of truth values).
void lowerBinaryLogical(GraphBuilder &g, const Node &node) {
  StringRef op = node.opType;
  const GraphValue *a = g.input(node, 0);
  const GraphValue *b = g.input(node, 1);
  if (!a || !b)
    return;
  if (a->type != b->type)
    return g.invalid(op + " mixes element types");
  OpKind kind = llvm::StringSwitch<OpKind>(op)
                    .Case("Equal", OpKind::eq)
                    .Case("Less", OpKind::lt)
                    .Case("LessOrEqual", OpKind::le)
                    .Case("Greater", OpKind::gt)
                    .Case("GreaterOrEqual", OpKind::ge)
                    .Case("And", OpKind::min)
                    .Case("Or", OpKind::max)
                    .Default(OpKind::ne);
  if (!isComparison(kind) || op == "Xor") {
    if (!isBoolType(a->type))
      return g.invalid(op + " takes bool tensors");
  } else if (std::optional<std::string> why =
                 findComparisonTypeViolation(kind, a->type)) {
    return g.invalid(op + ": " + *why);
  }
  std::optional<SmallVector<int64_t, 4>> shape = broadcastAll(g, node, {a, b});
  if (!shape)
    return;
  if (const GraphValue *y = g.defineOutput(node, 0, g.getBoolType(), *shape))
    emitChain(g, *y, {{kind, {Operand::of(a), Operand::of(b)}}});
}

/// Not, IsNaN, IsInf: one input, a bool output of its shape.
void lowerTest(GraphBuilder &g, const Node &node) {
  StringRef op = node.opType;
  const GraphValue *x = g.input(node, 0);
  if (!x)
    return;
  auto in = Operand::of(x);
  auto c = Operand::number;
  SmallVector<Step> steps;
  if (op == "Not") {
    if (!isBoolType(x->type))
      return g.invalid("Not takes a bool tensor");
    steps = {{OpKind::eq, {in, c(0)}}};
  } else {
    if (!isFloatType(x->type))
      return g.invalid(op + " takes a floating-point tensor");
    if (op == "IsNaN") {
      // NaN is the one value unequal to itself.
      steps = {{OpKind::ne, {in, in}}};
    } else {
      bool negative = node.getInt("detect_negative", 1) != 0;
      bool positive = node.getInt("detect_positive", 1) != 0;
      double inf = std::numeric_limits<double>::infinity();
      if (negative && positive) {
        const GraphValue *magnitude = g.declareTemporary(x->type, x->shape);
        if (!magnitude)
          return;
        emitChain(g, *magnitude, {{OpKind::abs, {in}}});
        steps = {{OpKind::eq, {Operand::of(magnitude), c(inf)}}};
      } else if (negative || positive) {
        steps = {{OpKind::eq, {in, c(negative ? -inf : inf)}}};
      } else {
        steps = {{OpKind::copy, {c(0)}}};
      }
    }
  }
  if (const GraphValue *y = g.defineOutput(node, 0, g.getBoolType(), x->shape))
    emitChain(g, *y, steps);
}

/// Where(condition, X, Y): X where the condition holds, else Y.
void lowerWhere(GraphBuilder &g, const Node &node) {
  const GraphValue *condition = g.input(node, 0);
  const GraphValue *x = g.input(node, 1);
  const GraphValue *y = g.input(node, 2);
  if (!condition || !x || !y)
    return;
  if (!isBoolType(condition->type))
    return g.invalid("Where's condition is not a bool tensor");
  if (x->type != y->type)
    return g.invalid("Where mixes element types");
  std::optional<SmallVector<int64_t, 4>> shape =
      broadcastAll(g, node, {condition, x, y});
  if (!shape)
    return;
  if (const GraphValue *out = g.defineOutput(node, 0, x->type, *shape))
    emitChain(g, *out,
              {{OpKind::select,
                {Operand::of(condition), Operand::of(x), Operand::of(y)}}});
}

/// The piecewise activations: x on one side of a threshold, something else
/// on the other, as a bool temporary (the comparison) and a select.
void lowerPiecewise(GraphBuilder &g, const Node &node) {
  StringRef op = node.opType;
  const GraphValue *x = g.input(node, 0);
  if (!x)
    return;
  if (!isFloatType(x->type))
    return g.unsupported(op + " on " + getElementTypeName(x->type) +
                         " tensors");
  auto in = Operand::of(x);
  auto prev = Operand::previous();
  auto c = Operand::number;
  auto compare = [&](OpKind kind, Operand against) -> const GraphValue * {
    const GraphValue *t = g.declareTemporary(g.getBoolType(), x->shape);
    if (t)
      emitChain(g, *t, {{kind, {in, against}}});
    return t;
  };
  SmallVector<Step> steps;
  if (op == "LeakyRelu" || op == "PRelu") {
    // alpha * x (or slope * x, slope broadcast to x) for x < 0, else x.
    Operand alpha = c(node.getFloat("alpha", 0.01));
    if (op == "PRelu") {
      const GraphValue *slope = g.input(node, 1);
      if (!slope)
        return;
      if (slope->type != x->type)
        return g.invalid("PRelu mixes element types");
      std::optional<SmallVector<int64_t, 4>> shape =
          broadcastAll(g, node, {x, slope});
      if (!shape)
        return;
      if (ArrayRef<int64_t>(*shape) != ArrayRef<int64_t>(x->shape))
        return g.invalid("PRelu's slope does not broadcast to X's shape");
      alpha = Operand::of(slope);
    }
    const GraphValue *negative = compare(OpKind::lt, c(0));
    if (!negative)
      return;
    steps = {{OpKind::mul, {in, alpha}},
             {OpKind::select, {Operand::of(negative), prev, in}}};
  } else if (op == "ThresholdedRelu") {
    const GraphValue *above = compare(OpKind::gt, c(node.getFloat("alpha", 1)));
    if (!above)
      return;
    steps = {{OpKind::select, {Operand::of(above), in, c(0)}}};
  } else {
    // Shrink: x + bias below -lambd, x - bias above lambd, else 0.
    double bias = node.getFloat("bias", 0), lambd = node.getFloat("lambd", 0.5);
    const GraphValue *below = compare(OpKind::lt, c(-lambd));
    const GraphValue *above = compare(OpKind::gt, c(lambd));
    const GraphValue *raised = g.declareTemporary(x->type, x->shape);
    if (!below || !above || !raised)
      return;
    emitChain(g, *raised, {{OpKind::add, {in, c(bias)}}});
    steps = {{OpKind::sub, {in, c(bias)}},
             {OpKind::select, {Operand::of(above), prev, c(0)}},
             {OpKind::select, {Operand::of(below), Operand::of(raised), prev}}};
  }
  if (const GraphValue *y = g.defineOutput(node, 0, x->type, x->shape))
    emitChain(g, *y, steps);
}

/// Mod: the remainder of a truncating division, a - trunc(a / b) * b
/// (fmod = 1, C's fmod; the only mode for floats), or with fmod = 0 (the
/// integer default) of a flooring one: the truncated remainder plus b
/// where it is not 0 and its sign differs from b's (Python's %).
void lowerMod(GraphBuilder &g, const Node &node) {
  const GraphValue *a = g.input(node, 0);
  const GraphValue *b = g.input(node, 1);
  if (!a || !b)
    return;
  if (a->type != b->type)
    return g.invalid("Mod mixes element types");
  Type type = a->type;
  if (isBoolType(type))
    return g.invalid("Mod on bool tensors");
  bool fmod = node.getInt("fmod", 0);
  bool isFloat = isFloatType(type);
  if (isFloat && !fmod)
    return g.invalid("Mod on floats needs fmod = 1");
  std::optional<SmallVector<int64_t, 4>> shape = broadcastAll(g, node, {a, b});
  if (!shape)
    return;
  auto prev = Operand::previous();
  auto c = Operand::number;
  Type truth = g.getBoolType();
  const GraphValue *quotient = g.declareTemporary(type, *shape);
  if (!quotient)
    return;
  SmallVector<Step> toQuotient = {{OpKind::div, {Operand::of(a), Operand::of(b)}}};
  if (isFloat) {
    // trunc(q): ceil below 0, floor above.
    const GraphValue *negative = g.declareTemporary(truth, *shape);
    const GraphValue *up = g.declareTemporary(type, *shape);
    if (!negative || !up)
      return;
    emitChain(g, *quotient, toQuotient);
    emitChain(g, *negative, {{OpKind::lt, {Operand::of(quotient), c(0)}}});
    emitChain(g, *up, {{OpKind::ceil, {Operand::of(quotient)}}});
    emitChain(g, *quotient,
              {{OpKind::floor, {prev}},
               {OpKind::select, {Operand::of(negative), Operand::of(up), prev}}});
  } else {
    // Integer division truncates.
    emitChain(g, *quotient, toQuotient);
  }
  const GraphValue *y = g.defineOutput(node, 0, type, *shape);
  if (!y)
    return;
  // The truncated remainder: a - q * b.
  emitChain(g, *quotient, {{OpKind::mul, {prev, Operand::of(b)}}});
  emitChain(g, *y, {{OpKind::sub, {Operand::of(a), Operand::of(quotient)}}});
  if (fmod)
    return;
  // Flooring: add b where the remainder is not 0 and its sign is not b's.
  const GraphValue *remainderNegative = g.declareTemporary(truth, *shape);
  const GraphValue *divisorNegative = g.declareTemporary(truth, *shape);
  const GraphValue *nonzero = g.declareTemporary(truth, *shape);
  const GraphValue *adjust = g.declareTemporary(truth, *shape);
  const GraphValue *raised = g.declareTemporary(type, *shape);
  if (!remainderNegative || !divisorNegative || !nonzero || !adjust ||
      !raised)
    return;
  emitChain(g, *remainderNegative, {{OpKind::lt, {Operand::of(y), c(0)}}});
  emitChain(g, *divisorNegative, {{OpKind::lt, {Operand::of(b), c(0)}}});
  emitChain(g, *nonzero, {{OpKind::ne, {Operand::of(y), c(0)}}});
  emitChain(g, *adjust,
            {{OpKind::ne, {Operand::of(remainderNegative),
                           Operand::of(divisorNegative)}},
             {OpKind::min, {prev, Operand::of(nonzero)}}});
  emitChain(g, *raised, {{OpKind::add, {Operand::of(y), Operand::of(b)}}});
  emitChain(g, *y,
            {{OpKind::select, {Operand::of(adjust), Operand::of(raised), prev}}});
}

} // namespace

bool onnx::lowerLogicalNode(GraphBuilder &g, const Node &node) {
  StringRef op = node.opType;
  if (llvm::is_contained({"Equal", "Less", "LessOrEqual", "Greater",
                          "GreaterOrEqual", "And", "Or", "Xor"},
                         op))
    lowerBinaryLogical(g, node);
  else if (llvm::is_contained({"Not", "IsNaN", "IsInf"}, op))
    lowerTest(g, node);
  else if (op == "Where")
    lowerWhere(g, node);
  else if (op == "Mod")
    lowerMod(g, node);
  else if (llvm::is_contained(
               {"LeakyRelu", "PRelu", "ThresholdedRelu", "Shrink"}, op))
    lowerPiecewise(g, node);
  else
    return false;
  return true;
}
