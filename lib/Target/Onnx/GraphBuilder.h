//===- GraphBuilder.h - what the ONNX operators build with ------*- C++ -*-===//
//
// Private to lib/Target/Onnx: the kernel under construction, its buffers by
// ONNX value name, and nests of scopes whose leaves the operators write.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_LIB_TARGET_ONNX_GRAPHBUILDER_H
#define PERFDOJO_LIB_TARGET_ONNX_GRAPHBUILDER_H

#include "perfdojo/Target/Onnx/OnnxImport.h"

#include "mlir/IR/Builders.h"

namespace perfdojo::onnx {

using Index = llvm::SmallVector<mlir::AffineExpr, 4>;

/// An axis attribute in [-rank, rank) as a dimension; nullopt outside.
inline std::optional<unsigned> normalizeAxis(int64_t axis, unsigned rank) {
  if (axis < -int64_t(rank) || axis >= int64_t(rank))
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

inline bool isFloatType(mlir::Type type) {
  return llvm::isa<mlir::FloatType>(type);
}

/// A value of the graph: the array holding it, element type and shape.
struct GraphValue {
  std::string array;
  mlir::Type type;
  llvm::SmallVector<int64_t, 4> shape;
  unsigned rank() const { return shape.size(); }
  int64_t getNumElements() const {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
};

class GraphBuilder;

/// Scopes opened by GraphBuilder::emitNest; leaves go in the innermost.
struct Nest {
  GraphBuilder &builder;
  mlir::OpBuilder b;
  unsigned depth;

  /// The iteration variable of the scope at `depth`.
  mlir::AffineExpr var(unsigned depth) const;
  /// The variables of `count` scopes from depth `first` on.
  Index vars(unsigned count, unsigned first = 0) const;
  /// `out[index] (reduce)= kind(inputs...)`.
  void leaf(const GraphValue &out, llvm::ArrayRef<mlir::AffineExpr> index,
            dojo::OpKind kind, llvm::ArrayRef<mlir::Attribute> inputs,
            dojo::ReduceKind reduce = dojo::ReduceKind::none);
  /// An operand reading `value[index]`.
  mlir::Attribute read(const GraphValue &value,
                       llvm::ArrayRef<mlir::AffineExpr> index);
  mlir::Attribute constant(double value);
  /// An index value operand: the integer value of `expr` (affine in the
  /// scopes' variables).
  mlir::Attribute indexValue(mlir::AffineExpr expr);
  /// Opens one more scope inside the current one.
  void enter(int64_t size);
};

class GraphBuilder {
public:
  GraphBuilder(const Model &model, dojo::KernelOp kernel, ImportError &why)
      : model(model), kernel(kernel), ctx(kernel.getContext()),
        loc(kernel.getLoc()), why(why) {}

  /// Declares the arguments and lowers every node; false on an error.
  bool run();

  // What operators use.
  const Model &model;
  dojo::KernelOp kernel;
  mlir::MLIRContext *ctx;
  mlir::Location loc;

  /// The IR type of an ONNX element kind, or null.
  mlir::Type getElementType(int kind);
  /// The IR type of ONNX's BOOL (what comparisons and masks hold).
  mlir::Type getBoolType();
  /// The value named `name`, or null after an error.
  const GraphValue *lookup(llvm::StringRef name);
  /// Input `index` of `node`, which it needs; null after an error (one
  /// saying the input is missing, when it is).
  const GraphValue *input(const Node &node, unsigned index);
  /// Optional input `index` of `node` into `value` (null when not given);
  /// false after an error.
  bool lookupOptional(const Node &node, unsigned index,
                      const GraphValue *&value);
  /// Declares output `index` of `node` (null when the node leaves it out).
  const GraphValue *defineOutput(const Node &node, unsigned index, mlir::Type type,
                            llvm::ArrayRef<int64_t> shape);
  /// A scratch buffer.
  const GraphValue *declareTemporary(mlir::Type type, llvm::ArrayRef<int64_t> shape);
  /// Scopes of `sizes` at the end of the tree, then `body` inside them.
  void emitNest(llvm::ArrayRef<int64_t> sizes,
                llvm::function_ref<void(Nest &)> body);

  /// Values known at import: Constant nodes' outputs (initializers and the
  /// caller's fixed inputs are in `model`).
  llvm::StringMap<Tensor> constantValues;
  /// The known value of `name` (a Constant's output, an initializer or a
  /// fixed input), or null.
  const Tensor *findConstant(llvm::StringRef name) const;

  /// Records the first error: the import stops at it.
  void unsupported(const llvm::Twine &message);
  void invalid(const llvm::Twine &message);
  bool hasFailed() const { return failed; }

  static std::string formatShape(llvm::ArrayRef<int64_t> shape);

private:
  const GraphValue *declare(llvm::StringRef onnxName, mlir::Type type,
                       llvm::ArrayRef<int64_t> shape, dojo::Role role);

  ImportError &why;
  bool failed = false;
  llvm::StringMap<GraphValue> values;
  llvm::StringMap<std::string> bufferNames;
  unsigned temporaries = 0;
  /// The first node of the tree: buffers are declared before it.
  mlir::Operation *firstNode = nullptr;
};

/// Lowers `node` (OnnxOperators.cpp); errors go to `builder`.
void lowerNode(GraphBuilder &builder, const Node &node);

/// The operators that move data without arithmetic (OnnxShapeOperators.cpp):
/// Constant, Shape, Size, Reshape, Flatten, Squeeze, Unsqueeze, Concat, Expand,
/// Slice, Split, Gather by known indices, ConstantOfShape, Cast, Pad.
/// False when
/// `node` is none of them.
bool lowerShapeNode(GraphBuilder &builder, const Node &node);

/// Comparisons (Equal, Less, ...), logic (Not, And, Or, Xor, IsNaN,
/// IsInf), Where and the piecewise activations LeakyRelu, PRelu,
/// ThresholdedRelu and Shrink (OnnxLogicalOperators.cpp). False when
/// `node` is none of them.
bool lowerLogicalNode(GraphBuilder &builder, const Node &node);

/// The operators written with index arithmetic (OnnxIndexOperators.cpp):
/// Trilu, EyeLike, Tile, DepthToSpace, SpaceToDepth, CumSum, Range,
/// ArgMax, ArgMin, Hardmax and the window functions. False when `node` is
/// none of them.
bool lowerIndexNode(GraphBuilder &builder, const Node &node);

/// Convolution, pooling, normalization, Clip and Pow
/// (OnnxNetworkOperators.cpp). False when `node` is none of them.
bool lowerNetworkNode(GraphBuilder &builder, const Node &node);

/// The integer values of input `index` of `node`, which the IR needs at
/// import (axes, shapes); an unsupported error when it is a run-time value.
std::optional<std::vector<int64_t>> getConstantInts(GraphBuilder &builder,
                                                    const Node &node,
                                                    unsigned index);

} // namespace perfdojo::onnx

#endif // PERFDOJO_LIB_TARGET_ONNX_GRAPHBUILDER_H
