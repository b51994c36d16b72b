//===- SetMode.cpp - set_unroll/parallel/vector/gpu_*, clear_mode ---------===//
//
// Modes are execution hints: a mode is legal iff the kernel computes the same
// outputs as with the mode erased. One move per mode sets it on a plain
// scope a@d; clear_mode a@d is the common inverse.
//
//   set_unroll     size <= unrollLimit; no parallel or GPU scope inside.
//   set_parallel   no parallel or GPU scope around or inside; no two
//                  iterations conflict (concurrency mode: reductions race):
//                    NODEP(sub, sub | x_<d = y_<d, x_d != y_d)
//   set_vector     exactly one leaf child; size * element bytes equals the
//                  target's vector bytes; the output moves by one element
//                  per lane and every operand by zero or one (physical
//                  layout); no conflict across lanes (as for parallel).
//   set_gpu_grid   not inside a block, warp or parallel scope; no parallel
//                  scope inside; no conflict across iterations.
//   set_gpu_block  inside a grid scope, not inside a warp scope, enclosing
//                  no grid or parallel scope; size <= maxBlockSize; every
//                  phase of the kernel keeps the same :b sizes; no conflict
//                  between threads of one phase (the phase rule,
//                  Analysis/Concurrency.h: threads of different phases are
//                  ordered by barriers, threads of one phase conflict in
//                  any iterations of the sequential scopes around it).
//   set_gpu_warp   inside a block scope, enclosing no grid, block or parallel
//                  scope; size = warpSize; no conflict across iterations.
//   All but set_unroll and set_vector are refused inside a `:u` scope.
//   The conflict test runs with the new mode in place: a `:p` or GPU mode
//   privatizes the stack/reg/gpu_* temporaries whose accesses all lie in
//   its iterations and whose reads are covered per iteration
//   (getPrivatizingScope, Analysis/Privatization.h); such a buffer gets a
//   copy per iteration and creates no conflict. Heap buffers are shared.
//   Every mode is an invariant: verifyConcurrentScopes re-runs the conflict
//   test of every :p, :v and GPU scope, and verifyBlockShapes the block
//   shape of every GPU kernel, on the result of every later move (Move.cpp
//   post-verification).
//   clear_mode     always keeps results; refused where it would break the
//                  GPU nesting (a grid above blocks, a block above warps).
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"
#include "perfdojo/Analysis/Concurrency.h"
#include "perfdojo/Dialect/Dojo/IR/TextSyntax.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {

bool isGpu(Mode m) {
  return m == Mode::gpu_grid || m == Mode::gpu_block || m == Mode::gpu_warp;
}

/// The nearest enclosing scope whose mode satisfies `pred`.
ScopeOp findAncestor(ScopeOp scope, function_ref<bool(Mode)> pred) {
  for (auto p = scope->getParentOfType<ScopeOp>(); p;
       p = p->getParentOfType<ScopeOp>())
    if (pred(p.getMode()))
      return p;
  return {};
}

/// The first scope strictly inside `scope` whose mode satisfies `pred`.
ScopeOp findDescendant(ScopeOp scope, function_ref<bool(Mode)> pred) {
  ScopeOp found;
  scope.getBody().walk([&](ScopeOp inner) {
    if (!pred(inner.getMode()))
      return WalkResult::advance();
    found = inner;
    return WalkResult::interrupt();
  });
  return found;
}

std::string suffixOf(Mode m) { return ":" + getModeSuffix(m).str(); }

/// The failure for two phases of one kernel with different block shapes,
/// with notes on both phases.
DiagnosedSilenceableFailure
failBlockShapes(const MoveRequest &request, Location errorLoc,
                const Twine &prefix, const BlockShapeMismatch &mismatch) {
  auto phaseOf = [](LeafOp leaf) {
    ScopeOp block;
    for (auto p = leaf->getParentOfType<ScopeOp>(); p && !block;
         p = p->getParentOfType<ScopeOp>())
      if (p.getMode() == Mode::gpu_block)
        block = p;
    return getPhaseRoot(block);
  };
  DiagnosedSilenceableFailure d =
      fail(request, errorLoc,
           prefix + "different :b sizes: " + mismatch.describe() +
               " (a block has one shape per launch)");
  d.attachNote(phaseOf(mismatch.leaf).getLoc()) << "this phase";
  d.attachNote(phaseOf(mismatch.other).getLoc()) << "the other phase";
  return d;
}

class SetMode final : public Move {
public:
  SetMode(Mode mode, StringRef name, StringRef summary)
      : mode(mode), name(name), summary(summary) {}
  StringRef getName() const override { return name; }
  StringRef getSummary() const override { return summary; }

  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    for (ScopeOp scope : collectScopes(state.getKernel()))
      if (scope.getMode() == Mode::seq)
        out.push_back({name.str(), getNodeSelector(scope), {}});
  }

  DiagnosedSilenceableFailure check(MoveState &state,
                                    const MoveRequest &request,
                                    Location errorLoc) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    Operation *node = resolveNodeRequest(state, request, 0, errorLoc, diag);
    if (!node)
      return diag;
    auto scope = dyn_cast<ScopeOp>(node);
    auto failAt = [&](Operation *at, const Twine &message, StringRef what) {
      DiagnosedSilenceableFailure d = fail(request, errorLoc, message);
      d.attachNote(at->getLoc()) << what;
      return d;
    };
    if (!scope)
      return failAt(node, "modes are set on scopes, not leaves", "the leaf");
    if (scope.getMode() != Mode::seq)
      return failAt(scope,
                    "the scope already has mode " + suffixOf(scope.getMode()) +
                        "; clear it first",
                    "the scope");
    const MoveOptions &options = state.getOptions();
    auto parallelOrGpu = [](Mode m) { return m == Mode::parallel || isGpu(m); };
    int64_t size = scope.getSize();
    // Unrolled scopes are replicated code: no threads may start inside.
    if (mode != Mode::unroll && mode != Mode::vector)
      if (ScopeOp outer =
              findAncestor(scope, [](Mode m) { return m == Mode::unroll; }))
        return failAt(outer,
                      "the scope is inside an unrolled scope, which cannot "
                      "enclose parallel or GPU scopes",
                      "enclosing scope");

    switch (mode) {
    case Mode::unroll:
      if (size > options.unrollLimit)
        return failAt(scope,
                      "scope size " + Twine(size) + " exceeds the unroll "
                      "limit " + Twine(options.unrollLimit),
                      "the scope");
      if (ScopeOp inner = findDescendant(scope, parallelOrGpu))
        return failAt(inner, "an unrolled scope cannot enclose a parallel "
                             "or GPU scope",
                      "this scope");
      return DiagnosedSilenceableFailure::success();
    case Mode::parallel:
      if (ScopeOp outer = findAncestor(scope, parallelOrGpu))
        return failAt(outer, "the scope is already inside a parallel or GPU "
                             "scope",
                      "enclosing scope");
      if (ScopeOp inner = findDescendant(scope, parallelOrGpu))
        return failAt(inner, "the scope encloses a parallel or GPU scope",
                      "this scope");
      break;
    case Mode::vector:
      if (std::optional<DiagnosedSilenceableFailure> bad =
              checkVectorShape(state, request, errorLoc, scope))
        return std::move(*bad);
      break;
    case Mode::gpu_grid:
      if (ScopeOp outer = findAncestor(scope, [](Mode m) {
            return m == Mode::gpu_block || m == Mode::gpu_warp ||
                   m == Mode::parallel;
          }))
        return failAt(outer, "a grid scope cannot be inside a block, warp or "
                             "parallel scope",
                      "enclosing scope");
      if (ScopeOp inner = findDescendant(
              scope, [](Mode m) { return m == Mode::parallel; }))
        return failAt(inner, "a grid scope cannot enclose a parallel scope",
                      "this scope");
      break;
    case Mode::gpu_block:
      if (!findAncestor(scope, [](Mode m) { return m == Mode::gpu_grid; }))
        return failAt(scope, "a block scope must be inside a grid scope (:g)",
                      "the scope");
      if (ScopeOp outer = findAncestor(
              scope, [](Mode m) { return m == Mode::gpu_warp; }))
        return failAt(outer, "a block scope cannot be inside a warp scope",
                      "enclosing scope");
      if (ScopeOp inner = findDescendant(scope, [](Mode m) {
            return m == Mode::gpu_grid || m == Mode::parallel;
          }))
        return failAt(inner, "a block scope cannot enclose a grid or "
                             "parallel scope",
                      "this scope");
      if (size > options.maxBlockSize)
        return failAt(scope,
                      "scope size " + Twine(size) + " exceeds " +
                          Twine(options.maxBlockSize) + " threads per block",
                      "the scope");
      break;
    case Mode::gpu_warp:
      if (!findAncestor(scope, [](Mode m) { return m == Mode::gpu_block; }))
        return failAt(scope, "a warp scope must be inside a block scope (:b)",
                      "the scope");
      if (ScopeOp inner = findDescendant(scope, [](Mode m) {
            return m == Mode::gpu_grid || m == Mode::gpu_block ||
                   m == Mode::parallel;
          }))
        return failAt(inner, "a warp scope cannot enclose a grid, block or "
                             "parallel scope",
                      "this scope");
      if (size != options.warpSize)
        return failAt(scope,
                      "a warp scope must have the warp size " +
                          Twine(options.warpSize) + ", not " + Twine(size),
                      "the scope");
      break;
    case Mode::seq:
      llvm_unreachable("seq is cleared with clear_mode");
    }

    // Iterations (or lanes) run concurrently: no two may conflict, and
    // reductions into one element race. The mode itself can privatize
    // buffers (a stack temporary per `:p` iteration, Privatization.h), so
    // the test runs on a copy that has it.
    OwningOpRef<KernelOp> copy = state.getKernel().clone();
    auto copyScope = cast<ScopeOp>(*resolveNode(*copy, request.location));
    copyScope.setMode(mode);
    // One block shape per launch: every phase of the kernel agrees.
    if (mode == Mode::gpu_block)
      if (std::optional<BlockShapeMismatch> mismatch =
              findBlockShapeMismatch(*copy))
        return failBlockShapes(request, errorLoc,
                               "the phases of the kernel would have ",
                               *mismatch);
    MoveState copyState(*copy, options);
    if (std::optional<Conflict> conflict =
            findConcurrencyConflict(copyState, copyScope)) {
      DiagnosedSilenceableFailure d =
          fail(request, errorLoc,
               "two iterations of the scope would run concurrently and "
               "conflict: " +
                   conflict->describe());
      d.attachNote(conflict->first.getLoc()) << "this leaf";
      d.attachNote(conflict->second.getLoc()) << "conflicts with this leaf";
      return d;
    }
    return DiagnosedSilenceableFailure::success();
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    ScopeOp scope = getRequestScope(state, request);
    scope.setMode(mode);
    return {"clear_mode", request.location, {}};
  }

private:
  /// Shape conditions of `:v`: the failure to report, or nullopt if fine.
  std::optional<DiagnosedSilenceableFailure>
  checkVectorShape(MoveState &state, const MoveRequest &request,
                   Location errorLoc, ScopeOp scope) const {
    auto leaf = dyn_cast<LeafOp>(scope.getBlock().front());
    if (!leaf || !llvm::hasSingleElement(scope.getBlock())) {
      DiagnosedSilenceableFailure d =
          fail(request, errorLoc,
               "a vector scope must hold exactly one leaf and nothing else");
      d.attachNote(scope.getLoc()) << "the scope";
      return std::move(d);
    }
    BufferOp out = state.getKernel().lookupArray(leaf.getArray());
    Type type = out.getElementType();
    int64_t bytes = (type.getIntOrFloatBitWidth() + 7) / 8;
    int64_t lanes = state.getOptions().vectorBytes / bytes;
    if (static_cast<int64_t>(scope.getSize()) != lanes) {
      std::string typeName;
      llvm::raw_string_ostream(typeName) << type;
      DiagnosedSilenceableFailure d =
          fail(request, errorLoc,
               "vector scope size " + Twine(scope.getSize()) +
                   " does not match the vector width: " + Twine(lanes) + " " +
                   typeName + " lanes in " +
                   Twine(state.getOptions().vectorBytes) + " bytes");
      d.attachNote(scope.getLoc()) << "the scope";
      return std::move(d);
    }
    unsigned d = scope.getDepth();
    KernelOp kernel = state.getKernel();
    auto forms = [](AffineMap map) {
      SmallVector<LinearForm, 4> out;
      for (AffineExpr e : map.getResults())
        out.push_back(*getLinearForm(e));
      return out;
    };
    // The output first, then every operand access, in the physical layout.
    SmallVector<std::pair<StringRef, AffineMap>, 3> accesses = {
        {leaf.getArray(), leaf.getIndices()}};
    for (Attribute input : leaf.getInputs())
      if (auto access = dyn_cast<AccessAttr>(input))
        accesses.push_back({access.getArray().getValue(), access.getIndices()});
    for (auto [i, access] : llvm::enumerate(accesses)) {
      auto [array, map] = access;
      int64_t stride =
          getStrideAlong(kernel.lookupArray(array), forms(map), d);
      bool isOutput = i == 0;
      if (stride == 1 || (!isOutput && stride == 0))
        continue;
      DiagnosedSilenceableFailure diag = fail(
          request, errorLoc,
          (isOutput ? "the output '" : "operand '") + array + "' moves by " +
              Twine(stride) + " element(s) per lane; " +
              (isOutput ? "vector stores need stride 1"
                        : "vector loads need stride 0 or 1"));
      diag.attachNote(leaf.getLoc()) << "the leaf";
      return std::move(diag);
    }
    return std::nullopt;
  }

  Mode mode;
  StringRef name, summary;
};

class ClearMode final : public Move {
public:
  StringRef getName() const override { return "clear_mode"; }
  StringRef getSummary() const override {
    return "make a scope plain again (inverse of every set_* move)";
  }

  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    for (ScopeOp scope : collectScopes(state.getKernel()))
      if (scope.getMode() != Mode::seq)
        out.push_back({getName().str(), getNodeSelector(scope), {}});
  }

  DiagnosedSilenceableFailure check(MoveState &state,
                                    const MoveRequest &request,
                                    Location errorLoc) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    Operation *node = resolveNodeRequest(state, request, 0, errorLoc, diag);
    if (!node)
      return diag;
    auto scope = dyn_cast<ScopeOp>(node);
    if (!scope || scope.getMode() == Mode::seq)
      return failWithNote(request, errorLoc,
                          "the node is not a scope with a mode", node,
                          "this node");
    Mode needed = scope.getMode() == Mode::gpu_grid    ? Mode::gpu_block
                  : scope.getMode() == Mode::gpu_block ? Mode::gpu_warp
                                                       : Mode::seq;
    // A block needs some grid around it, a warp some block: refuse only if
    // this scope is the one that provides it.
    if (needed != Mode::seq) {
      Mode provided = scope.getMode();
      ScopeOp orphan;
      scope.getBody().walk([&](ScopeOp inner) {
        if (inner.getMode() != needed)
          return WalkResult::advance();
        for (auto p = inner->getParentOfType<ScopeOp>(); p;
             p = p->getParentOfType<ScopeOp>())
          if (p != scope && p.getMode() == provided)
            return WalkResult::advance();
        orphan = inner;
        return WalkResult::interrupt();
      });
      if (orphan)
        return failWithNote(request, errorLoc,
                            "the scope encloses a " + suffixOf(needed) +
                                " scope that needs it; clear that one first",
                            orphan, "this scope");
    }
    return DiagnosedSilenceableFailure::success();
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    ScopeOp scope = getRequestScope(state, request);
    Mode old = scope.getMode();
    scope.setMode(Mode::seq);
    return {("set_" + stringifyMode(old)).str(), request.location, {}};
  }
};
} // namespace

bool perfdojo::moves::isConcurrentMode(Mode mode) {
  return mode == Mode::parallel || mode == Mode::vector || isGpu(mode);
}

std::optional<Conflict> perfdojo::moves::findConcurrencyConflict(
    MoveState &state, ScopeOp scope) {
  ConcurrencyQuery query = getConcurrencyQuery(scope);
  return state.getDependences().findConflict(
      query.leaves, query.leaves, query.relations,
      DependenceOptions{state.getOptions().reassociate, /*concurrency=*/true});
}

DiagnosedSilenceableFailure
perfdojo::moves::verifyBlockShapes(KernelOp kernel, const MoveRequest &request,
                                   Location errorLoc) {
  if (std::optional<BlockShapeMismatch> mismatch =
          findBlockShapeMismatch(kernel))
    return failBlockShapes(request, errorLoc,
                           "the result would give the phases of a kernel ",
                           *mismatch);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure perfdojo::moves::verifyConcurrentScopes(
    KernelOp kernel, const MoveRequest &request, Location errorLoc,
    const MoveOptions &options) {
  MoveState state(kernel, options);
  for (ScopeOp scope : collectScopes(kernel)) {
    if (!isConcurrentMode(scope.getMode()))
      continue;
    std::optional<Conflict> conflict = findConcurrencyConflict(state, scope);
    if (!conflict)
      continue;
    DiagnosedSilenceableFailure d =
        fail(request, errorLoc,
             "the result would make the " + suffixOf(scope.getMode()) +
                 " scope race: two of its iterations conflict: " +
                 conflict->describe());
    d.attachNote(scope.getLoc()) << "the scope";
    d.attachNote(conflict->first.getLoc()) << "this leaf";
    d.attachNote(conflict->second.getLoc()) << "conflicts with this leaf";
    return d;
  }
  return DiagnosedSilenceableFailure::success();
}

#define PERFDOJO_SET_MODE(FN, MODE, NAME, SUMMARY)                             \
  const Move *perfdojo::moves::FN() {                                          \
    static SetMode move(Mode::MODE, NAME, SUMMARY);                            \
    return &move;                                                              \
  }
PERFDOJO_SET_MODE(getSetUnrollMove, unroll, "set_unroll",
                  "unroll a small scope completely (:u)")
PERFDOJO_SET_MODE(getSetParallelMove, parallel, "set_parallel",
                  "run a scope's iterations on CPU threads (:p)")
PERFDOJO_SET_MODE(getSetVectorMove, vector, "set_vector",
                  "run a single-leaf scope as one SIMD operation (:v)")
PERFDOJO_SET_MODE(getSetGpuGridMove, gpu_grid, "set_gpu_grid",
                  "map a scope to GPU thread blocks (:g)")
PERFDOJO_SET_MODE(getSetGpuBlockMove, gpu_block, "set_gpu_block",
                  "map a scope to threads of a block (:b)")
PERFDOJO_SET_MODE(getSetGpuWarpMove, gpu_warp, "set_gpu_warp",
                  "map a scope to the lanes of a warp (:w)")
#undef PERFDOJO_SET_MODE

const Move *perfdojo::moves::getClearModeMove() {
  return getMoveInstance<ClearMode>();
}
