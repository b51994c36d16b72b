//===- OnnxShapeOperators.cpp - constants and data movement ---------------===//
//
// Operators that move elements without arithmetic. A reshape is a copy
// whose indices on both sides must be affine in the loop variables: the
// loops run over the common refinement of the two shapes (the "atoms" each
// dimension of either shape is a product of), which exists when, walking
// both shapes from the innermost dimension, the smaller remaining extent
// always divides the larger. Reshapes without one (regrouping elements
// across dimensions, [6, 4] -> [4, 6]) need floordiv/mod indices, which the
// IR does not have: they are unsupported.
//
//===----------------------------------------------------------------------===//

#include "GraphBuilder.h"

#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"

#include <algorithm>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::onnx;

namespace {


/// Largest Constant written out element by element: the IR has no data
/// literals, so each element is one leaf.
constexpr int64_t kMaxConstantElements = 4096;

/// Writes `value` into a new output buffer, one leaf per element, and
/// records it as known (shape computations read it at import).
void emitKnownTensor(GraphBuilder &g, const Node &node, const Tensor &value) {
  g.constantValues[node.outputs[0]] = value;
  Type type = g.getElementType(value.elementKind);
  if (!type)
    return g.unsupported(llvm::Twine(node.opType) + " of element type " +
                         getElementKindName(value.elementKind) +
                         ", which the IR lacks");
  int64_t count = value.getNumElements();
  if (count > kMaxConstantElements)
    return g.unsupported("a " + node.opType + " of " + std::to_string(count) +
                         " elements (the IR has no data literals; make it "
                         "an initializer)");
  const GraphValue *y = g.defineOutput(node, 0, type, value.dims);
  if (!y)
    return;
  g.emitNest({}, [&](Nest &nest) {
    for (int64_t flat = 0; flat < count; ++flat) {
      Index index;
      int64_t rest = flat;
      for (int64_t d = value.dims.size() - 1; d >= 0; --d) {
        index.insert(index.begin(),
                     getAffineConstantExpr(rest % value.dims[d], g.ctx));
        rest /= value.dims[d];
      }
      double v = value.isFloat() ? value.floats[flat] : double(value.ints[flat]);
      if (std::optional<std::string> bad =
              findConstantViolation(v, type, OpKind::copy, 0))
        return g.unsupported(node.opType + ": " + *bad);
      nest.leaf(*y, index, OpKind::copy, {nest.constant(v)});
    }
  });
}

/// Shape: the input's (static) shape, a value known at import.
void lowerShape(GraphBuilder &g, const Node &node) {
  const GraphValue *x = g.input(node, 0);
  if (!x)
    return;
  int64_t rank = x->rank();
  int64_t start = node.getInt("start", 0), end = node.getInt("end", rank);
  start = std::clamp<int64_t>(start < 0 ? start + rank : start, 0, rank);
  end = std::clamp<int64_t>(end < 0 ? end + rank : end, 0, rank);
  Tensor value;
  value.name = node.outputs[0];
  value.elementKind = int(ElementKind::Int64);
  for (int64_t d = start; d < end; ++d)
    value.ints.push_back(x->shape[d]);
  value.dims = {int64_t(value.ints.size())};
  emitKnownTensor(g, node, value);
}

/// Size: the input's element count, a value known at import.
void lowerSize(GraphBuilder &g, const Node &node) {
  const GraphValue *x = g.input(node, 0);
  if (!x)
    return;
  Tensor value;
  value.name = node.outputs[0];
  value.elementKind = int(ElementKind::Int64);
  value.ints = {x->getNumElements()};
  emitKnownTensor(g, node, value);
}

void lowerConstant(GraphBuilder &g, const Node &node) {
  Tensor value;
  value.name = node.outputs.empty() ? "" : node.outputs[0];
  if (const NodeAttribute *a = node.getAttribute("value")) {
    if (!a->tensor)
      return g.invalid("Constant's value is not a tensor");
    value = *a->tensor;
  } else if (const NodeAttribute *f = node.getAttribute("value_float")) {
    value.elementKind = int(ElementKind::Float);
    value.floats = {f->f};
  } else if (const NodeAttribute *i = node.getAttribute("value_int")) {
    value.elementKind = int(ElementKind::Int64);
    value.ints = {i->i};
  } else if (const NodeAttribute *fs = node.getAttribute("value_floats")) {
    value.elementKind = int(ElementKind::Float);
    value.floats = fs->floats;
    value.dims = {int64_t(fs->floats.size())};
  } else if (const NodeAttribute *is = node.getAttribute("value_ints")) {
    value.elementKind = int(ElementKind::Int64);
    value.ints = is->ints;
    value.dims = {int64_t(is->ints.size())};
  } else {
    return g.unsupported("Constant without a numeric value (sparse or "
                         "string)");
  }
  value.name = node.outputs[0];
  emitKnownTensor(g, node, value);
}

/// `y = x` with `y`'s shape another factorization of `x`'s elements, over
/// the common refinement of the two shapes.
void emitReshape(GraphBuilder &g, const Node &node, const GraphValue &x,
                 const GraphValue &y) {
  struct Atom {
    int64_t size;
    unsigned inDim, outDim;
    int64_t inStride, outStride; ///< within its dimension
  };
  SmallVector<Atom> atoms; // innermost first
  int inDim = x.rank() - 1, outDim = y.rank() - 1;
  int64_t inLeft = inDim >= 0 ? x.shape[inDim] : 1;
  int64_t outLeft = outDim >= 0 ? y.shape[outDim] : 1;
  int64_t inStride = 1, outStride = 1;
  while (inDim >= 0 && outDim >= 0) {
    if (inLeft == 1) {
      if (--inDim >= 0)
        inLeft = x.shape[inDim], inStride = 1;
      continue;
    }
    if (outLeft == 1) {
      if (--outDim >= 0)
        outLeft = y.shape[outDim], outStride = 1;
      continue;
    }
    int64_t size = std::min(inLeft, outLeft);
    if (std::max(inLeft, outLeft) % size != 0)
      return g.unsupported(
          "Reshape " + GraphBuilder::formatShape(x.shape) + " -> " +
          GraphBuilder::formatShape(y.shape) +
          " regroups elements across dimensions (it needs floordiv/mod "
          "indices, which the IR does not have)");
    atoms.push_back({size, unsigned(inDim), unsigned(outDim), inStride,
                     outStride});
    inLeft /= size, outLeft /= size;
    inStride *= size, outStride *= size;
  }
  SmallVector<int64_t, 4> sizes;
  for (const Atom &atom : llvm::reverse(atoms))
    sizes.push_back(atom.size);
  g.emitNest(sizes, [&](Nest &nest) {
    Index in(x.rank(), getAffineConstantExpr(0, g.ctx));
    Index out(y.rank(), getAffineConstantExpr(0, g.ctx));
    for (auto [depth, atom] : llvm::enumerate(llvm::reverse(atoms))) {
      AffineExpr v = nest.var(depth);
      in[atom.inDim] = in[atom.inDim] + v * atom.inStride;
      out[atom.outDim] = out[atom.outDim] + v * atom.outStride;
    }
    nest.leaf(y, out, OpKind::copy, {nest.read(x, in)});
  });
}

void lowerReshapeLike(GraphBuilder &g, const Node &node) {
  const GraphValue *x = g.input(node, 0);
  if (!x)
    return;
  StringRef op = node.opType;
  SmallVector<int64_t, 4> shape;
  int64_t total = x->getNumElements();
  if (op == "Reshape") {
    std::optional<std::vector<int64_t>> target = getConstantInts(g, node, 1);
    if (!target)
      return;
    bool allowZero = node.getInt("allowzero", 0);
    int inferred = -1;
    int64_t known = 1;
    for (auto [i, d] : llvm::enumerate(*target)) {
      int64_t size = d;
      if (d == 0 && !allowZero) {
        if (i >= x->rank())
          return g.invalid("Reshape: 0 copies a dimension the input lacks");
        size = x->shape[i];
      }
      if (d == -1) {
        if (inferred >= 0)
          return g.invalid("Reshape: more than one -1");
        inferred = i;
        shape.push_back(1);
        continue;
      }
      if (size < 0)
        return g.invalid("Reshape: negative dimension");
      shape.push_back(size);
      known *= size;
    }
    if (inferred >= 0) {
      if (known == 0 || total % known)
        return g.invalid("Reshape: -1 cannot be inferred");
      shape[inferred] = total / known;
    }
  } else if (op == "Flatten") {
    int64_t axis = node.getInt("axis", 1);
    if (axis < 0)
      axis += x->rank();
    if (axis < 0 || axis > int64_t(x->rank()))
      return g.invalid("Flatten: axis out of range");
    int64_t outer = 1;
    for (int64_t d = 0; d < axis; ++d)
      outer *= x->shape[d];
    shape = {outer, total / outer};
  } else if (op == "Squeeze" || op == "Unsqueeze") {
    std::vector<int64_t> axes;
    bool fromInput = g.model.opset >= 13;
    if (fromInput && node.hasInput(1)) {
      std::optional<std::vector<int64_t>> values = getConstantInts(g, node, 1);
      if (!values)
        return;
      axes = *values;
    } else if (std::optional<std::vector<int64_t>> attr = node.getInts("axes")) {
      axes = *attr;
    }
    if (op == "Squeeze") {
      SmallVector<bool, 4> drop(x->rank(), axes.empty());
      if (axes.empty())
        for (unsigned d = 0; d < x->rank(); ++d)
          drop[d] = x->shape[d] == 1;
      for (int64_t axis : axes) {
        std::optional<unsigned> d = normalizeAxis(axis, x->rank());
        if (!d || x->shape[*d] != 1)
          return g.invalid("Squeeze: axis " + std::to_string(axis) +
                           " is not a dimension of size 1");
        drop[*d] = true;
      }
      for (unsigned d = 0; d < x->rank(); ++d)
        if (!drop[d])
          shape.push_back(x->shape[d]);
    } else {
      unsigned rank = x->rank() + axes.size();
      SmallVector<bool, 4> inserted(rank, false);
      for (int64_t axis : axes) {
        std::optional<unsigned> d = normalizeAxis(axis, rank);
        if (!d || inserted[*d])
          return g.invalid("Unsqueeze: bad axes");
        inserted[*d] = true;
      }
      unsigned next = 0;
      for (unsigned d = 0; d < rank; ++d)
        shape.push_back(inserted[d] ? 1 : x->shape[next++]);
    }
  }
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  if (count != total)
    return g.invalid(op + ": " + GraphBuilder::formatShape(x->shape) +
                     " has " + std::to_string(total) + " elements, " +
                     GraphBuilder::formatShape(shape) + " " +
                     std::to_string(count));
  // A reshape of a known value is known too (shape computations).
  if (const Tensor *known = g.findConstant(node.inputs[0])) {
    Tensor reshaped = *known;
    reshaped.dims.assign(shape.begin(), shape.end());
    g.constantValues[node.outputs[0]] = reshaped;
  }
  const GraphValue *y = g.defineOutput(node, 0, x->type, shape);
  if (y)
    emitReshape(g, node, *x, *y);
}

void lowerConcat(GraphBuilder &g, const Node &node) {
  SmallVector<const GraphValue *> inputs;
  for (const std::string &name : node.inputs) {
    const GraphValue *v = g.lookup(name);
    if (!v)
      return;
    inputs.push_back(v);
  }
  const GraphValue *first = inputs.front();
  std::optional<unsigned> axis =
      normalizeAxis(node.getInt("axis", 0), first->rank());
  if (!axis)
    return g.invalid("Concat: axis out of range");
  SmallVector<int64_t, 4> shape(first->shape);
  shape[*axis] = 0;
  for (const GraphValue *v : inputs) {
    if (v->rank() != first->rank() || v->type != first->type)
      return g.invalid("Concat: inputs differ in rank or type");
    for (unsigned d = 0; d < v->rank(); ++d)
      if (d != *axis && v->shape[d] != first->shape[d])
        return g.invalid("Concat: inputs differ outside the axis");
    shape[*axis] += v->shape[*axis];
  }
  const GraphValue *y = g.defineOutput(node, 0, first->type, shape);
  if (!y)
    return;
  int64_t offset = 0;
  for (const GraphValue *v : inputs) {
    g.emitNest(v->shape, [&](Nest &nest) {
      Index in, out;
      for (unsigned d = 0; d < v->rank(); ++d) {
        in.push_back(nest.var(d));
        out.push_back(d == *axis ? nest.var(d) + offset : nest.var(d));
      }
      nest.leaf(*y, out, OpKind::copy, {nest.read(*v, in)});
    });
    offset += v->shape[*axis];
  }
}

void lowerExpand(GraphBuilder &g, const Node &node) {
  const GraphValue *x = g.input(node, 0);
  if (!x)
    return;
  std::optional<std::vector<int64_t>> target = getConstantInts(g, node, 1);
  if (!target)
    return;
  // Numpy broadcast of the input's shape and the given one.
  size_t rank = std::max(x->rank(), unsigned(target->size()));
  SmallVector<int64_t, 4> shape(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int64_t a = i < rank - x->rank() ? 1 : x->shape[i - (rank - x->rank())];
    int64_t b = i < rank - target->size() ? 1
                                          : (*target)[i - (rank - target->size())];
    if (a != b && a != 1 && b != 1)
      return g.invalid("Expand: shapes do not broadcast");
    shape[i] = std::max(a, b);
  }
  const GraphValue *y = g.defineOutput(node, 0, x->type, shape);
  if (!y)
    return;
  g.emitNest(shape, [&](Nest &nest) {
    Index out, in;
    for (unsigned d = 0; d < rank; ++d)
      out.push_back(nest.var(d));
    for (unsigned d = 0; d < x->rank(); ++d)
      in.push_back(x->shape[d] == 1 ? getAffineConstantExpr(0, g.ctx)
                                    : out[rank - x->rank() + d]);
    nest.leaf(*y, out, OpKind::copy, {nest.read(*x, in)});
  });
}

/// Slice with starts, ends, axes and steps known at import: each output
/// index `i` reads `start + i * step` along its axis.
void lowerSlice(GraphBuilder &g, const Node &node) {
  const GraphValue *x = g.input(node, 0);
  if (!x)
    return;
  std::vector<int64_t> starts, ends, axes, steps;
  if (g.model.opset < 10) {
    starts = node.getInts("starts").value_or(std::vector<int64_t>{});
    ends = node.getInts("ends").value_or(std::vector<int64_t>{});
    axes = node.getInts("axes").value_or(std::vector<int64_t>{});
  } else {
    for (auto [i, target] : {std::pair<unsigned, std::vector<int64_t> *>{1, &starts},
                             {2, &ends}, {3, &axes}, {4, &steps}}) {
      if (!node.hasInput(i))
        continue;
      std::optional<std::vector<int64_t>> values = getConstantInts(g, node, i);
      if (!values)
        return;
      *target = *values;
    }
  }
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i)
      axes.push_back(i);
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size())
    return g.invalid("Slice: starts, ends, axes and steps differ in length");
  SmallVector<int64_t, 4> shape(x->shape), first(x->rank(), 0),
      stride(x->rank(), 1);
  for (size_t i = 0; i < starts.size(); ++i) {
    std::optional<unsigned> axis = normalizeAxis(axes[i], x->rank());
    if (!axis || steps[i] == 0)
      return g.invalid("Slice: bad axis or a zero step");
    int64_t dim = x->shape[*axis], step = steps[i];
    int64_t start = starts[i] < 0 ? starts[i] + dim : starts[i];
    int64_t end = ends[i] < 0 ? ends[i] + dim : ends[i];
    if (step > 0) {
      start = std::clamp<int64_t>(start, 0, dim);
      end = std::clamp<int64_t>(end, 0, dim);
    } else {
      start = std::clamp<int64_t>(start, 0, dim - 1);
      end = std::clamp<int64_t>(end, -1, dim - 1);
    }
    int64_t count = step > 0 ? (end - start + step - 1) / step
                             : (start - end - step - 1) / -step;
    shape[*axis] = std::max<int64_t>(0, count);
    first[*axis] = start;
    stride[*axis] = step;
  }
  const GraphValue *y = g.defineOutput(node, 0, x->type, shape);
  if (!y)
    return;
  g.emitNest(shape, [&](Nest &nest) {
    Index out, in;
    for (unsigned d = 0; d < x->rank(); ++d) {
      out.push_back(nest.var(d));
      in.push_back(nest.var(d) * stride[d] + first[d]);
    }
    nest.leaf(*y, out, OpKind::copy, {nest.read(*x, in)});
  });
}

/// ConstantOfShape: a tensor of the given (constant) shape filled with
/// `value` (default float 0).
void lowerConstantOfShape(GraphBuilder &g, const Node &node) {
  std::optional<std::vector<int64_t>> shape = getConstantInts(g, node, 0);
  if (!shape)
    return;
  Tensor fill;
  fill.elementKind = int(ElementKind::Float);
  fill.floats = {0.0};
  if (const NodeAttribute *a = node.getAttribute("value")) {
    if (!a->tensor || a->tensor->getNumElements() != 1)
      return g.invalid("ConstantOfShape's value must be a one-element tensor");
    fill = *a->tensor;
  }
  Type type = g.getElementType(fill.elementKind);
  if (!type)
    return g.unsupported(llvm::Twine("ConstantOfShape of element type ") +
                         getElementKindName(fill.elementKind) +
                         ", which the IR lacks");
  double v = fill.isFloat() ? fill.floats[0] : double(fill.ints[0]);
  if (std::optional<std::string> bad =
          findConstantViolation(v, type, OpKind::copy, 0))
    return g.unsupported("ConstantOfShape: " + *bad);
  int64_t count = 1;
  for (int64_t d : *shape)
    count *= d;
  // A known value too, when small (shape computations read it).
  if (count > 0 && count <= kMaxConstantElements) {
    Tensor value;
    value.name = node.outputs[0];
    value.elementKind = fill.elementKind;
    value.dims = *shape;
    if (fill.isFloat())
      value.floats.assign(count, v);
    else
      value.ints.assign(count, fill.ints[0]);
    g.constantValues[node.outputs[0]] = value;
  }
  const GraphValue *y = g.defineOutput(node, 0, type, *shape);
  if (!y)
    return;
  g.emitNest(y->shape, [&](Nest &nest) {
    nest.leaf(*y, nest.vars(y->rank()), OpKind::copy, {nest.constant(v)});
  });
}

/// Split along an axis into parts of the given sizes (an input from opset
/// 13, an attribute before), or equal parts.
void lowerSplit(GraphBuilder &g, const Node &node) {
  const GraphValue *x = g.input(node, 0);
  if (!x)
    return;
  std::optional<unsigned> axis = normalizeAxis(node.getInt("axis", 0), x->rank());
  if (!axis)
    return g.invalid("Split: axis out of range");
  std::vector<int64_t> sizes;
  if (node.hasInput(1)) {
    std::optional<std::vector<int64_t>> given = getConstantInts(g, node, 1);
    if (!given)
      return;
    sizes = *given;
  } else if (std::optional<std::vector<int64_t>> attr = node.getInts("split")) {
    sizes = *attr;
  } else {
    int64_t parts = node.getInt("num_outputs", node.outputs.size());
    int64_t dim = x->shape[*axis];
    int64_t each = parts > 0 ? (dim + parts - 1) / parts : 0;
    for (int64_t i = 0; i < parts; ++i)
      sizes.push_back(std::min(each, dim - i * each));
  }
  int64_t total = 0;
  for (int64_t size : sizes)
    total += size;
  if (sizes.size() != node.outputs.size() || total != x->shape[*axis])
    return g.invalid("Split: the parts do not cover the axis");
  int64_t offset = 0;
  for (auto [i, size] : llvm::enumerate(sizes)) {
    SmallVector<int64_t, 4> shape(x->shape);
    shape[*axis] = size;
    const GraphValue *y = g.defineOutput(node, i, x->type, shape);
    if (g.hasFailed())
      return;
    if (y)
      g.emitNest(shape, [&](Nest &nest) {
        Index out = nest.vars(shape.size());
        Index in(out);
        in[*axis] = out[*axis] + offset;
        nest.leaf(*y, out, OpKind::copy, {nest.read(*x, in)});
      });
    offset += size;
  }
}

/// Gather with indices known at import: one copy nest per index, reading
/// the indexed slice (run-time indices are a data-dependent access the IR
/// does not have).
void lowerGather(GraphBuilder &g, const Node &node) {
  const GraphValue *x = g.input(node, 0);
  if (!x || !g.input(node, 1))
    return;
  const Tensor *indices = g.findConstant(node.inputs[1]);
  if (!indices || indices->isFloat())
    return g.unsupported("Gather with indices known only at run time (a "
                         "data-dependent access)");
  std::optional<unsigned> axis = normalizeAxis(node.getInt("axis", 0), x->rank());
  if (!axis)
    return g.invalid("Gather: axis out of range");
  int64_t count = indices->getNumElements();
  if (count > kMaxConstantElements)
    return g.unsupported("Gather of " + std::to_string(count) +
                         " indices (one copy nest each)");
  int64_t dim = x->shape[*axis];
  SmallVector<int64_t, 4> shape(x->shape.begin(), x->shape.begin() + *axis);
  llvm::append_range(shape, indices->dims);
  shape.append(x->shape.begin() + *axis + 1, x->shape.end());
  // A gather from a known value is known too (shape computations).
  if (const Tensor *known = g.findConstant(node.inputs[0]);
      known && x->rank() == 1) {
    Tensor value;
    value.name = node.outputs[0];
    value.elementKind = known->elementKind;
    value.dims = indices->dims;
    for (int64_t i : indices->ints) {
      int64_t at = i < 0 ? i + dim : i;
      if (at < 0 || at >= dim)
        return g.invalid("Gather: index out of range");
      if (known->isFloat())
        value.floats.push_back(known->floats[at]);
      else
        value.ints.push_back(known->ints[at]);
    }
    g.constantValues[node.outputs[0]] = value;
  }
  const GraphValue *y = g.defineOutput(node, 0, x->type, shape);
  if (!y)
    return;
  SmallVector<int64_t, 4> slice(x->shape);
  slice.erase(slice.begin() + *axis);
  unsigned q = indices->dims.size();
  for (int64_t k = 0; k < count; ++k) {
    int64_t at = indices->ints[k] < 0 ? indices->ints[k] + dim : indices->ints[k];
    if (at < 0 || at >= dim)
      return g.invalid("Gather: index " + std::to_string(indices->ints[k]) +
                       " is out of range");
    // The position of index k in the indices tensor.
    SmallVector<int64_t, 4> position(q);
    int64_t rest = k;
    for (int d = q - 1; d >= 0; --d) {
      position[d] = rest % indices->dims[d];
      rest /= indices->dims[d];
    }
    g.emitNest(slice, [&](Nest &nest) {
      Index vars = nest.vars(slice.size());
      Index in, out;
      for (unsigned d = 0; d < *axis; ++d) {
        in.push_back(vars[d]);
        out.push_back(vars[d]);
      }
      in.push_back(getAffineConstantExpr(at, g.ctx));
      for (int64_t p : position)
        out.push_back(getAffineConstantExpr(p, g.ctx));
      for (unsigned d = *axis; d < slice.size(); ++d) {
        in.push_back(vars[d]);
        out.push_back(vars[d]);
      }
      nest.leaf(*y, out, OpKind::copy, {nest.read(*x, in)});
    });
  }
}

/// Cast and CastLike: a copy, which converts between element types by the
/// IR's rules (docs/ir.md, "Conversions"): floats to integers truncate,
/// anything to bool is "not 0"; ONNX leaves out-of-range values undefined,
/// the IR saturates them.
void lowerCast(GraphBuilder &g, const Node &node) {
  const GraphValue *x = g.input(node, 0);
  if (!x)
    return;
  Type to;
  if (node.opType == "Cast") {
    int64_t kind = node.getInt("to", 0);
    to = g.getElementType(kind);
    if (!to)
      return g.unsupported(llvm::Twine("Cast to element type ") +
                           getElementKindName(kind) + ", which the IR lacks");
  } else {
    const GraphValue *like = g.input(node, 1);
    if (!like)
      return;
    to = like->type;
  }
  const GraphValue *y = g.defineOutput(node, 0, to, x->shape);
  if (!y)
    return;
  g.emitNest(x->shape, [&](Nest &nest) {
    Index all = nest.vars(x->rank());
    nest.leaf(*y, all, OpKind::copy, {nest.read(*x, all)});
  });
}

/// Pad (opset 11 on: pads, and the constant, as inputs known at import;
/// opset 18's axes): `constant` fills the border, `edge` repeats the
/// outermost element, `reflect` mirrors without repeating it. Each output
/// region (before, inside, after the input along every dimension) is one
/// affine copy.
void lowerPad(GraphBuilder &g, const Node &node) {
  const GraphValue *x = g.input(node, 0);
  if (!x)
    return;
  unsigned rank = x->rank();
  std::optional<std::vector<int64_t>> given = getConstantInts(g, node, 1);
  if (!given)
    return;
  SmallVector<unsigned, 4> axes;
  if (node.hasInput(3)) {
    std::optional<std::vector<int64_t>> a = getConstantInts(g, node, 3);
    if (!a)
      return;
    for (int64_t axis : *a) {
      std::optional<unsigned> d = normalizeAxis(axis, rank);
      if (!d)
        return g.invalid("Pad: axis out of range");
      axes.push_back(*d);
    }
  } else {
    for (unsigned d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  if (given->size() != 2 * axes.size())
    return g.invalid("Pad: pads has " + std::to_string(given->size()) +
                     " values for " + std::to_string(axes.size()) + " axes");
  SmallVector<int64_t, 4> before(rank, 0), after(rank, 0);
  for (auto [i, d] : llvm::enumerate(axes)) {
    before[d] = (*given)[i];
    after[d] = (*given)[i + axes.size()];
    if (before[d] < 0 || after[d] < 0)
      return g.unsupported("Pad with negative pads (a crop)");
  }
  std::string mode = node.getString("mode", "constant");
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    return g.unsupported("Pad mode '" + mode + "'");
  double fill = 0;
  if (node.hasInput(2)) {
    const Tensor *value = g.findConstant(node.inputs[2]);
    if (!value || value->getNumElements() != 1)
      return g.unsupported("Pad takes its constant_value at run time; the IR "
                           "needs it as a constant (an initializer, or "
                           "--constant)");
    fill = value->isFloat() ? value->floats.front() : double(value->ints.front());
  }
  SmallVector<int64_t, 4> shape;
  for (unsigned d = 0; d < rank; ++d) {
    if (mode == "reflect" && (before[d] >= x->shape[d] || after[d] >= x->shape[d]))
      return g.invalid("Pad: reflect pads must be smaller than the dimension");
    shape.push_back(before[d] + x->shape[d] + after[d]);
  }
  const GraphValue *y = g.defineOutput(node, 0, x->type, shape);
  if (!y)
    return;
  if (mode == "constant")
    g.emitNest(shape, [&](Nest &nest) {
      nest.leaf(*y, nest.vars(rank), OpKind::copy, {nest.constant(fill)});
    });
  // Regions 0 (before), 1 (inside), 2 (after) per dimension; constant
  // mode copies only the inside.
  int64_t regions = 1;
  for (unsigned d = 0; d < rank; ++d)
    regions *= mode == "constant" ? 1 : 3;
  for (int64_t r = 0; r < regions; ++r) {
    SmallVector<int, 4> region(rank, 1);
    SmallVector<int64_t, 4> sizes;
    int64_t rest = r;
    bool empty = false;
    for (unsigned d = 0; d < rank; ++d) {
      if (mode != "constant") {
        region[d] = rest % 3;
        rest /= 3;
      }
      int64_t size = region[d] == 0 ? before[d]
                     : region[d] == 1 ? x->shape[d]
                                      : after[d];
      empty |= size == 0;
      sizes.push_back(size);
    }
    if (empty)
      continue;
    g.emitNest(sizes, [&](Nest &nest) {
      Index out, in;
      for (unsigned d = 0; d < rank; ++d) {
        AffineExpr v = nest.var(d);
        int64_t n = x->shape[d];
        if (region[d] == 0) {
          out.push_back(v);
          in.push_back(mode == "edge" ? getAffineConstantExpr(0, g.ctx)
                                      : before[d] - v);
        } else if (region[d] == 1) {
          out.push_back(v + before[d]);
          in.push_back(v);
        } else {
          out.push_back(v + before[d] + n);
          in.push_back(mode == "edge" ? getAffineConstantExpr(n - 1, g.ctx)
                                      : n - 2 - v);
        }
      }
      nest.leaf(*y, out, OpKind::copy, {nest.read(*x, in)});
    });
  }
}

} // namespace

bool perfdojo::onnx::lowerShapeNode(GraphBuilder &g, const Node &node) {
  StringRef op = node.opType;
  if (op == "Constant")
    lowerConstant(g, node);
  else if (op == "Shape")
    lowerShape(g, node);
  else if (op == "Size")
    lowerSize(g, node);
  else if (op == "Reshape" || op == "Flatten" || op == "Squeeze" ||
           op == "Unsqueeze")
    lowerReshapeLike(g, node);
  else if (op == "Concat")
    lowerConcat(g, node);
  else if (op == "Expand")
    lowerExpand(g, node);
  else if (op == "Cast" || op == "CastLike")
    lowerCast(g, node);
  else if (op == "Slice")
    lowerSlice(g, node);
  else if (op == "ConstantOfShape")
    lowerConstantOfShape(g, node);
  else if (op == "Split")
    lowerSplit(g, node);
  else if (op == "Gather")
    lowerGather(g, node);
  else if (op == "Pad")
    lowerPad(g, node);
  else
    return false;
  return true;
}
