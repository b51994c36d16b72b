//===- ReuseDims.cpp - reuse_dims and materialize_dims (the `:N` mark) ----===//
//
// reuse_dims b.k           (inverse: materialize_dims b.k)
//   Marks dimension k of internal buffer b as not materialized: all its
//   slots share storage. Legal when the `:N` invariant holds (moves.md 3.1):
//     NM1  b is internal;
//     NM2  with r the deepest depth any dim-k index uses, every access to b
//          sits below depth r; its ancestor at depth r is its reuse scope;
//     NM3  inside one reuse scope all dim-k indices are identical;
//     NM4  every read of b (and the read half of a reduction) is covered by
//          an earlier plain write in the same reuse-scope iteration: a leaf
//          before it, sharing c >= r+1 scopes, whose index agrees on depths
//          < c and whose per-iteration box densely contains the read's.
//   Under NM1-NM4 no value ever crosses from one slot to another, so folding
//   the slots cannot change a value read (the paper's Figure 6: a temporary
//   becomes reusable once producer and consumer are fused).
//   Accesses under :p, :v or GPU scopes are rejected: privatization by
//   location is not modeled yet. Every move that restructures the tree
//   re-checks these conditions for all existing `:N` marks on its result
//   (post-verification, Move.cpp), so the marks stay valid and
//   materialize_dims always has reuse_dims as its inverse.
// materialize_dims b.k     (inverse: reuse_dims b.k)
//   Semantically always legal: NM1-NM4 make aliased and unaliased
//   executions equal. Refused only when the grown storage would exceed the
//   budget of b's location (stack bytes, register elements; SetLocation.cpp).
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {

/// A failed `:N` check: the reason and the leaves or scopes involved.
struct ReuseViolation {
  std::string message;
  SmallVector<std::pair<Location, std::string>, 2> notes;

  void attachNotes(DiagnosedSilenceableFailure &diag) const {
    for (const auto &[loc, what] : notes)
      diag.attachNote(loc) << what;
  }
};

struct BufferAccess {
  LeafOp leaf;
  bool writes = false, reads = false, plainWrite = false;
  SmallVector<LinearForm, 4> indices; // all dims
  unsigned order = 0;                 // leaf position in execution order
};

SmallVector<int64_t, 8> sizesOf(LeafOp leaf) {
  SmallVector<int64_t, 8> sizes;
  for (auto scope = leaf->getParentOfType<ScopeOp>(); scope;
       scope = scope->getParentOfType<ScopeOp>())
    sizes.insert(sizes.begin(), scope.getSize());
  return sizes;
}

std::vector<BufferAccess> collectBufferAccesses(KernelOp kernel,
                                                BufferOp buffer) {
  SmallVector<StringRef> arrays = buffer.getArrayNames();
  auto ofBuffer = [&](StringRef array) {
    return llvm::is_contained(arrays, array);
  };
  // The variable of a size-1 scope is always 0: dropping it keeps every
  // value and lets the checks below see such an index as the constant it is
  // (otherwise moving a size-1 scope could break a `:N` mark needlessly).
  SmallVector<int64_t, 8> sizes;
  auto forms = [&](AffineMap map) {
    SmallVector<LinearForm, 4> out;
    for (AffineExpr e : map.getResults()) {
      LinearForm form = *getLinearForm(e);
      for (auto [k, size] : llvm::enumerate(sizes))
        if (size == 1 && k < form.coeffs.size())
          form.coeffs[k] = 0;
      while (!form.coeffs.empty() && form.coeffs.back() == 0)
        form.coeffs.pop_back();
      out.push_back(std::move(form));
    }
    return out;
  };
  std::vector<BufferAccess> accesses;
  unsigned order = 0;
  kernel.walk<WalkOrder::PreOrder>([&](LeafOp leaf) {
    ++order;
    sizes = sizesOf(leaf);
    if (ofBuffer(leaf.getArray())) {
      BufferAccess a;
      a.leaf = leaf;
      a.writes = true;
      a.plainWrite = leaf.getReduce() == ReduceKind::none;
      a.reads = !a.plainWrite;
      a.indices = forms(leaf.getIndices());
      a.order = order;
      accesses.push_back(std::move(a));
    }
    for (Attribute input : leaf.getInputs()) {
      auto access = dyn_cast<AccessAttr>(input);
      if (!access || !ofBuffer(access.getArray().getValue()))
        continue;
      BufferAccess a;
      a.leaf = leaf;
      a.reads = true;
      a.indices = forms(access.getIndices());
      a.order = order;
      accesses.push_back(std::move(a));
    }
  });
  return accesses;
}

Operation *ancestorAtDepth(Operation *leaf, unsigned depth) {
  Operation *node = leaf;
  for (unsigned d = getNodeDepth(leaf); d > depth; --d)
    node = node->getParentOp();
  return node;
}

unsigned commonScopes(LeafOp a, LeafOp b) {
  unsigned c = 0;
  unsigned da = getNodeDepth(a), db = getNodeDepth(b);
  for (unsigned d = 0; d < std::min(da, db); ++d) {
    if (ancestorAtDepth(a, d) != ancestorAtDepth(b, d))
      break;
    c = d + 1;
  }
  return c;
}

/// `form` with the coefficients of depths < c dropped.
LinearForm innerPart(const LinearForm &form, unsigned c) {
  LinearForm inner = form;
  for (unsigned k = 0; k < std::min<unsigned>(c, inner.coeffs.size()); ++k)
    inner.coeffs[k] = 0;
  return inner;
}

/// Whether the plain write `w` writes, in every iteration of the scopes it
/// shares with the read `r`, every element `r` reads there.
bool covers(const BufferAccess &w, const BufferAccess &r) {
  unsigned c = commonScopes(w.leaf, r.leaf);
  SmallVector<int64_t, 8> wSizes = sizesOf(w.leaf), rSizes = sizesOf(r.leaf);
  llvm::SmallBitVector usedByWrite(wSizes.size());
  for (auto [fw, fr] : llvm::zip(w.indices, r.indices)) {
    for (unsigned k = 0; k < c; ++k)
      if (fw.coeff(k) != fr.coeff(k))
        return false;
    LinearForm wi = innerPart(fw, c), ri = innerPart(fr, c);
    // The write must be dense in this dimension: its fresh variables form a
    // mixed-radix number (|coefficients| 1, s1, s1*s2, ... for sizes s1, s2,
    // ...), as after split_scope; a constant is dense too. Each variable may
    // serve one dimension only, so the written box is a product.
    SmallVector<std::pair<int64_t, int64_t>, 4> digits; // |coeff|, size
    for (unsigned k = c; k < wi.coeffs.size(); ++k) {
      if (wi.coeffs[k] == 0)
        continue;
      if (usedByWrite.test(k))
        return false;
      usedByWrite.set(k);
      digits.push_back({std::abs(wi.coeffs[k]), wSizes[k]});
    }
    llvm::sort(digits);
    int64_t radix = 1;
    for (auto [coeff, size] : digits) {
      if (coeff != radix)
        return false;
      radix *= size;
    }
    auto wRange = wi.range(wSizes), rRange = ri.range(rSizes);
    if (!wRange || !rRange || rRange->first < wRange->first ||
        rRange->second > wRange->second)
      return false;
  }
  return true;
}

/// Why dimension `k` of `buffer` may not be (or no longer be) non-
/// materialized: the checks NM2-NM4 of the `:N` invariant and the mode
/// restriction, on the kernel as it is. Nullopt if the invariant holds.
std::optional<ReuseViolation> findReuseViolation(KernelOp kernel,
                                                 BufferOp buffer, unsigned k) {
  auto violation = [](std::string message, Location loc, StringRef what) {
    ReuseViolation v;
    v.message = std::move(message);
    v.notes.push_back({loc, what.str()});
    return v;
  };
  std::string name = buffer.getName().str();
  std::vector<BufferAccess> accesses = collectBufferAccesses(kernel, buffer);
  for (const BufferAccess &a : accesses)
    for (auto scope = a.leaf->getParentOfType<ScopeOp>(); scope;
         scope = scope->getParentOfType<ScopeOp>())
      if (scope.getMode() != Mode::seq && scope.getMode() != Mode::unroll)
        return violation("'" + name +
                             "' is accessed under a parallel, vector or GPU "
                             "scope, where non-materialized dimensions are "
                             "not supported",
                         scope.getLoc(), "scope with a mode");

  // NM2: the reuse depth r is the deepest depth any dim-k index uses.
  int r = -1;
  for (const BufferAccess &a : accesses)
    r = std::max(r, static_cast<int>(a.indices[k].coeffs.size()) - 1);
  if (r < 0) {
    // Every dim-k index is a constant: legal only if it is one slot.
    for (const BufferAccess &a : accesses)
      if (a.indices[k].constant != accesses.front().indices[k].constant)
        return violation("dimension " + std::to_string(k) +
                             " is indexed by different constants, which "
                             "would share one slot",
                         a.leaf->getLoc(), "this access");
    return std::nullopt;
  }
  for (const BufferAccess &a : accesses)
    if (static_cast<int>(getNodeDepth(a.leaf)) <= r)
      return violation("an access sits outside the reuse scope at depth " +
                           std::to_string(r) + " (NM2)",
                       a.leaf->getLoc(), "this leaf");

  // NM3: one dim-k index per reuse scope.
  llvm::DenseMap<Operation *, const BufferAccess *> firstInScope;
  for (const BufferAccess &a : accesses) {
    Operation *rho = ancestorAtDepth(a.leaf, r);
    auto [it, inserted] = firstInScope.try_emplace(rho, &a);
    const LinearForm &mine = a.indices[k], &theirs = it->second->indices[k];
    if (!inserted &&
        (mine.coeffs != theirs.coeffs || mine.constant != theirs.constant)) {
      ReuseViolation v = violation(
          "two accesses in one reuse scope index dimension " +
              std::to_string(k) + " differently, so they would share a slot "
              "(NM3)",
          it->second->leaf->getLoc(), "this access");
      v.notes.push_back({a.leaf->getLoc(), "and this one"});
      return v;
    }
  }

  // NM4: every read is covered by an earlier write in the same iteration.
  for (const BufferAccess &read : accesses) {
    if (!read.reads)
      continue;
    Operation *rho = ancestorAtDepth(read.leaf, r);
    bool covered = llvm::any_of(accesses, [&](const BufferAccess &write) {
      return write.plainWrite && write.order < read.order &&
             ancestorAtDepth(write.leaf, r) == rho &&
             commonScopes(write.leaf, read.leaf) > static_cast<unsigned>(r) &&
             covers(write, read);
    });
    if (!covered)
      return violation("a read of '" + name +
                           "' is not covered by an earlier write in the same "
                           "iteration of its reuse scope at depth " +
                           std::to_string(r) +
                           ", so it would see another slot's value (NM4)",
                       read.leaf->getLoc(), "the read");
  }
  return std::nullopt;
}

class ReuseDims final : public Move {
public:
  StringRef getName() const override { return "reuse_dims"; }
  bool restructuresTree() const override { return false; }
  StringRef getSummary() const override {
    return "stop materializing a dimension of an internal buffer (:N)";
  }

  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    for (BufferOp buffer : state.getKernel().getBuffers())
      if (!buffer.isArgument())
        for (unsigned d = 0; d < buffer.getRank(); ++d)
          if (!buffer.getReused()[d])
            out.push_back(
                {getName().str(), getBufferDimSelector(buffer, d), {}});
  }

  DiagnosedSilenceableFailure check(MoveState &state,
                                    const MoveRequest &request,
                                    Location errorLoc) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    if (!expectParams(request, 0, errorLoc, diag))
      return diag;
    auto resolved = resolveBufferDim(state.getKernel(), request.location);
    if (!resolved)
      return fail(request, errorLoc, llvm::toString(resolved.takeError()));
    auto [buffer, k] = *resolved;
    auto note = [&](DiagnosedSilenceableFailure d, Location loc,
                    const Twine &what) {
      d.attachNote(loc) << what;
      return d;
    };
    if (buffer.isArgument())
      return note(fail(request, errorLoc,
                       "'" + buffer.getName() +
                           "' is a kernel argument; its storage belongs to "
                           "the caller (NM1)"),
                  buffer.getLoc(), "declared here");
    if (buffer.getReused()[k])
      return note(fail(request, errorLoc,
                       "dimension " + Twine(k) + " of '" + buffer.getName() +
                           "' is already non-materialized"),
                  buffer.getLoc(), "declared here");

    if (std::optional<ReuseViolation> violation =
            findReuseViolation(state.getKernel(), buffer, k)) {
      DiagnosedSilenceableFailure d =
          fail(request, errorLoc, violation->message);
      violation->attachNotes(d);
      return d;
    }
    return DiagnosedSilenceableFailure::success();
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    auto [buffer, k] = *resolveBufferDim(state.getKernel(), request.location);
    SmallVector<bool> reused(buffer.getReused());
    reused[k] = true;
    buffer.setReused(reused);
    return {"materialize_dims", request.location, {}};
  }
};

class MaterializeDims final : public Move {
public:
  StringRef getName() const override { return "materialize_dims"; }
  bool restructuresTree() const override { return false; }
  StringRef getSummary() const override {
    return "give a non-materialized (:N) dimension its storage back";
  }

  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    for (BufferOp buffer : state.getKernel().getBuffers())
      for (unsigned d = 0; d < buffer.getRank(); ++d)
        if (buffer.getReused()[d])
          out.push_back({getName().str(), getBufferDimSelector(buffer, d), {}});
  }

  DiagnosedSilenceableFailure check(MoveState &state,
                                    const MoveRequest &request,
                                    Location errorLoc) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    if (!expectParams(request, 0, errorLoc, diag))
      return diag;
    auto resolved = resolveBufferDim(state.getKernel(), request.location);
    if (!resolved)
      return fail(request, errorLoc, llvm::toString(resolved.takeError()));
    auto [buffer, k] = *resolved;
    if (!buffer.getReused()[k]) {
      diag = fail(request, errorLoc,
                  "dimension " + Twine(k) + " of '" + buffer.getName() +
                      "' is already materialized");
      diag.attachNote(buffer.getLoc()) << "declared here";
      return diag;
    }
    // The storage grows by the allocated extent of dimension k; it must
    // still fit the buffer's location (set_location budgets).
    int64_t storage = getStorageElements(buffer), extent =
                                                   buffer.getAllocatedExtent(k);
    int64_t grown = storage > INT64_MAX / extent ? INT64_MAX : storage * extent;
    if (std::optional<std::string> over = findCapacityViolation(
            buffer, buffer.getLocation(), grown, state.getOptions())) {
      diag = fail(request, errorLoc,
                  "materializing would exceed the capacity of " +
                      stringifyBufferLocation(buffer.getLocation()) + ": " +
                      *over);
      diag.attachNote(buffer.getLoc()) << "declared here";
      return diag;
    }
    return DiagnosedSilenceableFailure::success();
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    auto [buffer, k] = *resolveBufferDim(state.getKernel(), request.location);
    SmallVector<bool> reused(buffer.getReused());
    reused[k] = false;
    buffer.setReused(reused);
    return {"reuse_dims", request.location, {}};
  }
};
} // namespace

DiagnosedSilenceableFailure
perfdojo::moves::verifyReusedDims(
    KernelOp kernel, const MoveRequest &request, Location errorLoc,
    function_ref<unsigned(BufferOp, unsigned)> currentDim) {
  for (BufferOp buffer : kernel.getBuffers()) {
    for (auto [k, reused] : llvm::enumerate(buffer.getReused())) {
      if (!reused)
        continue;
      std::optional<ReuseViolation> violation =
          findReuseViolation(kernel, buffer, k);
      if (!violation)
        continue;
      std::string dim = getBufferDimSelector(buffer, k);
      std::string shown = dim;
      if (currentDim && currentDim(buffer, k) != k) {
        dim = getBufferDimSelector(buffer, currentDim(buffer, k));
        shown = dim + " (" + shown + " of the result)";
      }
      DiagnosedSilenceableFailure diag =
          fail(request, errorLoc,
               "the result would break the non-materialized dimension " +
                   shown + ": " + violation->message +
                   "; materialize it first (materialize_dims " + dim + ")");
      violation->attachNotes(diag);
      return diag;
    }
  }
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure perfdojo::moves::checkReuseInvariant(
    KernelOp kernel, BufferOp buffer, unsigned k, const MoveRequest &request,
    Location errorLoc, const Twine &prefix) {
  std::optional<ReuseViolation> violation =
      findReuseViolation(kernel, buffer, k);
  if (!violation)
    return DiagnosedSilenceableFailure::success();
  DiagnosedSilenceableFailure diag =
      fail(request, errorLoc, prefix + violation->message);
  violation->attachNotes(diag);
  return diag;
}

const Move *perfdojo::moves::getReuseDimsMove() {
  static ReuseDims move;
  return &move;
}

const Move *perfdojo::moves::getMaterializeDimsMove() {
  static MaterializeDims move;
  return &move;
}
