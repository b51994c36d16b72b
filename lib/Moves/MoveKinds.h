//===- MoveKinds.h - the move kinds of lib/Moves ----------------*- C++ -*-===//
//
// Private to lib/Moves: one accessor per move kind, defined in that move's
// file. Move.cpp lists them in catalogue order.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_LIB_MOVES_MOVEKINDS_H
#define PERFDOJO_LIB_MOVES_MOVEKINDS_H

#include "perfdojo/Moves/Move.h"
#include "perfdojo/Moves/Selector.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"

namespace perfdojo {
namespace moves {
const Move *getSplitScopeMove();
const Move *getMergeScopesMove();
const Move *getCutScopeMove();
const Move *getJoinCutMove();
const Move *getSwapNestedScopesMove();
const Move *getSwapSiblingsMove();
const Move *getJoinScopesMove();
const Move *getSplitOffMove();
const Move *getHoistLeafMove();
const Move *getSinkLeafMove();
const Move *getAddScopeMove();
const Move *getRemoveScopeMove();
const Move *getReuseDimsMove();
const Move *getMaterializeDimsMove();
const Move *getExpandDimMove();
const Move *getCollapseDimMove();
const Move *getPrivatizeReductionMove();
const Move *getUnprivatizeReductionMove();
const Move *getSwapDimsMove();
const Move *getPadDimMove();
const Move *getUnpadDimMove();
const Move *getPadScopeMove();
const Move *getUnpadScopeMove();
const Move *getShareBufferMove();
const Move *getUnshareBufferMove();
const Move *getPromoteMove();
const Move *getUnpromoteMove();
const Move *getStageRegionMove();
const Move *getUnstageMove();
const Move *getSplitDimMove();
const Move *getMergeDimsMove();
const Move *getSetLocationMove();
const Move *getSetUnrollMove();
const Move *getSetParallelMove();
const Move *getSetVectorMove();
const Move *getSetGpuGridMove();
const Move *getSetGpuBlockMove();
const Move *getSetGpuWarpMove();
const Move *getClearModeMove();

/// Resolves `request.location` as a node selector; on failure fills `diag`.
mlir::Operation *resolveNodeOrFail(MoveState &state,
                                   const MoveRequest &request,
                                   mlir::Location errorLoc,
                                   mlir::DiagnosedSilenceableFailure &diag);
/// Resolves `request.location` as a scope without a mode; on failure (a
/// leaf, a scope with a mode, a bad selector) fills `diag`.
dojo::ScopeOp resolvePlainScope(MoveState &state, const MoveRequest &request,
                                mlir::Location errorLoc,
                                mlir::DiagnosedSilenceableFailure &diag);
/// Checks the parameter count of `request`; on failure fills `diag`.
bool expectParams(const MoveRequest &request, unsigned count,
                  mlir::Location errorLoc,
                  mlir::DiagnosedSilenceableFailure &diag);
/// A silenceable failure at `errorLoc` whose message starts with the request.
mlir::DiagnosedSilenceableFailure fail(const MoveRequest &request,
                                       mlir::Location errorLoc,
                                       const llvm::Twine &message);
/// `fail` with one note at `at` (the scope, leaf or buffer to blame).
mlir::DiagnosedSilenceableFailure failWithNote(const MoveRequest &request,
                                               mlir::Location errorLoc,
                                               const llvm::Twine &message,
                                               mlir::Operation *at,
                                               const llvm::Twine &note);

// Check preambles: the parameter count, then the location. On failure they
// fill `diag` (the caller returns it) and return null.

/// A node location `a#k@d` with `count` parameters.
mlir::Operation *resolveNodeRequest(MoveState &state,
                                    const MoveRequest &request, unsigned count,
                                    mlir::Location errorLoc,
                                    mlir::DiagnosedSilenceableFailure &diag);
/// A scope (any mode) with `count` parameters; a leaf fails with
/// `leafMessage` and a note on it.
dojo::ScopeOp resolveScopeRequest(MoveState &state, const MoveRequest &request,
                                  unsigned count,
                                  const llvm::Twine &leafMessage,
                                  mlir::Location errorLoc,
                                  mlir::DiagnosedSilenceableFailure &diag);
/// A plain scope (resolvePlainScope) with `count` parameters.
dojo::ScopeOp resolvePlainScopeRequest(MoveState &state,
                                       const MoveRequest &request,
                                       unsigned count, mlir::Location errorLoc,
                                       mlir::DiagnosedSilenceableFailure &diag);
/// A dimension `b.k` of an internal buffer (resolveInternalDimOrFail) with
/// `count` parameters.
std::optional<std::pair<dojo::BufferOp, unsigned>>
resolveDimRequest(MoveState &state, const MoveRequest &request, unsigned count,
                  mlir::Location errorLoc,
                  mlir::DiagnosedSilenceableFailure &diag);

/// The scope a request that passed its check names (rewrite side).
dojo::ScopeOp getRequestScope(MoveState &state, const MoveRequest &request);

/// The first of `patterns` (readings of the kernel as a move's result, for
/// its inverse) that `validate` accepts, or the first failure; the other
/// failures are silenced.
template <typename Pattern, typename Fn>
mlir::DiagnosedSilenceableFailure
validateFirst(llvm::ArrayRef<Pattern> patterns, Fn validate) {
  std::optional<mlir::DiagnosedSilenceableFailure> firstFailure;
  for (const Pattern &pattern : patterns) {
    mlir::DiagnosedSilenceableFailure result = validate(pattern);
    if (result.succeeded())
      return result;
    if (!firstFailure)
      firstFailure = std::move(result);
    else
      (void)result.silence();
  }
  return std::move(*firstFailure);
}
/// The first of `patterns` that `validate` accepts (all failures silenced).
template <typename Pattern, typename Fn>
std::optional<Pattern> findValidPattern(llvm::ArrayRef<Pattern> patterns,
                                        Fn validate) {
  for (const Pattern &pattern : patterns) {
    mlir::DiagnosedSilenceableFailure result = validate(pattern);
    if (result.succeeded())
      return pattern;
    (void)result.silence();
  }
  return std::nullopt;
}

/// The one instance of the move kind `M` (what the accessors above return).
template <typename M> const Move *getMoveInstance() {
  static M move;
  return &move;
}

/// Post-verification of the `:N` marks: every non-materialized dimension of
/// `kernel` still satisfies the invariant NM2-NM4 (docs/moves.md). A failure
/// blames `request`, the move that produced `kernel`. A move that renumbers
/// the dimensions of a buffer passes `currentDim`, which maps a dimension of
/// the result back to the one the user sees before the move.
mlir::DiagnosedSilenceableFailure verifyReusedDims(
    dojo::KernelOp kernel, const MoveRequest &request, mlir::Location errorLoc,
    llvm::function_ref<unsigned(dojo::BufferOp, unsigned)> currentDim = {});

/// The `:N` invariant (ReuseDims.cpp) for dimension `k` of `buffer` on
/// `kernel` as it is: NM2-NM4 (races under concurrent modes are left to
/// verifyConcurrentScopes).
/// A violation blames `request` with `prefix` followed by the condition, and
/// notes on the leaves or scopes involved. expand_dim and collapse_dim use it
/// for a dimension that is materialized: a dimension indexed by a scope
/// variable may be folded (or unfolded) exactly when it could be `:N`.
mlir::DiagnosedSilenceableFailure
checkReuseInvariant(dojo::KernelOp kernel, dojo::BufferOp buffer, unsigned k,
                    const MoveRequest &request, mlir::Location errorLoc,
                    const llvm::Twine &prefix);

/// Rewrites every index (output, operand accesses, index values) of every
/// leaf under `root` (inclusive) through `fn`.
void rewriteIndices(mlir::Operation *root,
                    llvm::function_ref<LinearForm(const LinearForm &)> fn);

/// Calls `fn` on every index form of every leaf under `root`; stops and
/// returns false as soon as `fn` does.
bool allIndices(mlir::Operation *root,
                llvm::function_ref<bool(const LinearForm &)> fn);

/// Every scope of the kernel in pre-order.
llvm::SmallVector<dojo::ScopeOp> collectScopes(dojo::KernelOp kernel);

/// The statement of `leaf` as printed, for messages: `t[{0}] = exp(x[{0}])`.
std::string getStatementText(dojo::LeafOp leaf);

/// The innermost scope enclosing `node` whose mode is neither plain nor
/// `:u` (a parallel, vector or GPU scope), or null. Moves that add
/// instances or leaves around `node` refuse such a scope: they would have to
/// re-prove its concurrency condition.
dojo::ScopeOp findConcurrentAncestor(mlir::Operation *node);

/// Whether two index lists are the same affine forms (maps built by
/// different moves may differ in their dimension count).
bool isSameIndexList(mlir::AffineMap a, mlir::AffineMap b);

/// Whether access `a` of leaf `x`, at an instance that runs strictly before
/// an instance of leaf `y`, may touch the physical element of access `b` of
/// `y` with conflicting kinds under `options` (moves.md 0.2: instances run
/// in the lexicographic order of (p_0, x_0, ..., x_n-1, p_n); an instance
/// does not run before itself). Decided by the shared dependence test, one
/// query per depth at which the two instances may first differ; fails
/// closed like it.
bool mayConflictEarlier(DependenceAnalysis &deps, dojo::LeafOp x,
                        const PhysicalAccess &a, dojo::LeafOp y,
                        const PhysicalAccess &b, DependenceOptions options);

// Buffer layout helpers (BufferLayout.cpp), shared by the buffer moves.

/// The buffer called `name`, or null.
dojo::BufferOp lookupBuffer(dojo::KernelOp kernel, llvm::StringRef name);
/// The internal buffer called `name`; on failure (no such buffer, or a
/// kernel argument, whose `what` belongs to the caller) fills `diag`.
dojo::BufferOp resolveInternalBufferOrFail(
    MoveState &state, const MoveRequest &request, llvm::StringRef name,
    llvm::StringRef what, mlir::Location errorLoc,
    mlir::DiagnosedSilenceableFailure &diag);
/// Resolves `request.location` as `b.k`, a dimension of an internal buffer;
/// on failure fills `diag`.
std::optional<std::pair<dojo::BufferOp, unsigned>>
resolveInternalDimOrFail(MoveState &state, const MoveRequest &request,
                         mlir::Location errorLoc,
                         mlir::DiagnosedSilenceableFailure &diag);
/// Sizes of the scopes enclosing `leaf`, outermost first (its box).
llvm::SmallVector<int64_t, 8> getIterationSizes(dojo::LeafOp leaf);
/// One access to an array of a buffer: the output (operand -1) or an input.
struct ArrayAccess {
  dojo::LeafOp leaf;
  int operand = -1;
  llvm::SmallVector<LinearForm, 4> indices;
};
/// Every access to any array of `buffer`, in execution order.
llvm::SmallVector<ArrayAccess> collectArrayAccesses(dojo::KernelOp kernel,
                                                    dojo::BufferOp buffer);
/// Replaces the index list of every access to an array of `buffer` by
/// `fn(access)` (which may change its length, for split/merge).
void rewriteArrayAccesses(
    dojo::KernelOp kernel, dojo::BufferOp buffer,
    llvm::function_ref<llvm::SmallVector<LinearForm, 4>(const ArrayAccess &)>
        fn);
/// Row-major element strides of `buffer`'s dimensions over the allocated
/// extents; 0 for `:N` dimensions, which add no storage.
llvm::SmallVector<int64_t, 4> getElementStrides(dojo::BufferOp buffer);
/// How many elements an access with index `forms` (one per dimension of
/// `buffer`) moves when the variable of depth `depth` grows by one.
int64_t getStrideAlong(dojo::BufferOp buffer,
                       llvm::ArrayRef<LinearForm> forms, unsigned depth);
/// Allocated storage of `buffer` in elements: the product of the allocated
/// extents of its materialized dimensions (saturating).
int64_t getStorageElements(dojo::BufferOp buffer);
/// Why `elements` elements of `buffer`'s type do not fit into `location`
/// (stack and register budgets of `options`); nullopt if they fit.
std::optional<std::string>
findCapacityViolation(dojo::BufferOp buffer, dojo::BufferLocation location,
                      int64_t elements, const MoveOptions &options);
/// Post-verification of a layout move on `buffer`: on a copy rewritten by
/// `move`, every access to `buffer` in a `:v` leaf must keep the lane
/// strides set_vector requires (1 for the output, 0 or 1 for operands).
mlir::DiagnosedSilenceableFailure
verifyVectorLanes(MoveState &state, const Move &move,
                  const MoveRequest &request, mlir::Location errorLoc,
                  dojo::BufferOp buffer);

/// `<base>`, or `<base>1`, `<base>2`, ...: the first name that no buffer or
/// array other than those of `ignore` takes (the new buffer of a move; its
/// inverse passes the buffer itself as `ignore` to recognize the name).
std::string getFreshBufferName(dojo::KernelOp kernel, llvm::StringRef base,
                               dojo::BufferOp ignore);

// Array copies (Promote.cpp), shared by promote and stage_region.

/// How a subtree accesses one array.
struct ArrayUse {
  bool reads = false, writes = false;
  /// Whether the first leaf accessing the array (in execution order) reads
  /// it (an operand, or the read half of a reduction).
  bool firstReads = false;
  /// The index list of the first access, and whether all agree with it.
  mlir::AffineMap index, differingIndex;
  bool uniform = true;
  dojo::LeafOp first, differing;
};
/// The accesses to `array` (exactly this array) under `root`.
ArrayUse getArrayUse(mlir::Operation *root, llvm::StringRef array);
/// The first leaf under `root` that accesses an array of `buffer` other
/// than `array`, or null.
dojo::LeafOp findOtherAccess(mlir::Operation *root, dojo::BufferOp buffer,
                             llvm::StringRef array);
/// Renames every access to `from` under `root` to `to`.
void renameArray(mlir::Operation *root, llvm::StringRef from,
                 llvm::StringRef to);
/// Whether `leaf` is `to[I] = from[I]`; returns `from`.
std::optional<llvm::StringRef> getCopySource(dojo::LeafOp leaf);
/// Candidates of the inverse of a copy move (unpromote, unstage): every
/// internal buffer without declared arrays, i.e. a copy stored alone.
void addCopyBufferCandidates(MoveState &state, llvm::StringRef move,
                             llvm::SmallVectorImpl<MoveRequest> &out);
/// Preamble of unpromote/unstage `t`: no parameters, and `t` an internal
/// array stored alone in a buffer of its own name, as `creator` makes it;
/// on failure fills `diag` and returns null.
dojo::BufferOp
resolveCopyBufferRequest(MoveState &state, const MoveRequest &request,
                         llvm::StringRef creator, mlir::Location errorLoc,
                         mlir::DiagnosedSilenceableFailure &diag);
/// Splits a location `a,N` (an array, then a node selector); on failure
/// fills `diag`.
std::optional<std::pair<llvm::StringRef, llvm::StringRef>>
splitArrayAndNode(const MoveRequest &request, mlir::Location errorLoc,
                  mlir::DiagnosedSilenceableFailure &diag);

/// A location `a,N` resolved: the array's name and buffer, and the node.
struct ArrayAndNode {
  llvm::StringRef array;
  dojo::BufferOp buffer;
  mlir::Operation *node = nullptr;
};
/// Splits and resolves a location `a,N`; on failure (malformed location,
/// unknown array, unknown node) fills `diag`.
std::optional<ArrayAndNode>
resolveArrayAndNode(MoveState &state, const MoveRequest &request,
                    mlir::Location errorLoc,
                    mlir::DiagnosedSilenceableFailure &diag);

// The `reg` addressability rule (SetLocation.cpp).

/// An access that keeps a buffer out of registers, and why.
struct UnaddressableAccess {
  dojo::LeafOp leaf;
  std::string message;
};
/// The first access to `buffer` whose address is not known at compile time
/// in registers (design B8): a materialized dimension indexed by a variable
/// other than a `:u` scope's (or a size-1 scope's), except the `:v` lane
/// with coefficient 1 in the innermost materialized dimension.
std::optional<UnaddressableAccess>
findUnaddressableAccess(dojo::KernelOp kernel, dojo::BufferOp buffer);
/// Post-verification of the locations: every `reg` buffer of `kernel` (the
/// result of `request`) is still addressable. A failure blames `request`.
mlir::DiagnosedSilenceableFailure
verifyRegisterBuffers(dojo::KernelOp kernel, const MoveRequest &request,
                      mlir::Location errorLoc);

// Concurrent modes (SetMode.cpp).

/// Whether `mode` runs iterations concurrently: `:p`, `:v`, `:g`, `:b`, `:w`.
bool isConcurrentMode(dojo::Mode mode);
/// The concurrency condition of `scope` as the kernel stands (its own mode
/// included, which may privatize buffers): the first conflicting pair of
/// instances that may run at the same time (getConcurrencyQuery,
/// Analysis/Concurrency.h: two iterations, or for `:b` two threads of one
/// phase), reductions racing.
std::optional<Conflict> findConcurrencyConflict(MoveState &state,
                                                dojo::ScopeOp scope);
/// Post-verification of the modes: every `:p`, `:v` and GPU scope of
/// `kernel` (the result of `request`) still has no conflict between its
/// iterations under the physical addresses of the result, privatization
/// included. A failure blames `request`.
mlir::DiagnosedSilenceableFailure
verifyConcurrentScopes(dojo::KernelOp kernel, const MoveRequest &request,
                       mlir::Location errorLoc, const MoveOptions &options);
/// Post-verification of the GPU launch shape: the phases of every kernel
/// of `kernel` (the result of `request`) have the same `:b` sizes, up to
/// phases not completely mapped yet (findBlockShapeMismatch,
/// Analysis/Concurrency.h). A failure blames `request`.
mlir::DiagnosedSilenceableFailure verifyBlockShapes(dojo::KernelOp kernel,
                                                    const MoveRequest &request,
                                                    mlir::Location errorLoc);
} // namespace moves
} // namespace perfdojo

#endif // PERFDOJO_LIB_MOVES_MOVEKINDS_H
