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

// The array-copy helpers promote shares with stage_region (MoveKinds.h).

ArrayUse perfdojo::moves::getArrayUse(Operation *root, StringRef array) {
  ArrayUse use;
  auto record = [&](LeafOp leaf, AffineMap map) {
    if (!use.index) {
      use.index = map;
      use.first = leaf;
    } else if (use.uniform && !isSameIndexList(map, use.index)) {
      use.uniform = false;
      use.differing = leaf;
      use.differingIndex = map;
    }
  };
  root->walk<WalkOrder::PreOrder>([&](LeafOp leaf) {
    bool leafReads = false, leafWrites = false;
    for (Attribute input : leaf.getInputs())
      if (auto access = dyn_cast<AccessAttr>(input))
        if (access.getArray().getValue() == array) {
          leafReads = true;
          record(leaf, access.getIndices());
        }
    if (leaf.getArray() == array) {
      leafWrites = true;
      leafReads |= leaf.getReduce() != ReduceKind::none;
      record(leaf, leaf.getIndices());
    }
    if (!leafReads && !leafWrites)
      return;
    if (!use.reads && !use.writes)
      use.firstReads = leafReads;
    use.reads |= leafReads;
    use.writes |= leafWrites;
  });
  return use;
}

LeafOp perfdojo::moves::findOtherAccess(Operation *root, BufferOp buffer,
                                        StringRef array) {
  SmallVector<StringRef> names = buffer.getArrayNames();
  auto other = [&](StringRef name) {
    return name != array && llvm::is_contained(names, name);
  };
  LeafOp found;
  root->walk<WalkOrder::PreOrder>([&](LeafOp leaf) {
    bool hit = other(leaf.getArray());
    for (Attribute input : leaf.getInputs())
      if (auto access = dyn_cast<AccessAttr>(input))
        hit |= other(access.getArray().getValue());
    if (!hit)
      return WalkResult::advance();
    found = leaf;
    return WalkResult::interrupt();
  });
  return found;
}

void perfdojo::moves::renameArray(Operation *root, StringRef from,
                                  StringRef to) {
  MLIRContext *ctx = root->getContext();
  StringAttr toAttr = StringAttr::get(ctx, to);
  root->walk([&](LeafOp leaf) {
    if (leaf.getArray() == from)
      leaf.setArrayAttr(toAttr);
    SmallVector<Attribute, 2> inputs(leaf.getInputs().getValue());
    bool changed = false;
    for (Attribute &input : inputs)
      if (auto access = dyn_cast<AccessAttr>(input))
        if (access.getArray().getValue() == from) {
          input = AccessAttr::get(ctx, toAttr, access.getIndices());
          changed = true;
        }
    if (changed)
      leaf.setInputsAttr(ArrayAttr::get(ctx, inputs));
  });
}

std::optional<StringRef> perfdojo::moves::getCopySource(LeafOp leaf) {
  if (!leaf || leaf.getKind() != OpKind::copy ||
      leaf.getReduce() != ReduceKind::none || leaf.getInputs().size() != 1)
    return std::nullopt;
  auto access = dyn_cast<AccessAttr>(leaf.getInputs()[0]);
  if (!access || !isSameIndexList(access.getIndices(), leaf.getIndices()))
    return std::nullopt;
  return access.getArray().getValue();
}

void perfdojo::moves::addCopyBufferCandidates(
    MoveState &state, StringRef move, SmallVectorImpl<MoveRequest> &out) {
  for (BufferOp buffer : state.getKernel().getBuffers())
    if (!buffer.isArgument() && buffer.getArrays().empty())
      out.push_back({move.str(), buffer.getName().str(), {}});
}

BufferOp perfdojo::moves::resolveCopyBufferRequest(
    MoveState &state, const MoveRequest &request, StringRef creator,
    Location errorLoc, DiagnosedSilenceableFailure &diag) {
  StringRef t = request.location;
  BufferOp buffer = state.getKernel().lookupArray(t);
  if (!buffer) {
    diag = fail(request, errorLoc, "no array named '" + t + "'");
    return {};
  }
  if (buffer.isArgument() || buffer.getName() != t ||
      !buffer.getArrays().empty()) {
    diag = failWithNote(request, errorLoc,
                        "'" + t +
                            "' is not an internal array stored alone in a "
                            "buffer of its own name, as " +
                            creator + " creates",
                        buffer, "declared here");
    return {};
  }
  return buffer;
}

std::optional<std::pair<StringRef, StringRef>>
perfdojo::moves::splitArrayAndNode(const MoveRequest &request,
                                   Location errorLoc,
                                   DiagnosedSilenceableFailure &diag) {
  auto [array, node] = StringRef(request.location).split(',');
  if (array.empty() || node.empty()) {
    diag = fail(request, errorLoc,
                "expected 'a,N' (an array, then a node selector) but found '" +
                    request.location + "'");
    return std::nullopt;
  }
  return std::make_pair(array, node);
}

std::optional<ArrayAndNode>
perfdojo::moves::resolveArrayAndNode(MoveState &state,
                                     const MoveRequest &request,
                                     Location errorLoc,
                                     DiagnosedSilenceableFailure &diag) {
  auto parts = splitArrayAndNode(request, errorLoc, diag);
  if (!parts)
    return std::nullopt;
  auto [array, selector] = *parts;
  BufferOp buffer = state.getKernel().lookupArray(array);
  if (!buffer) {
    diag = fail(request, errorLoc, "no array named '" + array + "'");
    return std::nullopt;
  }
  llvm::Expected<Operation *> node = resolveNode(state.getKernel(), selector);
  if (!node) {
    diag = fail(request, errorLoc, llvm::toString(node.takeError()));
    return std::nullopt;
  }
  return ArrayAndNode{array, buffer, *node};
}

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
  if (LeafOp other = findOtherAccess(node, buffer, array))
    return failAt(other, "the other access",
                  "the node also accesses another array of the buffer of '" +
                      array + "', which would not see the private copy (C2)");
  if (ScopeOp outer = findConcurrentAncestor(node))
    return failAt(outer, "the scope with a mode",
                  "an enclosing scope has a parallel, vector or GPU mode; "
                  "clear it first (C3)");
  return use;
}

class Promote final : public MoveOf<MoveKind::Promote> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    KernelOp kernel = state.getKernel();
    for (ScopeOp scope : collectScopes(kernel)) {
      if (findConcurrentAncestor(scope))
        continue;
      unsigned d = scope.getDepth();
      SmallVector<std::string> arrays;
      scope->walk<WalkOrder::PreOrder>([&](LeafOp leaf) {
        auto add = [&](StringRef array) {
          if (!llvm::is_contained(arrays, array))
            arrays.push_back(array.str());
        };
        add(leaf.getArray());
        for (Attribute input : leaf.getInputs())
          if (auto access = dyn_cast<AccessAttr>(input))
            add(access.getArray().getValue());
      });
      for (const std::string &array : arrays) {
        ArrayUse use = getArrayUse(scope, array);
        if (use.uniform && usesOnlyAbove(use.index, d))
          out.push_back(
              {getName().str(), array + "," + getNodeSelector(scope), {}});
      }
    }
  }

  DiagnosedSilenceableFailure checkRequest(MoveState &state,
                                           const MoveRequest &request,
                                           Location errorLoc) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    std::optional<ArrayAndNode> target =
        resolveArrayAndNode(state, request, errorLoc, diag);
    if (!target)
      return diag;
    (void)checkPromotion(request, errorLoc, target->node, target->buffer,
                         target->array, diag);
    return diag;
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    KernelOp kernel = state.getKernel();
    auto [array, selector] = StringRef(request.location).split(',');
    BufferOp buffer = kernel.lookupArray(array);
    Operation *node = *resolveNode(kernel, selector);
    ArrayUse use = getArrayUse(node, array);
    MLIRContext *ctx = kernel.getContext();
    OpBuilder builder(ctx);

    std::string name = getPromotedName(kernel, array, {});
    builder.setInsertionPointAfter(buffer);
    BufferOp::create(
        builder, buffer.getLoc(), builder.getStringAttr(name),
        TypeAttr::get(buffer.getElementType()), buffer.getShapeAttr(),
        buffer.getPaddingAttr(),
        builder.getDenseBoolArrayAttr(
            SmallVector<bool>(buffer.getRank(), false)),
        BufferLocationAttr::get(
            ctx, getPromotedLocation(buffer, state.getOptions())),
        RoleAttr::get(ctx, Role::internal), builder.getStrArrayAttr({}));

    AffineMapAttr index = AffineMapAttr::get(use.index);
    auto copy = [&](StringRef to, StringRef from) {
      LeafOp::create(builder, node->getLoc(), builder.getStringAttr(to), index,
                     OpKindAttr::get(ctx, OpKind::copy),
                     ReduceKindAttr::get(ctx, ReduceKind::none),
                     builder.getArrayAttr({AccessAttr::get(
                         ctx, builder.getStringAttr(from), use.index)}));
    };
    if (use.firstReads) {
      builder.setInsertionPoint(node);
      copy(name, array);
    }
    if (use.writes) {
      builder.setInsertionPointAfter(node);
      copy(array, name);
    }
    renameArray(node, array, name);
    return {"unpromote", name, {}};
  }
};

/// The promotion pattern around array `p`.
struct Pattern {
  LeafOp copyIn, copyOut;
  Operation *node = nullptr;
  std::string array;
  AffineMap index;
};

class Unpromote final : public MoveOf<MoveKind::Unpromote> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    addCopyBufferCandidates(state, getName(), out);
  }

  DiagnosedSilenceableFailure checkRequest(MoveState &state,
                                           const MoveRequest &request,
                                           Location errorLoc) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    if (!resolveCopyBufferRequest(state, request, "promote", errorLoc, diag))
      return diag;
    KernelOp kernel = state.getKernel();
    StringRef p = request.location;
    SmallVector<Pattern, 2> patterns = match(kernel, p);
    if (patterns.empty())
      return fail(request, errorLoc,
                  "the accesses to '" + p +
                      "' are not a copy-in right before a node, uses inside "
                      "it through one index list, and a copy-out right "
                      "after it");
    // A kernel can read as two promotions (a copy-in leaf can itself be the
    // node of another): the first that validates is the one to undo.
    return validateFirst(ArrayRef<Pattern>(patterns),
                         [&](const Pattern &pattern) {
                           return validate(state, request, errorLoc, pattern);
                         });
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    KernelOp kernel = state.getKernel();
    StringRef p = request.location;
    // check() accepted one of the readings.
    SmallVector<Pattern, 2> patterns = match(kernel, p);
    Pattern pattern = *findValidPattern(
        ArrayRef<Pattern>(patterns), [&](const Pattern &candidate) {
          return validate(state, request, kernel.getLoc(), candidate);
        });
    BufferOp copyBuffer = kernel.lookupArray(p);
    if (pattern.copyIn)
      pattern.copyIn.erase();
    if (pattern.copyOut)
      pattern.copyOut.erase();
    renameArray(pattern.node, p, pattern.array);
    copyBuffer.erase();
    return {"promote", pattern.array + "," + getNodeSelector(pattern.node),
            {}};
  }

private:
  /// The rest of the check for one reading of the pattern.
  static DiagnosedSilenceableFailure validate(MoveState &state,
                                              const MoveRequest &request,
                                              Location errorLoc,
                                              const Pattern &pattern) {
    KernelOp kernel = state.getKernel();
    StringRef p = request.location;
    BufferOp copyBuffer = kernel.lookupArray(p);
    auto failAt = [&](Operation *op, StringRef what, const Twine &message) {
      DiagnosedSilenceableFailure d = fail(request, errorLoc, message);
      d.attachNote(op->getLoc()) << what;
      return d;
    };
    BufferOp buffer = kernel.lookupArray(pattern.array);
    if (!buffer)
      return fail(request, errorLoc,
                  "the copies name '" + pattern.array +
                      "', which is not an array");
    if (LeafOp other = findOtherAccess(pattern.node, buffer, ""))
      return failAt(other, "the access",
                    "the node accesses '" + pattern.array +
                        "' directly besides the private copy");
    // The declaration promote would create for the restored kernel.
    bool sameDecl =
        copyBuffer.getElementType() == buffer.getElementType() &&
        copyBuffer.getShape() == buffer.getShape() &&
        copyBuffer.getPadding() == buffer.getPadding() &&
        !llvm::is_contained(copyBuffer.getReused(), true) &&
        copyBuffer.getLocation() ==
            getPromotedLocation(buffer, state.getOptions()) &&
        copyBuffer->getPrevNode() == buffer.getOperation() &&
        getPromotedName(kernel, pattern.array, copyBuffer) == p;
    if (!sameDecl)
      return failAt(copyBuffer, "declared here",
                    "'" + p +
                        "' is not declared as promote would declare it (its "
                        "name, extents, padding and location as a copy of '" +
                        pattern.array + "', no :N, right after '" +
                        buffer.getName() +
                        "'); restore its layout and location first");
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    (void)checkPromotion(request, errorLoc, pattern.node, buffer, p, diag);
    return diag;
  }

  /// Completes a pattern from its node and copies; nullopt unless the node
  /// holds every other use of `p`, through the copies' index list, reading
  /// it first iff there is a copy-in and writing it iff a copy-out.
  static std::optional<Pattern> complete(Pattern pattern,
                                         ArrayRef<LeafOp> users, StringRef p) {
    if (!pattern.node || !isa<ScopeOp, LeafOp>(pattern.node))
      return std::nullopt;
    LeafOp copy = pattern.copyIn ? pattern.copyIn : pattern.copyOut;
    pattern.index = copy.getIndices();
    if (pattern.copyOut &&
        !isSameIndexList(pattern.copyOut.getIndices(), pattern.index))
      return std::nullopt;
    unsigned inside = 0;
    for (LeafOp user : users)
      if (pattern.node == user.getOperation() ||
          pattern.node->isProperAncestor(user))
        ++inside;
    if (inside + bool(pattern.copyIn) + bool(pattern.copyOut) != users.size())
      return std::nullopt;
    ArrayUse use = getArrayUse(pattern.node, p);
    if (!use.index || !use.uniform ||
        !isSameIndexList(use.index, pattern.index) ||
        use.firstReads != bool(pattern.copyIn) ||
        use.writes != bool(pattern.copyOut))
      return std::nullopt;
    return pattern;
  }

  /// The readings of the accesses to `p` as the pattern promote leaves:
  /// from a copy-in that is the first use, then from a copy-out that is the
  /// last.
  static SmallVector<Pattern, 2> match(KernelOp kernel, StringRef p) {
    SmallVector<LeafOp> users;
    kernel.walk<WalkOrder::PreOrder>([&](LeafOp leaf) {
      if (getArrayUse(leaf, p).index)
        users.push_back(leaf);
    });
    SmallVector<Pattern, 2> patterns;
    if (users.empty())
      return patterns;
    LeafOp first = users.front(), last = users.back();
    if (std::optional<StringRef> source = getCopySource(first);
        source && *source != p && first.getArray() == p) {
      Pattern pattern;
      pattern.copyIn = first;
      pattern.array = source->str();
      pattern.node = first->getNextNode();
      if (auto out = dyn_cast_or_null<LeafOp>(
              pattern.node ? pattern.node->getNextNode() : nullptr))
        if (out.getArray() == pattern.array && getCopySource(out) == p)
          pattern.copyOut = out;
      if (auto done = complete(pattern, users, p))
        patterns.push_back(*done);
    }
    if (last.getArray() != p && getCopySource(last) == p) {
      Pattern pattern;
      pattern.copyOut = last;
      pattern.array = last.getArray().str();
      pattern.node = last->getPrevNode();
      if (auto in = dyn_cast_or_null<LeafOp>(
              pattern.node ? pattern.node->getPrevNode() : nullptr))
        if (in.getArray() == p && getCopySource(in) == pattern.array)
          pattern.copyIn = in;
      if (auto done = complete(pattern, users, p))
        patterns.push_back(*done);
    }
    return patterns;
  }
};

} // namespace

PERFDOJO_DEFINE_MOVE(Promote)
PERFDOJO_DEFINE_MOVE(Unpromote)
