//===- StageRegion.cpp - stage_region and unstage (staging copies) --------===//
//
// stage_region a,N loc      (inverse: unstage a_s)
//   Node N (a scope or a leaf, named by a node selector) at depth d works
//   on a staged copy of array a: a new internal buffer t (named `<a>_s`, or
//   `<a>_s1`, ... when taken; a's element type and extents, no padding, no
//   `:N`, at location loc = heap 0, stack 1 or reg 2; declared right after
//   a's buffer) and total copy nests over a's extents next to N (moves.md
//   C2):
//
//     N              ->   n0 n1 t[{d}, {d+1}] = a[{d}, {d+1}]   (copy-in)
//       ... a[I] ...      N
//                           ... t[I] ...
//                         n0 n1 a[{d}, {d+1}] = t[{d}, {d+1}]   (copy-out)
//
//   The copy-out exists iff N writes or reduces into a. The copy-in exists
//   iff N writes a without writing all of it (then t must hold a's other
//   elements for the total copy-out), or N reads an element of a (an
//   operand or a reduction) that no earlier plain write in the same
//   iteration of N covers (the `:N` invariant's NM4 test at N's depth: an
//   initialization staged with its reduction needs no copy-in): N writes
//   all of a when one of its plain writes indexes every dimension by its
//   own variable of a scope at depth >= d whose size is the extent.
//   Typical follow-ups narrow the copies to a tile: join_scopes of a copy
//   nest with N, reuse_dims, set_location; swap_dims or split_dim on t for
//   packing.
//   Legality:
//     ST1 N accesses a;
//     ST2 no other array of a's buffer is accessed in N (nothing in N may
//         see a's storage behind t's back);
//     ST3 a's buffer has no padding and no `:N` dimension, so the copy
//         nests over its extents are exactly its storage;
//     ST4 every scope around N is plain or `:u` (the copies run once per
//         execution of N, which a concurrent scope would have to re-prove);
//     ST5 with a copy-in, every element of a has a value at N's entry: a
//         is a kernel input (`in`/`inout`), or one leaf before N writes all
//         of it (as above, with every variable counted). Then the copy-in
//         reads only written elements, and the dependences on them keep it
//         after that writer (the dialect verifier's definite-initialization
//         rule holds after any later move);
//     and loc is heap, stack or reg with t within its budget; in reg, every
//     access to t is addressable (set_location's rule: the copy nests are
//     plain, so only single-element copies qualify; stage to the stack,
//     set the modes, then move t).
//   No dependence test: the copies are total, so at N's entry t holds every
//   element a holds (or N overwrites all of them before its exit and never
//   reads t), N computes on t what it computed on a, and at N's exit a gets
//   every element t holds; nothing else touches either in between. The
//   post-verification of every move (Move.cpp) re-checks the modes and the
//   `:N` marks on the result (a private temporary staged outside its `:p`
//   scope becomes shared, say).
//   Candidates: every scope N with plain or `:u` ancestors, every array it
//   accesses whose buffer satisfies ST2-ST3, on the stack when t fits the
//   stack budget (else the heap), and in registers when t fits their
//   budget.
//
// unstage t                 (inverse: stage_region a,N loc)
//   Recognizes exactly the pattern above for array t and restores N's
//   accesses to a, removing the copy nests and t's buffer. Legality: t is
//   an internal array stored alone in a buffer of its own name, declared as
//   stage_region would declare it in the restored kernel (name, element
//   type, extents, no padding, no `:N`, location heap, stack or reg, right
//   after a's buffer); every access to t is the copy-in nest right before a
//   node N (plain scopes of a's extents around `t[..] = a[..]`), the
//   copy-out nest right after it, or lies in N; the copies present are the
//   ones stage_region would create; N does not access a's buffer; ST3-ST4
//   hold, and ST5 with a copy-in (a later move may have reshaped the leaf
//   that writes all of a, and stage_region must stay legal as the inverse).
//   Semantically, the argument above read backwards.
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"

#include "perfdojo/Analysis/Privatization.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {

/// `<array>_s`, or `<array>_s1`, ...
std::string getStagedName(KernelOp kernel, StringRef array, BufferOp ignore) {
  return getFreshBufferName(kernel, (array + "_s").str(), ignore);
}

/// The index list of a copy nest at depth `depth`: `[{depth}, ...]`.
AffineMap getNestIndex(unsigned depth, unsigned rank, MLIRContext *ctx) {
  SmallVector<AffineExpr, 4> results;
  for (unsigned j = 0; j < rank; ++j)
    results.push_back(getAffineDimExpr(depth + j, ctx));
  return makeIndexMap(results, ctx);
}

/// Whether the plain write `leaf` writes every element of an array of
/// extents `shape` during one execution of its ancestor at depth `depth`:
/// each index is one variable of a scope at depth >= `depth` with
/// coefficient 1 whose size is the extent (or the constant 0 for extent 1),
/// no variable twice.
bool writesWholeArray(LeafOp leaf, ArrayRef<int64_t> shape, unsigned depth) {
  if (leaf.getReduce() != ReduceKind::none)
    return false;
  SmallVector<int64_t, 8> sizes = getLeafBoxSizes(leaf);
  llvm::SmallDenseSet<unsigned, 4> used;
  for (auto [j, expr] : llvm::enumerate(leaf.getIndices().getResults())) {
    std::optional<LinearForm> form = getLinearForm(expr);
    if (!form || form->constant != 0)
      return false;
    SmallVector<unsigned, 2> vars;
    for (unsigned k = 0; k < form->coeffs.size(); ++k)
      if (form->coeffs[k] != 0)
        vars.push_back(k);
    if (vars.empty() && shape[j] == 1)
      continue;
    if (vars.size() != 1 || form->coeff(vars[0]) != 1 || vars[0] < depth ||
        sizes[vars[0]] != shape[j] || !used.insert(vars[0]).second)
      return false;
  }
  return true;
}

/// Which copies staging `array` (of extents `shape`) around `node` needs.
struct Copies {
  bool in = false, out = false;
};

/// Whether a read of `buffer` in `node` may see a value from before the
/// node: the node is a leaf, or some read in it is not covered by an
/// earlier plain write in the same iteration of the node (the `:N`
/// invariant's NM4 test at the node's depth, findUncoveredRead).
bool hasUpwardExposedRead(Operation *node, BufferOp buffer) {
  if (!isa<ScopeOp>(node))
    return true;
  std::vector<BufferAccess> inside;
  for (BufferAccess &access :
       collectBufferAccesses(node->getParentOfType<KernelOp>(), buffer))
    if (node->isAncestor(access.leaf))
      inside.push_back(std::move(access));
  return findUncoveredRead(inside, getNodeDepth(node)) != nullptr;
}

/// The copies staging `array` of `buffer` around `node` needs: a copy-out
/// when the node writes it; a copy-in when the node does not write all of
/// it, or reads an element it has not written first (moves.md C2: an
/// initialization staged with its reduction needs none).
Copies getCopies(Operation *node, BufferOp buffer, StringRef array) {
  ArrayUse use = getArrayUse(node, array);
  if (!use.reads && !use.writes)
    return {};
  unsigned depth = getNodeDepth(node);
  bool whole = false;
  node->walk([&](LeafOp leaf) {
    whole |= leaf.getArray() == array &&
             writesWholeArray(leaf, buffer.getShape(), depth);
  });
  return {!whole || (use.reads && hasUpwardExposedRead(node, buffer)),
          use.writes};
}

/// Whether every element of `array` (of `buffer`) has a value before
/// `node`: a kernel input, or written all over by one leaf before it in
/// execution order. A partial writer is not enough: the copy-in would read
/// elements nothing writes, and no dependence would then keep the writer
/// before it (later moves could reorder them, leaving a read of an array
/// that no earlier leaf writes).
bool isDefinedBefore(KernelOp kernel, Operation *node, BufferOp buffer,
                     StringRef array) {
  if (buffer.getRole() == Role::in || buffer.getRole() == Role::inout)
    return true;
  bool written = false;
  kernel.walk<WalkOrder::PreOrder>([&](LeafOp leaf) {
    if (leaf.getOperation() == node || node->isAncestor(leaf))
      return WalkResult::interrupt();
    written |= leaf.getArray() == array &&
               writesWholeArray(leaf, buffer.getShape(), 0);
    return written ? WalkResult::interrupt() : WalkResult::advance();
  });
  return written;
}

/// The locations a staged copy may take.
std::optional<BufferLocation> getStagingLocation(int64_t param) {
  if (param < 0 || param > UINT32_MAX)
    return std::nullopt;
  return symbolizeBufferLocation(static_cast<uint32_t>(param));
}

/// ST3-ST4 for staging `array` of `buffer` around `node`; ST2 is the
/// caller's (unstage checks the stronger "no access to a's buffer").
bool checkStagedBuffer(const MoveRequest &request, Location errorLoc,
                       Operation *node, BufferOp buffer, StringRef array,
                       DiagnosedSilenceableFailure &diag) {
  if (llvm::is_contained(buffer.getReused(), true) ||
      llvm::any_of(buffer.getPadding(), [](int64_t p) { return p != 0; })) {
    diag = fail(request, errorLoc,
                "the buffer of '" + array +
                    "' has padding or a :N dimension, so copies over its "
                    "extents are not its storage; unpad or materialize it "
                    "first (ST3)");
    diag.attachNote(buffer.getLoc()) << "declared here";
    return false;
  }
  return checkNoConcurrentAncestor(request, errorLoc, node, "ST4", diag);
}

/// Builds the copy nest `to[I] = from[I]` over `shape` at the builder's
/// insertion point (depth `depth`); returns its root.
Operation *buildCopyNest(OpBuilder &builder, Location loc, unsigned depth,
                         ArrayRef<int64_t> shape, StringRef to,
                         StringRef from) {
  MLIRContext *ctx = builder.getContext();
  OpBuilder::InsertionGuard guard(builder);
  Operation *root = nullptr;
  for (int64_t extent : shape) {
    auto scope = ScopeOp::create(builder, loc, extent, Mode::seq);
    if (!root)
      root = scope;
    builder.setInsertionPointToStart(&scope.getBlock());
  }
  AffineMap index = getNestIndex(depth, shape.size(), ctx);
  auto leaf = LeafOp::create(
      builder, loc, builder.getStringAttr(to), AffineMapAttr::get(index),
      OpKindAttr::get(ctx, OpKind::copy),
      ReduceKindAttr::get(ctx, ReduceKind::none),
      builder.getArrayAttr(
          {AccessAttr::get(ctx, builder.getStringAttr(from), index)}));
  return root ? root : leaf.getOperation();
}

/// If `root` is a copy nest over `shape` as buildCopyNest creates it
/// (plain scopes), its leaf.
LeafOp matchCopyNest(Operation *root, ArrayRef<int64_t> shape) {
  if (!root)
    return {};
  unsigned depth = getNodeDepth(root);
  Operation *op = root;
  for (int64_t extent : shape) {
    auto scope = dyn_cast<ScopeOp>(op);
    if (!scope || scope.getMode() != Mode::seq ||
        static_cast<int64_t>(scope.getSize()) != extent ||
        !llvm::hasSingleElement(scope.getBlock()))
      return {};
    op = &scope.getBlock().front();
  }
  // A stream mark on the copy would be lost by unstaging (stage_region
  // makes none), so such a nest is not the pattern.
  auto leaf = dyn_cast<LeafOp>(op);
  if (!leaf || leaf.getStreams() || !getCopySource(leaf) ||
      !isSameIndexList(leaf.getIndices(),
                       getNestIndex(depth, shape.size(), root->getContext())))
    return {};
  return leaf;
}

/// The root of the copy nest whose leaf is `leaf` (its ancestor `rank`
/// levels up), or null.
Operation *getNestRoot(LeafOp leaf, unsigned rank) {
  Operation *op = leaf;
  for (unsigned j = 0; j < rank; ++j) {
    op = op->getParentOp();
    if (!isa<ScopeOp>(op))
      return nullptr;
  }
  return op;
}

class StageRegion final
    : public MoveOf<MoveKind::StageRegion, 1, ArrayCopyMove> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    KernelOp kernel = state.getKernel();
    const MoveOptions &options = state.getOptions();
    forEachCopyCandidate(kernel, [&](ScopeOp scope, StringRef array) {
      BufferOp buffer = kernel.lookupArray(array);
      if (!buffer || llvm::is_contained(buffer.getReused(), true) ||
          llvm::any_of(buffer.getPadding(), [](int64_t p) { return p != 0; }) ||
          findOtherAccess(scope, buffer, array))
        return;
      addStagingCandidates(getName(),
                           (array + "," + getNodeSelector(scope)).str(),
                           buffer, getStorageElements(buffer), options, out);
    });
  }

protected:
  DiagnosedSilenceableFailure
  checkArrayAndNode(MoveState &state, const MoveRequest &request,
                    Location errorLoc,
                    const ArrayAndNode &target) const override {
    KernelOp kernel = state.getKernel();
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    auto [array, buffer, node] = target;
    std::optional<BufferLocation> loc = getStagingLocation(request.params[0]);
    if (!loc)
      return fail(request, errorLoc,
                  "location " + Twine(request.params[0]) +
                      " is not one of heap=0, stack=1, reg=2, gpu_shared=3, "
                      "gpu_local=4, tcdm=5");
    if (*loc != BufferLocation::heap && *loc != BufferLocation::stack &&
        *loc != BufferLocation::reg)
      return fail(request, errorLoc,
                  "location " + stringifyBufferLocation(*loc) +
                      " is not available for this target yet");

    auto failAt = [&](Operation *op, StringRef what, const Twine &message) {
      DiagnosedSilenceableFailure d = fail(request, errorLoc, message);
      d.attachNote(op->getLoc()) << what;
      return d;
    };
    Copies copies = getCopies(node, buffer, array);
    if (!copies.in && !copies.out)
      return failAt(node, "the node",
                    "the node does not access '" + array + "' (ST1)");
    if (!checkNoOtherArrayAccess(request, errorLoc, node, buffer, array,
                                 "staged copy", "ST2", diag) ||
        !checkStagedBuffer(request, errorLoc, node, buffer, array, diag))
      return diag;
    // The copy nests sit beside the node, one scope per dimension.
    if (!checkNestingBound(request, errorLoc,
                           uint64_t(getNodeDepth(node)) + buffer.getRank(),
                           node, diag))
      return diag;
    if (copies.in && !isDefinedBefore(kernel, node, buffer, array))
      return failAt(node, "the node",
                    "the node reads '" + array +
                        "' or does not write all of it, so the copy needs a "
                        "copy-in, but no leaf before the node writes all of '" +
                        array + "' (ST5)");
    if (std::optional<std::string> over = findCapacityViolation(
            buffer, *loc, getStorageElements(buffer), state.getOptions()))
      return fail(request, errorLoc, "the copy of " + *over);
    if (*loc != BufferLocation::reg)
      return DiagnosedSilenceableFailure::success();
    // The new register buffer must be addressable (B8): its copy nests are
    // plain, so in practice only single-element copies qualify; stage to
    // the stack, set the modes, then set_location.
    return checkStagedRegisters(*this, state, request, errorLoc);
  }

  MoveRequest rewriteArrayAndNode(MoveState &state, const MoveRequest &request,
                                  const ArrayAndNode &target) const override {
    KernelOp kernel = state.getKernel();
    StringRef array = target.array;
    BufferOp buffer = target.buffer;
    Operation *node = target.node;
    SmallVector<int64_t, 4> shape(buffer.getShape());
    Copies copies = getCopies(node, buffer, array);
    std::string name = getStagedName(kernel, array, {});
    unsigned depth = getNodeDepth(node);
    createArrayCopy(buffer, node, array, name,
                    *getStagingLocation(request.params[0]), copies.in,
                    copies.out,
                    [&](OpBuilder &builder, StringRef to, StringRef from) {
                      buildCopyNest(builder, node->getLoc(), depth, shape, to,
                                    from);
                    });
    return {"unstage", name, {}};
  }
};

class Unstage final : public MoveOf<MoveKind::Unstage, 0, ArrayCopyInverse> {
protected:
  const ArrayCopyText &getText() const override {
    static const ArrayCopyText text{
        "stage_region",
        "_s",
        "a copy nest right before a node, uses inside it, and a copy nest "
        "right after it, as stage_region creates",
        "staged copy",
        "the buffer of ",
        "name, element type and extents",
        "no padding, no :N, heap, stack or reg, ",
        "layout"};
    return text;
  }

  /// The copies are nests over the copy's extents.
  Operation *getCopyRoot(LeafOp leaf, BufferOp staged) const override {
    return getNestRoot(leaf, staged.getShape().size());
  }
  LeafOp getCopyLeaf(Operation *root, BufferOp staged) const override {
    return matchCopyNest(root, staged.getShape());
  }

  /// The copies present are the ones stage_region would create.
  bool matchesUse(const CopyPattern &pattern,
                  BufferOp staged) const override {
    Copies copies = getCopies(pattern.node, staged, staged.getName());
    return copies.in == bool(pattern.copyIn) &&
           copies.out == bool(pattern.copyOut);
  }

  /// No padding; heap, stack or reg.
  bool matchesLayout(MoveState &, BufferOp staged, BufferOp) const override {
    BufferLocation loc = staged.getLocation();
    return llvm::all_of(staged.getPadding(),
                        [](int64_t p) { return p == 0; }) &&
           (loc == BufferLocation::heap || loc == BufferLocation::stack ||
            loc == BufferLocation::reg);
  }

  /// ST3-ST4, and ST5 with a copy-in.
  DiagnosedSilenceableFailure
  checkRestored(MoveState &state, const MoveRequest &request,
                Location errorLoc, const CopyPattern &pattern,
                BufferOp buffer) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    if (!checkStagedBuffer(request, errorLoc, pattern.node, buffer,
                           pattern.array, diag))
      return diag;
    // ST5 on the restored kernel, so that the inverse stage_region is legal:
    // a later move (split_scope of the writer, say) can turn the leaf that
    // writes all of a into a form ST5 does not recognize. The leaves before
    // N that write a are the same here and in the restored kernel.
    if (pattern.copyIn && !isDefinedBefore(state.getKernel(), pattern.node,
                                           buffer, pattern.array))
      return failWithNote(request, errorLoc,
                          "the inverse stage_region needs a copy-in of '" +
                              pattern.array +
                              "', but no leaf before the node writes all of '" +
                              pattern.array + "' (ST5)",
                          pattern.node, "the node");
    return diag;
  }

  SmallVector<int64_t, 2> getInverseParams(BufferOp staged) const override {
    return {static_cast<int64_t>(staged.getLocation())};
  }
};

} // namespace

bool perfdojo::moves::isWrittenAllBefore(KernelOp kernel, Operation *node,
                                         BufferOp buffer, StringRef array) {
  return isDefinedBefore(kernel, node, buffer, array);
}

PERFDOJO_DEFINE_MOVE(StageRegion)
PERFDOJO_DEFINE_MOVE(Unstage)
