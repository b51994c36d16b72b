//===- HoistLeaf.cpp - hoist_leaf and sink_leaf (invariant leaf motion) --===//
//
// hoist_leaf a             (inverse: sink_leaf a side)
//   Leaf L, the first or the last child of a plain scope σ (depth d, at
//   least two children), moves out to just before σ (first child) or just
//   after it (last child). Its forms stay as they are: they use no {d}, and
//   depths below d only name σ's ancestors.
// sink_leaf a side         (inverse: hoist_leaf a)
//   side 0: L moves into its next sibling, a plain scope, as its first
//   child; side 1: L moves into its previous sibling, a plain scope, as its
//   last child. (Parameters are integers, so 0 spells moves.md's `first`
//   and 1 its `last`.) Forms again stay as they are.
//
// Legality (moves.md A10/A11), with Z the leaves of σ other than L, both
// evaluated on the program where L is inside σ (for sink_leaf: the result):
//   H1  L's forms do not use {d} (for sink_leaf this always holds);
//   H2  L is idempotent: not a reduction, and no input of an instance reads
//       the physical element the instance writes;
//   H3  no leaf of Z writes or reduces into an element L reads or writes in
//       the same iteration of σ's ancestors: NODEP(Z (W/Red), L | x_<d = y_<d);
//   H4  (last-child side only) no leaf of Z reads L's output element, which
//       later iterations would otherwise see before the move and not after.
// Then every execution of L stores the same value into an element nobody
// else in σ changes, so running it once (first side: before Z, last side:
// after Z) gives the same result. The scope must be plain: sinking into a
// parallel or vector scope would run L in every lane.
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"
#include "perfdojo/Dialect/Dojo/IR/TextSyntax.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {

/// `a` / `a#k`: the selector of a leaf without a depth.
std::string leafSelector(LeafOp leaf) {
  std::string selector = getPathSelector(leaf, leaf.getDepth());
  return selector.substr(0, selector.rfind('@'));
}

std::string statementText(LeafOp leaf) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printStatement(os, leaf);
  return text;
}

/// H1-H4 for leaf `leaf` running once outside `scope` (depth d) instead of
/// in every iteration as its first (`lastSide` false) or last child. `leaf`
/// may be inside `scope` (hoist_leaf) or its sibling (sink_leaf): the test
/// only uses depths < d, which are the same in both programs.
DiagnosedSilenceableFailure checkInvariant(MoveState &state,
                                           const MoveRequest &request,
                                           Location errorLoc, LeafOp leaf,
                                           ScopeOp scope, bool lastSide) {
  unsigned d = scope.getDepth();
  DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
  if (scope.getMode() != Mode::seq)
    return failWithNote(request, errorLoc,
                        "the scope has a mode; " + request.name +
                            " needs a plain scope (clear the mode first)",
                        scope, "the scope");
  // H1. Only hoist_leaf can fail it: a leaf beside the scope is at depth d.
  if (leaf->getParentOp() == scope.getOperation() &&
      !allIndices(leaf, [&](const LinearForm &f) { return f.coeff(d) == 0; }))
    return failWithNote(request, errorLoc,
                        "the leaf uses {" + Twine(d) +
                            "}, the variable of the scope it would leave",
                        leaf, "the leaf");
  // H2.
  if (leaf.getReduce() != ReduceKind::none)
    return failWithNote(request, errorLoc,
                        "the leaf is a reduction, which is not idempotent: `" +
                            statementText(leaf) + "`",
                        leaf, "the leaf");
  DependenceAnalysis &deps = state.getDependences();
  const LeafAccesses &own = deps.getLeafAccesses(leaf);
  SmallVector<DepthRelation, 8> sameInstance(leaf.getDepth(),
                                             DepthRelation::Equal);
  for (const PhysicalAccess &input : llvm::drop_begin(own.accesses))
    if (deps.mayConflict(own, own.accesses.front(), own, input, sameInstance,
                         state.ordering()))
      return failWithNote(request, errorLoc,
                          "the leaf reads the element it writes ('" +
                              input.array +
                              "'), so running it again changes the result: `" +
                              statementText(leaf) + "`",
                          leaf, "the leaf");
  // H3, then H4 on the last-child side.
  SmallVector<DepthRelation, 8> sameContext(d, DepthRelation::Equal);
  for (bool reads : {false, true}) {
    if (reads && !lastSide)
      break;
    for (LeafOp other : collectLeaves(scope)) {
      if (other == leaf)
        continue;
      const LeafAccesses &theirs = deps.getLeafAccesses(other);
      for (const PhysicalAccess &a : theirs.accesses) {
        if ((a.kind == AccessKind::Read) != reads)
          continue;
        // A read only matters against the leaf's output (H4).
        ArrayRef<PhysicalAccess> mine = own.accesses;
        if (reads)
          mine = mine.take_front();
        for (const PhysicalAccess &b : mine) {
          if (!deps.mayConflict(theirs, a, own, b, sameContext,
                                state.ordering()))
            continue;
          Conflict conflict{other, leaf, &a, &b};
          diag = fail(request, errorLoc,
                      reads ? "a leaf of the scope reads the element the "
                              "leaf writes, so iterations after the first "
                              "would see a different value: " +
                                  conflict.describe()
                            : "a leaf of the scope writes an element the "
                              "leaf accesses: " +
                                  conflict.describe());
          diag.attachNote(other.getLoc()) << "this leaf of the scope";
          diag.attachNote(leaf.getLoc()) << "the moved leaf";
          return diag;
        }
      }
    }
  }
  return DiagnosedSilenceableFailure::success();
}

/// The leaf named by `request`, or null with `diag` set.
LeafOp resolveLeaf(MoveState &state, const MoveRequest &request,
                   Location errorLoc, DiagnosedSilenceableFailure &diag) {
  Operation *node = resolveNodeOrFail(state, request, errorLoc, diag);
  if (!node)
    return {};
  auto leaf = dyn_cast<LeafOp>(node);
  if (!leaf) {
    diag = fail(request, errorLoc,
                request.location + " is a scope; " + request.name +
                    " needs a leaf");
    diag.attachNote(node->getLoc()) << "the scope";
  }
  return leaf;
}

class HoistLeaf final : public MoveOf<MoveKind::HoistLeaf> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    state.getKernel().walk<WalkOrder::PreOrder>([&](LeafOp leaf) {
      auto scope = dyn_cast<ScopeOp>(leaf->getParentOp());
      if (!scope || llvm::hasSingleElement(scope.getBlock()))
        return;
      if (&scope.getBlock().front() == leaf.getOperation() ||
          &scope.getBlock().back() == leaf.getOperation())
        out.push_back({getName().str(), leafSelector(leaf), {}});
    });
  }

  DiagnosedSilenceableFailure checkRequest(MoveState &state,
                                           const MoveRequest &request,
                                           Location errorLoc) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    LeafOp leaf = resolveLeaf(state, request, errorLoc, diag);
    if (!leaf)
      return diag;
    auto scope = dyn_cast<ScopeOp>(leaf->getParentOp());
    if (!scope)
      return failWithNote(request, errorLoc, "the leaf is not inside a scope",
                          leaf, "the leaf");
    Block &block = scope.getBlock();
    if (llvm::hasSingleElement(block))
      return failWithNote(
          request, errorLoc,
          "the leaf is the only child of its scope, which would be "
          "left empty",
          leaf, "the leaf");
    bool first = &block.front() == leaf.getOperation();
    if (!first && &block.back() != leaf.getOperation())
      return failWithNote(
          request, errorLoc,
          "the leaf is neither the first nor the last child of its "
          "scope",
          leaf, "the leaf");
    return checkInvariant(state, request, errorLoc, leaf, scope, !first);
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    auto leaf = cast<LeafOp>(*resolveNode(state.getKernel(), request.location));
    auto scope = cast<ScopeOp>(leaf->getParentOp());
    bool first = &scope.getBlock().front() == leaf.getOperation();
    if (first)
      leaf->moveBefore(scope);
    else
      leaf->moveAfter(scope);
    // Pre-order positions are unchanged, so the leaf keeps its selector.
    return {"sink_leaf", leafSelector(leaf), {first ? 0 : 1}};
  }
};

class SinkLeaf final : public MoveOf<MoveKind::SinkLeaf, 1> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    state.getKernel().walk<WalkOrder::PreOrder>([&](LeafOp leaf) {
      if (isa_and_nonnull<ScopeOp>(leaf->getNextNode()))
        out.push_back({getName().str(), leafSelector(leaf), {0}});
      if (isa_and_nonnull<ScopeOp>(leaf->getPrevNode()))
        out.push_back({getName().str(), leafSelector(leaf), {1}});
    });
  }

  DiagnosedSilenceableFailure checkRequest(MoveState &state,
                                           const MoveRequest &request,
                                           Location errorLoc) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    int64_t side = request.params[0];
    if (side != 0 && side != 1)
      return fail(request, errorLoc,
                  "side must be 0 (first child of the next scope) or 1 (last "
                  "child of the previous scope), got " +
                      Twine(side));
    LeafOp leaf = resolveLeaf(state, request, errorLoc, diag);
    if (!leaf)
      return diag;
    auto scope = dyn_cast_or_null<ScopeOp>(side == 0 ? leaf->getNextNode()
                                                     : leaf->getPrevNode());
    if (!scope)
      return failWithNote(request, errorLoc,
                          side == 0
                              ? "the leaf's next sibling is not a scope"
                              : "the leaf's previous sibling is not a scope",
                          leaf, "the leaf");
    return checkInvariant(state, request, errorLoc, leaf, scope, side == 1);
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    auto leaf = cast<LeafOp>(*resolveNode(state.getKernel(), request.location));
    if (request.params[0] == 0) {
      auto scope = cast<ScopeOp>(leaf->getNextNode());
      leaf->moveBefore(&scope.getBlock(), scope.getBlock().begin());
    } else {
      auto scope = cast<ScopeOp>(leaf->getPrevNode());
      leaf->moveBefore(&scope.getBlock(), scope.getBlock().end());
    }
    return {"hoist_leaf", leafSelector(leaf), {}};
  }
};

} // namespace

PERFDOJO_DEFINE_MOVE(HoistLeaf)
PERFDOJO_DEFINE_MOVE(SinkLeaf)
