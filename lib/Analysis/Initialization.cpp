//===- Initialization.cpp - every element read was written before ---------===//
//
// For a read access r of leaf L (instances i in box(L)) and every leaf W
// that writes r's buffer (instances j), W's instance runs before L's when
//   j_0..j_k-1 = i_0..i_k-1 and j_k < i_k   for a depth k < c, or
//   j_0..j_c-1 = i_0..i_c-1 and W precedes L in text order,
// with c the number of scopes W and L share (W may be L: then only the
// first kind, j before i in the same leaf). Each disjunct with "and W's
// access at j touches r's element at i" is the dependence test's pair
// system (getSameElementPairs) with W's variables made existential; the
// uninitialized instances are box(L) minus their union. An output buffer is
// the same question for a reader after the kernel that reads every element
// of its logical shape.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Analysis/Initialization.h"
#include "perfdojo/Analysis/Privatization.h"

#include "mlir/Analysis/Presburger/PresburgerRelation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"

#include <mutex>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
namespace pb = mlir::presburger;

/// Limits of the exact test (per read): beyond them the read is not
/// reported. Library kernels stay far below (docs/ir.md, S11).
static constexpr unsigned kMaxDisjuncts = 64;
static constexpr unsigned kMaxLocals = 12;
static constexpr int64_t kMaxEnumerated = 256;

namespace {
/// A writer of a buffer: its accesses and its place in execution order.
struct Writer {
  const LeafAccesses *leaf;
  unsigned order;
};

/// The outcome of the exact test for one read.
enum class Coverage { Covered, Uncovered, Undecided };
} // namespace

/// The writer `w` with access `a` as seen from a reader it shares `shared`
/// scopes with: the same elements per iteration of the shared scopes, with
/// fewer existential variables. Its variables below the shared scopes that
/// index one dimension only and form a mixed-radix number there (|coeffs|
/// g, g*s1, g*s1*s2, ... for sizes s1, s2, ...), as after split_scope, take
/// exactly the values min + g*t for t in [0, s1*s2*...): they become one
/// variable t. Variables no index uses are dropped (some value exists).
/// Without this, the projection of a split writer's variables can take the
/// Presburger library seconds.
static std::pair<LeafAccesses, PhysicalAccess>
collapseWriter(const LeafAccesses &w, const PhysicalAccess &a,
               unsigned shared) {
  unsigned n = w.sizes.size();
  // Which dimensions each inner variable appears in.
  SmallVector<SmallVector<unsigned, 2>, 8> dimsOf(n);
  for (auto [d, form] : llvm::enumerate(a.indices))
    for (unsigned k = shared; k < n; ++k)
      if (form.coeff(k) != 0)
        dimsOf[k].push_back(d);
  LeafAccesses out;
  out.leaf = w.leaf;
  out.sizes.assign(w.sizes.begin(), w.sizes.begin() + std::min(shared, n));
  PhysicalAccess access = a;
  // Kept variables: shared ones (in place) and inner ones used by several
  // dimensions; `position[k]` is k's new place.
  SmallVector<int, 8> position(n, -1);
  for (unsigned k = 0; k < std::min(shared, n); ++k)
    position[k] = k;
  for (unsigned k = shared; k < n; ++k)
    if (dimsOf[k].size() > 1) {
      position[k] = out.sizes.size();
      out.sizes.push_back(w.sizes[k]);
    }
  SmallVector<LinearForm, 4> forms;
  for (auto [d, original] : llvm::enumerate(a.indices)) {
    LinearForm form;
    form.constant = original.constant;
    form.coeffs.assign(out.sizes.size(), 0);
    for (unsigned k = 0; k < n; ++k)
      if (position[k] >= 0)
        form.coeffs[position[k]] = original.coeff(k);
    // This dimension's own inner variables: one mixed-radix group?
    SmallVector<std::pair<int64_t, int64_t>, 4> digits; // |coeff|, size
    int64_t minimum = 0;
    for (unsigned k = shared; k < n; ++k)
      if (dimsOf[k].size() == 1 && dimsOf[k].front() == d) {
        int64_t c = original.coeff(k);
        digits.push_back({c < 0 ? -c : c, w.sizes[k]});
        if (c < 0)
          minimum += c * (w.sizes[k] - 1);
      }
    llvm::sort(digits);
    bool dense = !digits.empty();
    int64_t g = digits.empty() ? 1 : digits.front().first, radix = g,
            count = 1;
    for (auto [coeff, size] : digits) {
      dense &= coeff == radix;
      radix *= size;
      count *= size;
    }
    if (dense) {
      form.constant += minimum;
      form.coeffs.push_back(g);
      for (LinearForm &f : forms)
        f.coeffs.push_back(0);
      out.sizes.push_back(count);
    } else {
      // Keep the group's variables as they are.
      for (unsigned k = shared; k < n; ++k)
        if (dimsOf[k].size() == 1 && dimsOf[k].front() == d) {
          form.coeffs.push_back(original.coeff(k));
          for (LinearForm &f : forms)
            f.coeffs.push_back(0);
          out.sizes.push_back(w.sizes[k]);
        }
    }
    forms.push_back(std::move(form));
  }
  for (LinearForm &f : forms)
    f.coeffs.resize(out.sizes.size(), 0);
  access.indices = std::move(forms);
  out.accesses.push_back(access);
  return {std::move(out), std::move(access)};
}

/// Projects the variables from `first` on out of `set` where that is exact
/// and cheap: a variable whose equalities all have coefficients +-1
/// (substitution), or one in no equality whose bounds all have coefficients
/// +-1 (an exact shadow). Returns
/// how many are left (still from `first` on); they need the Presburger
/// library's existentials, which are slow to subtract.
static unsigned projectOutExactly(pb::IntegerPolyhedron &set, unsigned first) {
  bool progress = true;
  while (progress) {
    progress = false;
    for (unsigned v = first; v < set.getNumVars() && !progress; ++v) {
      // Every equality (the library may pick any) and every bound must
      // have a unit coefficient: then nothing is lost in the integers.
      bool inEquality = false, unit = true;
      for (unsigned r = 0; r < set.getNumEqualities(); ++r) {
        int64_t c = set.atEq64(r, v);
        inEquality |= c != 0;
        unit &= c >= -1 && c <= 1;
      }
      bool unitBounds = true;
      for (unsigned r = 0; r < set.getNumInequalities(); ++r) {
        int64_t c = set.atIneq64(r, v);
        unitBounds &= c >= -1 && c <= 1;
      }
      if ((inEquality && unit) || (!inEquality && unitBounds)) {
        set.projectOut(v);
        progress = true;
      }
    }
  }
  return set.getNumVars() - first;
}

using WriteList = ArrayRef<std::tuple<const LeafAccesses *,
                                      const PhysicalAccess *,
                                      SmallVector<DepthRelation, 8>>>;

/// The logical extent of each materialized dimension of `buffer` that
/// has padding (its accesses may reach past it), -1 for the others.
static SmallVector<int64_t> getPaddedExtents(BufferOp buffer) {
  SmallVector<int64_t> logical;
  for (auto [d, size] : llvm::enumerate(buffer.getShape()))
    if (!buffer.getReused()[d])
      logical.push_back(buffer.getPadding()[d] ? size : -1);
  return logical;
}

static Coverage computeUncoveredInstance(const LeafAccesses &reader,
                                         const PhysicalAccess &read,
                                         WriteList writes,
                                         SmallVectorImpl<int64_t> &point);

/// Everything computeUncoveredInstance reads, as a string: the reader's
/// box, its index forms and padded extents, and per write whether it is
/// the read's buffer, the writer's box, its index forms and the relations.
static std::string getCoverageKey(const LeafAccesses &reader,
                                  const PhysicalAccess &read,
                                  WriteList writes) {
  std::string key;
  llvm::raw_string_ostream os(key);
  auto sizes = [&](ArrayRef<int64_t> values) {
    os << '[';
    for (int64_t v : values)
      os << v << ',';
    os << ']';
  };
  auto forms = [&](ArrayRef<LinearForm> indices) {
    for (const LinearForm &form : indices) {
      os << '(' << form.constant << ':';
      sizes(form.coeffs);
      os << ')';
    }
  };
  sizes(reader.sizes);
  forms(read.indices);
  sizes(getPaddedExtents(read.buffer));
  for (const auto &[writer, write, relations] : writes) {
    os << '|' << (write->buffer == read.buffer);
    sizes(writer->sizes);
    forms(write->indices);
    for (DepthRelation r : relations)
      os << int(r);
  }
  return key;
}

/// The instances of `reader` whose element of `read` no disjunct of
/// `writes` covers; the lexicographically first one in `point`.
/// `writes` holds (writer, its access, relations to the reader).
///
/// Memoized by what it reads (getCoverageKey): the kernel verifier runs it
/// after every move, on reads most moves leave as they were, and the
/// Presburger subtraction behind it was most of a move's apply + undo.
static Coverage
findUncoveredInstance(const LeafAccesses &reader, const PhysicalAccess &read,
                      WriteList writes, SmallVectorImpl<int64_t> &point) {
  struct Known {
    Coverage coverage;
    SmallVector<int64_t, 8> point;
  };
  static std::mutex mutex;
  static llvm::StringMap<Known> known;
  constexpr size_t kMaxKnown = 1 << 14;
  std::string key = getCoverageKey(reader, read, writes);
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = known.find(key);
    if (it != known.end()) {
      point.assign(it->second.point.begin(), it->second.point.end());
      return it->second.coverage;
    }
  }
  Coverage coverage = computeUncoveredInstance(reader, read, writes, point);
  std::lock_guard<std::mutex> lock(mutex);
  if (known.size() >= kMaxKnown)
    known.clear();
  known[key] = Known{coverage, SmallVector<int64_t, 8>(point.begin(),
                                                         point.end())};
  return coverage;
}

static Coverage computeUncoveredInstance(const LeafAccesses &reader,
                                         const PhysicalAccess &read,
                                         WriteList writes,
                                         SmallVectorImpl<int64_t> &point) {
  unsigned n = reader.sizes.size();
  pb::PresburgerSpace space = pb::PresburgerSpace::getSetSpace(n);
  // The reader's instances, restricted to those whose element lies in the
  // logical extent: padding holds no data, so reading it is no error (a
  // padded scope computes lanes that land in padding too, pad_scope).
  pb::IntegerPolyhedron box(space);
  for (unsigned k = 0; k < n; ++k) {
    box.addBound(pb::BoundType::LB, k, 0);
    box.addBound(pb::BoundType::UB, k, reader.sizes[k] - 1);
  }
  SmallVector<int64_t> logical = getPaddedExtents(read.buffer);
  for (auto [form, size] : llvm::zip(read.indices, logical)) {
    if (size < 0)
      continue;
    // size - 1 - form(i) >= 0
    SmallVector<int64_t, 8> row(n + 1, 0);
    for (unsigned k = 0; k < n; ++k)
      row[k] = -form.coeff(k);
    row[n] = size - 1 - form.constant;
    box.addInequality(row);
  }
  pb::PresburgerSet uncovered(box);
  unsigned disjuncts = 0;
  pb::PresburgerSet covered = pb::PresburgerSet::getEmpty(space);
  for (const auto &[writer, write, relations] : writes) {
    if (!mayTouchSameElement(reader, read, *writer, *write, relations))
      continue;
    auto [w, a] = collapseWriter(*writer, *write, relations.size());
    if (++disjuncts > kMaxDisjuncts || w.sizes.size() > kMaxLocals)
      return Coverage::Undecided;
    pb::IntegerPolyhedron pairs =
        getSameElementPairs(reader, read, w, a, relations);
    // The writer's instance exists: its variables are projected out where
    // that is exact; the few left (non-unit coefficients) are enumerated,
    // one disjunct per value, so the difference has no existentials.
    unsigned locals = projectOutExactly(pairs, n);
    SmallVector<int64_t, 4> lower, upper;
    int64_t combinations = 1;
    for (unsigned v = n; v < n + locals; ++v) {
      std::optional<int64_t> lo = pairs.getConstantBound64(pb::BoundType::LB, v),
                             hi = pairs.getConstantBound64(pb::BoundType::UB, v);
      if (!lo || !hi)
        return Coverage::Undecided;
      lower.push_back(*lo);
      upper.push_back(*hi);
      combinations *= std::max<int64_t>(0, *hi - *lo + 1);
      if (combinations > kMaxEnumerated)
        return Coverage::Undecided;
    }
    SmallVector<int64_t, 4> value(lower);
    for (int64_t c = 0; c < combinations; ++c) {
      pb::IntegerPolyhedron one = pairs;
      SmallVector<llvm::DynamicAPInt, 4> values;
      for (int64_t v : value)
        values.push_back(llvm::DynamicAPInt(v));
      if (locals)
        one.setAndEliminate(n, values);
      covered.unionInPlace(one);
      for (unsigned i = 0; i < locals && ++value[i] > upper[i]; ++i)
        value[i] = lower[i];
    }
  }
  if (disjuncts)
    uncovered = uncovered.subtract(covered);
  bool found = false;
  for (const pb::IntegerRelation &disjunct : uncovered.getAllDisjuncts()) {
    // The lexicographic minimum with the difference's divisions as plain
    // variables after the instance's (the library's lexmin does not bound
    // existentials).
    pb::IntegerRelation part = disjunct;
    part.convertVarKind(pb::VarKind::Local, 0, part.getNumLocalVars(),
                        pb::VarKind::SetDim);
    pb::MaybeOptimum<SmallVector<llvm::DynamicAPInt, 8>> min =
        part.findIntegerLexMin();
    if (!min.isBounded())
      continue;
    SmallVector<int64_t, 8> candidate;
    for (unsigned k = 0; k < n; ++k)
      candidate.push_back(int64_t((*min)[k]));
    if (!found || std::lexicographical_compare(candidate.begin(),
                                               candidate.end(), point.begin(),
                                               point.end())) {
      point.assign(candidate.begin(), candidate.end());
      found = true;
    }
  }
  return found ? Coverage::Uncovered : Coverage::Covered;
}

/// `array[v0, v1]` for the logical indices of `map` at `point`.
static std::string describeElement(StringRef array, AffineMap map,
                                   ArrayRef<int64_t> point) {
  std::string text = array.str() + "[";
  for (auto [d, form] : llvm::enumerate(getIndexForms(map))) {
    int64_t value = form.constant;
    for (auto [k, c] : llvm::enumerate(form.coeffs))
      value += c * point[k];
    text += (d ? ", " : "") + std::to_string(value);
  }
  return text + "]";
}

/// Notes on the declaration of `buffer` and on the leaves writing it.
static void addWriterNotes(InitializationViolation &v, BufferOp buffer,
                           ArrayRef<Writer> writers) {
  v.notes.push_back({buffer.getLoc(), "'" + buffer.getName().str() +
                                          "' is declared here"});
  // A few are enough to see which elements are written.
  for (const Writer &w : writers.take_front(3))
  {
    LeafOp leaf = w.leaf->leaf;
    v.notes.push_back({leaf.getLoc(), "writes '" + leaf.getArray().str() + "' here"});
  }
}

/// Whether `w` writes every element of the argument buffer `buffer` (its
/// output): after collapseWriter, every dimension is its own variable
/// with coefficient 1 over exactly the dimension's extent.
static bool writesWholeShape(const LeafAccesses &w, BufferOp buffer) {
  auto [collapsed, access] = collapseWriter(w, w.accesses.front(), 0);
  llvm::SmallBitVector used(collapsed.sizes.size());
  for (auto [form, extent] : llvm::zip(access.indices, buffer.getShape())) {
    if (form.constant != 0)
      return false;
    int found = -1;
    for (auto [k, c] : llvm::enumerate(form.coeffs)) {
      if (c == 0)
        continue;
      if (c != 1 || found >= 0 || used.test(k))
        return false;
      found = k;
    }
    if (extent == 1 && found < 0)
      continue;
    if (found < 0 || collapsed.sizes[found] != extent)
      return false;
    used.set(found);
  }
  return true;
}

/// Whether the writers of `ws` that write each of their elements once
/// (an injective access), all inside `buffer`'s shape, write disjoint
/// parts of it and as many elements in all as the shape has: then together
/// they write every element, whatever the other writers do. Each condition
/// is a few dependence tests, which settle the outputs of split, swapped
/// and remaindered nests where the Presburger subtraction of the exact test
/// takes seconds; where it answers no, the exact test decides.
static bool tilesWholeShape(ArrayRef<Writer> ws, BufferOp buffer) {
  ArrayRef<int64_t> shape = buffer.getShape();
  int64_t elements = 1;
  for (int64_t extent : shape)
    if (llvm::MulOverflow(elements, extent, elements))
      return false;
  SmallVector<std::pair<const LeafAccesses *, const PhysicalAccess *>> once;
  int64_t written = 0;
  for (const Writer &w : ws) {
    const PhysicalAccess &a = w.leaf->accesses.front();
    if (a.indices.size() != shape.size())
      return false;
    bool inside = llvm::all_of(llvm::zip(a.indices, shape), [&](auto pair) {
      auto [form, extent] = pair;
      auto range = form.range(w.leaf->sizes);
      return range && range->first >= 0 && range->second < extent;
    });
    if (!inside)
      continue;
    // Injective: no two instances, first different at depth k (by symmetry
    // the first smaller there), touch the same element.
    bool injective = true;
    for (unsigned k = 0; k < w.leaf->sizes.size() && injective; ++k) {
      SmallVector<DepthRelation, 8> relations(k, DepthRelation::Equal);
      relations.push_back(DepthRelation::Less);
      injective = !mayTouchSameElement(*w.leaf, a, *w.leaf, a, relations);
    }
    if (!injective)
      continue;
    int64_t count = 1;
    for (int64_t size : w.leaf->sizes)
      if (llvm::MulOverflow(count, size, count))
        return false;
    if (llvm::AddOverflow(written, count, written))
      return false;
    once.push_back({w.leaf, &a});
  }
  if (written != elements)
    return false;
  for (unsigned i = 0; i < once.size(); ++i)
    for (unsigned j = i + 1; j < once.size(); ++j)
      if (mayTouchSameElement(*once[i].first, *once[i].second,
                              *once[j].first, *once[j].second, {}))
        return false;
  return true;
}

namespace {
class InitializationChecker {
public:
  InitializationChecker(KernelOp kernel, DependenceAnalysis &deps)
      : kernel(kernel), deps(deps) {
    for (LeafOp leaf : collectLeaves(kernel)) {
      leaves.push_back(leaf);
      order[leaf] = leaves.size();
    }
  }

  std::optional<InitializationViolation> findRead() {
    // Every read of a buffer that starts undefined, in execution order.
    struct Read {
      const BufferAccess *access;
      const std::vector<BufferAccess> *all;
      BufferOp buffer;
    };
    std::vector<Read> reads;
    std::vector<std::vector<BufferAccess>> perBuffer;
    SmallVector<BufferOp> buffers;
    for (BufferOp buffer : kernel.getBuffers())
      if (buffer.getRole() != Role::in && buffer.getRole() != Role::inout)
        buffers.push_back(buffer);
    perBuffer.reserve(buffers.size());
    for (BufferOp buffer : buffers) {
      perBuffer.push_back(collectBufferAccesses(kernel, buffer));
      for (const BufferAccess &a : perBuffer.back())
        if (a.reads)
          reads.push_back({&a, &perBuffer.back(), buffer});
    }
    llvm::sort(reads, [](const Read &a, const Read &b) {
      return std::make_pair(a.access->order, a.access) < std::make_pair(b.access->order, b.access);
    });
    // The leaf's operand reads of a buffer, counted to pair each with its
    // PhysicalAccess (both lists are in operand order).
    llvm::DenseMap<std::pair<Operation *, Operation *>, unsigned> operandsSeen;
    for (const Read &r : reads) {
      // A plain copy into scratch moves a value, defined or not: staging
      // copies a whole region in, written or not (docs/ir.md, S11). A
      // conversion computes a new value from it: no such copy.
      LeafOp reader = r.access->leaf;
      BufferOp target = kernel.lookupArray(reader.getArray());
      if (reader.getKind() == OpKind::copy &&
          reader.getReduce() == ReduceKind::none && !target.isArgument() &&
          target.getElementType() == BufferOp(r.buffer).getElementType())
        continue;
      const LeafAccesses &leaf = deps.getLeafAccesses(r.access->leaf);
      // The read half of a reduction is the output access.
      const PhysicalAccess *read = &leaf.accesses.front();
      if (!r.access->writes) {
        unsigned skip = operandsSeen[{r.access->leaf, r.buffer}]++;
        read = nullptr;
        for (const PhysicalAccess &a : ArrayRef(leaf.accesses).drop_front())
          if (a.buffer == r.buffer && skip-- == 0) {
            read = &a;
            break;
          }
        if (!read)
          continue; // cannot happen: both lists come from the same operands
      }
      // Fast path: an earlier leaf writes, in every iteration the two
      // share, everything this read reads there.
      bool covered = llvm::any_of(*r.all, [&](const BufferAccess &w) {
        return w.writes && w.order < r.access->order &&
               coversRead(w, *r.access);
      });
      if (covered)
        continue;
      if (auto v = checkRead(leaf, *read, r.buffer))
        return v;
    }
    return std::nullopt;
  }

  std::optional<InitializationViolation> findOutput() {
    for (BufferOp buffer : kernel.getBuffers()) {
      if (buffer.getRole() != Role::out)
        continue;
      ArrayRef<Writer> ws = getWriters(buffer);
      if (ws.empty()) {
        InitializationViolation v{buffer, "output '" + buffer.getName().str() +
                                              "' is never written"};
        return v;
      }
      // Fast path: one leaf writes the whole shape (each dimension indexed
      // by its own dense variables over exactly its extent).
      if (llvm::any_of(ws, [&](const Writer &w) {
            return writesWholeShape(*w.leaf, buffer);
          }))
        continue;
      if (tilesWholeShape(ws, buffer))
        continue;
      // A reader after the kernel that reads every element of the shape.
      LeafAccesses caller;
      caller.sizes.assign(buffer.getShape().begin(), buffer.getShape().end());
      PhysicalAccess all;
      all.buffer = buffer;
      all.array = buffer.getName();
      for (unsigned d = 0; d < caller.sizes.size(); ++d) {
        LinearForm form;
        form.coeffs.assign(d + 1, 0);
        form.coeffs[d] = 1;
        all.indices.push_back(form);
      }
      SmallVector<std::tuple<const LeafAccesses *, const PhysicalAccess *,
                             SmallVector<DepthRelation, 8>>>
          writes;
      for (const Writer &w : ws)
        writes.push_back({w.leaf, &w.leaf->accesses.front(), {}});
      SmallVector<int64_t, 8> point;
      if (findUncoveredInstance(caller, all, writes, point) !=
          Coverage::Uncovered)
        continue;
      std::string element = buffer.getName().str() + "[";
      for (auto [d, value] : llvm::enumerate(point))
        element += (d ? ", " : "") + std::to_string(value);
      element += "]";
      InitializationViolation v{buffer, "output '" + buffer.getName().str() +
                                            "' is never written at " +
                                            element +
                                            " (outputs start undefined)"};
      for (const Writer &w : ws.take_front(3))
        v.notes.push_back({LeafOp(w.leaf->leaf).getLoc(),
                           "writes '" + buffer.getName().str() + "' here"});
      return v;
    }
    return std::nullopt;
  }

private:
  /// The leaves writing `buffer`, in execution order (their accesses are
  /// computed only for the buffers that need the exact test).
  ArrayRef<Writer> getWriters(BufferOp buffer) {
    auto [it, inserted] = writers.try_emplace(buffer);
    if (inserted)
      for (LeafOp leaf : leaves)
        if (kernel.lookupArray(leaf.getArray()) == buffer)
          it->second.push_back(
              Writer{&deps.getLeafAccesses(leaf), order.lookup(leaf)});
    return it->second;
  }

  std::optional<InitializationViolation>
  checkRead(const LeafAccesses &leaf, const PhysicalAccess &read,
            BufferOp buffer) {
    ArrayRef<Writer> ws = getWriters(buffer);
    unsigned mine = order.lookup(leaf.leaf);
    SmallVector<std::tuple<const LeafAccesses *, const PhysicalAccess *,
                           SmallVector<DepthRelation, 8>>>
        writes;
    for (const Writer &w : ws) {
      unsigned c = getCommonScopeCount(leaf.leaf, w.leaf->leaf);
      const PhysicalAccess *write = &w.leaf->accesses.front();
      // An earlier iteration of a shared scope (the reader is x: x_k > y_k).
      for (unsigned k = 0; k < c; ++k) {
        SmallVector<DepthRelation, 8> relations(k, DepthRelation::Equal);
        relations.push_back(DepthRelation::Greater);
        writes.push_back({w.leaf, write, relations});
      }
      // The same iteration of every shared scope, earlier in the text.
      if (w.order < mine)
        writes.push_back(
            {w.leaf, write, SmallVector<DepthRelation, 8>(c, DepthRelation::Equal)});
    }
    SmallVector<int64_t, 8> point;
    if (findUncoveredInstance(leaf, read, writes, point) !=
        Coverage::Uncovered)
      return std::nullopt;
    LeafOp op = leaf.leaf;
    AffineMap map = op.getIndices();
    if (read.operand >= 0)
      map = cast<AccessAttr>(op.getInputs()[read.operand]).getIndices();
    std::string message =
        (read.operand < 0 ? "reduces into " : "reads ") +
        describeElement(read.array, map, point);
    for (auto [k, value] : llvm::enumerate(point))
      message += (k ? ", {" : " at {") + std::to_string(k) +
                 "}=" + std::to_string(value);
    message += ", which no earlier leaf writes";
    message += buffer.getRole() == Role::out
                   ? " (outputs start undefined)"
                   : " (scratch buffers start undefined)";
    InitializationViolation v{op, message};
    SmallVector<Writer> earlier;
    // Leaves before it, and leaves sharing a scope with it (they write in
    // earlier iterations; the leaf itself too).
    for (const Writer &w : ws)
      if (w.order < mine ||
          getCommonScopeCount(leaf.leaf, w.leaf->leaf) > 0)
        earlier.push_back(w);
    addWriterNotes(v, buffer, earlier);
    return v;
  }

  KernelOp kernel;
  DependenceAnalysis &deps;
  SmallVector<LeafOp> leaves;
  llvm::DenseMap<Operation *, unsigned> order;
  llvm::DenseMap<Operation *, SmallVector<Writer>> writers;
};
} // namespace

std::optional<InitializationViolation>
perfdojo::findUninitializedRead(KernelOp kernel, DependenceAnalysis &deps) {
  return InitializationChecker(kernel, deps).findRead();
}

std::optional<InitializationViolation>
perfdojo::findUnwrittenOutput(KernelOp kernel, DependenceAnalysis &deps) {
  return InitializationChecker(kernel, deps).findOutput();
}

std::optional<InitializationViolation>
perfdojo::findInitializationViolation(KernelOp kernel) {
  DependenceAnalysis deps(kernel);
  InitializationChecker checker(kernel, deps);
  if (auto v = checker.findRead())
    return v;
  return checker.findOutput();
}
