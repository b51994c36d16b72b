//===- AddScope.cpp - add_scope and remove_scope (redundant iteration) ---===//
//
// add_scope a@d s          (inverse: remove_scope a@d)
//   The node a@d (a scope or a leaf) at depth d is wrapped in a new plain
//   scope of size s >= 1 at depth d; inside it {k} becomes {k+1} for k >= d,
//   so the new variable {d} is unused and the node runs s times in a row.
//   Candidates for s are the sizes of the node's neighbouring sibling
//   scopes, which the new scope may later fuse with (moves.md A12).
// remove_scope a@d         (inverse: add_scope on its child, same size)
//   A plain scope a@d with exactly one child whose subtree does not use
//   {d} is replaced by that child; {k} becomes {k-1} for k > d. (With
//   several children the inverse would have to wrap several nodes: use
//   split_off first.)
//
// Legality (both): running the wrapped node N twice in a row equals running
// it once (moves.md A12/A13):
//   * N contains no reduction leaf, and
//   * every read of N either sees a value N wrote earlier in the same
//     execution, or no write of N happens at or after it: for every writer
//     W at instance x and reader R at instance y, NODEP under "same
//     iteration of every scope enclosing N" and τ(y) <= τ(x), where τ is
//     the execution order inside N (for W = R at x = y the read comes
//     first). Reads that are covered are left out of the test: some leaf
//     before R in N plainly writes the same physical element, through
//     forms equal to the read's that only use depths the two leaves share,
//     so it wrote the element in the same iteration just before.
//   Then, by induction over execution order, the second execution reads and
//   writes exactly the values of the first. A node directly inside a
//   vector scope cannot be wrapped: vector scopes stay innermost.
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"
#include "perfdojo/Dialect/Dojo/IR/TextSyntax.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {

std::string statementText(LeafOp leaf) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printStatement(os, leaf);
  return text;
}

/// Number of scopes enclosing both `a` and `b`.
unsigned commonScopes(LeafOp a, LeafOp b) {
  SmallVector<Operation *, 8> pathA, pathB;
  for (Operation *p = a->getParentOp(); isa<ScopeOp>(p); p = p->getParentOp())
    pathA.push_back(p);
  for (Operation *p = b->getParentOp(); isa<ScopeOp>(p); p = p->getParentOp())
    pathB.push_back(p);
  unsigned common = 0;
  for (auto [x, y] : llvm::zip(llvm::reverse(pathA), llvm::reverse(pathB))) {
    if (x != y)
      break;
    ++common;
  }
  return common;
}

/// Whether the read `read` of `leaves[reader]` is covered: an earlier leaf
/// plainly writes the same physical element through the same forms, which
/// only use depths the two leaves share.
bool isCovered(DependenceAnalysis &deps, ArrayRef<LeafOp> leaves,
               unsigned reader, const PhysicalAccess &read) {
  for (LeafOp writer : leaves.take_front(reader)) {
    const PhysicalAccess &write = deps.getLeafAccesses(writer).accesses.front();
    if (write.kind != AccessKind::Write || write.buffer != read.buffer)
      continue;
    unsigned common = commonScopes(writer, leaves[reader]);
    auto sameForm = [&](const LinearForm &w, const LinearForm &r) {
      if (w.constant != r.constant)
        return false;
      unsigned n = std::max(w.coeffs.size(), r.coeffs.size());
      for (unsigned k = 0; k < n; ++k)
        if (w.coeff(k) != r.coeff(k) || (k >= common && w.coeff(k) != 0))
          return false;
      return true;
    };
    if (llvm::all_of(llvm::zip(write.indices, read.indices), [&](auto pair) {
          return sameForm(std::get<0>(pair), std::get<1>(pair));
        }))
      return true;
  }
  return false;
}

/// The idempotence test of `node`, whose enclosing `context` depths are held
/// fixed (one execution of the node). Fills `diag` on failure.
bool checkIdempotent(MoveState &state, const MoveRequest &request,
                     Location errorLoc, Operation *node, unsigned context,
                     StringRef what, DiagnosedSilenceableFailure &diag) {
  SmallVector<LeafOp> leaves = collectLeaves(node);
  for (LeafOp leaf : leaves) {
    if (leaf.getReduce() == ReduceKind::none)
      continue;
    diag = fail(request, errorLoc,
                what + " contains a reduction, which is not idempotent: `" +
                    statementText(leaf) + "`");
    diag.attachNote(leaf.getLoc()) << "the reduction";
    return false;
  }
  DependenceAnalysis &deps = state.getDependences();
  // The uncovered reads, per leaf.
  SmallVector<SmallVector<const PhysicalAccess *, 2>> reads(leaves.size());
  for (auto [j, reader] : llvm::enumerate(leaves))
    for (const PhysicalAccess &read :
         llvm::drop_begin(deps.getLeafAccesses(reader).accesses))
      if (!isCovered(deps, leaves, j, read))
        reads[j].push_back(&read);
  for (auto [i, writer] : llvm::enumerate(leaves)) {
    const LeafAccesses &w = deps.getLeafAccesses(writer);
    const PhysicalAccess &write = w.accesses.front();
    for (auto [j, reader] : llvm::enumerate(leaves)) {
      const LeafAccesses &r = deps.getLeafAccesses(reader);
      unsigned common = commonScopes(writer, reader);
      // τ(y) <= τ(x): the instances first differ at a depth k >= context
      // where the writer's is larger, or agree on every common depth and
      // the reader comes first in the tree (or is the writer itself).
      SmallVector<SmallVector<DepthRelation, 8>, 4> orders;
      for (unsigned k = context; k < common; ++k) {
        SmallVector<DepthRelation, 8> rel(k, DepthRelation::Equal);
        rel.push_back(DepthRelation::Greater);
        orders.push_back(std::move(rel));
      }
      if (j <= i)
        orders.emplace_back(common, DepthRelation::Equal);
      for (const PhysicalAccess *read : reads[j]) {
        for (ArrayRef<DepthRelation> rel : orders) {
          if (!deps.mayConflict(w, write, r, *read, rel, state.ordering()))
            continue;
          Conflict conflict{writer, reader, &write, read};
          diag = fail(request, errorLoc,
                      what + " is not idempotent: it reads an element "
                             "before writing it again: " +
                          conflict.describe());
          diag.attachNote(writer.getLoc()) << "the write";
          diag.attachNote(reader.getLoc()) << "the read that precedes it";
          return false;
        }
      }
    }
  }
  return true;
}

/// Renumbers {k} to {k + delta} for k >= from in every form under `root`.
void shiftDepths(Operation *root, unsigned from, int delta) {
  rewriteIndices(root, [&](const LinearForm &in) {
    LinearForm out;
    out.constant = in.constant;
    for (unsigned k = 0; k < in.coeffs.size(); ++k) {
      if (in.coeffs[k] == 0)
        continue;
      unsigned to = k < from ? k : k + delta;
      if (out.coeffs.size() <= to)
        out.coeffs.resize(to + 1, 0);
      out.coeffs[to] += in.coeffs[k];
    }
    return out;
  });
}

class AddScope final : public MoveOf<MoveKind::AddScope, 1, NodeMove> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    state.getKernel().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!isa<ScopeOp, LeafOp>(op))
        return;
      SmallVector<int64_t, 2> sizes;
      for (Operation *next : {op->getPrevNode(), op->getNextNode()})
        if (auto neighbour = dyn_cast_or_null<ScopeOp>(next))
          if (!llvm::is_contained(sizes, neighbour.getSize()))
            sizes.push_back(neighbour.getSize());
      for (int64_t s : sizes)
        out.push_back({getName().str(), getNodeSelector(op), {s}});
    });
  }

  DiagnosedSilenceableFailure checkNode(MoveState &state,
                                        const MoveRequest &request,
                                        Location errorLoc,
                                        Operation *node) const override {
    int64_t s = request.params[0];
    if (s < 1)
      return fail(request, errorLoc,
                  "scope size " + Twine(s) + " must be at least 1");
    auto parent = dyn_cast<ScopeOp>(node->getParentOp());
    if (parent && parent.getMode() == Mode::vector)
      return failWithNote(request, errorLoc,
                          "the node is inside a vector scope, which must stay "
                          "innermost",
                          parent, "the vector scope");
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    // The new scope adds one level above everything in the node.
    if (!checkNestingBound(request, errorLoc,
                           uint64_t(getNodeDepth(node)) + 1 +
                               getSubtreeScopeHeight(node),
                           node, diag))
      return diag;
    (void)checkIdempotent(state, request, errorLoc, node, getNodeDepth(node),
                          "the wrapped node", diag);
    return diag;
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    Operation *node = *resolveNode(state.getKernel(), request.location);
    shiftDepths(node, getNodeDepth(node), 1);
    OpBuilder builder(node->getContext());
    builder.setInsertionPoint(node);
    auto scope = ScopeOp::create(builder, node->getLoc(), request.params[0],
                                 Mode::seq);
    node->moveBefore(&scope.getBlock(), scope.getBlock().end());
    return {"remove_scope", getNodeSelector(scope), {}};
  }
};

class RemoveScope final : public MoveOf<MoveKind::RemoveScope> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    for (ScopeOp scope : collectScopes(state.getKernel()))
      if (scope.getMode() == Mode::seq &&
          llvm::hasSingleElement(scope.getBlock()))
        out.push_back({getName().str(), getNodeSelector(scope), {}});
  }

  DiagnosedSilenceableFailure checkRequest(MoveState &state,
                                           const MoveRequest &request,
                                           Location errorLoc) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    ScopeOp scope = resolveScopeRequest(
        state, request,
        request.location + " is a leaf; remove_scope needs a scope", errorLoc,
        diag);
    if (!scope)
      return diag;
    if (scope.getMode() != Mode::seq)
      return failWithNote(
          request, errorLoc,
          "the scope has a mode; remove_scope needs a plain scope "
          "(clear the mode first)",
          scope, "the scope");
    Block &block = scope.getBlock();
    if (!llvm::hasSingleElement(block))
      return failWithNote(
          request, errorLoc,
          "the scope has " + Twine(block.getOperations().size()) +
              " children; remove_scope needs exactly one (split_off "
              "first)",
          scope, "the scope");
    unsigned d = scope.getDepth();
    for (LeafOp leaf : collectLeaves(scope)) {
      if (allIndices(leaf, [&](const LinearForm &f) { return f.coeff(d) == 0; }))
        continue;
      return failWithNote(request, errorLoc,
                          "the body uses {" + Twine(d) +
                              "}, the scope's variable: `" +
                              statementText(leaf) + "`",
                          leaf, "the leaf");
    }
    if (!checkIdempotent(state, request, errorLoc, &block.front(), d + 1,
                         "the scope's body", diag))
      return diag;
    return DiagnosedSilenceableFailure::success();
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    ScopeOp scope = getRequestScope(state, request);
    Operation *child = &scope.getBlock().front();
    unsigned d = scope.getDepth();
    // {d} is unused: {k} := {k-1} for k > d.
    shiftDepths(child, d + 1, -1);
    child->moveBefore(scope);
    int64_t size = scope.getSize();
    scope.erase();
    return {"add_scope", getNodeSelector(child), {size}};
  }
};

} // namespace

PERFDOJO_DEFINE_MOVE(AddScope)
PERFDOJO_DEFINE_MOVE(RemoveScope)
