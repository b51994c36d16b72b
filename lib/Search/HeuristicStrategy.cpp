//===- HeuristicStrategy.cpp - the expert passes --------------------------===//
//
// On a Snitch target, the naive rules then the Snitch expert rules
// (SnitchExpertRules.h), and the naive rules then the greedy rules as a
// second candidate; the faster wins. On a GPU target, the GPU expert rules
// (GpuExpertRules.h). On a CPU, the
// rules an expert applies on a vector CPU, each through legal moves only
// (an illegal rule application is skipped):
//
//   0. register blocking (RegisterBlocking.h), for every reduction leaf
//      whose output index misses the reduction variables and whose last
//      output index is a stride-1 variable (matmul, bmm, convolutions):
//      lanes along that variable (split by W; a remainder that is not a
//      multiple of W is cut off into a tile of scalar accumulators), u
//      vectors and r rows (another output variable, preferably one the
//      stride-1 operands do not use) unrolled, the reduction scopes moved
//      outside the tile (swap_nested_scopes), the initialization `c = 0`
//      in its own vectorized, unrolled copy of the tile right before the
//      reduction; optionally the first reduction scope cache-tiled (its
//      panel of the stride-1 operand within a budget, over a panel of the
//      columns where all of them would not fit);
//   1. fuse: join adjacent scopes wherever legal, swapping siblings or the
//      order of nested scopes when that enables a fusion, except two
//      reduction loops of register tiles (their accumulators would spill);
//   2. vectorize: split every innermost scope whose size is a multiple of
//      the vector width W (vector bytes / element bytes) by W, after
//      cutting a longer one that is not into a multiple of W and a
//      remainder; cut a remainder (or a scope narrower than W) that could
//      be vectorized into narrow powers of two down to max(2, W/4) lanes
//      (12 f32 lanes: 8 and 4; what is left stays scalar); separate the
//      leaves of each lane scope, make each a `:v` scope; a reduction that
//      cannot be vectorized directly gets lane accumulators
//      (privatize_reduction), whose combine scope is unrolled; an
//      accumulator sums at most kMaxTermsPerAccumulator terms, so a longer
//      reduction gets lanes per block whose combine gets lanes once more
//      (a long scope without a boundary for such blocks, one long row, is
//      first split by its largest divisor that makes one: getBlockSplit);
//   3. memory: reuse buffer dimensions until exhaustion, then move internal
//      buffers to registers (else the stack) where they fit;
//   4. parallelize every top-level scope that can run in parallel (through
//      an illegal one, to its only child scope; through a single-iteration
//      one, to each of its child scopes);
//   5. on every finished candidate, the internal destinations of transposing
//      vector copies blocked by the copy's lanes (LaneBlocking.h), and the
//      copies chained (TransposingChains.h) so that they move through
//      registers.
//
// Deterministic candidates, each distinct program evaluated once: the
// original; when the kernel has a blocking site, rules 0-4 with seven
// variants of rule 0 (the best-ranked tile with row tiles outside column
// tiles, the same with column tiles outside, the second- and third-ranked
// tiles, the best tile with the reduction cache-tiled, the best tile whose
// rows divide the row scope, cache-tiled, and the best tile with its row
// tiles among the outer scopes in the output's dimension order); where a
// site's lanes are narrower than a vector or leave a remainder, the relayout
// for lanes (RegisterBlocking.h relayoutForLanes) then rules 0-4 (the best
// tile, cache-tiled and the same with the relayout's copies packed slab by
// slab inside the cache tile's loop (TilePacking.h), with the column tiles
// outermost, and the best tile whose operands fit the registers with its
// accumulators); rules 1-4 alone; that program with its large outputs
// non-temporal (streamOutputs); for a kernel without a blocking site, rules
// 1-4 with the nests of each short top-level scope parallel instead of it,
// before rule 2 (InnerParallelism.h); and rules 1-4 with the rows of each row
// reduction interleaved after rule 2 (RowInterleaving.h).
// The fastest valid one is the result; without timing (the `dojo-heuristic`
// pass, RuleCandidates.h) the first one is.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Search/RuleCandidates.h"
#include "perfdojo/Search/Strategies.h"

#include "perfdojo/Dialect/Dojo/IR/PhysicalLayout.h"
#include "perfdojo/Moves/Selector.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"
#include "perfdojo/Support/Divisors.h"
#include "perfdojo/Support/SaturatingArithmetic.h"

#include "perfdojo/Search/GpuExpertRules.h"
#include "perfdojo/Search/SnitchExpertRules.h"
#include "InnerParallelism.h"
#include "LaneBlocking.h"
#include "MoveRules.h"
#include "RegisterBlocking.h"
#include "RowInterleaving.h"
#include "TilePacking.h"
#include "TransposingChains.h"

#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <vector>

using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::heuristic;

namespace {

/// Upper bound on rule applications per phase: a guard against a rule that
/// keeps applying, never reached by a terminating rule set.
constexpr unsigned kMaxSteps = 400;

bool hasOnlyLeaves(ScopeOp scope) {
  return llvm::all_of(scope.getBlock(),
                      [](mlir::Operation &op) { return llvm::isa<LeafOp>(op); });
}

/// Whether the reduction of `leaf` also runs over the scope enclosing its
/// lane scope `lanes` (that scope's variable is not in the output index).
bool continuesOutside(LeafOp leaf, ScopeOp lanes) {
  auto parent = llvm::dyn_cast<ScopeOp>(lanes->getParentOp());
  if (!parent)
    return false;
  return !usesDepth(leaf.getIndices(), getNodeDepth(parent));
}

/// The most terms one lane accumulator sums. f32 keeps 24 bits: a chain of
/// 2^12 same-signed terms loses at most about 2^-12 of its value, while the
/// 2M-term chains of a 33.5M-element channel sum (a large batchnorm) drift
/// by 1e-3 and more. A longer reduction accumulates per block (a row) and
/// combines the blocks' partials in lane accumulators of their own.
constexpr int64_t kMaxTermsPerAccumulator = int64_t(1) << 12;

/// Terms each lane accumulator sums when privatize_reduction places the
/// accumulators of the lane scope `lanes` before its depth-`d` ancestor:
/// the iterations of the scopes from depth d down to the lanes' parent.
int64_t getTermsPerAccumulator(ScopeOp lanes, unsigned d) {
  int64_t terms = 1;
  for (auto scope = llvm::dyn_cast<ScopeOp>(lanes->getParentOp());
       scope && getNodeDepth(scope) >= d;
       scope = llvm::dyn_cast<ScopeOp>(scope->getParentOp()))
    terms = saturatingMul(terms, scope.getSize());
  return terms;
}

/// Blocks of fewer terms than this make their combine a large share of the
/// reduction's work (one more vector add per block: over 6%).
constexpr int64_t kMinTermsPerBlock = 16;

/// Where the reduction of the lane scope `lanes` has no scope boundary that
/// bounds its blocks usefully (the outermost placement within
/// kMaxTermsPerAccumulator terms sums fewer than kMinTermsPerBlock, the
/// reduction scope above it many more: one row of a million elements,
/// 62500 vectors, would otherwise accumulate one term per block and
/// combine 62500), the split of the scope above by its largest divisor
/// that keeps the blocks within the bound (62500 = 20 x 3125: blocks of
/// 3125 terms).
std::optional<MoveRequest> getBlockSplit(ScopeOp lanes) {
  unsigned e = getNodeDepth(lanes);
  for (unsigned d = 0; d <= e; ++d) {
    int64_t terms = getTermsPerAccumulator(lanes, d);
    if (terms > kMaxTermsPerAccumulator)
      continue;
    if (d == 0 || terms >= kMinTermsPerBlock)
      return std::nullopt;
    auto above = llvm::dyn_cast<ScopeOp>(getAncestorAtDepth(lanes, d - 1));
    auto leaf = llvm::cast<LeafOp>(lanes.getBlock().front());
    if (!above || above.getMode() != Mode::seq ||
        usesDepth(leaf.getIndices(), d - 1))
      return std::nullopt;
    int64_t best = 0;
    for (int64_t f : getProperDivisors(above.getSize()))
      if (saturatingMul(terms, f) <= kMaxTermsPerAccumulator)
        best = f;
    if (saturatingMul(terms, best) < kMinTermsPerBlock)
      return std::nullopt;
    return makeMove(MoveKind::SplitScope, getNodeSelector(above), {best});
  }
  return std::nullopt;
}

/// The placements privatize_reduction is tried at for the lane scope
/// `lanes` (at depth e), in order: outermost first (the fewest combines),
/// except that with `bounded` the outermost placement whose accumulators
/// sum at most kMaxTermsPerAccumulator terms comes first.
std::vector<unsigned> getPrivatizationDepths(ScopeOp lanes, bool bounded) {
  unsigned e = getNodeDepth(lanes);
  std::vector<unsigned> depths;
  for (unsigned d = 0; d <= e; ++d)
    depths.push_back(d);
  if (bounded) {
    auto first = llvm::find_if(depths, [&](unsigned d) {
      return getTermsPerAccumulator(lanes, d) <= kMaxTermsPerAccumulator;
    });
    std::rotate(depths.begin(), first, depths.end());
  }
  return depths;
}

/// Whether every array `leaf` reads is one of `arrays` (and it reads one).
bool readsOnly(LeafOp leaf, const llvm::StringSet<> &arrays) {
  bool any = false;
  for (mlir::Attribute input : leaf.getInputs()) {
    auto access = llvm::dyn_cast<AccessAttr>(input);
    if (!access)
      continue;
    if (!arrays.contains(access.getArray().getValue()))
      return false;
    any = true;
  }
  return any;
}

/// Whether the lanes of `scope` (its innermost, only-leaf body) could be
/// a vector: the output is written at stride 1 along the scope, or, as a
/// reduction, does not depend on it (lane accumulators then apply).
bool mayVectorize(LeafOp leaf, ScopeOp scope) {
  unsigned depth = getNodeDepth(scope);
  if (!usesDepth(leaf.getIndices(), depth))
    return leaf.getReduce() != ReduceKind::none;
  return isUnitStride(leaf.getIndices(), depth);
}

void fuse(Game &game) {
  fuseScopes(
      game,
      [&](const MoveRequest &join) { return !joinsRegisterTiles(game, join); },
      [&](const MoveRequest &swap) {
        return swap.getKind() != MoveKind::SwapNestedScopes ||
               !swapsRegisterTileReduction(game, swap);
      });
}

void vectorize(Game &game, const MoveOptions &options) {
  llvm::StringSet<> refused;
  // Lane accumulators made by privatize_reduction: a reduction reading
  // only these is a combine, which is unrolled, never privatized again
  // (a combine left inside a loop would otherwise privatize forever).
  llvm::StringSet<> accumulators;
  // Accumulators of a reduction that continues outside their placement
  // (its chain cut at kMaxTermsPerAccumulator terms): their combine is
  // privatized once more, into lanes that sum the blocks' partials.
  llvm::StringSet<> blocked;
  bool nextIsBlocked = false;
  for (unsigned step = 0; step < kMaxSteps; ++step) {
    KernelOp kernel = game.getKernel();
    std::optional<MoveRequest> next;
    // Prefer finishing W-scopes (separate, vectorize, privatize, unroll)
    // before splitting more scopes.
    kernel.walk([&](ScopeOp scope) {
      if (next || scope.getMode() != Mode::seq || !hasOnlyLeaves(scope))
        return;
      auto leaf = llvm::cast<LeafOp>(scope.getBlock().front());
      if (!isLaneCount(kernel, leaf, scope.getSize(), options))
        return;
      std::string selector = getNodeSelector(scope);
      if (!llvm::hasSingleElement(scope.getBlock())) {
        MoveRequest split = makeMove(
            MoveKind::SplitOff, getPathSelector(leaf, getNodeDepth(scope)));
        if (!refused.contains(split.str()))
          next = split;
        return;
      }
      MoveRequest vector = makeMove(MoveKind::SetVector, selector);
      if (!refused.contains(vector.str())) {
        next = vector;
        return;
      }
      if (leaf.getReduce() == ReduceKind::none)
        return;
      // A reduction across the lanes that continues in the enclosing
      // scope gets one accumulator per lane (init and combine placed
      // around the outermost scope they can be); one that ends with the
      // lanes (the combine of such accumulators) is unrolled.
      bool combinesBlocks = readsOnly(leaf, blocked);
      if (continuesOutside(leaf, scope) &&
          (!readsOnly(leaf, accumulators) || combinesBlocks)) {
        if (!combinesBlocks)
          if (std::optional<MoveRequest> split = getBlockSplit(scope);
              split && !refused.contains(split->str())) {
            next = split;
            return;
          }
        for (unsigned d : getPrivatizationDepths(scope, !combinesBlocks)) {
          MoveRequest move = makeMove(MoveKind::PrivatizeReduction, selector, {d});
          if (refused.contains(move.str()))
            continue;
          next = move;
          // The reduction continues across the scope the accumulators
          // are placed in: their combine is a reduction of its own.
          nextIsBlocked = !combinesBlocks && d > 0 &&
                          !usesDepth(leaf.getIndices(), d - 1);
          break;
        }
      }
      MoveRequest unroll = makeMove(MoveKind::SetUnroll, selector);
      if (!next && !refused.contains(unroll.str()))
        next = unroll;
    });
    if (!next) {
      // Split an innermost scope by the vector width; one whose size is
      // not a multiple of it is first cut into a multiple and a
      // remainder, and a remainder into narrow vectors (12 f32 lanes: 8
      // and 4), down to the narrowest the heuristic uses.
      kernel.walk([&](ScopeOp scope) {
        if (next || scope.getMode() != Mode::seq || !hasOnlyLeaves(scope))
          return;
        auto leaf = llvm::cast<LeafOp>(scope.getBlock().front());
        int64_t width = getVectorLanes(kernel, leaf, options);
        int64_t size = scope.getSize();
        if (width <= 1 || isLaneCount(kernel, leaf, size, options))
          return;
        std::optional<MoveRequest> move;
        if (size > width)
          move = size % width == 0
                     ? makeMove(MoveKind::SplitScope, getNodeSelector(scope),
                                {width})
                     : makeMove(MoveKind::CutScope, getNodeSelector(scope),
                                {size / width * width});
        else if (int64_t narrow = getNarrowLanes(kernel, leaf, size, options);
                 narrow && mayVectorize(leaf, scope))
          move = makeMove(MoveKind::CutScope, getNodeSelector(scope), {narrow});
        if (!move)
          return;
        if (!refused.contains(move->str()))
          next = move;
      });
    }
    if (!next)
      return;
    bool privatizes = next->getKind() == MoveKind::PrivatizeReduction;
    llvm::StringSet<> before;
    if (privatizes)
      before = getBufferNames(game.getKernel());
    if (!tryApply(game, *next)) {
      refused.insert(next->str());
      continue;
    }
    if (privatizes)
      for (const auto &name : getBufferNames(game.getKernel()))
        if (!before.contains(name.getKey())) {
          accumulators.insert(name.getKey());
          if (nextIsBlocked)
            blocked.insert(name.getKey());
        }
    // The tree changed: refusals may no longer hold (selectors shift).
    refused.clear();
  }
}

void placeMemory(Game &game) {
  applyUntilExhausted(
      game,
      [](const MoveRequest &m) { return m.getKind() == MoveKind::ReuseDims; },
      kMaxSteps);
  placeInternalBuffers(game);
}

/// `set_parallel` on the scope `selector` names; where that is illegal, on
/// its only child scope, and so on. A single-iteration scope has no
/// parallelism of its own: each of its child scopes is parallelized instead
/// (a batch of one holding several nests, say), each a parallel region of
/// its own but entered once.
void parallelizeNest(Game &game, const std::string &selector) {
  auto node = resolveNode(game.getKernel(), selector);
  if (!node) {
    llvm::consumeError(node.takeError());
    return;
  }
  auto scope = llvm::dyn_cast<ScopeOp>(*node);
  while (scope && scope.getMode() == Mode::seq) {
    if (scope.getSize() == 1) {
      llvm::SmallVector<std::string> children;
      for (mlir::Operation &op : scope.getBlock())
        if (auto child = llvm::dyn_cast<ScopeOp>(op))
          children.push_back(getNodeSelector(child));
      // Setting a mode moves no node: the selectors stay valid.
      for (const std::string &child : children)
        parallelizeNest(game, child);
      return;
    }
    if (tryApply(game, makeMove(MoveKind::SetParallel, getNodeSelector(scope))))
      return;
    if (!llvm::hasSingleElement(scope.getBlock()))
      return;
    scope = llvm::dyn_cast<ScopeOp>(scope.getBlock().front());
  }
}

/// Outputs smaller than this stay cached: a consumer may read them soon,
/// and below a core's private caches the write-back is hidden anyway.
constexpr int64_t kStreamingBytes = int64_t(1) << 20;

/// `set_nontemporal` on every output of at least kStreamingBytes that the
/// move offers (one a `:v` leaf writes): its stores then skip reading each
/// line before writing it. Whether that pays depends on the machine and
/// on what reads the output next, so it is a candidate of its own, timed
/// against the cached stores. False if no output qualifies.
bool streamOutputs(Game &game) {
  bool any = false;
  applyUntilExhausted(game, [&](const MoveRequest &move) {
    if (move.getKind() != MoveKind::SetNontemporal)
      return false;
    BufferOp buffer = game.getKernel().lookupArray(move.location);
    int64_t bytes =
        buffer ? getStorageElements(buffer) * getElementBytes(buffer) : 0;
    bool large = bytes >= kStreamingBytes;
    any |= large;
    return large;
  });
  return any;
}

/// `parallelizeNest` on every top-level scope.
void parallelize(Game &game) {
  llvm::SmallVector<std::string> tops;
  for (mlir::Operation &op : game.getKernel().getBlock())
    if (auto scope = llvm::dyn_cast<ScopeOp>(op))
      tops.push_back(getNodeSelector(scope));
  for (const std::string &selector : tops)
    parallelizeNest(game, selector);
}
class HeuristicStrategy : public Strategy {
public:
  llvm::StringRef getName() const override { return "heuristic"; }
  void run(SearchContext &context) override {
    context.evaluate({});
    // Independent candidates: up to --jobs of them compile at once.
    context.evaluateBatch(proposeHeuristicCandidates(
        context.getOriginal(), context.getMoveOptions()));
  }
};
} // namespace

std::vector<MoveSequence>
perfdojo::proposeHeuristicCandidates(KernelOp original,
                                     const MoveOptions &options,
                                     unsigned maxCandidates) {
  std::vector<MoveSequence> candidates;
  auto full = [&] {
    return maxCandidates && candidates.size() >= maxCandidates;
  };
  llvm::StringSet<> programs;
  auto propose = [&](Game &game) {
    if (!game.history().empty() && programs.insert(game.print()).second)
      candidates.emplace_back(game.history().begin(), game.history().end());
  };
  if (isSnitchTarget(options.target)) {
    // Snitch: naive, then its expert rules (SnitchExpertRules.h); the
    // greedy rules alone are the second candidate, since interleaving a
    // short reduction can cost more than the latency it hides.
    for (bool interleave : {true, false}) {
      if (full())
        break;
      Game game(original, options);
      applyNaiveRules(game);
      if (interleave)
        applySnitchExpertRules(game);
      else
        applySnitchGreedyRules(game);
      propose(game);
    }
    return candidates;
  }
  if (options.target.supports(Mode::gpu_grid) &&
      !options.target.supports(Mode::parallel)) {
    // A GPU: its own rules (GpuExpertRules.h), one program per variant
    // (tile shapes, block widths).
    for (const GpuExpertVariant &variant : getGpuExpertVariants()) {
      if (full())
        break;
      Game game(original, options);
      applyGpuExpertRules(game, options.target, variant);
      propose(game);
    }
    return candidates;
  }
  // A CPU: the register-blocking variants (when the kernel has a site),
  // then the plain pass.
  auto applyRules = [&](Game &game) {
    fuse(game);
    vectorize(game, options);
    placeMemory(game);
    parallelize(game);
  };
  // A CPU candidate is proposed with its transposing copies writing blocks
  // (LaneBlocking.h) and chained (TransposingChains.h); the game goes on
  // from the program before.
  auto proposeCpu = [&](Game &game) {
    size_t mark = game.history().size();
    blockTransposedDestinations(game, options.target);
    chainTransposingCopies(game, options.target);
    propose(game);
    undoTo(game, mark);
  };
  auto finish = [&](Game &game) {
    applyRules(game);
    proposeCpu(game);
  };
  std::vector<BlockSite> sites = findBlockSites(original, options);
  if (!sites.empty()) {
    // The sixth variant differs from the fourth only where the best tile
    // leaves remainder rows: a taller tile's reuse does not always pay
    // for the remainder's tile (timed, not guessed).
    llvm::SmallVector<BlockVariant> variants = {
        {0, false, false, false}, {0, true, false, false},
        {1, false, false, false}, {0, false, true, false},
        {2, false, false, false}, {0, false, true, true},
        {0, false, false, false, false, false, /*outputOrder=*/true},
        {0, false, false, false, false, false, false, /*wholePanel=*/true}};
    for (const BlockVariant &variant : variants) {
      if (full())
        return candidates;
      Game game(original, options);
      bool blocked = false;
      // Later sites first: a cut duplicates the blocked leaf, which
      // renumbers the later writers of its array.
      for (const BlockSite &site : llvm::reverse(sites))
        blocked |= blockSite(game, site, variant, options);
      if (blocked)
        finish(game);
    }
  }
  // Sites whose lanes are narrower than a vector or leave a scalar
  // remainder: the kernel relayouted so that another output variable
  // carries the lanes, then blocked (the best tile, and cache-tiled).
  if (llvm::any_of(sites, [](const BlockSite &s) {
        return s.width == 1 || s.laneMain != s.sizes[s.lane];
      })) {
    for (const BlockVariant &variant :
         {BlockVariant{0, false, false, false},
          BlockVariant{0, false, true, false},
          BlockVariant{0, false, false, false, /*columnsOutermost=*/true},
          BlockVariant{0, false, false, false, false,
                       /*operandsInRegisters=*/true}}) {
      if (full())
        return candidates;
      Game game(original, options);
      if (!relayoutForLanes(game, options))
        break;
      bool blocked = false;
      std::vector<BlockSite> relaid = findBlockSites(game.getKernel(), options);
      for (const BlockSite &site : llvm::reverse(relaid))
        blocked |= blockSite(game, site, variant, options);
      if (!blocked)
        continue;
      finish(game);
      // Cache-tiled: the same program with the relayout's copies packed
      // slab by slab inside the tile loop (TilePacking.h).
      if (variant.cacheTile && !full() && packCopiesInTiles(game)) {
        placeInternalBuffers(game);
        proposeCpu(game);
      }
    }
  }
  if (!full()) {
    Game plain(original, options);
    finish(plain);
    // The same program with its large outputs streamed past the caches.
    if (!full() && streamOutputs(plain))
      proposeCpu(plain);
  }
  if (!full() && sites.empty()) {
    // The nests inside a short top-level scope parallel instead of it
    // (InnerParallelism.h); where the kernel has register tiles, the
    // plain rules' program is not the one that needs it.
    Game inner(original, options);
    fuse(inner);
    if (parallelizeInsideShortScopes(inner)) {
      vectorize(inner, options);
      placeMemory(inner);
      parallelize(inner);
      proposeCpu(inner);
    }
  }
  if (!full()) {
    // Row reductions summing several rows at once (RowInterleaving.h).
    Game rows(original, options);
    fuse(rows);
    vectorize(rows, options);
    if (interleaveRows(rows)) {
      placeMemory(rows);
      parallelize(rows);
      proposeCpu(rows);
    }
  }
  return candidates;
}

std::unique_ptr<Strategy> perfdojo::createHeuristicStrategy() {
  return std::make_unique<HeuristicStrategy>();
}
