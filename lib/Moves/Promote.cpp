//===- Promote.cpp - promote and unpromote (scalar/register promotion) ----===//
//
// promote a,N               (inverse: unpromote a_r)
//   Node N (a scope or a leaf, named by a node selector) at depth d accesses
//   array a only through one index list I that uses {0} to {d-1}, so it
//   names one element during one execution of N. A new internal buffer p
//   (named `<a>_r`, or `<a>_r1`, ... when taken; a's element type, extents
//   and padding; on the stack when it fits the stack budget, on the heap
//   otherwise; declared right after a's buffer) holds that element while N
//   runs (moves.md C1):
//
//     N                   ->   p[I] = a[I]        (copy-in, if N reads a first)
//       ... a[I] ...           N
//                                ... p[I] ...
//                              a[I] = p[I]        (copy-out, if N writes a)
//
//   Typical follow-ups: reuse_dims on p's dimensions, set_location p reg
//   ("accumulate in a register, store once").
//   Legality:
//     C1 N accesses a, always through the identical normalized index list
//        I, and I uses no variable of N or of the scopes below it;
//     C2 no other array of a's buffer is accessed in N (kernel arguments
//        never alias each other), so nothing in N sees a[I] behind p's back;
//     C3 every scope around N is plain or `:u`: the copies run once per
//        execution of N, which a parallel, vector or GPU scope around it
//        would have to re-prove race-free (set modes after promoting).
//   No dependence test: N reads from p the value a[I] had at its entry and
//   the value it leaves in p is written back at its exit; no other access
//   touches either element in between. The copy-in exists iff the first
//   access to a in N reads it (an operand or a reduction; all accesses name
//   one element, so the textually first runs first: when it is a plain
//   write, N never sees the entry value, and a copy-in could read an array
//   nothing has written yet), the copy-out iff N writes or reduces into a.
//   Candidates: every scope N with plain or `:u` ancestors and every array
//   it accesses through one invariant index list.
//
// unpromote p               (inverse: promote a,N)
//   Recognizes exactly the pattern above for array p and restores N's
//   accesses to a, removing the copies and p's buffer. Legality: p is an
//   internal array stored alone in a buffer of its own name; every access
//   to p is the copy-in `p[I] = a[I]` right before a node N, the copy-out
//   `a[I] = p[I]` right after it, or lies in N with the index list I (at
//   least one copy); the copy-in exists iff N's first access to p reads
//   it, the copy-out iff N writes it; N does not access a's buffer; and p's declaration is exactly
//   the one promote would create in the restored kernel (name, type,
//   extents, padding, no `:N`, location, right after a's buffer). Together
//   with C1-C3 on the restored kernel this makes the two moves exact
//   inverses. Semantically, replacing p by a in N is the argument above
//   read backwards.
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {

/// `<array>_r`, or `<array>_r1`, ...
std::string getPromotedName(KernelOp kernel, StringRef array,
                            BufferOp ignore) {
  return getFreshBufferName(kernel, (array + "_r").str(), ignore);
}

/// The stack when a copy of `buffer` fits its budget, the heap otherwise.
BufferLocation getPromotedLocation(BufferOp buffer,
                                   const MoveOptions &options) {
  int64_t elements = 1;
  for (unsigned k = 0; k < buffer.getRank(); ++k) {
    int64_t extent = buffer.getAllocatedExtent(k);
    if (elements > INT64_MAX / extent)
      return BufferLocation::heap;
    elements *= extent;
  }
  return findCapacityViolation(buffer, BufferLocation::stack, elements,
                               options)
             ? BufferLocation::heap
             : BufferLocation::stack;
}

/// Whether `map` uses only depths below `depth`.
bool usesOnlyAbove(AffineMap map, unsigned depth) {
  return llvm::all_of(map.getResults(), [&](AffineExpr e) {
    return getDepthsUsed(e) <= depth;
  });
}

std::string indexText(AffineMap map) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printIndexList(os, map);
  return text;
}

/// C1-C3 for promoting `array` (of `buffer`) over `node`; returns N's use.
std::optional<ArrayUse> checkPromotion(const MoveRequest &request,
                                       Location errorLoc, Operation *node,
                                       BufferOp buffer, StringRef array,
                                       DiagnosedSilenceableFailure &diag) {
  auto failAt = [&](Operation *op, StringRef what, const Twine &message) {
    diag = fail(request, errorLoc, message);
    diag.attachNote(op->getLoc()) << what;
    return std::nullopt;
  };
  unsigned d = getNodeDepth(node);
  ArrayUse use = getArrayUse(node, array);
  if (!use.index)
    return failAt(node, "the node",
                  "the node does not access '" + array + "' (C1)");
  if (!use.uniform) {
    diag = fail(request, errorLoc,
                "the node accesses '" + array +
                    "' through different index lists " +
                    indexText(use.index) + " and " +
                    indexText(use.differingIndex) +
                    " (C1)");
    diag.attachNote(use.first.getLoc()) << "the first access";
    diag.attachNote(use.differing.getLoc()) << "a different one";
    return std::nullopt;
  }
  if (!usesOnlyAbove(use.index, d))
    return failAt(use.first, "the access",
                  "the index list " + indexText(use.index) + " of '" + array +
                      "' changes inside the node at depth " + Twine(d) +
                      " (C1)");
  if (!checkNoOtherArrayAccess(request, errorLoc, node, buffer, array,
                               "private copy", "C2", diag) ||
      !checkNoConcurrentAncestor(request, errorLoc, node, "C3", diag))
    return std::nullopt;
  return use;
}

class Promote final : public MoveOf<MoveKind::Promote, 0, ArrayCopyMove> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    forEachCopyCandidate(state.getKernel(), [&](ScopeOp scope,
                                                StringRef array) {
      ArrayUse use = getArrayUse(scope, array);
      if (use.uniform && usesOnlyAbove(use.index, scope.getDepth()))
        out.push_back({getName().str(),
                       (array + "," + getNodeSelector(scope)).str(),
                       {}});
    });
  }

protected:
  DiagnosedSilenceableFailure
  checkArrayAndNode(MoveState &state, const MoveRequest &request,
                    Location errorLoc,
                    const ArrayAndNode &target) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    (void)checkPromotion(request, errorLoc, target.node, target.buffer,
                         target.array, diag);
    return diag;
  }

  MoveRequest rewriteArrayAndNode(MoveState &state, const MoveRequest &request,
                                  const ArrayAndNode &target) const override {
    KernelOp kernel = state.getKernel();
    Operation *node = target.node;
    ArrayUse use = getArrayUse(node, target.array);
    MLIRContext *ctx = kernel.getContext();
    std::string name = getPromotedName(kernel, target.array, {});
    AffineMapAttr index = AffineMapAttr::get(use.index);
    createArrayCopy(target.buffer, node, target.array, name,
                    getPromotedLocation(target.buffer, state.getOptions()),
                    use.firstReads, use.writes,
                    [&](OpBuilder &builder, StringRef to, StringRef from) {
                      LeafOp::create(
                          builder, node->getLoc(), builder.getStringAttr(to),
                          index, OpKindAttr::get(ctx, OpKind::copy),
                          ReduceKindAttr::get(ctx, ReduceKind::none),
                          builder.getArrayAttr({AccessAttr::get(
                              ctx, builder.getStringAttr(from), use.index)}));
                    });
    return {"unpromote", name, {}};
  }
};

class Unpromote final
    : public MoveOf<MoveKind::Unpromote, 0, ArrayCopyInverse> {
protected:
  const ArrayCopyText &getText() const override {
    static const ArrayCopyText text{
        "promote",
        "_r",
        "a copy-in right before a node, uses inside it through one index "
        "list, and a copy-out right after it",
        "private copy",
        "",
        "name, extents, padding and location",
        "no :N, ",
        "layout and location"};
    return text;
  }

  /// The copies are single leaves.
  Operation *getCopyRoot(LeafOp leaf, BufferOp) const override { return leaf; }
  LeafOp getCopyLeaf(Operation *root, BufferOp) const override {
    return dyn_cast_or_null<LeafOp>(root);
  }

  /// The copies share one index list, through which the node accesses `p`,
  /// reading it first iff there is a copy-in and writing it iff a copy-out.
  bool matchesUse(const CopyPattern &pattern,
                  BufferOp copyBuffer) const override {
    LeafOp copyIn = pattern.copyIn, copyOut = pattern.copyOut;
    AffineMap index = (copyIn ? copyIn : copyOut).getIndices();
    if (copyOut && !isSameIndexList(copyOut.getIndices(), index))
      return false;
    ArrayUse use = getArrayUse(pattern.node, copyBuffer.getName());
    return use.index && use.uniform && isSameIndexList(use.index, index) &&
           use.firstReads == bool(pattern.copyIn) &&
           use.writes == bool(pattern.copyOut);
  }

  /// a's padding; the location promote picks.
  bool matchesLayout(MoveState &state, BufferOp copyBuffer,
                     BufferOp buffer) const override {
    return copyBuffer.getPadding() == buffer.getPadding() &&
           copyBuffer.getLocation() ==
               getPromotedLocation(buffer, state.getOptions());
  }

  /// C1-C3 for promoting a over the node.
  DiagnosedSilenceableFailure
  checkRestored(MoveState &state, const MoveRequest &request,
                Location errorLoc, const CopyPattern &pattern,
                BufferOp buffer) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    (void)checkPromotion(request, errorLoc, pattern.node, buffer,
                         request.location, diag);
    return diag;
  }
};

} // namespace

PERFDOJO_DEFINE_MOVE(Promote)
PERFDOJO_DEFINE_MOVE(Unpromote)
