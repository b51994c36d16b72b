//===- MoveKinds.h - the move kinds of lib/Moves ----------------*- C++ -*-===//
//
// Private to lib/Moves: the accessor of every move kind (getMove<Kind>,
// defined in that move's file) and the helpers the moves share.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_LIB_MOVES_MOVEKINDS_H
#define PERFDOJO_LIB_MOVES_MOVEKINDS_H

#include "perfdojo/Moves/Move.h"
#include "mlir/IR/Builders.h"
#include "perfdojo/Moves/Selector.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"
#include "perfdojo/Dialect/Dojo/IR/ModeRules.h"
#include "perfdojo/Dialect/Dojo/IR/PhysicalLayout.h"
#include "perfdojo/Dialect/Dojo/IR/TextSyntax.h"

namespace perfdojo {
namespace moves {
/// The move of kind `Kind`: each move's file defines it for its kinds with
/// PERFDOJO_DEFINE_MOVE; Move.cpp collects them in MoveKind order.
template <MoveKind Kind> const Move *getMove();

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

/// Refuses a move whose result would nest scopes `resultDepth` deep (the
/// scopes on its deepest path) beyond the IR's bound (KernelTree.h,
/// kMaxScopeDepth), with a note at `at`, the node that grows deeper. Moves
/// that add a scope level call it before anything changes.
bool checkNestingBound(const MoveRequest &request, mlir::Location errorLoc,
                       uint64_t resultDepth, mlir::Operation *at,
                       mlir::DiagnosedSilenceableFailure &diag);

/// A scope (any mode); a leaf fails with `leafMessage` and a note on it.
dojo::ScopeOp resolveScopeRequest(MoveState &state, const MoveRequest &request,
                                  const llvm::Twine &leafMessage,
                                  mlir::Location errorLoc,
                                  mlir::DiagnosedSilenceableFailure &diag);

/// `fail` with the note "declared here" on `buffer`.
mlir::DiagnosedSilenceableFailure failAtBuffer(const MoveRequest &request,
                                               mlir::Location errorLoc,
                                               dojo::BufferOp buffer,
                                               const llvm::Twine &message);

/// The shape of the moves on one dimension `b.k` of a buffer (pad_dim,
/// split_dim, swap_dims, reuse_dims, ...): candidates visit every dimension
/// of every buffer; check and rewrite see the resolved buffer and dimension.
/// The location must name an internal buffer (resolveInternalDimOrFail)
/// unless the move judges kernel arguments itself. They keep the tree as it
/// is (the `:N` marks a layout change affects are checked by the move).
class BufferDimMove : public Move {
public:
  using Move::Move;
  bool restructuresTree() const override { return false; }
  void candidates(MoveState &state,
                  llvm::SmallVectorImpl<MoveRequest> &out) const final;
  MoveRequest rewrite(MoveState &state, const MoveRequest &request) const final;

protected:
  /// Whether the location may name a kernel argument's dimension.
  virtual bool acceptsArguments() const { return false; }
  /// Appends the requests worth checking at dimension `k` of `buffer`.
  virtual void
  addDimCandidates(MoveState &state, dojo::BufferOp buffer, unsigned k,
                   llvm::SmallVectorImpl<MoveRequest> &out) const = 0;
  virtual mlir::DiagnosedSilenceableFailure checkDim(MoveState &state,
                                                     const MoveRequest &request,
                                                     mlir::Location errorLoc,
                                                     dojo::BufferOp buffer,
                                                     unsigned k) const = 0;
  virtual MoveRequest rewriteDim(MoveState &state, const MoveRequest &request,
                                 dojo::BufferOp buffer, unsigned k) const = 0;
  /// Appends this move at `b.k` with `params`.
  void addRequest(llvm::SmallVectorImpl<MoveRequest> &out,
                  dojo::BufferOp buffer, unsigned k,
                  llvm::ArrayRef<int64_t> params = {}) const;

private:
  mlir::DiagnosedSilenceableFailure
  checkRequest(MoveState &state, const MoveRequest &request,
               mlir::Location errorLoc) const final;
};

/// A move whose location names a node `a#k@d`: check resolves it
/// (resolveNodeOrFail) before the move's checkNode.
class NodeMove : public Move {
public:
  using Move::Move;

protected:
  virtual mlir::DiagnosedSilenceableFailure
  checkNode(MoveState &state, const MoveRequest &request,
            mlir::Location errorLoc, mlir::Operation *node) const = 0;

private:
  mlir::DiagnosedSilenceableFailure
  checkRequest(MoveState &state, const MoveRequest &request,
               mlir::Location errorLoc) const final;
};

/// A move whose location names a plain scope: check resolves it
/// (resolvePlainScope) before the move's checkScope.
class PlainScopeMove : public Move {
public:
  using Move::Move;

protected:
  virtual mlir::DiagnosedSilenceableFailure
  checkScope(MoveState &state, const MoveRequest &request,
             mlir::Location errorLoc, dojo::ScopeOp scope) const = 0;

private:
  mlir::DiagnosedSilenceableFailure
  checkRequest(MoveState &state, const MoveRequest &request,
               mlir::Location errorLoc) const final;
};

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

/// Defines getMove<MoveKind::KIND>() as the one instance of the move class
/// `CLASS` (of that kind).
#define PERFDOJO_DEFINE_MOVE_AS(KIND, CLASS)                                   \
  template <> const ::perfdojo::Move *                                         \
  perfdojo::moves::getMove<::perfdojo::MoveKind::KIND>() {                     \
    static CLASS move;                                                         \
    return &move;                                                              \
  }
/// PERFDOJO_DEFINE_MOVE_AS for a class named like its kind.
#define PERFDOJO_DEFINE_MOVE(KIND) PERFDOJO_DEFINE_MOVE_AS(KIND, KIND)

// Post-verification (PostVerification.cpp): the kernel invariants
// (Analysis/KernelInvariants.h) on the result of a move, blaming it.

/// Every non-materialized dimension of `kernel` (the result of `request`)
/// still satisfies the `:N` invariant. A move that renumbers the dimensions
/// of a buffer passes `currentDim`, which maps a dimension of the result
/// back to the one the user sees before the move.
mlir::DiagnosedSilenceableFailure verifyReusedDims(
    dojo::KernelOp kernel, const MoveRequest &request, mlir::Location errorLoc,
    llvm::function_ref<unsigned(dojo::BufferOp, unsigned)> currentDim = {});
/// The `:N` invariant for dimension `k` of `buffer` on `kernel` as it is,
/// materialized or not (expand_dim and collapse_dim ask it of a dimension
/// they fold); a violation blames `request` with `prefix` and the reason.
mlir::DiagnosedSilenceableFailure
checkReuseInvariant(dojo::KernelOp kernel, dojo::BufferOp buffer, unsigned k,
                    const MoveRequest &request, mlir::Location errorLoc,
                    const llvm::Twine &prefix);
/// Whether `buffer` could live in registers (before a move puts it there).
mlir::DiagnosedSilenceableFailure
checkRegisterAddressing(dojo::KernelOp kernel, dojo::BufferOp buffer,
                        const MoveRequest &request, mlir::Location errorLoc);
/// Every `reg` buffer of `kernel` (the result of `request`) is addressable.
mlir::DiagnosedSilenceableFailure
verifyRegisterBuffers(dojo::KernelOp kernel, const MoveRequest &request,
                      mlir::Location errorLoc);
/// A layout move on `buffer` keeps the lane strides of every `:v` leaf (on
/// a copy rewritten by `move`).
mlir::DiagnosedSilenceableFailure
verifyVectorLanes(MoveState &state, const Move &move,
                  const MoveRequest &request, mlir::Location errorLoc,
                  dojo::BufferOp buffer);
/// The result of `move` (on a copy) reads no element of an internal or
/// `out` array before writing it (Analysis/Initialization.h): for moves
/// whose own conditions leave that rule to the verifier.
mlir::DiagnosedSilenceableFailure
verifyInitialization(MoveState &state, const Move &move,
                     const MoveRequest &request, mlir::Location errorLoc);
/// The phases of every GPU kernel of `kernel` (the result of `request`)
/// have one block shape.
mlir::DiagnosedSilenceableFailure verifyBlockShapes(dojo::KernelOp kernel,
                                                    const MoveRequest &request,
                                                    mlir::Location errorLoc);
/// Every stream mark and `:f` scope of `kernel` (the result of `request`)
/// keeps its rule (Analysis/SnitchRules.h).
mlir::DiagnosedSilenceableFailure verifySnitchMarks(dojo::KernelOp kernel,
                                                    const MoveRequest &request,
                                                    mlir::Location errorLoc);
/// Every concurrent scope of `kernel` (the result of `request`) is race
/// free under the physical addresses of the result, privatization included.
mlir::DiagnosedSilenceableFailure
verifyConcurrentScopes(dojo::KernelOp kernel, const MoveRequest &request,
                       mlir::Location errorLoc, bool reassociate);

/// Rewrites every index (output, operand accesses, index values) of every
/// leaf under `root` (inclusive) through `fn`.
void rewriteIndices(mlir::Operation *root,
                    llvm::function_ref<LinearForm(const LinearForm &)> fn);

/// Calls `fn` on every index form of every leaf under `root`; stops and
/// returns false as soon as `fn` does.
bool allIndices(mlir::Operation *root,
                llvm::function_ref<bool(const LinearForm &)> fn);

/// The innermost scope enclosing `node` whose mode is neither plain nor
/// `:u` (a parallel, vector or GPU scope), or null. Moves that add
/// instances or leaves around `node` refuse such a scope: they would have to
/// re-prove its concurrency condition.
dojo::ScopeOp findConcurrentAncestor(mlir::Operation *node);

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
/// Replaces the index list of every access to an array of `buffer` by
/// `fn(access)` (which may change its length, for split/merge).
void rewriteArrayAccesses(
    dojo::KernelOp kernel, dojo::BufferOp buffer,
    llvm::function_ref<llvm::SmallVector<LinearForm, 4>(const ArrayAccess &)>
        fn);
/// Why `elements` elements of `buffer`'s type do not fit into `location`
/// (stack and register budgets of `options`); nullopt if they fit.
std::optional<std::string>
findCapacityViolation(dojo::BufferOp buffer, dojo::BufferLocation location,
                      int64_t elements, const MoveOptions &options);

/// Refuses a move that would give `buffer` (or, for a new buffer, the one
/// called `name`) extents with no 64-bit layout (findLayoutOverflow,
/// PhysicalLayout.h), before anything changes; the note sits on `buffer`.
bool checkNewLayout(const MoveRequest &request, mlir::Location errorLoc,
                    dojo::BufferOp buffer, llvm::StringRef name,
                    llvm::ArrayRef<int64_t> shape,
                    llvm::ArrayRef<int64_t> padding,
                    llvm::ArrayRef<bool> reused,
                    mlir::DiagnosedSilenceableFailure &diag);
/// `a * b (about 2^n)`, for messages about a size product that overflows.
std::string describeOverflowingProduct(int64_t a, int64_t b);

/// `<base>`, or `<base>1`, `<base>2`, ...: the first name that no buffer or
/// array other than those of `ignore` takes (the new buffer of a move; its
/// inverse passes the buffer itself as `ignore` to recognize the name).
std::string getFreshBufferName(dojo::KernelOp kernel, llvm::StringRef base,
                               dojo::BufferOp ignore);

// Array copies (ArrayCopy.cpp), shared by promote and stage_region.

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
/// Preamble of unpromote/unstage `t`: `t` is an internal
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
/// The location `a,N` of a request that passed its check (rewrite side).
ArrayAndNode getArrayAndNode(MoveState &state, const MoveRequest &request);

/// Calls `fn` on every scope with plain or `:u` ancestors and every array
/// it accesses (in the order of first access): where a copy move may put a
/// copy of an array around a scope.
void forEachCopyCandidate(
    dojo::KernelOp kernel,
    llvm::function_ref<void(dojo::ScopeOp, llvm::StringRef)> fn);
/// No leaf in `node` accesses an array of `buffer` other than `array`, which
/// would not see the `copy` ("private copy", "staged copy"): the legality
/// rule `rule` of a copy move; on failure fills `diag`.
bool checkNoOtherArrayAccess(const MoveRequest &request,
                             mlir::Location errorLoc, mlir::Operation *node,
                             dojo::BufferOp buffer, llvm::StringRef array,
                             llvm::StringRef copy, llvm::StringRef rule,
                             mlir::DiagnosedSilenceableFailure &diag);
/// Appends the staging candidates of `move` at `location` for a copy of
/// `elements` elements of `buffer`'s type: on the stack where it fits (else
/// the heap), and in registers where they hold it (stage_region,
/// stage_tile).
void addStagingCandidates(llvm::StringRef move, llvm::StringRef location,
                          dojo::BufferOp buffer, int64_t elements,
                          const MoveOptions &options,
                          llvm::SmallVectorImpl<MoveRequest> &out);
/// A staging `move` into registers must leave its new buffer addressable
/// (B8): applied to a copy of the kernel, the buffer its inverse names is
/// checked.
mlir::DiagnosedSilenceableFailure
checkStagedRegisters(const Move &move, MoveState &state,
                     const MoveRequest &request, mlir::Location errorLoc);
/// Whether every element of `array` (of `buffer`) has a value before
/// `node`: a kernel input, or written all over by one leaf before it in
/// execution order (stage_region's ST5, stage_tile's SM5).
bool isWrittenAllBefore(dojo::KernelOp kernel, mlir::Operation *node,
                        dojo::BufferOp buffer, llvm::StringRef array);
/// Every scope around `node` is plain or `:u` (findConcurrentAncestor): the
/// legality rule `rule` of a copy move; on failure fills `diag`.
bool checkNoConcurrentAncestor(const MoveRequest &request,
                               mlir::Location errorLoc, mlir::Operation *node,
                               llvm::StringRef rule,
                               mlir::DiagnosedSilenceableFailure &diag);
/// The rewrite of a copy move: declares `name` right after `buffer` (its
/// element type, extents and padding, no `:N`, internal, at `location`),
/// builds the copy `name = array` right before `node` if `copyIn` and
/// `array = name` right after it if `copyOut` (`buildCopy(builder, to,
/// from)` at the builder's insertion point), and renames `array` to `name`
/// in `node`.
void createArrayCopy(
    dojo::BufferOp buffer, mlir::Operation *node, llvm::StringRef array,
    llvm::StringRef name, dojo::BufferLocation location, bool copyIn,
    bool copyOut,
    llvm::function_ref<void(mlir::OpBuilder &, llvm::StringRef,
                            llvm::StringRef)>
        buildCopy);

/// The shape of the copy moves (promote, stage_region) on a location `a,N`:
/// check resolves it (resolveArrayAndNode) before the move's
/// checkArrayAndNode, rewrite (getArrayAndNode) before rewriteArrayAndNode.
class ArrayCopyMove : public Move {
public:
  using Move::Move;
  MoveRequest rewrite(MoveState &state, const MoveRequest &request) const final;

protected:
  virtual mlir::DiagnosedSilenceableFailure
  checkArrayAndNode(MoveState &state, const MoveRequest &request,
                    mlir::Location errorLoc,
                    const ArrayAndNode &target) const = 0;
  virtual MoveRequest rewriteArrayAndNode(MoveState &state,
                                          const MoveRequest &request,
                                          const ArrayAndNode &target) const = 0;

private:
  mlir::DiagnosedSilenceableFailure
  checkRequest(MoveState &state, const MoveRequest &request,
               mlir::Location errorLoc) const final;
};

/// A reading of the kernel as the result of a copy move on copy `t`: the
/// copy-in `t = a` right before `node` and the copy-out `a = t` right after
/// it (either may be missing), each a leaf `copyIn`/`copyOut` under its root
/// (the leaf itself, or the outermost scope of a copy nest).
struct CopyPattern {
  dojo::LeafOp copyIn, copyOut;
  mlir::Operation *inRoot = nullptr, *outRoot = nullptr, *node = nullptr;
  std::string array;
};

/// The words of a copy move's inverse's failures, and the name its copy
/// takes (`<a><suffix>`, or `<a><suffix>1`, ...).
struct ArrayCopyText {
  /// The move the inverse undoes (and whose request it returns).
  llvm::StringRef creator;
  llvm::StringRef suffix;
  /// The creator's pattern, as "the accesses to 't' are not ..." ends.
  llvm::StringRef pattern;
  /// The copy ("private copy"), and what the node must not access beside
  /// it: `<directAccess>'a'`.
  llvm::StringRef copy, directAccess;
  /// The declaration: "(its <declared> as a copy of 'a', <declaredAlso>right
  /// after 'b'); restore its <restore> first".
  llvm::StringRef declared, declaredAlso, restore;
};

/// The shape of the inverses of the copy moves (unpromote, unstage) on a
/// copy `t`: candidates are the copy buffers (addCopyBufferCandidates);
/// check resolves `t` (resolveCopyBufferRequest), matches the readings of
/// its accesses as the creator's pattern (from a copy-in holding the first
/// use, then from a copy-out holding the last; the node must hold every
/// other use), and validates them in turn (validateFirst): the copied array
/// exists, the node does not access its buffer, `t` is declared as the
/// creator declares it, and the creator's legality on the restored kernel.
/// Rewrite erases the copies and `t`'s buffer and renames `t` back in the
/// node.
class ArrayCopyInverse : public Move {
public:
  using Move::Move;
  void candidates(MoveState &state,
                  llvm::SmallVectorImpl<MoveRequest> &out) const final;
  MoveRequest rewrite(MoveState &state, const MoveRequest &request) const final;

protected:
  virtual const ArrayCopyText &getText() const = 0;
  /// The root of the copy whose leaf `leaf` copies to or from
  /// `copyBuffer`'s array, or null.
  virtual mlir::Operation *getCopyRoot(dojo::LeafOp leaf,
                                       dojo::BufferOp copyBuffer) const = 0;
  /// The leaf of the copy rooted at `root` (possibly null) if it has the
  /// form the creator builds, or null.
  virtual dojo::LeafOp getCopyLeaf(mlir::Operation *root,
                                   dojo::BufferOp copyBuffer) const = 0;
  /// Whether the node's uses of the copy and the copies present are those
  /// the creator makes.
  virtual bool matchesUse(const CopyPattern &pattern,
                          dojo::BufferOp copyBuffer) const = 0;
  /// Whether `copyBuffer`'s padding and location are those the creator
  /// gives a copy of `buffer` (the rest of the declaration is shared).
  virtual bool matchesLayout(MoveState &state, dojo::BufferOp copyBuffer,
                             dojo::BufferOp buffer) const = 0;
  /// The creator's legality on the restored kernel, where the pattern's
  /// array (of `buffer`) replaces the copy.
  virtual mlir::DiagnosedSilenceableFailure
  checkRestored(MoveState &state, const MoveRequest &request,
                mlir::Location errorLoc, const CopyPattern &pattern,
                dojo::BufferOp buffer) const = 0;
  /// The parameters of the inverse request (read before the rewrite).
  virtual llvm::SmallVector<int64_t, 2>
  getInverseParams(dojo::BufferOp copyBuffer) const {
    return {};
  }

private:
  mlir::DiagnosedSilenceableFailure
  checkRequest(MoveState &state, const MoveRequest &request,
               mlir::Location errorLoc) const final;
  mlir::DiagnosedSilenceableFailure validate(MoveState &state,
                                             const MoveRequest &request,
                                             mlir::Location errorLoc,
                                             const CopyPattern &pattern) const;
  dojo::LeafOp matchCopy(mlir::Operation *root, dojo::BufferOp copyBuffer,
                         llvm::StringRef to, llvm::StringRef from) const;
  std::optional<CopyPattern> complete(CopyPattern pattern,
                                      llvm::ArrayRef<dojo::LeafOp> users,
                                      dojo::BufferOp copyBuffer) const;
  llvm::SmallVector<CopyPattern, 2> match(dojo::KernelOp kernel,
                                          dojo::BufferOp copyBuffer) const;
};

} // namespace moves
} // namespace perfdojo

#endif // PERFDOJO_LIB_MOVES_MOVEKINDS_H
