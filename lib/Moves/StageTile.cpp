//===- StageTile.cpp - stage_tile and unstage_tile (a tile's copy) --------===//
//
// stage_tile a,N loc        (inverse: unstage_tile a_t)
//   Node N (a scope, named by a node selector) at depth d reads array a
//   only within one tile per execution: in every access, index j is
//   o_j + i_j, where o_j uses only the variables of the scopes around N
//   (depths < d) and is the same form in every access, and i_j uses N's own
//   variables and a constant. The tile's origin is o_j + lo_j and its
//   extent hi_j - lo_j + 1, for [lo_j, hi_j] the range of i_j over every
//   access. N then reads a new internal buffer t (`<a>_t`, or `<a>_t1`, ...;
//   a's element type, the tile's extents, at location loc = heap 0, stack 1
//   or reg 2, declared right after a's buffer), filled by a copy nest right
//   before N:
//
//     N                    ->   e0 e1 t[{d}, {d+1}] = a[o0+lo0+{d}, o1+lo1+{d+1}]
//       ... a[o+i] ...          N
//                                 ... t[i-lo] ...
//
//   This is Exo's stage_mem for read-only data, the block-shared tile of a
//   GEMM (the k tile of the left operand inside the grid's blocks): where
//   stage_region copies the whole array, the copy here is only what one
//   execution of N reads, so it can sit inside scopes a does not depend on.
//   Legality:
//     SM1 N is a scope that reads a and does not write it (a staged output
//         is stage_region's);
//     SM2 no other array of a's buffer is accessed in N (N must not see a's
//         storage change behind t's back);
//     SM3 every index of a in N splits as above: the parts of the variables
//         around N are the same in every access;
//     SM4 every scope around N is plain or `:u` (the copy runs once per
//         execution of N, which a concurrent scope would have to re-prove);
//     SM5 a is a kernel input, or one leaf before N writes all of it (the
//         copy reads the whole tile, also elements N skips);
//     and the copy is smaller than a (else stage_region is the move), t
//     fits the location's budget, and in reg every access to t is
//     addressable (so stage to the stack, set the modes, then set_location).
//   No dependence test: nothing writes a between the copy and N's reads
//   (SM1, SM2), so N reads from t the values it read from a.
//   Candidates: every scope with plain or `:u` ancestors and every array it
//   only reads whose tile is smaller than the array, on the stack where it
//   fits (else the heap), and in registers where they hold it.
//
// unstage_tile t            (inverse: stage_tile a,N loc)
//   Recognizes exactly the pattern above: t is an internal array alone in
//   a buffer of its own name (heap, stack or reg, no padding, no `:N`,
//   right after a's buffer); its only write is a copy nest of plain scopes
//   of t's extents, `t[{d}, ...] = a[c_j + {d+j}]` with c_j using only the
//   variables around the nest, right before a scope N; every other access
//   to t is a read inside N, and N does not access a's buffer. N's reads
//   t[f] become a[f + c], the copy and t are removed, and the result must
//   be the kernel stage_tile would stage back into this one (same tile,
//   same name): so the two stay each other's inverse.
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"

#include "perfdojo/Analysis/Privatization.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {

/// The tile of an array one execution of a node reads.
struct Tile {
  /// Per dimension: the origin, o_j + lo_j (variables of depths below the
  /// node's, and a constant).
  SmallVector<LinearForm, 4> origin;
  SmallVector<int64_t, 4> extents;
};

/// `form` split at depth `depth`: the part of the variables below it, and
/// the rest (deeper variables and the constant).
std::pair<LinearForm, LinearForm> splitAtDepth(const LinearForm &form,
                                               unsigned depth) {
  LinearForm outer, inner = form;
  outer.coeffs.assign(form.coeffs.begin(),
                      form.coeffs.begin() +
                          std::min<size_t>(depth, form.coeffs.size()));
  for (unsigned k = 0; k < std::min<size_t>(depth, inner.coeffs.size()); ++k)
    inner.coeffs[k] = 0;
  while (!outer.coeffs.empty() && outer.coeffs.back() == 0)
    outer.coeffs.pop_back();
  return {outer, inner};
}

/// SM3: the tile `node` reads of `array` (of rank `rank`), or why there is
/// none.
FailureOr<Tile> findReadTile(Operation *node, StringRef array, unsigned rank,
                             std::string &why) {
  unsigned depth = getNodeDepth(node);
  SmallVector<std::optional<LinearForm>, 4> outer(rank);
  SmallVector<int64_t, 4> lo(rank, INT64_MAX), hi(rank, INT64_MIN);
  bool found = false;
  WalkResult result = node->walk([&](LeafOp leaf) {
    for (Attribute input : leaf.getInputs()) {
      auto access = dyn_cast<AccessAttr>(input);
      if (!access || access.getArray().getValue() != array)
        continue;
      found = true;
      SmallVector<int64_t, 8> sizes = getLeafBoxSizes(leaf);
      for (auto [j, form] :
           llvm::enumerate(getAccessForms(access.getIndices(), sizes))) {
        auto [o, i] = splitAtDepth(form, depth);
        std::optional<std::pair<int64_t, int64_t>> range = i.range(sizes);
        if (!range) {
          why = "an index of '" + array.str() + "' has no finite range";
          return WalkResult::interrupt();
        }
        if (outer[j] && outer[j]->coeffs != o.coeffs) {
          why = "dimension " + std::to_string(j) + " of '" + array.str() +
                "' is indexed with different parts of the variables around "
                "the node, so its reads lie in no one tile per execution";
          return WalkResult::interrupt();
        }
        outer[j] = o;
        lo[j] = std::min(lo[j], range->first);
        hi[j] = std::max(hi[j], range->second);
      }
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  if (!found) {
    why = "the node does not read '" + array.str() + "'";
    return failure();
  }
  Tile tile;
  for (unsigned j = 0; j < rank; ++j) {
    LinearForm origin = *outer[j];
    origin.constant = lo[j];
    tile.origin.push_back(std::move(origin));
    tile.extents.push_back(hi[j] - lo[j] + 1);
  }
  return tile;
}

int64_t getElementCount(ArrayRef<int64_t> extents) {
  int64_t n = 1;
  for (int64_t e : extents)
    n *= e;
  return n;
}

/// The copy's source index at depth `depth`: origin_j + {depth+j}.
SmallVector<LinearForm, 4> getSourceIndex(const Tile &tile, unsigned depth) {
  SmallVector<LinearForm, 4> forms;
  for (auto [j, origin] : llvm::enumerate(tile.origin)) {
    LinearForm form = origin;
    if (form.coeffs.size() <= depth + j)
      form.coeffs.resize(depth + j + 1, 0);
    form.coeffs[depth + j] += 1;
    forms.push_back(std::move(form));
  }
  return forms;
}

/// Rewrites the reads of `from` under `node` to `to`, each index form
/// mapped by `fn` (dimension, form).
void rewriteReads(Operation *node, StringRef from, StringRef to,
                  function_ref<LinearForm(unsigned, const LinearForm &)> fn) {
  MLIRContext *ctx = node->getContext();
  StringAttr toAttr = StringAttr::get(ctx, to);
  node->walk([&](LeafOp leaf) {
    SmallVector<Attribute, 2> inputs(leaf.getInputs().getValue());
    bool changed = false;
    for (Attribute &input : inputs) {
      auto access = dyn_cast<AccessAttr>(input);
      if (!access || access.getArray().getValue() != from)
        continue;
      SmallVector<LinearForm, 4> forms;
      for (auto [j, form] : llvm::enumerate(getIndexForms(access.getIndices())))
        forms.push_back(fn(j, form));
      input = AccessAttr::get(ctx, toAttr, makeIndexMap(forms, ctx));
      changed = true;
    }
    if (changed)
      leaf.setInputsAttr(ArrayAttr::get(ctx, inputs));
  });
}

/// `a + factor * b`, coefficient by coefficient.
LinearForm addScaled(const LinearForm &a, const LinearForm &b,
                     int64_t factor) {
  LinearForm d = a;
  if (d.coeffs.size() < b.coeffs.size())
    d.coeffs.resize(b.coeffs.size(), 0);
  for (auto [k, c] : llvm::enumerate(b.coeffs))
    d.coeffs[k] += factor * c;
  d.constant += factor * b.constant;
  while (!d.coeffs.empty() && d.coeffs.back() == 0)
    d.coeffs.pop_back();
  return d;
}

/// The staging itself (the check has passed): declares `name`, builds the
/// copy nest before `node` and points the node's reads at it.
void stageTile(BufferOp buffer, Operation *node, StringRef array,
               StringRef name, BufferLocation location, const Tile &tile) {
  MLIRContext *ctx = buffer.getContext();
  OpBuilder builder(ctx);
  builder.setInsertionPointAfter(buffer);
  unsigned rank = tile.extents.size();
  BufferOp::create(
      builder, buffer.getLoc(), builder.getStringAttr(name),
      TypeAttr::get(buffer.getElementType()),
      builder.getDenseI64ArrayAttr(tile.extents),
      builder.getDenseI64ArrayAttr(SmallVector<int64_t>(rank, 0)),
      builder.getDenseBoolArrayAttr(SmallVector<bool>(rank, false)),
      BufferLocationAttr::get(ctx, location),
      RoleAttr::get(ctx, Role::internal), builder.getStrArrayAttr({}));
  unsigned depth = getNodeDepth(node);
  builder.setInsertionPoint(node);
  for (int64_t extent : tile.extents) {
    auto scope = ScopeOp::create(builder, node->getLoc(), extent, Mode::seq);
    builder.setInsertionPointToStart(&scope.getBlock());
  }
  SmallVector<LinearForm, 4> target;
  for (unsigned j = 0; j < rank; ++j) {
    LinearForm form;
    form.coeffs.assign(depth + j + 1, 0);
    form.coeffs[depth + j] = 1;
    target.push_back(std::move(form));
  }
  LeafOp::create(builder, node->getLoc(), builder.getStringAttr(name),
                 AffineMapAttr::get(makeIndexMap(target, ctx)),
                 OpKindAttr::get(ctx, OpKind::copy),
                 ReduceKindAttr::get(ctx, ReduceKind::none),
                 builder.getArrayAttr({AccessAttr::get(
                     ctx, builder.getStringAttr(array),
                     makeIndexMap(getSourceIndex(tile, depth), ctx))}));
  rewriteReads(node, array, name, [&](unsigned j, const LinearForm &form) {
    return addScaled(form, tile.origin[j], -1);
  });
}

/// The locations a staged tile may take: heap, stack, reg.
std::optional<BufferLocation> getTileLocation(int64_t param) {
  if (param < 0 || param > 2)
    return std::nullopt;
  return symbolizeBufferLocation(static_cast<uint32_t>(param));
}

class StageTile final : public MoveOf<MoveKind::StageTile, 1> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    KernelOp kernel = state.getKernel();
    const MoveOptions &options = state.getOptions();
    forEachCopyCandidate(kernel, [&](ScopeOp scope, StringRef array) {
      BufferOp buffer = kernel.lookupArray(array);
      ArrayUse use = getArrayUse(scope, array);
      if (!buffer || buffer.getRank() == 0 || use.writes || !use.reads ||
          findOtherAccess(scope, buffer, array))
        return;
      std::string why;
      FailureOr<Tile> tile =
          findReadTile(scope, array, buffer.getRank(), why);
      if (failed(tile))
        return;
      int64_t elements = getElementCount(tile->extents);
      if (elements >= getElementCount(buffer.getShape()))
        return;
      addStagingCandidates(getName(),
                           (array + "," + getNodeSelector(scope)).str(),
                           buffer, elements, options, out);
    });
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    auto [array, buffer, node] = getArrayAndNode(state, request);
    std::string why;
    Tile tile = *findReadTile(node, array, buffer.getRank(), why);
    std::string name =
        getFreshBufferName(state.getKernel(), (array + "_t").str(), {});
    stageTile(buffer, node, array, name, *getTileLocation(request.params[0]),
              tile);
    return {"unstage_tile", name, {}};
  }

protected:
  DiagnosedSilenceableFailure
  checkRequest(MoveState &state, const MoveRequest &request,
               Location errorLoc) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    std::optional<ArrayAndNode> target =
        resolveArrayAndNode(state, request, errorLoc, diag);
    if (!target)
      return diag;
    StringRef array = target->array;
    BufferOp buffer = target->buffer;
    Operation *node = target->node;
    std::optional<BufferLocation> loc = getTileLocation(request.params[0]);
    if (!loc)
      return fail(request, errorLoc,
                  "location " + Twine(request.params[0]) +
                      " is not one of heap=0, stack=1, reg=2 (move a tile "
                      "elsewhere with set_location once its modes are set)");
    auto failAtNode = [&](const Twine &message) {
      return failWithNote(request, errorLoc, message, node, "the node");
    };
    if (!isa<ScopeOp>(node))
      return failAtNode("the node is a leaf; stage_tile stages what a scope "
                        "reads (promote copies one element) (SM1)");
    ArrayUse use = getArrayUse(node, array);
    if (!use.reads && !use.writes)
      return failAtNode("the node does not read '" + array + "' (SM1)");
    if (use.writes)
      return failAtNode("the node writes '" + array +
                        "'; stage_tile copies what a node only reads "
                        "(stage_region stages an output) (SM1)");
    if (!checkNoOtherArrayAccess(request, errorLoc, node, buffer, array,
                                 "staged tile", "SM2", diag))
      return diag;
    std::string why;
    FailureOr<Tile> tile = findReadTile(node, array, buffer.getRank(), why);
    if (failed(tile))
      return failAtNode(why + " (SM3)");
    if (!checkNoConcurrentAncestor(request, errorLoc, node, "SM4", diag) ||
        !checkNestingBound(request, errorLoc,
                           uint64_t(getNodeDepth(node)) + buffer.getRank(),
                           node, diag))
      return diag;
    if (!isWrittenAllBefore(state.getKernel(), node, buffer, array))
      return failAtNode("'" + array +
                        "' is no kernel input and no leaf before the node "
                        "writes all of it, so the copy could read elements "
                        "nothing wrote (SM5)");
    int64_t elements = getElementCount(tile->extents);
    if (elements >= getElementCount(buffer.getShape()))
      return failAtNode("the node reads all of '" + array +
                        "' (a tile of " + std::to_string(elements) +
                        " elements): stage_region stages a whole array");
    if (std::optional<std::string> over = findCapacityViolation(
            buffer, *loc, elements, state.getOptions()))
      return fail(request, errorLoc, "the tile of " + *over);
    if (*loc != BufferLocation::reg)
      return DiagnosedSilenceableFailure::success();
    return checkStagedRegisters(*this, state, request, errorLoc);
  }
};

/// unstage_tile's pattern in a kernel.
struct TilePattern {
  BufferOp tile, source;
  LeafOp copy;
  Operation *copyRoot = nullptr, *node = nullptr;
  std::string array;
  /// The copy's source index minus its own variables: c_j.
  SmallVector<LinearForm, 4> origin;
};

/// Matches unstage_tile's pattern for buffer `t`, or says why not.
FailureOr<TilePattern> matchTilePattern(KernelOp kernel, BufferOp t,
                                        std::string &why) {
  TilePattern p;
  p.tile = t;
  StringRef name = t.getName();
  if (t.isArgument() || !t.getArrays().empty() ||
      llvm::is_contained(t.getReused(), true) ||
      llvm::any_of(t.getPadding(), [](int64_t x) { return x != 0; }) ||
      !getTileLocation(static_cast<int64_t>(t.getLocation()))) {
    why = "'" + name.str() +
          "' is not stored as stage_tile stores a tile (alone in its "
          "buffer, no padding, no :N, heap, stack or reg)";
    return failure();
  }
  // Its one write: the copy.
  SmallVector<LeafOp> writers;
  kernel.walk([&](LeafOp leaf) {
    if (leaf.getArray() == name)
      writers.push_back(leaf);
  });
  ArrayRef<int64_t> shape = t.getShape();
  unsigned rank = shape.size();
  auto notPattern = [&] {
    why = "'" + name.str() +
          "' is not written by one copy nest right before a node that only "
          "reads it, as stage_tile creates";
    return failure();
  };
  if (writers.size() != 1)
    return notPattern();
  p.copy = writers.front();
  if (p.copy.getStreams() || p.copy.getKind() != OpKind::copy ||
      p.copy.getReduce() != ReduceKind::none ||
      p.copy.getInputs().size() != 1)
    return notPattern();
  auto access = dyn_cast<AccessAttr>(p.copy.getInputs()[0]);
  if (!access)
    return notPattern();
  p.array = access.getArray().getValue().str();
  p.source = kernel.lookupArray(p.array);
  if (!p.source || p.source == t ||
      p.source.getElementType() != t.getElementType() ||
      p.source.getRank() != rank)
    return notPattern();
  // The nest: plain scopes of t's extents, the copy alone inside.
  Operation *op = p.copy;
  for (int64_t extent : llvm::reverse(shape)) {
    auto scope = dyn_cast<ScopeOp>(op->getParentOp());
    if (!scope || scope.getMode() != Mode::seq ||
        static_cast<int64_t>(scope.getSize()) != extent ||
        !llvm::hasSingleElement(scope.getBlock()))
      return notPattern();
    op = scope;
  }
  p.copyRoot = op;
  unsigned depth = getNodeDepth(op);
  SmallVector<LinearForm, 4> target = getIndexForms(p.copy.getIndices());
  SmallVector<LinearForm, 4> source = getIndexForms(access.getIndices());
  for (unsigned j = 0; j < rank; ++j) {
    LinearForm own;
    own.coeffs.assign(depth + j + 1, 0);
    own.coeffs[depth + j] = 1;
    if (!isSameIndexList(ArrayRef<LinearForm>(target[j]),
                         ArrayRef<LinearForm>(own)))
      return notPattern();
    LinearForm origin = addScaled(source[j], own, -1);
    for (unsigned k = depth; k < origin.coeffs.size(); ++k)
      if (origin.coeffs[k] != 0)
        return notPattern();
    p.origin.push_back(std::move(origin));
  }
  // N: the copy nest's next sibling, a scope holding every other access
  // to t (reads) and none to the source's buffer.
  p.node = p.copyRoot->getNextNode();
  if (!p.node || !isa<ScopeOp>(p.node))
    return notPattern();
  bool outside = false;
  kernel.walk([&](LeafOp leaf) {
    if (leaf == p.copy || p.node->isAncestor(leaf))
      return;
    for (Attribute input : leaf.getInputs())
      if (auto a = dyn_cast<AccessAttr>(input))
        outside |= a.getArray().getValue() == name;
  });
  // (findOtherAccess with t's name: any access to the source's buffer.)
  if (outside || !getArrayUse(p.node, name).reads ||
      findOtherAccess(p.node, p.source, name))
    return notPattern();
  return p;
}

class UnstageTile final : public MoveOf<MoveKind::UnstageTile, 0> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    addCopyBufferCandidates(state, getName(), out);
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    KernelOp kernel = state.getKernel();
    std::string why;
    TilePattern p =
        *matchTilePattern(kernel, lookupBuffer(kernel, request.location), why);
    int64_t location = static_cast<int64_t>(p.tile.getLocation());
    rewriteReads(p.node, p.tile.getName(), p.array,
                 [&](unsigned j, const LinearForm &form) {
                   return addScaled(form, p.origin[j], 1);
                 });
    p.copyRoot->erase();
    p.tile.erase();
    // The node's selector after the copy nest is gone.
    return {"stage_tile", p.array + "," + getNodeSelector(p.node), {location}};
  }

protected:
  DiagnosedSilenceableFailure
  checkRequest(MoveState &state, const MoveRequest &request,
               Location errorLoc) const override {
    KernelOp kernel = state.getKernel();
    BufferOp t = lookupBuffer(kernel, request.location);
    if (!t)
      return fail(request, errorLoc,
                  "no buffer '" + request.location + "' in the kernel");
    std::string why;
    FailureOr<TilePattern> p = matchTilePattern(kernel, t, why);
    if (failed(p))
      return failWithNote(request, errorLoc, why, t, "declared here");
    // The declaration sits right after the source's, as stage_tile puts it.
    if (p->source->getNextNode() != t.getOperation())
      return failWithNote(request, errorLoc,
                          "'" + t.getName() + "' is not declared right after '" +
                              p->array + "', as stage_tile declares it",
                          t, "declared here");
    // Exactly stage_tile's result: staging the restored kernel again
    // gives this one back (the same tile, name and copy).
    OwningOpRef<KernelOp> copy = kernel.clone();
    MoveState copyState(*copy, state.getOptions());
    MoveRequest inverse = rewrite(copyState, request);
    auto print = [](KernelOp k) {
      std::string text;
      llvm::raw_string_ostream os(text);
      k->print(os, OpPrintingFlags().assumeVerified());
      return text;
    };
    // Both sides detached clones: an op inside a module prints otherwise.
    std::string before = print(*OwningOpRef<KernelOp>(kernel.clone()));
    DiagnosedSilenceableFailure again =
        getMove(MoveKind::StageTile).check(copyState, inverse, errorLoc);
    if (!again.succeeded()) {
      (void)again.silence();
      return failWithNote(request, errorLoc,
                          "stage_tile could not stage the restored kernel "
                          "back, so the move could not be undone",
                          t, "declared here");
    }
    getMove(MoveKind::StageTile).rewrite(copyState, inverse);
    if (print(*copy) != before)
      return failWithNote(request, errorLoc,
                          "'" + t.getName() +
                              "' is not the tile stage_tile would stage "
                              "(its extents or origin differ from what the "
                              "node reads)",
                          t, "declared here");
    return DiagnosedSilenceableFailure::success();
  }
};

} // namespace

PERFDOJO_DEFINE_MOVE(StageTile)
PERFDOJO_DEFINE_MOVE(UnstageTile)
