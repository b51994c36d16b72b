//===- OnnxIndexOperators.cpp - operators of index arithmetic -------------===//
//
// Operators whose elements follow from their positions: triangles and
// diagonals (comparisons of index values), tiles and block rearrangements
// (affine copies), running sums (scope order), ranges, and the positions
// of maxima and minima (a reduction, then the least index that reaches
// it, through a select).
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"

#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"

#include <algorithm>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::onnx;

namespace {

/// The single integer of input `index` (a scalar or a one-element tensor
/// the IR needs at import); `otherwise` when the input is not given.
std::optional<int64_t> getConstantScalar(GraphBuilder &g, const Node &node,
                                         unsigned index, int64_t otherwise) {
  if (!node.hasInput(index))
    return otherwise;
  std::optional<std::vector<int64_t>> values = getConstantInts(g, node, index);
  if (!values)
    return std::nullopt;
  if (values->size() != 1) {
    g.invalid(node.opType + ": input " + std::to_string(index) +
              " is not a single value");
    return std::nullopt;
  }
  return values->front();
}

/// Trilu: the upper (j >= i + k) or lower (j <= i + k) triangle of the
/// last two dimensions, zeros elsewhere. EyeLike: 1 on the diagonal
/// j = i + k, of the requested type.
void lowerTriangle(GraphBuilder &g, const Node &node) {
  StringRef op = node.opType;
  const GraphValue *x = g.input(node, 0);
  if (!x)
    return;
  if (x->rank() < 2 || (op == "EyeLike" && x->rank() != 2))
    return g.invalid(op + " needs an input of " +
                     (op == "EyeLike" ? "2" : "at least 2") + " dimensions");
  int64_t k;
  Type type = x->type;
  OpKind kind = OpKind::eq;
  if (op == "Trilu") {
    std::optional<int64_t> known = getConstantScalar(g, node, 1, 0);
    if (!known)
      return;
    k = *known;
    kind = node.getInt("upper", 1) ? OpKind::ge : OpKind::le;
  } else {
    k = node.getInt("k", 0);
    if (int64_t dtype = node.getInt("dtype", 0)) {
      type = g.getElementType(dtype);
      if (!type)
        return g.unsupported("EyeLike to element type " +
                             std::to_string(dtype) + ", which the IR lacks");
    }
  }
  int64_t rows = x->shape[x->rank() - 2], columns = x->shape.back();
  // The mask of the last two dimensions, broadcast over the others.
  const GraphValue *mask = g.declareTemporary(g.getBoolType(), {rows, columns});
  if (!mask)
    return;
  g.emitNest({rows, columns}, [&](Nest &nest) {
    AffineExpr i = nest.var(0), j = nest.var(1);
    nest.leaf(*mask, {i, j}, kind, {nest.indexValue(j), nest.indexValue(i + k)});
  });
  const GraphValue *y = g.defineOutput(node, 0, type, x->shape);
  if (!y)
    return;
  if (op == "Trilu")
    emitChain(g, *y,
              {{OpKind::select,
                {Operand::of(mask), Operand::of(x), Operand::number(0)}}});
  else
    // A conversion: true is 1, false 0 in any type.
    emitChain(g, *y, {{OpKind::copy, {Operand::of(mask)}}});
}

/// Tile: out[r * n + j] = x[j] per dimension, r over the repeats.
void lowerTile(GraphBuilder &g, const Node &node) {
  const GraphValue *x = g.input(node, 0);
  if (!x)
    return;
  std::optional<std::vector<int64_t>> repeats = getConstantInts(g, node, 1);
  if (!repeats)
    return;
  if (repeats->size() != x->rank())
    return g.invalid("Tile: repeats has " + std::to_string(repeats->size()) +
                     " values for a rank " + std::to_string(x->rank()) +
                     " input");
  SmallVector<int64_t, 8> sizes, shape;
  for (unsigned d = 0; d < x->rank(); ++d) {
    if ((*repeats)[d] < 1)
      return g.unsupported("Tile with a repeat below 1 (an empty tensor)");
    sizes.push_back((*repeats)[d]);
    sizes.push_back(x->shape[d]);
    shape.push_back((*repeats)[d] * x->shape[d]);
  }
  const GraphValue *y = g.defineOutput(node, 0, x->type, shape);
  if (!y)
    return;
  g.emitNest(sizes, [&](Nest &nest) {
    Index out, in;
    for (unsigned d = 0; d < x->rank(); ++d) {
      out.push_back(nest.var(2 * d) * x->shape[d] + nest.var(2 * d + 1));
      in.push_back(nest.var(2 * d + 1));
    }
    nest.leaf(*y, out, OpKind::copy, {nest.read(*x, in)});
  });
}

/// DepthToSpace and SpaceToDepth: blocks of the channel dimension become
/// b x b blocks of the spatial ones (and back), an affine copy over
/// (n, c, h, i, w, j).
void lowerBlockRearrangement(GraphBuilder &g, const Node &node) {
  StringRef op = node.opType;
  const GraphValue *x = g.input(node, 0);
  if (!x)
    return;
  if (x->rank() != 4)
    return g.invalid(op + " needs a 4-D input");
  int64_t b = node.getInt("blocksize", 0);
  if (b < 1)
    return g.invalid(op + ": blocksize must be positive");
  int64_t n = x->shape[0], c = x->shape[1], h = x->shape[2], w = x->shape[3];
  bool toSpace = op == "DepthToSpace";
  bool crd = node.getString("mode", "DCR") == "CRD";
  if (toSpace ? c % (b * b) != 0 : h % b != 0 || w % b != 0)
    return g.invalid(op + ": the shape does not divide by blocksize " +
                     std::to_string(b));
  // Channels, rows and columns of the depth side; (i, j) the position in
  // the block.
  int64_t depthC = toSpace ? c / (b * b) : c;
  int64_t rows = toSpace ? h : h / b, columns = toSpace ? w : w / b;
  SmallVector<int64_t, 4> shape =
      toSpace ? SmallVector<int64_t, 4>{n, depthC, h * b, w * b}
              : SmallVector<int64_t, 4>{n, c * b * b, rows, columns};
  const GraphValue *y = g.defineOutput(node, 0, x->type, shape);
  if (!y)
    return;
  g.emitNest({n, depthC, rows, b, columns, b}, [&](Nest &nest) {
    AffineExpr vn = nest.var(0), vc = nest.var(1), vh = nest.var(2),
               vi = nest.var(3), vw = nest.var(4), vj = nest.var(5);
    AffineExpr channel = crd ? vc * (b * b) + vi * b + vj
                             : (vi * b + vj) * depthC + vc;
    Index space = {vn, vc, vh * b + vi, vw * b + vj};
    Index depth = {vn, channel, vh, vw};
    nest.leaf(*y, toSpace ? space : depth, OpKind::copy,
              {nest.read(*x, toSpace ? depth : space)});
  });
}

/// CumSum along a constant axis: a running sum in scope order, forward or
/// reverse, inclusive or exclusive of each element.
void lowerCumSum(GraphBuilder &g, const Node &node) {
  const GraphValue *x = g.input(node, 0);
  if (!x)
    return;
  if (isBoolType(x->type))
    return g.invalid("CumSum on a bool tensor");
  std::optional<int64_t> axisValue = getConstantScalar(g, node, 1, 0);
  if (!axisValue)
    return;
  std::optional<unsigned> axis = normalizeAxis(*axisValue, x->rank());
  if (!axis)
    return g.invalid("CumSum: axis out of range");
  bool exclusive = node.getInt("exclusive", 0), reverse = node.getInt("reverse", 0);
  const GraphValue *y = g.defineOutput(node, 0, x->type, x->shape);
  if (!y)
    return;
  int64_t size = x->shape[*axis];
  // Every other dimension outside, the axis innermost.
  SmallVector<int64_t, 4> outer;
  for (unsigned d = 0; d < x->rank(); ++d)
    if (d != *axis)
      outer.push_back(x->shape[d]);
  g.emitNest(outer, [&](Nest &nest) {
    auto indexAt = [&](AffineExpr position) {
      Index index;
      unsigned next = 0;
      for (unsigned d = 0; d < x->rank(); ++d)
        index.push_back(d == *axis ? position : nest.var(next++));
      return index;
    };
    auto at = [&](int64_t p) { return getAffineConstantExpr(p, g.ctx); };
    // The first element of the running order, then each from the one
    // before it.
    int64_t first = reverse ? size - 1 : 0;
    nest.leaf(*y, indexAt(at(first)), OpKind::copy,
              {exclusive ? nest.constant(0) : nest.read(*x, indexAt(at(first)))});
    if (size == 1)
      return;
    nest.enter(size - 1);
    AffineExpr a = nest.var(outer.size());
    AffineExpr previous = reverse ? at(size - 1) - a : a;
    AffineExpr current = reverse ? at(size - 2) - a : a + 1;
    nest.leaf(*y, indexAt(current), OpKind::add,
              {nest.read(*y, indexAt(previous)),
               nest.read(*x, indexAt(exclusive ? previous : current))});
  });
}

/// Range(start, limit, delta), all known at import: start + i * delta.
void lowerRange(GraphBuilder &g, const Node &node) {
  double bounds[3];
  Type type;
  for (unsigned i = 0; i < 3; ++i) {
    const GraphValue *v = g.input(node, i);
    if (!v)
      return;
    type = v->type;
    const Tensor *known = g.findConstant(node.inputs[i]);
    if (!known || known->getNumElements() != 1)
      return g.unsupported("Range takes input '" + node.inputs[i] +
                           "' at run time; the IR needs it as a constant (an "
                           "initializer, or --constant)");
    bounds[i] = known->isFloat() ? known->floats.front()
                                 : double(known->ints.front());
  }
  if (isBoolType(type))
    return g.invalid("Range on bool");
  double start = bounds[0], limit = bounds[1], delta = bounds[2];
  if (delta == 0)
    return g.invalid("Range with delta 0");
  int64_t count =
      std::max<int64_t>(0, int64_t(std::ceil((limit - start) / delta)));
  if (count == 0)
    return g.unsupported("Range of no elements (an empty tensor)");
  const GraphValue *y = g.defineOutput(node, 0, type, {count});
  if (!y)
    return;
  g.emitNest({count}, [&](Nest &nest) {
    AffineExpr i = nest.var(0);
    Index index = {i};
    nest.leaf(*y, index, OpKind::copy, {nest.indexValue(i)});
    nest.leaf(*y, index, OpKind::mul, {nest.read(*y, index), nest.constant(delta)});
    nest.leaf(*y, index, OpKind::add, {nest.read(*y, index), nest.constant(start)});
  });
}

/// ArgMax and ArgMin (int64 positions along `axis`), and Hardmax (1 at
/// the first maximum along `axis`, 0 elsewhere): the extreme along the
/// axis, a mask of the elements that reach it, the least (or, with
/// select_last_index, the greatest) position in the mask.
void lowerArgExtreme(GraphBuilder &g, const Node &node) {
  StringRef op = node.opType;
  const GraphValue *x = g.input(node, 0);
  if (!x)
    return;
  Type type = x->type;
  if (isBoolType(type))
    return g.unsupported(op + " on bool tensors");
  bool hardmax = op == "Hardmax";
  int64_t axisAttr = node.getInt("axis", hardmax && g.model.opset >= 13 ? -1
                                         : hardmax ? 1 : 0);
  std::optional<unsigned> axis = normalizeAxis(axisAttr, x->rank());
  if (!axis)
    return g.invalid(op + ": axis out of range");
  if (hardmax && g.model.opset < 13 && *axis + 1 != x->rank())
    return g.unsupported("Hardmax before opset 13 over more than the last "
                         "dimension (the input coerced to 2-D)");
  bool keep = hardmax || node.getInt("keepdims", 1);
  bool last = node.getInt("select_last_index", 0);
  ReduceKind extreme = op == "ArgMin" ? ReduceKind::min : ReduceKind::max;
  std::optional<double> identity = getReductionIdentity(extreme, type);
  if (!identity)
    return g.unsupported(op + ": the reduction's identity is no constant of "
                              "the IR in this type");
  int64_t size = x->shape[*axis];
  SmallVector<int64_t, 4> reducedShape(x->shape), outShape;
  reducedShape[*axis] = 1;
  for (unsigned d = 0; d < x->rank(); ++d)
    if (d != *axis || keep)
      outShape.push_back(d == *axis ? 1 : x->shape[d]);
  Type i64 = IntegerType::get(g.ctx, 64);
  const GraphValue *m = g.declareTemporary(type, reducedShape);
  const GraphValue *reaches = g.declareTemporary(g.getBoolType(), x->shape);
  const GraphValue *positions = g.declareTemporary(i64, x->shape);
  const GraphValue *arg =
      hardmax ? g.declareTemporary(i64, reducedShape)
              : g.defineOutput(node, 0, i64, outShape);
  if (!m || !reaches || !positions || !arg)
    return;
  SmallVector<bool, 4> alongAxis(x->rank(), false);
  alongAxis[*axis] = true;
  emitReduction(g, *x, alongAxis, /*keep=*/true, *m, OpKind::copy, extreme,
                *identity);
  emitChain(g, *reaches, {{OpKind::eq, {Operand::of(x), Operand::of(m)}}});
  // Positions that reach it, others past the end (or before the start).
  double outside = last ? -1 : double(size);
  g.emitNest(x->shape, [&](Nest &nest) {
    Index index = nest.vars(x->rank());
    nest.leaf(*positions, index, OpKind::select,
              {nest.read(*reaches, index), nest.indexValue(index[*axis]),
               nest.constant(outside)});
  });
  emitReduction(g, *positions, alongAxis, keep, *arg, OpKind::copy,
                last ? ReduceKind::max : ReduceKind::min, outside);
  if (!hardmax)
    return;
  // Hardmax: 1 where the position is the first maximum's.
  const GraphValue *at = g.declareTemporary(g.getBoolType(), x->shape);
  const GraphValue *y = g.defineOutput(node, 0, type, x->shape);
  if (!at || !y)
    return;
  g.emitNest(x->shape, [&](Nest &nest) {
    Index index = nest.vars(x->rank());
    Index reduced(index);
    reduced[*axis] = getAffineConstantExpr(0, g.ctx);
    nest.leaf(*at, index, OpKind::eq,
              {nest.read(*arg, reduced), nest.indexValue(index[*axis])});
  });
  emitChain(g, *y, {{OpKind::copy, {Operand::of(at)}}});
}

/// HannWindow, HammingWindow, BlackmanWindow of a size known at import:
/// a0 - a1 cos(2 pi n / D) (+ a2 cos(4 pi n / D)), D the size (periodic)
/// or the size - 1 (symmetric).
void lowerWindow(GraphBuilder &g, const Node &node) {
  StringRef op = node.opType;
  std::optional<int64_t> size = getConstantScalar(g, node, 0, 0);
  if (!size)
    return;
  if (*size < 1)
    return g.unsupported(op + " of size " + std::to_string(*size) +
                         " (an empty tensor)");
  Type type = g.getElementType(node.getInt("output_datatype", 1));
  if (!type || !isFloatType(type))
    return g.unsupported(op + " to a non-float output_datatype");
  int64_t denominator = node.getInt("periodic", 1) ? *size : *size - 1;
  double a0 = op == "HannWindow"      ? 0.5
              : op == "HammingWindow" ? 25.0 / 46.0
                                      : 0.42;
  double a1 = op == "BlackmanWindow" ? 0.5 : 1 - a0;
  const double pi = 3.14159265358979323846;
  // A one-element symmetric window divides 0 by 0: ONNX's reference gives
  // its one element the value at n = 0 of a periodic window of size 1.
  double step = 2 * pi / double(std::max<int64_t>(denominator, 1));
  auto cosineOf = [&](const GraphValue &out, double scale, double factor) {
    g.emitNest({*size}, [&](Nest &nest) {
      AffineExpr n = nest.var(0);
      Index index = {n};
      nest.leaf(out, index, OpKind::copy, {nest.indexValue(n)});
      nest.leaf(out, index, OpKind::mul,
                {nest.read(out, index), nest.constant(scale)});
      nest.leaf(out, index, OpKind::cos, {nest.read(out, index)});
      nest.leaf(out, index, OpKind::mul,
                {nest.read(out, index), nest.constant(factor)});
    });
  };
  const GraphValue *second = nullptr;
  if (op == "BlackmanWindow") {
    second = g.declareTemporary(type, {*size});
    if (!second)
      return;
    cosineOf(*second, 2 * step, 0.08);
  }
  const GraphValue *y = g.defineOutput(node, 0, type, {*size});
  if (!y)
    return;
  cosineOf(*y, step, -a1);
  SmallVector<Step> steps = {{OpKind::add, {Operand::previous(), Operand::number(a0)}}};
  if (second)
    steps.push_back({OpKind::add, {Operand::previous(), Operand::of(second)}});
  emitChain(g, *y, steps);
}

} // namespace

bool onnx::lowerIndexNode(GraphBuilder &g, const Node &node) {
  StringRef op = node.opType;
  if (op == "Trilu" || op == "EyeLike")
    lowerTriangle(g, node);
  else if (op == "Tile")
    lowerTile(g, node);
  else if (op == "DepthToSpace" || op == "SpaceToDepth")
    lowerBlockRearrangement(g, node);
  else if (op == "CumSum")
    lowerCumSum(g, node);
  else if (op == "Range")
    lowerRange(g, node);
  else if (op == "ArgMax" || op == "ArgMin" || op == "Hardmax")
    lowerArgExtreme(g, node);
  else if (op == "HannWindow" || op == "HammingWindow" ||
           op == "BlackmanWindow")
    lowerWindow(g, node);
  else
    return false;
  return true;
}
