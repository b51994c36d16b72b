//===- OnnxNetworkOperators.cpp - convolution, pooling, normalization -----===//
//
// Padding: the IR's accesses stay within their arrays (kernel invariant
// S8), so a padded window reads a padded copy of the input, filled with the
// operator's neutral value (0 for convolution and average pooling, -inf for
// max pooling) and the input copied into its interior.
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"

#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"

#include <cmath>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::onnx;

namespace {


/// The ints attribute `name`, or `count` copies of `otherwise`.
SmallVector<int64_t, 6> getIntsOr(const Node &node, StringRef name,
                                  int64_t otherwise, size_t count) {
  SmallVector<int64_t, 6> values(count, otherwise);
  if (std::optional<std::vector<int64_t>> given = node.getInts(name))
    values.assign(given->begin(), given->end());
  return values;
}

/// The spatial geometry of a convolution or pooling node over input
/// spatial sizes `in` and kernel sizes `kernel`.
struct Window {
  SmallVector<int64_t, 3> kernel, strides, dilations, padBegin, padEnd, out;
};

std::optional<Window> getWindow(GraphBuilder &g, const Node &node,
                                ArrayRef<int64_t> in, ArrayRef<int64_t> kernel,
                                bool ceilMode) {
  size_t k = in.size();
  Window w;
  w.kernel.assign(kernel.begin(), kernel.end());
  w.strides = getIntsOr(node, "strides", 1, k);
  w.dilations = getIntsOr(node, "dilations", 1, k);
  SmallVector<int64_t, 6> pads = getIntsOr(node, "pads", 0, 2 * k);
  if (w.strides.size() != k || w.dilations.size() != k || pads.size() != 2 * k) {
    g.invalid(node.opType + ": strides, dilations or pads of the wrong length");
    return std::nullopt;
  }
  std::string autoPad = node.getString("auto_pad", "NOTSET");
  for (size_t d = 0; d < k; ++d) {
    int64_t span = (w.kernel[d] - 1) * w.dilations[d] + 1;
    int64_t pb = pads[d], pe = pads[d + k];
    if (autoPad == "VALID") {
      pb = pe = 0;
    } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      int64_t out = (in[d] + w.strides[d] - 1) / w.strides[d];
      int64_t total = std::max<int64_t>(0, (out - 1) * w.strides[d] + span - in[d]);
      pb = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
      pe = total - pb;
    } else if (autoPad != "NOTSET") {
      g.invalid(node.opType + ": unknown auto_pad " + autoPad);
      return std::nullopt;
    }
    int64_t room = in[d] + pb + pe - span;
    if (room < 0) {
      g.invalid(node.opType + ": the window is larger than the padded input");
      return std::nullopt;
    }
    int64_t out = (ceilMode ? (room + w.strides[d] - 1) / w.strides[d]
                            : room / w.strides[d]) + 1;
    // ceil_mode: the last window may run past the padded input; it covers
    // only what is there (padded with the neutral value below).
    if (ceilMode && (out - 1) * w.strides[d] >= in[d] + pb)
      --out; // a window must start inside the input or its left padding
    pe = std::max(pe, (out - 1) * w.strides[d] + span - in[d] - pb);
    w.padBegin.push_back(pb);
    w.padEnd.push_back(pe);
    w.out.push_back(out);
  }
  return w;
}

/// `x` with its spatial dimensions (from 2 on) padded by the window's pads
/// and `fill`; `x` itself when nothing is padded.
const GraphValue *padInput(GraphBuilder &g, const GraphValue &x,
                           const Window &w, double fill) {
  bool padded = llvm::any_of(w.padBegin, [](int64_t p) { return p > 0; }) ||
                llvm::any_of(w.padEnd, [](int64_t p) { return p > 0; });
  if (!padded)
    return &x;
  SmallVector<int64_t, 4> shape(x.shape);
  for (size_t d = 0; d < w.padBegin.size(); ++d)
    shape[2 + d] += w.padBegin[d] + w.padEnd[d];
  const GraphValue *p = g.declareTemporary(x.type, shape);
  if (!p)
    return nullptr;
  g.emitNest(shape, [&](Nest &nest) {
    Index all = nest.vars(shape.size());
    nest.leaf(*p, all, OpKind::copy, {nest.constant(fill)});
  });
  g.emitNest(x.shape, [&](Nest &nest) {
    Index in, out;
    for (unsigned d = 0; d < x.rank(); ++d) {
      in.push_back(nest.var(d));
      out.push_back(d < 2 ? nest.var(d) : nest.var(d) + w.padBegin[d - 2]);
    }
    nest.leaf(*p, out, OpKind::copy, {nest.read(x, in)});
  });
  return p;
}

/// The input X, the weights W and the optional bias B of a Conv or
/// ConvTranspose node, checked alike (ranks, a float type); false after
/// reporting why.
bool getConvOperands(GraphBuilder &g, const Node &node, StringRef op,
                     const GraphValue *&x, const GraphValue *&wt,
                     const GraphValue *&bias) {
  x = g.input(node, 0);
  wt = g.input(node, 1);
  if (!x || !wt || !g.lookupOptional(node, 2, bias))
    return false;
  if (x->rank() < 3 || wt->rank() != x->rank()) {
    g.invalid(op + ": input and weight ranks differ or are below 3");
    return false;
  }
  if (!isFloatType(x->type)) {
    g.unsupported(op + " on integers");
    return false;
  }
  return true;
}

void lowerConv(GraphBuilder &g, const Node &node) {
  const GraphValue *x, *wt, *bias;
  if (!getConvOperands(g, node, "Conv", x, wt, bias))
    return;
  int64_t group = node.getInt("group", 1);
  int64_t n = x->shape[0], c = x->shape[1], m = wt->shape[0];
  if (group <= 0 || c % group || m % group || wt->shape[1] != c / group)
    return g.invalid("Conv: channels do not match the groups");
  ArrayRef<int64_t> spatial = ArrayRef<int64_t>(x->shape).drop_front(2);
  ArrayRef<int64_t> kernel = ArrayRef<int64_t>(wt->shape).drop_front(2);
  if (std::optional<std::vector<int64_t>> ks = node.getInts("kernel_shape"))
    if (ArrayRef<int64_t>(*ks) != kernel)
      return g.invalid("Conv: kernel_shape differs from the weights");
  std::optional<Window> w = getWindow(g, node, spatial, kernel, false);
  if (!w)
    return;
  const GraphValue *xp = padInput(g, *x, *w, 0);
  if (!xp)
    return;
  SmallVector<int64_t, 4> shape = {n, m};
  llvm::append_range(shape, w->out);
  const GraphValue *y = g.defineOutput(node, 0, x->type, shape);
  if (!y)
    return;
  int64_t mg = m / group, cg = c / group;
  unsigned k = spatial.size();
  // n, group, channel in group, output positions; then the reduction over
  // the group's input channels and the kernel window.
  SmallVector<int64_t, 6> sizes = {n, group, mg};
  llvm::append_range(sizes, w->out);
  g.emitNest(sizes, [&](Nest &nest) {
    AffineExpr outChannel = nest.var(1) * mg + nest.var(2);
    Index out = {nest.var(0), outChannel};
    for (unsigned d = 0; d < k; ++d)
      out.push_back(nest.var(3 + d));
    if (bias)
      nest.leaf(*y, out, OpKind::copy, {nest.read(*bias, {outChannel})});
    else
      nest.leaf(*y, out, OpKind::copy, {nest.constant(0)});
    nest.enter(cg);
    for (unsigned d = 0; d < k; ++d)
      nest.enter(kernel[d]);
    unsigned base = 3 + k;
    Index in = {nest.var(0), nest.var(1) * cg + nest.var(base)};
    Index weight = {outChannel, nest.var(base)};
    for (unsigned d = 0; d < k; ++d) {
      AffineExpr tap = nest.var(base + 1 + d);
      in.push_back(nest.var(3 + d) * w->strides[d] + tap * w->dilations[d]);
      weight.push_back(tap);
    }
    nest.leaf(*y, out, OpKind::mul, {nest.read(*xp, in), nest.read(*wt, weight)},
              ReduceKind::add);
  });
}

/// ConvTranspose: every input element scatters `x * w` over its window of
/// the full (unpadded) output, yp[i * s + k * d] += x[i] * w[k] (a
/// reduction into affine positions); the output is yp without the pads.
void lowerConvTranspose(GraphBuilder &g, const Node &node) {
  const GraphValue *x, *wt, *bias;
  if (!getConvOperands(g, node, "ConvTranspose", x, wt, bias))
    return;
  int64_t group = node.getInt("group", 1);
  int64_t n = x->shape[0], c = x->shape[1];
  if (group <= 0 || c % group || wt->shape[0] != c)
    return g.invalid("ConvTranspose: channels do not match the groups");
  int64_t mg = wt->shape[1], m = mg * group, cg = c / group;
  unsigned k = x->rank() - 2;
  ArrayRef<int64_t> in = ArrayRef<int64_t>(x->shape).drop_front(2);
  ArrayRef<int64_t> kernel = ArrayRef<int64_t>(wt->shape).drop_front(2);
  SmallVector<int64_t, 6> strides = getIntsOr(node, "strides", 1, k),
                          dilations = getIntsOr(node, "dilations", 1, k),
                          outputPadding = getIntsOr(node, "output_padding", 0, k),
                          pads = getIntsOr(node, "pads", 0, 2 * k);
  std::optional<std::vector<int64_t>> outputShape = node.getInts("output_shape");
  std::string autoPad = node.getString("auto_pad", "NOTSET");
  if (strides.size() != k || dilations.size() != k ||
      outputPadding.size() != k || pads.size() != 2 * k ||
      (outputShape && outputShape->size() != k))
    return g.invalid("ConvTranspose: attributes of the wrong length");
  // The full output holds every scattered position; pads crop it. An
  // output_shape beyond it (negative pads) adds zero positions around it:
  // `shift` places the scatter inside, `crop` is where the output starts.
  SmallVector<int64_t, 3> full, shift, crop, out;
  auto floorDiv2 = [](int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); };
  for (unsigned d = 0; d < k; ++d) {
    int64_t f = strides[d] * (in[d] - 1) + outputPadding[d] +
                (kernel[d] - 1) * dilations[d] + 1;
    int64_t pb = pads[d], pe = pads[d + k];
    if (outputShape || autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      int64_t wanted = outputShape ? (*outputShape)[d] : in[d] * strides[d];
      int64_t total = f - wanted;
      pb = autoPad == "SAME_UPPER" ? floorDiv2(total) : total - floorDiv2(total);
      pe = total - pb;
    }
    if (f - pb - pe <= 0)
      return g.invalid("ConvTranspose: the pads remove the whole output");
    int64_t before = std::max<int64_t>(0, -pb), after = std::max<int64_t>(0, -pe);
    full.push_back(f + before + after);
    shift.push_back(before);
    crop.push_back(pb + before);
    out.push_back(f - pb - pe);
  }
  SmallVector<int64_t, 4> fullShape = {n, m}, shape = {n, m};
  llvm::append_range(fullShape, full);
  llvm::append_range(shape, out);
  const GraphValue *yp = g.declareTemporary(x->type, fullShape);
  const GraphValue *y = yp ? g.defineOutput(node, 0, x->type, shape) : nullptr;
  if (!y)
    return;
  g.emitNest(fullShape, [&](Nest &nest) {
    nest.leaf(*yp, nest.vars(fullShape.size()), OpKind::copy, {nest.constant(0)});
  });
  // n, group, input channel in group, input positions; then the output
  // channels of the group and the kernel window.
  SmallVector<int64_t, 8> sizes = {n, group, cg};
  llvm::append_range(sizes, in);
  g.emitNest(sizes, [&](Nest &nest) {
    nest.enter(mg);
    for (unsigned d = 0; d < k; ++d)
      nest.enter(kernel[d]);
    AffineExpr inChannel = nest.var(1) * cg + nest.var(2);
    AffineExpr outChannel = nest.var(1) * mg + nest.var(3 + k);
    Index xi = {nest.var(0), inChannel}, wi = {inChannel, nest.var(3 + k)},
          yi = {nest.var(0), outChannel};
    for (unsigned d = 0; d < k; ++d) {
      AffineExpr i = nest.var(3 + d), tap = nest.var(4 + k + d);
      xi.push_back(i);
      wi.push_back(tap);
      yi.push_back(i * strides[d] + tap * dilations[d] + shift[d]);
    }
    nest.leaf(*yp, yi, OpKind::mul, {nest.read(*x, xi), nest.read(*wt, wi)},
              ReduceKind::add);
  });
  g.emitNest(shape, [&](Nest &nest) {
    Index o = nest.vars(shape.size());
    Index from = {o[0], o[1]};
    for (unsigned d = 0; d < k; ++d)
      from.push_back(o[2 + d] + crop[d]);
    if (bias)
      nest.leaf(*y, o, OpKind::add, {nest.read(*yp, from), nest.read(*bias, {o[1]})});
    else
      nest.leaf(*y, o, OpKind::copy, {nest.read(*yp, from)});
  });
}

void lowerPool(GraphBuilder &g, const Node &node) {
  const GraphValue *x = g.input(node, 0);
  if (!x)
    return;
  StringRef op = node.opType;
  bool global = op.starts_with("Global");
  bool max = op.ends_with("MaxPool");
  if (x->rank() < 3)
    return g.invalid(op + ": the input needs a batch, channels and spatial "
                          "dimensions");
  if (node.outputs.size() > 1 && !node.outputs[1].empty())
    return g.unsupported("MaxPool's Indices output");
  ArrayRef<int64_t> spatial = ArrayRef<int64_t>(x->shape).drop_front(2);
  SmallVector<int64_t, 3> kernel(spatial.begin(), spatial.end());
  if (!global) {
    std::optional<std::vector<int64_t>> ks = node.getInts("kernel_shape");
    if (!ks || ks->size() != spatial.size())
      return g.invalid(op + " needs kernel_shape of the spatial rank");
    kernel.assign(ks->begin(), ks->end());
  }
  bool ceilMode = node.getInt("ceil_mode", 0);
  if (ceilMode && !max)
    return g.unsupported("AveragePool with ceil_mode");
  std::optional<Window> w =
      global ? Window{kernel, SmallVector<int64_t, 3>(kernel.size(), 1),
                      SmallVector<int64_t, 3>(kernel.size(), 1),
                      SmallVector<int64_t, 3>(kernel.size(), 0),
                      SmallVector<int64_t, 3>(kernel.size(), 0),
                      SmallVector<int64_t, 3>(kernel.size(), 1)}
             : getWindow(g, node, spatial, kernel, ceilMode);
  if (!w)
    return;
  Type type = x->type;
  std::optional<double> identity =
      getReductionIdentity(max ? ReduceKind::max : ReduceKind::add, type);
  if (!identity || (!max && !isFloatType(type)))
    return g.unsupported(op + " on this element type");
  const GraphValue *xp = padInput(g, *x, *w, *identity);
  if (!xp)
    return;
  SmallVector<int64_t, 4> shape = {x->shape[0], x->shape[1]};
  llvm::append_range(shape, w->out);
  unsigned k = spatial.size();
  // Average pooling without the padding in its count divides by the
  // number of window positions inside the input, per output position.
  bool countPads = node.getInt("count_include_pad", 0);
  bool padded = xp != x;
  const GraphValue *counts = nullptr;
  if (!max && padded && !countPads) {
    SmallVector<int64_t, 3> paddedSpatial, inside(spatial.begin(), spatial.end());
    for (unsigned d = 0; d < k; ++d)
      paddedSpatial.push_back(spatial[d] + w->padBegin[d] + w->padEnd[d]);
    const GraphValue *mask = g.declareTemporary(type, paddedSpatial);
    counts = mask ? g.declareTemporary(type, w->out) : nullptr;
    if (!counts)
      return;
    g.emitNest(paddedSpatial, [&](Nest &nest) {
      Index all = nest.vars(k);
      nest.leaf(*mask, all, OpKind::copy, {nest.constant(0)});
    });
    g.emitNest(inside, [&](Nest &nest) {
      Index at;
      for (unsigned d = 0; d < k; ++d)
        at.push_back(nest.var(d) + w->padBegin[d]);
      nest.leaf(*mask, at, OpKind::copy, {nest.constant(1)});
    });
    g.emitNest(w->out, [&](Nest &nest) {
      Index out = nest.vars(k);
      nest.leaf(*counts, out, OpKind::copy, {nest.constant(0)});
      for (unsigned d = 0; d < k; ++d)
        nest.enter(w->kernel[d]);
      Index in;
      for (unsigned d = 0; d < k; ++d)
        in.push_back(nest.var(d) * w->strides[d] +
                     nest.var(k + d) * w->dilations[d]);
      nest.leaf(*counts, out, OpKind::copy, {nest.read(*mask, in)},
                ReduceKind::add);
    });
  }
  const GraphValue *y = g.defineOutput(node, 0, type, shape);
  if (!y)
    return;
  g.emitNest(shape, [&](Nest &nest) {
    Index out = nest.vars(shape.size());
    nest.leaf(*y, out, OpKind::copy, {nest.constant(*identity)});
    for (unsigned d = 0; d < k; ++d)
      nest.enter(w->kernel[d]);
    Index in = {nest.var(0), nest.var(1)};
    for (unsigned d = 0; d < k; ++d)
      in.push_back(nest.var(2 + d) * w->strides[d] +
                   nest.var(2 + k + d) * w->dilations[d]);
    nest.leaf(*y, out, OpKind::copy, {nest.read(*xp, in)},
              max ? ReduceKind::max : ReduceKind::add);
  });
  if (max)
    return;
  int64_t window = 1;
  for (int64_t size : w->kernel)
    window *= size;
  g.emitNest(shape, [&](Nest &nest) {
    Index out, spatialOut;
    for (unsigned d = 0; d < shape.size(); ++d)
      out.push_back(nest.var(d));
    for (unsigned d = 0; d < k; ++d)
      spatialOut.push_back(nest.var(2 + d));
    nest.leaf(*y, out, OpKind::div,
              {nest.read(*y, out),
               counts ? nest.read(*counts, spatialOut)
                      : nest.constant(double(window))});
  });
}

/// `y = ((x - mean) * scale / sqrt(var + eps)) + bias` per channel
/// (dimension 1), inference mode.
void lowerBatchNormalization(GraphBuilder &g, const Node &node) {
  if (node.getInt("training_mode", 0) ||
      llvm::any_of(llvm::drop_begin(node.outputs),
                   [](const std::string &o) { return !o.empty(); }))
    return g.unsupported("BatchNormalization in training mode");
  SmallVector<const GraphValue *, 5> in;
  for (unsigned i = 0; i < 5; ++i) {
    in.push_back(g.input(node, i));
    if (!in.back())
      return;
  }
  const GraphValue &x = *in[0];
  if (x.rank() < 2 || !isFloatType(x.type))
    return g.invalid("BatchNormalization needs a float input with channels");
  int64_t c = x.shape[1];
  for (unsigned i = 1; i < 5; ++i)
    if (in[i]->rank() != 1 || in[i]->shape[0] != c)
      return g.invalid("BatchNormalization: parameters must have C elements");
  double eps = node.getFloat("epsilon", 1e-5);
  const GraphValue *factor = g.declareTemporary(x.type, {c});
  const GraphValue *y = factor ? g.defineOutput(node, 0, x.type, x.shape) : nullptr;
  if (!y)
    return;
  g.emitNest({c}, [&](Nest &nest) {
    Index ch = {nest.var(0)};
    nest.leaf(*factor, ch, OpKind::add, {nest.read(*in[4], ch), nest.constant(eps)});
    nest.leaf(*factor, ch, OpKind::sqrt, {nest.read(*factor, ch)});
    nest.leaf(*factor, ch, OpKind::div, {nest.read(*in[1], ch), nest.read(*factor, ch)});
  });
  g.emitNest(x.shape, [&](Nest &nest) {
    Index all = nest.vars(x.rank());
    Index ch = {nest.var(1)};
    nest.leaf(*y, all, OpKind::sub, {nest.read(x, all), nest.read(*in[3], ch)});
    nest.leaf(*y, all, OpKind::mul, {nest.read(*y, all), nest.read(*factor, ch)});
    nest.leaf(*y, all, OpKind::add, {nest.read(*y, all), nest.read(*in[2], ch)});
  });
}

/// Normalization over the dimensions from `axis` on: y = (x - mean) /
/// sqrt(var + eps) * scale + bias, the statistics kept per index of the
/// dimensions before `axis`. `paramIndex` says where scale and bias are
/// read for an element. LayerNormalization may also output Mean and
/// InvStdDev (outputs 1 and 2).
void emitNormalization(
    GraphBuilder &g, const Node &node, const GraphValue *x, int64_t axis,
    double eps, const GraphValue *scale, const GraphValue *bias,
    llvm::function_ref<Index(const GraphValue &, ArrayRef<AffineExpr>)>
        paramIndex) {
  int64_t rank = x->rank();
  SmallVector<int64_t, 4> outer(x->shape.begin(), x->shape.begin() + axis);
  SmallVector<int64_t, 4> inner(x->shape.begin() + axis, x->shape.end());
  SmallVector<int64_t, 4> statShape(outer);
  statShape.append(inner.size(), 1);
  int64_t count = 1;
  for (int64_t s : inner)
    count *= s;
  const GraphValue *mean =
      node.outputs.size() > 1 && !node.outputs[1].empty()
          ? nullptr
          : g.declareTemporary(x->type, statShape);
  const GraphValue *y = g.defineOutput(node, 0, x->type, x->shape);
  if (!y)
    return;
  if (!mean && !(mean = g.defineOutput(node, 1, x->type, statShape)))
    return;
  const GraphValue *inv =
      node.outputs.size() > 2 && !node.outputs[2].empty()
          ? g.defineOutput(node, 2, x->type, statShape)
          : g.declareTemporary(x->type, statShape);
  if (!inv)
    return;
  unsigned no = outer.size();
  auto statIndex = [&](Nest &nest) {
    Index s = nest.vars(no);
    for (size_t d = 0; d < inner.size(); ++d)
      s.push_back(getAffineConstantExpr(0, g.ctx));
    return s;
  };
  auto fullIndex = [&](Nest &nest) {
    Index f = nest.vars(rank);
    return f;
  };
  // mean = sum(x) / n; y = x - mean; inv = 1 / sqrt(sum(y^2) / n + eps);
  // y = y * inv * scale + bias.
  g.emitNest(outer, [&](Nest &nest) {
    Index s = statIndex(nest);
    nest.leaf(*mean, s, OpKind::copy, {nest.constant(0)});
    for (int64_t size : inner)
      nest.enter(size);
    nest.leaf(*mean, s, OpKind::copy, {nest.read(*x, fullIndex(nest))},
              ReduceKind::add);
  });
  g.emitNest(outer, [&](Nest &nest) {
    Index s = statIndex(nest);
    nest.leaf(*mean, s, OpKind::div, {nest.read(*mean, s), nest.constant(count)});
  });
  g.emitNest(x->shape, [&](Nest &nest) {
    Index f = fullIndex(nest);
    nest.leaf(*y, f, OpKind::sub, {nest.read(*x, f), nest.read(*mean, statIndex(nest))});
  });
  g.emitNest(outer, [&](Nest &nest) {
    Index s = statIndex(nest);
    nest.leaf(*inv, s, OpKind::copy, {nest.constant(0)});
    for (int64_t size : inner)
      nest.enter(size);
    Index f = fullIndex(nest);
    nest.leaf(*inv, s, OpKind::mul, {nest.read(*y, f), nest.read(*y, f)},
              ReduceKind::add);
  });
  g.emitNest(outer, [&](Nest &nest) {
    Index s = statIndex(nest);
    nest.leaf(*inv, s, OpKind::div, {nest.read(*inv, s), nest.constant(count)});
    nest.leaf(*inv, s, OpKind::add, {nest.read(*inv, s), nest.constant(eps)});
    nest.leaf(*inv, s, OpKind::rsqrt, {nest.read(*inv, s)});
  });
  g.emitNest(x->shape, [&](Nest &nest) {
    Index f = fullIndex(nest);
    nest.leaf(*y, f, OpKind::mul, {nest.read(*y, f), nest.read(*inv, statIndex(nest))});
    nest.leaf(*y, f, OpKind::mul, {nest.read(*y, f), nest.read(*scale, paramIndex(*scale, f))});
    if (bias)
      nest.leaf(*y, f, OpKind::add, {nest.read(*y, f), nest.read(*bias, paramIndex(*bias, f))});
  });
}

/// LayerNormalization (opset 17): normalize over the dimensions from
/// `axis` on, scale and bias broadcast to them.
void lowerLayerNormalization(GraphBuilder &g, const Node &node) {
  const GraphValue *x = g.input(node, 0);
  const GraphValue *scale = g.input(node, 1);
  const GraphValue *bias;
  if (!x || !scale || !g.lookupOptional(node, 2, bias))
    return;
  if (!isFloatType(x->type) || scale->type != x->type)
    return g.unsupported("LayerNormalization with mixed or integer types");
  int64_t axisAttr = node.getInt("axis", -1);
  int64_t rank = x->rank();
  int64_t axis = axisAttr < 0 ? axisAttr + rank : axisAttr;
  if (axis < 0 || axis >= rank)
    return g.invalid("LayerNormalization: axis out of range");
  emitNormalization(g, node, x, axis, node.getFloat("epsilon", 1e-5), scale,
                    bias, [&](const GraphValue &p, ArrayRef<AffineExpr> full) {
                      Index index;
                      size_t offset = full.size() - p.rank();
                      for (unsigned d = 0; d < p.rank(); ++d)
                        index.push_back(p.shape[d] == 1
                                            ? getAffineConstantExpr(0, g.ctx)
                                            : full[offset + d]);
                      return index;
                    });
}

/// InstanceNormalization: per batch element and channel, over the spatial
/// dimensions; scale and bias per channel.
void lowerInstanceNormalization(GraphBuilder &g, const Node &node) {
  const GraphValue *x = g.input(node, 0);
  const GraphValue *scale = g.input(node, 1);
  const GraphValue *bias = g.input(node, 2);
  if (!x || !scale || !bias)
    return;
  if (x->rank() < 3 || !isFloatType(x->type))
    return g.invalid("InstanceNormalization needs a float input with "
                     "spatial dimensions");
  if (scale->rank() != 1 || bias->rank() != 1 ||
      scale->shape[0] != x->shape[1] || bias->shape[0] != x->shape[1])
    return g.invalid("InstanceNormalization: scale and B must have C elements");
  emitNormalization(g, node, x, 2, node.getFloat("epsilon", 1e-5), scale, bias,
                    [](const GraphValue &, ArrayRef<AffineExpr> full) {
                      return Index{full[1]};
                    });
}

void lowerClip(GraphBuilder &g, const Node &node) {
  const GraphValue *x = g.input(node, 0);
  if (!x)
    return;
  if (isBoolType(x->type))
    return g.invalid("Clip on bool");
  const GraphValue *y = nullptr;
  // Bounds: attributes before opset 11, optional rank-0 inputs since.
  std::optional<double> lo, hi;
  const GraphValue *loValue = nullptr, *hiValue = nullptr;
  if (g.model.opset < 11) {
    if (node.getAttribute("min"))
      lo = node.getFloat("min", 0);
    if (node.getAttribute("max"))
      hi = node.getFloat("max", 0);
  } else {
    if (!g.lookupOptional(node, 1, loValue) ||
        !g.lookupOptional(node, 2, hiValue))
      return;
  }
  if ((loValue && loValue->rank() != 0) || (hiValue && hiValue->rank() != 0))
    return g.invalid("Clip's min and max are scalars");
  if (!(y = g.defineOutput(node, 0, x->type, x->shape)))
    return;
  g.emitNest(x->shape, [&](Nest &nest) {
    Index f = nest.vars(x->rank());
    nest.leaf(*y, f, OpKind::copy, {nest.read(*x, f)});
    if (lo || loValue)
      nest.leaf(*y, f, OpKind::max,
                {nest.read(*y, f),
                 loValue ? nest.read(*loValue, {}) : nest.constant(*lo)});
    if (hi || hiValue)
      nest.leaf(*y, f, OpKind::min,
                {nest.read(*y, f),
                 hiValue ? nest.read(*hiValue, {}) : nest.constant(*hi)});
  });
}

/// Pow with an exponent known at import that the leaves can compute:
/// 1, 2, 3, 0.5, -1 and -0.5, the same for every element.
void lowerPow(GraphBuilder &g, const Node &node) {
  const GraphValue *x = g.input(node, 0);
  if (!x || !g.input(node, 1))
    return;
  const Tensor *e = g.findConstant(node.inputs[1]);
  if (!e || e->getNumElements() == 0)
    return g.unsupported("Pow with an exponent known only at run time");
  double p = e->isFloat() ? e->floats[0] : double(e->ints[0]);
  for (int64_t i = 0; i < e->getNumElements(); ++i)
    if ((e->isFloat() ? e->floats[i] : double(e->ints[i])) != p)
      return g.unsupported("Pow with exponents that differ by element");
  if (!llvm::is_contained({1.0, 2.0, 3.0, 0.5, -1.0, -0.5}, p))
    return g.unsupported("Pow with exponent " + std::to_string(p) +
                         " (no leaf computes a general power)");
  if (!isFloatType(x->type) && (p == 0.5 || p < 0))
    return g.unsupported("a fractional or negative power of an integer");
  // The result has the exponent's broadcast shape with x's.
  SmallVector<int64_t, 4> shape(x->shape);
  if (e->dims.size() > shape.size())
    shape.insert(shape.begin(), e->dims.size() - shape.size(), 1);
  for (size_t i = 0; i < e->dims.size(); ++i) {
    int64_t &s = shape[shape.size() - e->dims.size() + i];
    s = std::max(s, e->dims[i]);
  }
  const GraphValue *y = g.defineOutput(node, 0, x->type, shape);
  if (!y)
    return;
  g.emitNest(shape, [&](Nest &nest) {
    Index out, in;
    for (unsigned d = 0; d < shape.size(); ++d)
      out.push_back(nest.var(d));
    for (unsigned d = 0; d < x->rank(); ++d)
      in.push_back(x->shape[d] == 1 ? getAffineConstantExpr(0, g.ctx)
                                    : out[shape.size() - x->rank() + d]);
    Attribute v = nest.read(*x, in);
    Attribute prev = nest.read(*y, out);
    if (p == 1)
      nest.leaf(*y, out, OpKind::copy, {v});
    else if (p == 2 || p == 3)
      nest.leaf(*y, out, OpKind::mul, {v, v});
    else if (p == 0.5)
      nest.leaf(*y, out, OpKind::sqrt, {v});
    else if (p == -1)
      nest.leaf(*y, out, OpKind::div, {nest.constant(1), v});
    else
      nest.leaf(*y, out, OpKind::rsqrt, {v});
    if (p == 3)
      nest.leaf(*y, out, OpKind::mul, {prev, v});
  });
}

/// MeanVarianceNormalization: (x - mean) / (sqrt(mean(x^2) - mean^2) +
/// 1e-9) over `axes` (default 0, 2, 3), the specification's function.
void lowerMeanVarianceNormalization(GraphBuilder &g, const Node &node) {
  const GraphValue *x = g.input(node, 0);
  if (!x)
    return;
  if (!isFloatType(x->type))
    return g.invalid("MeanVarianceNormalization needs a floating-point type");
  std::vector<int64_t> axes =
      node.getInts("axes").value_or(std::vector<int64_t>{0, 2, 3});
  SmallVector<bool, 4> reduced(x->rank(), false);
  for (int64_t axis : axes) {
    std::optional<unsigned> d = normalizeAxis(axis, x->rank());
    if (!d)
      return g.invalid("MeanVarianceNormalization: axis out of range");
    reduced[*d] = true;
  }
  SmallVector<int64_t, 4> statsShape;
  int64_t count = 1;
  for (unsigned d = 0; d < x->rank(); ++d) {
    statsShape.push_back(reduced[d] ? 1 : x->shape[d]);
    if (reduced[d])
      count *= x->shape[d];
  }
  const GraphValue *mean = g.declareTemporary(x->type, statsShape);
  const GraphValue *spread = g.declareTemporary(x->type, statsShape);
  const GraphValue *squaredMean = g.declareTemporary(x->type, statsShape);
  const GraphValue *y = g.defineOutput(node, 0, x->type, x->shape);
  if (!mean || !spread || !squaredMean || !y)
    return;
  // The sums of x and of x * x over the reduced dimensions.
  emitReduction(g, *x, reduced, /*keep=*/true, *mean, OpKind::copy,
                ReduceKind::add, 0);
  emitReduction(g, *x, reduced, /*keep=*/true, *spread, OpKind::mul,
                ReduceKind::add, 0);
  auto prev = Operand::previous();
  auto c = Operand::number;
  emitChain(g, *mean, {{OpKind::div, {prev, c(count)}}});
  emitChain(g, *squaredMean,
            {{OpKind::mul, {Operand::of(mean), Operand::of(mean)}}});
  // The standard deviation, plus epsilon, in `spread`.
  emitChain(g, *spread,
            {{OpKind::div, {prev, c(count)}},
             {OpKind::sub, {prev, Operand::of(squaredMean)}},
             {OpKind::sqrt, {prev}},
             {OpKind::add, {prev, c(1e-9)}}});
  emitChain(g, *y, {{OpKind::sub, {Operand::of(x), Operand::of(mean)}},
                    {OpKind::div, {prev, Operand::of(spread)}}});
}

} // namespace

bool perfdojo::onnx::lowerNetworkNode(GraphBuilder &g, const Node &node) {
  StringRef op = node.opType;
  if (op == "Conv")
    lowerConv(g, node);
  else if (op == "ConvTranspose")
    lowerConvTranspose(g, node);
  else if (op == "MaxPool" || op == "AveragePool" || op == "GlobalMaxPool" ||
           op == "GlobalAveragePool")
    lowerPool(g, node);
  else if (op == "BatchNormalization")
    lowerBatchNormalization(g, node);
  else if (op == "LayerNormalization")
    lowerLayerNormalization(g, node);
  else if (op == "InstanceNormalization")
    lowerInstanceNormalization(g, node);
  else if (op == "Clip")
    lowerClip(g, node);
  else if (op == "Pow")
    lowerPow(g, node);
  else if (op == "MeanVarianceNormalization")
    lowerMeanVarianceNormalization(g, node);
  else
    return false;
  return true;
}
