//===- DojoOps.td - operations of the dojo dialect ---------*- tablegen -*-===//
#ifndef PERFDOJO_DIALECT_DOJO_IR_DOJOOPS_TD
#define PERFDOJO_DIALECT_DOJO_IR_DOJOOPS_TD

include "perfdojo/Dialect/Dojo/IR/DojoDialect.td"
include "perfdojo/Dialect/Dojo/IR/DojoEnums.td"
include "perfdojo/Dialect/Dojo/IR/DojoAttrs.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/IR/CommonAttrConstraints.td"

def Dojo_KernelOp : Dojo_Op<"kernel", [
    Symbol, IsolatedFromAbove, NoTerminator, SingleBlock]> {
  let summary = "a kernel: buffer declarations followed by an ordered tree";
  let description = [{
    The root of a scope tree. Its single block holds every `dojo.buffer` of
    the kernel first, then the tree's top-level nodes (`dojo.scope` and
    `dojo.leaf`) in execution order.

    ```mlir
    dojo.kernel @mul {
      dojo.buffer x f32 [6, 14336] heap in
      dojo.buffer y f32 [6, 14336] heap in
      dojo.buffer z f32 [6, 14336] heap out
      dojo.scope 6 {
        dojo.scope 14336 {
          dojo.leaf z[{0}, {1} ] = x[{0}, {1} ] * y[{0}, {1} ]
        }
      }
    }
    ```

    The region verifier checks the kernel-wide invariants listed in
    docs/ir.md: declared arrays, rank and element-type agreement, exact
    bounds of every access over its iteration box, written outputs,
    unwritten inputs, and reads of scratch data that no earlier leaf writes.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name)>];
  let extraClassDeclaration = [{
    /// The buffer declarations, in order.
    auto getBuffers() { return getBody().front().getOps<BufferOp>(); }
    /// Finds the buffer that stores `array`, or null.
    BufferOp lookupArray(::llvm::StringRef array);
    /// The block holding buffers and top-level tree nodes.
    ::mlir::Block &getBlock() { return getBody().front(); }
  }];
}

def Dojo_BufferOp : Dojo_Op<"buffer", [HasParent<"KernelOp">]> {
  let summary = "a buffer declaration";
  let description = [{
    Declares buffer `name` with element type, dimensions, location and role
    (`in`, `out`, `inout`, or nothing for internal scratch). A dimension
    written `d:N` is not materialized: its storage is reused across that
    dimension. `d+p` pads a dimension by `p` elements. `-> a, b` makes `a`
    and `b` the arrays stored in this buffer; without it the buffer is one
    array of its own name. `nontemporal` (a heap buffer only) writes its
    whole-vector stores past the caches, straight to memory: a hint like a
    mode, which changes no result.

    ```mlir
    dojo.buffer t f32 [64:N, 16+4] stack -> t0, t1
    ```
  }];
  let arguments = (ins StrAttr:$name, TypeAttr:$element_type,
                       DenseI64ArrayAttr:$shape, DenseI64ArrayAttr:$padding,
                       DenseBoolArrayAttr:$reused,
                       Dojo_BufferLocation:$location, Dojo_Role:$role,
                       StrArrayAttr:$arrays, UnitAttr:$nontemporal);
  let builders = [
    // A plain buffer: one array of its own name, no padding, every
    // dimension materialized.
    OpBuilder<(ins "::llvm::StringRef":$name, "::mlir::Type":$elementType,
                   "::llvm::ArrayRef<int64_t>":$shape,
                   "BufferLocation":$location, "Role":$role), [{
      build($_builder, $_state, $_builder.getStringAttr(name),
            ::mlir::TypeAttr::get(elementType),
            $_builder.getDenseI64ArrayAttr(shape),
            $_builder.getDenseI64ArrayAttr(
                ::llvm::SmallVector<int64_t>(shape.size(), 0)),
            $_builder.getDenseBoolArrayAttr(
                ::llvm::SmallVector<bool>(shape.size(), false)),
            BufferLocationAttr::get($_builder.getContext(), location),
            RoleAttr::get($_builder.getContext(), role),
            $_builder.getStrArrayAttr({}));
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getRank() { return getShape().size(); }
    /// The names of the arrays stored in this buffer.
    ::llvm::SmallVector<::llvm::StringRef> getArrayNames();
    /// Allocated extent of dimension `d`: logical extent plus padding.
    int64_t getAllocatedExtent(unsigned d) {
      return getShape()[d] + getPadding()[d];
    }
    bool isArgument() { return getRole() != Role::internal; }
    /// Whether the buffer may be `nontemporal`: an `out` or `inout`
    /// buffer on the heap, the results a kernel streams to memory.
    bool mayBeNontemporal() {
      return getLocation() == BufferLocation::heap &&
             (getRole() == Role::out || getRole() == Role::inout);
    }
  }];
}

def Dojo_ScopeOp : Dojo_Op<"scope", [
    NoTerminator, SingleBlock, ParentOneOf<["KernelOp", "ScopeOp"]>]> {
  let summary = "a one-dimensional iteration scope";
  let description = [{
    Runs its children in order for every value of its iteration variable
    `{k}` (k = the scope's depth) from 0 to `size - 1`. An optional mode
    (`:u` unroll, `:p` parallel, `:v` vector, `:g` GPU grid, `:b` GPU block,
    `:w` GPU warp) tells code generation how to execute it; modes never
    change results.

    ```mlir
    dojo.scope 512:v {
      dojo.leaf y[{0}, {1} ] = exp(x[{0}, {1} ])
    }
    ```
  }];
  let arguments = (ins I64Attr:$size, Dojo_Mode:$mode);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "int64_t":$size, "Mode":$mode)>];
  let extraClassDeclaration = [{
    ::mlir::Block &getBlock() { return getBody().front(); }
    /// Depth of this scope: the number of enclosing scopes.
    unsigned getDepth();
  }];
}

def Dojo_LeafOp : Dojo_Op<"leaf", [ParentOneOf<["KernelOp", "ScopeOp"]>]> {
  let summary = "a scalar statement";
  let description = [{
    Computes one scalar operation for every point of its iteration box (the
    sizes of its enclosing scopes) and stores or reduces it into element
    `indices({0}, ..., {n-1})` of `array`. Operands are accesses
    (`#dojo.access`), constants (`f64` float attributes, `inf` allowed) or
    index values (`#dojo.index`). The statement computes in the output's
    element type.

    ```mlir
    dojo.leaf c[{0}, {1} ] += a[{0}, {2} ] * b[{2}, {1} ]
    dojo.leaf m[{0} ] max= x[{0}, {1} ]
    dojo.leaf y[{0} ] = exp(x[{0} ])
    dojo.leaf t[0] += x[{0} ]:s0 * y[{0} ]:s0
    ```
    `:s<e>` after an access marks an SSR stream (Snitch) that starts at the
    scope of depth `e` on the leaf's path: `streams` holds one entry per
    operand, the output's first, with the start depth or -1. Like modes,
    stream marks never change results (docs/ir.md, "Stream marks").
  }];
  let arguments = (ins StrAttr:$array, AffineMapAttr:$indices,
                       Dojo_OpKind:$kind, Dojo_ReduceKind:$reduce,
                       ArrayAttr:$inputs,
                       OptionalAttr<DenseI64ArrayAttr>:$streams);
  let builders = [
    // A leaf without stream marks.
    OpBuilder<(ins "::mlir::StringAttr":$array,
                   "::mlir::AffineMapAttr":$indices, "OpKindAttr":$kind,
                   "ReduceKindAttr":$reduce, "::mlir::ArrayAttr":$inputs), [{
      build($_builder, $_state, array, indices, kind, reduce, inputs,
            ::mlir::DenseI64ArrayAttr());
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Depth of this leaf: the number of enclosing scopes.
    unsigned getDepth();
    /// Number of operands the operation `kind` takes.
    static unsigned getArity(OpKind kind);
    /// The depth where operand `position` (0 the output, i + 1 input i)
    /// starts its SSR stream, if it is streamed.
    std::optional<unsigned> getStreamDepth(unsigned position);
    /// Marks operand `position` as a stream from `depth`, or unmarks it.
    void setStreamDepth(unsigned position, std::optional<unsigned> depth);
  }];
}

#endif // PERFDOJO_DIALECT_DOJO_IR_DOJOOPS_TD
