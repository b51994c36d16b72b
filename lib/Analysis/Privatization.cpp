//===- Privatization.cpp - privatization of buffers by location ----------===//
//
// getPrivatizingScope() is the one place that decides whether a buffer is
// private to the iterations of a concurrent scope (Privatization.h). The
// coverage check is the syntactic NM4 test of the `:N` invariant, shared
// with ReuseDims.cpp.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Analysis/Privatization.h"
#include "perfdojo/Dialect/Dojo/IR/ModeRules.h"

#include "llvm/ADT/SmallBitVector.h"

#include <cstdlib>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

SmallVector<LinearForm, 4> perfdojo::getAccessForms(AffineMap map,
                                                   ArrayRef<int64_t> sizes) {
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
}

std::vector<BufferAccess> perfdojo::collectBufferAccesses(KernelOp kernel,
                                                          BufferOp buffer) {
  SmallVector<StringRef> arrays = buffer.getArrayNames();
  auto ofBuffer = [&](StringRef array) {
    return llvm::is_contained(arrays, array);
  };
  // The variable of a size-1 scope is always 0: dropping it keeps every
  // value and lets the checks see such an index as the constant it is
  // (otherwise moving a size-1 scope could break a `:N` mark needlessly).
  SmallVector<int64_t, 8> sizes;
  auto forms = [&](AffineMap map) { return getAccessForms(map, sizes); };
  std::vector<BufferAccess> accesses;
  unsigned order = 0;
  kernel.walk<WalkOrder::PreOrder>([&](LeafOp leaf) {
    ++order;
    bool writes = ofBuffer(leaf.getArray());
    bool reads = llvm::any_of(leaf.getInputs(), [&](Attribute input) {
      auto access = dyn_cast<AccessAttr>(input);
      return access && ofBuffer(access.getArray().getValue());
    });
    if (!writes && !reads)
      return;
    sizes = getLeafBoxSizes(leaf);
    if (writes) {
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

/// `form` with the coefficients of depths < c dropped.
static LinearForm innerPart(const LinearForm &form, unsigned c) {
  LinearForm inner = form;
  for (unsigned k = 0; k < std::min<unsigned>(c, inner.coeffs.size()); ++k)
    inner.coeffs[k] = 0;
  return inner;
}

namespace {
/// Per dimension, the range a write writes and the range a read reads in
/// one iteration of the scopes the two share.
struct CoverageBoxes {
  SmallVector<std::pair<int64_t, int64_t>, 4> written, read;
};
} // namespace

/// The boxes of `w` and `r` in one iteration of the `c` scopes they share;
/// nullopt where the index forms disagree on those depths or the write is
/// not dense.
static std::optional<CoverageBoxes>
getCoverageBoxes(const BufferAccess &w, const BufferAccess &r, unsigned c) {
  SmallVector<int64_t, 8> wSizes = getLeafBoxSizes(w.leaf),
                          rSizes = getLeafBoxSizes(r.leaf);
  llvm::SmallBitVector usedByWrite(wSizes.size());
  CoverageBoxes boxes;
  for (auto [fw, fr] : llvm::zip(w.indices, r.indices)) {
    for (unsigned k = 0; k < c; ++k)
      if (fw.coeff(k) != fr.coeff(k))
        return std::nullopt;
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
        return std::nullopt;
      usedByWrite.set(k);
      digits.push_back({std::abs(wi.coeffs[k]), wSizes[k]});
    }
    llvm::sort(digits);
    int64_t radix = 1;
    for (auto [coeff, size] : digits) {
      if (coeff != radix)
        return std::nullopt;
      radix *= size;
    }
    auto wRange = wi.range(wSizes), rRange = ri.range(rSizes);
    if (!wRange || !rRange)
      return std::nullopt;
    boxes.written.push_back(*wRange);
    boxes.read.push_back(*rRange);
  }
  return boxes;
}

/// Whether `inner` lies in `outer`.
static bool contains(std::pair<int64_t, int64_t> outer,
                     std::pair<int64_t, int64_t> inner) {
  return outer.first <= inner.first && inner.second <= outer.second;
}

bool perfdojo::coversRead(const BufferAccess &w, const BufferAccess &r) {
  std::optional<CoverageBoxes> boxes =
      getCoverageBoxes(w, r, getCommonScopeCount(w.leaf, r.leaf));
  return boxes && llvm::all_of(llvm::zip(boxes->written, boxes->read),
                               [](auto pair) {
                                 return contains(std::get<0>(pair),
                                                 std::get<1>(pair));
                               });
}

/// coverReadTogether for the writes sharing `c` scopes with `r`.
static bool coverReadSharing(ArrayRef<const BufferAccess *> writes,
                              const BufferAccess &r, unsigned c) {
  SmallVector<CoverageBoxes, 4> boxes;
  for (const BufferAccess *w : writes) {
    std::optional<CoverageBoxes> box;
    if (getCommonScopeCount(w->leaf, r.leaf) == c &&
        (box = getCoverageBoxes(*w, r, c)))
      boxes.push_back(std::move(*box));
  }
  if (boxes.empty())
    return false;
  // Dimension j: the writes containing the read's range in every other
  // dimension cover it where their ranges in j join over the read's. A
  // scalar (no dimension) is covered by any write.
  unsigned rank = boxes.front().read.size();
  if (rank == 0)
    return true;
  for (unsigned j = 0; j < rank; ++j) {
    SmallVector<std::pair<int64_t, int64_t>, 4> ranges;
    for (const CoverageBoxes &box : boxes) {
      bool others = true;
      for (unsigned k = 0; k < rank; ++k)
        others &= k == j || contains(box.written[k], box.read[k]);
      if (others)
        ranges.push_back(box.written[j]);
    }
    llvm::sort(ranges);
    auto [lo, hi] = boxes.front().read[j];
    int64_t next = lo;
    for (auto [first, last] : ranges)
      if (first <= next)
        next = std::max(next, last + 1);
    if (next > hi)
      return true;
  }
  return false;
}

bool perfdojo::coverReadTogether(ArrayRef<const BufferAccess *> writes,
                                 const BufferAccess &r) {
  SmallVector<unsigned, 4> shared;
  for (const BufferAccess *w : writes) {
    unsigned c = getCommonScopeCount(w->leaf, r.leaf);
    if (!llvm::is_contained(shared, c))
      shared.push_back(c);
  }
  return llvm::any_of(
      shared, [&](unsigned c) { return coverReadSharing(writes, r, c); });
}

const BufferAccess *
perfdojo::findUncoveredRead(ArrayRef<BufferAccess> accesses, unsigned depth) {
  for (const BufferAccess &read : accesses) {
    if (!read.reads)
      continue;
    Operation *scope = getAncestorAtDepth(read.leaf, depth);
    // The earlier plain writes in the same iteration of the scope at
    // `depth`: one covers the read, or several do together (a copy whose
    // remainder was cut off, cut_scope).
    SmallVector<const BufferAccess *, 4> writes;
    for (const BufferAccess &write : accesses)
      if (write.plainWrite && write.order < read.order &&
          getAncestorAtDepth(write.leaf, depth) == scope &&
          getCommonScopeCount(write.leaf, read.leaf) > depth)
        writes.push_back(&write);
    if (!coverReadTogether(writes, read))
      return &read;
  }
  return nullptr;
}

/// Whether a scope of mode `mode` privatizes a buffer in `location`.
static bool privatizes(BufferLocation location, Mode mode) {
  bool gpuThread = isGpuMode(mode);
  switch (location) {
  case BufferLocation::stack:
    return mode == Mode::parallel;
  case BufferLocation::reg:
  case BufferLocation::gpu_local:
    return mode == Mode::parallel || gpuThread;
  case BufferLocation::gpu_shared:
    return mode == Mode::gpu_grid;
  case BufferLocation::heap:
  case BufferLocation::tcdm:
    return false;
  }
  return false;
}

std::optional<SmallVector<std::optional<unsigned>, 2>>
perfdojo::findThreadDims(BufferOp buffer, ArrayRef<BufferAccess> accesses,
                         ScopeOp scope) {
  // The thread scopes of the first access fix the sequence; every access
  // must repeat it (the same coordinates, so the same owner per element).
  SmallVector<std::pair<Mode, uint64_t>, 2> sequence;
  SmallVector<std::optional<unsigned>, 2> dims;
  ArrayRef<bool> reused = buffer.getReused();
  for (auto [i, access] : llvm::enumerate(accesses)) {
    SmallVector<ScopeOp, 2> threads;
    for (auto p = access.leaf->getParentOfType<ScopeOp>(); p != scope;
         p = p->getParentOfType<ScopeOp>()) {
      if (p.getMode() == Mode::gpu_grid)
        return std::nullopt;
      if (isGpuMode(p.getMode()))
        threads.insert(threads.begin(), p);
    }
    if (i == 0) {
      for (ScopeOp t : threads)
        sequence.push_back({t.getMode(), t.getSize()});
      dims.assign(threads.size(), std::nullopt);
    } else if (threads.size() != sequence.size()) {
      return std::nullopt;
    }
    for (auto [j, t] : llvm::enumerate(threads)) {
      if (t.getMode() != sequence[j].first || t.getSize() != sequence[j].second)
        return std::nullopt;
      if (t.getSize() == 1)
        continue; // one thread: its coordinate is always 0
      // The dimension indexed by this thread's variable alone.
      unsigned depth = t.getDepth();
      std::optional<unsigned> found;
      for (auto [d, form] : llvm::enumerate(access.indices)) {
        if (form.coeff(depth) == 0)
          continue;
        bool bare = form.constant == 0 && form.coeff(depth) == 1 &&
                    llvm::count_if(form.coeffs,
                                   [](int64_t c) { return c != 0; }) == 1;
        if (!bare || found || reused[d])
          return std::nullopt;
        found = d;
      }
      if (!found || (i > 0 && dims[j] != found) ||
          (i == 0 && llvm::is_contained(dims, found)))
        return std::nullopt;
      dims[j] = found;
    }
  }
  return dims;
}

ScopeOp perfdojo::getPrivatizingScope(KernelOp kernel, BufferOp buffer,
                                      std::optional<BufferLocation> asIf) {
  return getPrivatization(kernel, buffer, asIf).scope;
}

Privatization perfdojo::getPrivatization(KernelOp kernel, BufferOp buffer,
                                         std::optional<BufferLocation> asIf) {
  if (buffer.isArgument())
    return {};
  BufferLocation location = asIf ? *asIf : buffer.getLocation();
  if (location == BufferLocation::heap || location == BufferLocation::tcdm)
    return {};
  // Cheap exit: no scope of the kernel has a mode that privatizes here.
  bool candidate = false;
  kernel.walk([&](ScopeOp scope) {
    if (!privatizes(location, scope.getMode()))
      return WalkResult::advance();
    candidate = true;
    return WalkResult::interrupt();
  });
  if (!candidate)
    return {};
  std::vector<BufferAccess> accesses = collectBufferAccesses(kernel, buffer);
  if (accesses.empty())
    return {};
  // The scopes enclosing every access: the common prefix of the paths.
  SmallVector<ScopeOp, 8> common;
  for (auto scope = accesses.front().leaf->getParentOfType<ScopeOp>(); scope;
       scope = scope->getParentOfType<ScopeOp>())
    common.insert(common.begin(), scope);
  for (const BufferAccess &a : accesses) {
    unsigned shared = 0;
    unsigned depth = LeafOp(a.leaf).getDepth();
    while (shared < common.size() && shared < depth &&
           getAncestorAtDepth(a.leaf, shared) == common[shared].getOperation())
      ++shared;
    common.resize(shared);
  }
  // The innermost of them whose mode privatizes this location.
  for (ScopeOp scope : llvm::reverse(common)) {
    if (!privatizes(location, scope.getMode()))
      continue;
    if (findUncoveredRead(accesses, scope.getDepth()))
      return {};
    // Registers and local memory belong to one GPU thread: a copy per
    // iteration of a grid (or block) scope with threads (other GPU scopes)
    // below it is one thread's only where each thread owns its elements.
    Privatization result;
    result.scope = scope;
    if (scope.getMode() != Mode::parallel &&
        location != BufferLocation::gpu_shared) {
      auto threadDims = findThreadDims(buffer, accesses, scope);
      if (!threadDims)
        return {};
      result.threadDims = std::move(*threadDims);
    }
    return result;
  }
  return {};
}
