//===- PrivatizeReduction.cpp - privatize_reduction (rfactor) and back ----===//
//
// privatize_reduction a@e d   (inverse: unprivatize_reduction p#1@n)
//   The reduction leaf a, `o[F] op= v` (op in + * max min), keeps one
//   partial result per iteration of its enclosing scope rho = a@e (size n)
//   in a new internal buffer p. With pi the scope at depth d <= e on a's
//   path (the placement scope; pi = rho when d = e):
//
//     pi                              n                      (init, depth d)
//       ...                             p[F, {d}] = id
//         rho            ->           pi
//           ...                         ...
//             o[F] op= v                  rho
//                                           ...
//                                             p[F, {e}] op= v
//                                     n                      (combine)
//                                       o[F] op= p[F, {d}]
//
//   p has o's allocated extents plus a last dimension of extent n; it is
//   named `<o>_p` (`<o>_p1`, ... when taken), declared right after o's
//   buffer, and lives on the stack when it fits the stack budget, on the
//   heap otherwise. id is the identity of op: 0, 1, -inf, inf.
//   Example: `| 32 16 m[{0}] max= x[{0}, {1}*16+{2}]` with
//   `privatize_reduction m#1@2 1` reduces into 16 lane accumulators
//   `m_p[{0}, {2}]`, which a `:v` scope of size 16 can then update at once.
//
//   Legality:
//     R1  reassociation is on: the updates of o[F] are regrouped;
//     R2  F uses only {0} to {d-1}: every instance of a in one execution of
//         pi reduces into the same element, and F means the same in the
//         init and combine scopes, which are siblings of pi;
//     R3  a's operands do not read o's buffer, and every other leaf in
//         pi's subtree that accesses it is an `op=` update of it that
//         does not read it: nothing sees a partial result, and what o
//         gets between init and combine are more terms of the same
//         reduction (a row's remainder beside its vector lanes);
//     R4  op has an identity for the element type that a constant can
//         spell (getReductionIdentity: -inf/inf for floats, the type's
//         minimum/maximum for integers, false/true for bool; none for
//         min= in i64);
//     R5  pi and every scope between pi and a is plain or `:u` (a parallel,
//         vector or GPU scope there could make unprivatize_reduction race).
//   Then o_after = o_before op (op over all updates) =
//   o_before op (the other updates) op (op over j of p[F, j]) by
//   associativity and commutativity.
//
// unprivatize_reduction p#k@n   (inverse: privatize_reduction o#i@e d)
//   Recognizes exactly the pattern above around the update leaf p#k (the
//   location names that leaf) and restores the original leaf, removing the
//   init scope, the combine scope and p. Legality: the pattern (p is
//   accessed only by the init, the update and the combine, which sit as
//   above; the init writes the identity, the combine reduces p[F, {d}] with
//   the update's operator), p is exactly the buffer privatize_reduction
//   would create for o in the restored kernel (name, extents, no padding or
//   `:N`, location, declaration right after o's buffer), and R1-R5 for the
//   restored leaf. So each move's inverse is legal and restores the text.
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"
#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Dialect/Dojo/IR/PhysicalLayout.h"

#include "mlir/IR/Builders.h"

#include <cmath>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {

/// The identity of the reduction in the element type (ElementTypes.h).
std::optional<double> getIdentity(ReduceKind kind, Type elementType) {
  return getReductionIdentity(kind, elementType);
}

/// `forms` followed by `{d}`.
SmallVector<LinearForm, 4> withVariable(ArrayRef<LinearForm> forms,
                                        unsigned d) {
  SmallVector<LinearForm, 4> out(forms);
  LinearForm v;
  v.coeffs.assign(d + 1, 0);
  v.coeffs[d] = 1;
  out.push_back(v);
  return out;
}

/// The deepest depth used by `forms` plus one.
unsigned getDepthsUsed(ArrayRef<LinearForm> forms) {
  unsigned used = 0;
  for (const LinearForm &form : forms)
    for (auto [k, c] : llvm::enumerate(form.coeffs))
      if (c != 0)
        used = std::max<unsigned>(used, k + 1);
  return used;
}

Operation *ancestorAtDepth(Operation *node, unsigned depth) {
  for (unsigned k = getNodeDepth(node); k > depth; --k)
    node = node->getParentOp();
  return node;
}

bool isOfBuffer(StringRef array, BufferOp buffer) {
  return llvm::is_contained(buffer.getArrayNames(), array);
}

/// Whether an operand of `leaf` reads an array of `buffer`.
bool readsBuffer(LeafOp leaf, BufferOp buffer) {
  return llvm::any_of(leaf.getInputs(), [&](Attribute input) {
    auto access = dyn_cast<AccessAttr>(input);
    return access && isOfBuffer(access.getArray().getValue(), buffer);
  });
}

/// The name privatize_reduction gives the partials of `array`: `<array>_p`,
/// or `<array>_p1`, `<array>_p2`, ... when taken by a buffer or array other
/// than `ignore`.
std::string getPartialName(KernelOp kernel, StringRef array, BufferOp ignore) {
  return getFreshBufferName(kernel, (array + "_p").str(), ignore);
}

/// Extents of the partials of an array of `output`: its allocated extents
/// and `n`.
SmallVector<int64_t> getPartialShape(BufferOp output, int64_t n) {
  SmallVector<int64_t> shape;
  for (unsigned k = 0; k < output.getRank(); ++k)
    shape.push_back(output.getAllocatedExtent(k));
  shape.push_back(n);
  return shape;
}

/// The stack when the partials fit its budget, the heap otherwise.
BufferLocation getPartialLocation(Type elementType, ArrayRef<int64_t> shape,
                                  const MoveOptions &options) {
  int64_t bytes = getElementBytes(elementType);
  for (int64_t extent : shape) {
    if (bytes > options.target.stackBytes / extent)
      return BufferLocation::heap;
    bytes *= extent;
  }
  return BufferLocation::stack;
}

/// R1-R5 for `leaf` reducing with `reduce` into `outArray[outIndex]`, an
/// array of `output`, with the placement scope `placement` at depth `d`.
/// `leaf` may currently write another array (unprivatize_reduction checks
/// the leaf it is about to restore).
DiagnosedSilenceableFailure
checkReduction(MoveState &state, const MoveRequest &request, Location errorLoc,
               LeafOp leaf, ReduceKind reduce, BufferOp output,
               StringRef outArray, ArrayRef<LinearForm> outIndex,
               ScopeOp placement, unsigned d) {
  auto failAt = [&](Location loc, StringRef what, const Twine &message) {
    DiagnosedSilenceableFailure diag = fail(request, errorLoc, message);
    diag.attachNote(loc) << what;
    return diag;
  };
  if (!state.getOptions().reassociate)
    return failAt(leaf.getLoc(), "the reduction",
                  "reassociation is off, and privatizing a reduction "
                  "regroups its updates (R1)");
  Type elementType = output.getElementType();
  if (!getIdentity(reduce, elementType)) {
    std::string type = getElementTypeName(elementType);
    return failAt(leaf.getLoc(), "the reduction",
                  stringifyReduceKind(reduce) + "= on " + type +
                      " has no identity to initialize the partial results "
                      "with (R4)");
  }
  unsigned used = getDepthsUsed(outIndex);
  if (used > d)
    return failAt(leaf.getLoc(), "the reduction",
                  "the output index of '" + outArray + "' uses {" +
                      Twine(used - 1) +
                      "}, which changes inside the "
                      "placement scope at depth " +
                      Twine(d) + " (R2)");
  if (readsBuffer(leaf, output))
    return failAt(leaf.getLoc(), "the reduction",
                  "the reduction reads '" + outArray +
                      "', which would then see a partial result (R3)");
  LeafOp other;
  placement->walk([&](LeafOp inner) {
    if (inner == leaf)
      return WalkResult::advance();
    // More terms of the same reduction may update o directly.
    bool writes = isOfBuffer(inner.getArray(), output);
    if (!readsBuffer(inner, output) &&
        (!writes || inner.getReduce() == reduce))
      return WalkResult::advance();
    other = inner;
    return WalkResult::interrupt();
  });
  if (other) {
    DiagnosedSilenceableFailure diag =
        fail(request, errorLoc,
             "another leaf in the placement scope at depth " + Twine(d) +
                 " accesses '" + outArray +
                 "' other than by more " + stringifyReduceKind(reduce) +
                 "= updates, and it holds only part of the reduction there "
                 "(R3)");
    diag.attachNote(placement.getLoc()) << "the placement scope";
    diag.attachNote(other.getLoc()) << "the other access";
    return diag;
  }
  for (auto scope = leaf->getParentOfType<ScopeOp>(); scope;
       scope = scope->getParentOfType<ScopeOp>()) {
    if (scope.getMode() != Mode::seq && scope.getMode() != Mode::unroll)
      return failAt(scope.getLoc(), "scope with a mode",
                    "a scope between the placement scope and the reduction "
                    "has a parallel, vector or GPU mode; clear it first (R5)");
    if (scope == placement)
      break;
  }
  return DiagnosedSilenceableFailure::success();
}

/// The leaf named by the path part of `request.location` (`a#k` of
/// `a#k@e`) and the node the whole location names.
std::optional<std::pair<LeafOp, Operation *>>
resolveLeafAndNode(MoveState &state, const MoveRequest &request,
                   Location errorLoc, DiagnosedSilenceableFailure &diag) {
  Operation *node = resolveNodeOrFail(state, request, errorLoc, diag);
  if (!node)
    return std::nullopt;
  StringRef leafPart = StringRef(request.location).split('@').first;
  return std::make_pair(cast<LeafOp>(*resolveNode(state.getKernel(), leafPart)),
                        node);
}

class PrivatizeReduction final : public MoveOf<MoveKind::PrivatizeReduction, 1> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    state.getKernel().walk([&](LeafOp leaf) {
      if (leaf.getReduce() == ReduceKind::none)
        return;
      unsigned depth = leaf.getDepth();
      unsigned used = getDepthsUsed(getIndexForms(leaf.getIndices()));
      for (unsigned e = used; e < depth; ++e) {
        if (cast<ScopeOp>(ancestorAtDepth(leaf, e)).getSize() < 2)
          continue;
        for (unsigned d = used; d <= e; ++d)
          out.push_back(
              {getName().str(), getPathSelector(leaf, e), {int64_t(d)}});
      }
    });
  }

  DiagnosedSilenceableFailure checkRequest(MoveState &state,
                                           const MoveRequest &request,
                                           Location errorLoc) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    auto resolved = resolveLeafAndNode(state, request, errorLoc, diag);
    if (!resolved)
      return diag;
    auto [leaf, node] = *resolved;
    auto over = dyn_cast<ScopeOp>(node);
    if (!over)
      return failWithNote(
          request, errorLoc,
          "the location names the leaf itself; name the enclosing "
          "scope whose iterations get their own partial results",
          leaf, "the leaf");
    if (leaf.getReduce() == ReduceKind::none)
      return failWithNote(request, errorLoc,
                          "the leaf assigns '" + leaf.getArray() +
                              "' instead of reducing into it",
                          leaf, "the leaf");
    unsigned e = over.getDepth();
    int64_t d = request.params[0];
    if (d < 0 || d > e)
      return failWithNote(request, errorLoc,
                          "the placement depth " + Twine(d) +
                              " must lie between 0 and the depth " + Twine(e) +
                              " of the privatized scope",
                          over, "the privatized scope");
    auto placement = cast<ScopeOp>(ancestorAtDepth(leaf, d));
    BufferOp output = state.getKernel().lookupArray(leaf.getArray());
    // The partials hold one copy of the output per iteration of the scope:
    // their storage must stay in the 64-bit range.
    SmallVector<int64_t> shape = getPartialShape(output, over.getSize());
    if (!checkNewLayout(request, errorLoc, output,
                        getPartialName(state.getKernel(), leaf.getArray(), {}),
                        shape, SmallVector<int64_t>(shape.size(), 0),
                        SmallVector<bool>(shape.size(), false), diag))
      return diag;
    return checkReduction(state, request, errorLoc, leaf, leaf.getReduce(),
                          output, leaf.getArray(), getIndexForms(leaf.getIndices()),
                          placement, d);
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    KernelOp kernel = state.getKernel();
    DiagnosedSilenceableFailure ignored =
        DiagnosedSilenceableFailure::success();
    auto [leaf, node] =
        *resolveLeafAndNode(state, request, kernel.getLoc(), ignored);
    unsigned e = getNodeDepth(node), d = request.params[0];
    int64_t n = cast<ScopeOp>(node).getSize();
    auto placement = cast<ScopeOp>(ancestorAtDepth(leaf, d));
    StringRef outArray = leaf.getArray();
    BufferOp output = kernel.lookupArray(outArray);
    MLIRContext *ctx = kernel.getContext();
    OpBuilder builder(ctx);

    // The partials, declared right after the output's buffer.
    std::string name = getPartialName(kernel, outArray, {});
    SmallVector<int64_t> shape = getPartialShape(output, n);
    Type elementType = output.getElementType();
    builder.setInsertionPointAfter(output);
    BufferOp::create(
        builder, output.getLoc(), builder.getStringAttr(name),
        TypeAttr::get(elementType), builder.getDenseI64ArrayAttr(shape),
        builder.getDenseI64ArrayAttr(SmallVector<int64_t>(shape.size(), 0)),
        builder.getDenseBoolArrayAttr(SmallVector<bool>(shape.size(), false)),
        BufferLocationAttr::get(
            ctx, getPartialLocation(elementType, shape, state.getOptions())),
        RoleAttr::get(ctx, Role::internal), builder.getStrArrayAttr({}));

    SmallVector<LinearForm, 4> outIndex = getIndexForms(leaf.getIndices());
    AffineMapAttr partialAtD = AffineMapAttr::get(makeIndexMap(withVariable(outIndex, d), ctx));
    ReduceKind reduce = leaf.getReduce();
    StringAttr partialName = builder.getStringAttr(name);

    // init: n p[F, {d}] = id, right before the placement scope.
    builder.setInsertionPoint(placement);
    auto init = ScopeOp::create(builder, placement.getLoc(), n, Mode::seq);
    builder.setInsertionPointToStart(&init.getBlock());
    LeafOp::create(
        builder, leaf.getLoc(), partialName, partialAtD,
        OpKindAttr::get(ctx, OpKind::copy),
        ReduceKindAttr::get(ctx, ReduceKind::none),
        builder.getArrayAttr({FloatAttr::get(
            Float64Type::get(ctx), *getIdentity(reduce, elementType))}));

    // combine: n o[F] op= p[F, {d}], right after it.
    builder.setInsertionPointAfter(placement);
    auto combine = ScopeOp::create(builder, placement.getLoc(), n, Mode::seq);
    builder.setInsertionPointToStart(&combine.getBlock());
    LeafOp::create(builder, leaf.getLoc(), builder.getStringAttr(outArray),
                   AffineMapAttr::get(makeIndexMap(outIndex, ctx)), OpKindAttr::get(ctx, OpKind::copy),
                   ReduceKindAttr::get(ctx, reduce),
                   builder.getArrayAttr({AccessAttr::get(
                       ctx, partialName, partialAtD.getValue())}));

    // The update: p[F, {e}] op= v.
    leaf.setArrayAttr(partialName);
    leaf.setIndicesAttr(AffineMapAttr::get(makeIndexMap(withVariable(outIndex, e), ctx)));
    return {"unprivatize_reduction", getNodeSelector(leaf), {}};
  }
};

/// The parts of a privatized reduction around its update leaf.
struct Privatized {
  LeafOp init, update, combine;
  ScopeOp placement;
  BufferOp partials, output;
  StringRef outArray;
  SmallVector<LinearForm, 4> outIndex;
  unsigned d = 0, e = 0;
};

class UnprivatizeReduction final : public MoveOf<MoveKind::UnprivatizeReduction> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    KernelOp kernel = state.getKernel();
    kernel.walk([&](LeafOp leaf) {
      if (leaf.getReduce() == ReduceKind::none)
        return;
      BufferOp buffer = kernel.lookupArray(leaf.getArray());
      if (!buffer.isArgument() && buffer.getArrays().empty())
        out.push_back({getName().str(), getNodeSelector(leaf), {}});
    });
  }

  DiagnosedSilenceableFailure checkRequest(MoveState &state,
                                           const MoveRequest &request,
                                           Location errorLoc) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    std::optional<Privatized> found = match(state, request, errorLoc, diag);
    if (!found)
      return diag;
    return checkReduction(state, request, errorLoc, found->update,
                          found->update.getReduce(), found->output,
                          found->outArray, found->outIndex, found->placement,
                          found->d);
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    DiagnosedSilenceableFailure ignored =
        DiagnosedSilenceableFailure::success();
    Privatized p = *match(state, request, state.getKernel().getLoc(), ignored);
    MLIRContext *ctx = state.getKernel().getContext();
    p.update.setArrayAttr(StringAttr::get(ctx, p.outArray));
    p.update.setIndicesAttr(AffineMapAttr::get(makeIndexMap(p.outIndex, ctx)));
    p.init->getParentOp()->erase();
    p.combine->getParentOp()->erase();
    p.partials.erase();
    return {
        "privatize_reduction", getPathSelector(p.update, p.e), {int64_t(p.d)}};
  }

private:
  /// Recognizes the pattern of privatize_reduction around the leaf the
  /// request names; on failure fills `diag`.
  std::optional<Privatized> match(MoveState &state, const MoveRequest &request,
                                  Location errorLoc,
                                  DiagnosedSilenceableFailure &diag) const {
    KernelOp kernel = state.getKernel();
    Operation *node = resolveNodeOrFail(state, request, errorLoc, diag);
    if (!node)
      return std::nullopt;
    auto update = dyn_cast<LeafOp>(node);
    if (!update || update.getReduce() == ReduceKind::none) {
      diag = fail(request, errorLoc,
                  "the location must name a reduction leaf, the update of "
                  "privatized partial results");
      diag.attachNote(node->getLoc()) << "the node";
      return std::nullopt;
    }
    Privatized p;
    p.update = update;
    p.partials = kernel.lookupArray(update.getArray());
    StringRef name = p.partials.getName();
    auto notPattern = [&](const Twine &why) {
      diag = fail(request, errorLoc,
                  "'" + name + "' is not privatized partial results: " + why);
      diag.attachNote(update.getLoc()) << "the update";
      return std::nullopt;
    };
    unsigned rank = p.partials.getRank();
    if (p.partials.isArgument() || !p.partials.getArrays().empty() || rank == 0)
      return notPattern("they must be an internal buffer of rank at least 1 "
                        "holding one array");

    // Its accesses: the init (a write), the update, the combine (a read).
    SmallVector<ArrayAccess> accesses =
        collectArrayAccesses(kernel, p.partials);
    for (const ArrayAccess &access : accesses) {
      if (access.leaf == update) {
        if (access.operand >= 0)
          return notPattern("the update reads them");
        continue;
      }
      LeafOp &slot = access.operand < 0 ? p.init : p.combine;
      if (slot)
        return notPattern("they must be accessed only by one "
                          "initialization, the update and one combination");
      slot = access.leaf;
    }
    if (!p.init || !p.combine)
      return notPattern("they must be accessed only by one initialization, "
                        "the update and one combination");

    // Structure: init scope, placement scope, combine scope, siblings.
    auto initScope = dyn_cast<ScopeOp>(p.init->getParentOp());
    auto combineScope = dyn_cast<ScopeOp>(p.combine->getParentOp());
    p.d = p.init.getDepth() - 1;
    p.placement = initScope
                      ? dyn_cast_or_null<ScopeOp>(initScope->getNextNode())
                      : ScopeOp();
    if (!initScope || !combineScope || !p.placement ||
        !llvm::hasSingleElement(initScope.getBlock()) ||
        !llvm::hasSingleElement(combineScope.getBlock()) ||
        p.placement->getNextNode() != combineScope.getOperation() ||
        update.getDepth() <= p.d ||
        ancestorAtDepth(update, p.d) != p.placement.getOperation() ||
        initScope.getMode() != Mode::seq ||
        combineScope.getMode() != Mode::seq ||
        initScope.getSize() != combineScope.getSize())
      return notPattern("the initialization and the combination must each "
                        "be the only leaf of a plain scope of one size, right "
                        "before and right after a scope enclosing the update");

    // Forms: p[F, {d}] = id; p[F, {e}] op= v; o[F] op= p[F, {d}].
    int64_t n = initScope.getSize();
    SmallVector<LinearForm, 4> updateIndex = getIndexForms(update.getIndices());
    const LinearForm &last = updateIndex.back();
    p.e = last.coeffs.empty() ? 0 : last.coeffs.size() - 1;
    p.outIndex.assign(updateIndex.begin(), updateIndex.end() - 1);
    p.outArray = p.combine.getArray();
    p.output = kernel.lookupArray(p.outArray);
    SmallVector<LinearForm, 4> atD = withVariable(p.outIndex, p.d);
    auto combined = p.combine.getInputs().size() == 1
                        ? dyn_cast<AccessAttr>(p.combine.getInputs()[0])
                        : AccessAttr();
    auto identity = p.init.getInputs().size() == 1
                        ? dyn_cast<FloatAttr>(p.init.getInputs()[0])
                        : FloatAttr();
    std::optional<double> expected =
        getIdentity(update.getReduce(), p.output.getElementType());
    if (!isSameIndexList(updateIndex, withVariable(p.outIndex, p.e)) || p.e < p.d ||
        p.e >= update.getDepth() ||
        int64_t(cast<ScopeOp>(ancestorAtDepth(update, p.e)).getSize()) != n ||
        p.init.getKind() != OpKind::copy || p.init.getStreams() ||
        p.combine.getStreams() ||
        p.init.getReduce() != ReduceKind::none || !identity || !expected ||
        identity.getValueAsDouble() != *expected ||
        !isSameIndexList(getIndexForms(p.init.getIndices()), atD) ||
        p.combine.getKind() != OpKind::copy ||
        p.combine.getReduce() != update.getReduce() || !combined ||
        !isSameIndexList(getIndexForms(combined.getIndices()), atD) ||
        !isSameIndexList(getIndexForms(p.combine.getIndices()), p.outIndex) ||
        p.output == p.partials)
      return notPattern("expected the initialization '" + name + "[F, {" +
                        Twine(p.d) + "}] = <identity>', the update '" + name +
                        "[F, {e}] op= ...' over a scope of size " + Twine(n) +
                        " and the combination 'o[F] op= " + name + "[F, {" +
                        Twine(p.d) + "}]'");

    // The buffer must be exactly what privatize_reduction would create.
    SmallVector<int64_t> shape = getPartialShape(p.output, n);
    if (name != getPartialName(kernel, p.outArray, p.partials) ||
        p.partials.getShape() != ArrayRef<int64_t>(shape) ||
        llvm::any_of(p.partials.getPadding(), [](int64_t x) { return x; }) ||
        llvm::is_contained(p.partials.getReused(), true) ||
        p.partials.getElementType() != p.output.getElementType() ||
        p.partials.getLocation() !=
            getPartialLocation(p.output.getElementType(), shape,
                               state.getOptions()) ||
        p.output->getNextNode() != p.partials.getOperation()) {
      diag = fail(request, errorLoc,
                  "'" + name +
                      "' differs from the buffer privatize_reduction "
                      "would create for '" +
                      p.outArray +
                      "' (name, extents, "
                      "padding, `:N`, location or declaration right after '" +
                      p.output.getName() +
                      "'), so the inverse could not restore "
                      "it");
      diag.attachNote(p.partials.getLoc()) << "declared here";
      return std::nullopt;
    }
    return p;
  }
};

} // namespace

PERFDOJO_DEFINE_MOVE(PrivatizeReduction)
PERFDOJO_DEFINE_MOVE(UnprivatizeReduction)
