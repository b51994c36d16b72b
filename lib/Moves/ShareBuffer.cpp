//===- ShareBuffer.cpp - share_buffer and unshare_buffer ------------------===//
//
// share_buffer a,c          (inverse: unshare_buffer c k)
//   Array c, stored alone in its own buffer `c`, moves into the buffer that
//   stores array a: `a f32 [64] stack` and `c f32 [64] stack` become
//   `a f32 [64] stack -> a, c` (c is appended to the list; the buffer `c`,
//   declaration number k, is removed). Names and indices are kept, so the
//   move is non-destructive (moves.md B9). The location names two arrays,
//   separated by a comma: the host first.
//   Legality:
//     S1 a and c are arrays of two different internal buffers, c's buffer is
//        named c and stores only c (so the inverse can recreate it), and the
//        host does not list only its own name (`a ... -> a`, which the
//        inverse could not tell from `a ...`);
//     S2 identical element type, extents, padding, `:N` flags and location;
//     S3 disjoint lifetimes, per element: on the kernel with the storage
//        shared, either every access through c runs after every
//        conflicting access through the host's arrays to the same physical
//        element, or every one runs before (a conflict: not both reads;
//        reductions count as reads and writes). Each pair is one query of
//        the shared dependence test over the instance order (fails closed).
//        Then a read through one array never sees a write made through the
//        other: the last write before it to its element is the one it saw
//        before (a read of a never-written element is undefined in both);
//     S4 no scope with a parallel, vector or GPU mode has two different
//        iterations that conflict through the shared storage (one through
//        each array; the concurrency test of set_parallel).
//   Then every value read is unchanged, and internal buffers have no final
//   contents to preserve.
//
// unshare_buffer c k        (inverse: share_buffer a,c)
//   Array c, the last array of a shared buffer (not the buffer's own name),
//   gets its own buffer `c` again, with the same declaration, inserted as
//   buffer declaration number k (0 <= k <= number of buffers); the host
//   drops it from its list (and its `->` list when only its own name
//   remains). Legality: S3 on the kernel as it is: the arrays do not
//   communicate through the shared storage. Unsharing only removes
//   aliasing, so no mode can break. a in the inverse is the host's first
//   array.
//   Candidates: k right after the host's declaration.
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"

#include "perfdojo/Analysis/Privatization.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {

unsigned getBufferIndex(KernelOp kernel, BufferOp buffer) {
  unsigned index = 0;
  for (BufferOp b : kernel.getBuffers()) {
    if (b == buffer)
      return index;
    ++index;
  }
  return index;
}

bool listsOnlyItsName(BufferOp buffer) {
  return buffer.getArrays().size() == 1 &&
         cast<StringAttr>(buffer.getArrays()[0]).getValue() ==
             buffer.getName();
}

/// Appends `array` to `host`'s list (which names the host itself when
/// empty).
void appendArray(BufferOp host, StringRef array) {
  SmallVector<StringRef> names = host.getArrayNames();
  names.push_back(array);
  host.setArraysAttr(Builder(host.getContext()).getStrArrayAttr(names));
}

/// Why the arrays of a buffer may communicate through its storage.
struct Overlap {
  std::string message;
  Location first, second;
  StringRef firstWhat, secondWhat;
};

/// Whether the read of `reader` through forms `read` is covered: a leaf
/// before it in the tree plainly writes one of `arrays` through the same
/// forms, and every depth the forms use below the two leaves' common scopes
/// exists in the writer with at least the reader's size. For every instance
/// of the reader, the writer's instance that agrees on the common scopes
/// and on those depths wrote the element just before, in the same
/// iteration of the common scopes.
bool isReadCovered(ArrayRef<LeafOp> leaves, LeafOp reader, AffineMap read,
                   ArrayRef<StringRef> arrays) {
  SmallVector<int64_t, 8> readerSizes = getLeafBoxSizes(reader);
  for (LeafOp writer : leaves) {
    if (writer == reader)
      return false;
    if (writer.getReduce() != ReduceKind::none ||
        !llvm::is_contained(arrays, writer.getArray()) ||
        !isSameIndexList(writer.getIndices(), read))
      continue;
    unsigned common = getCommonScopeCount(writer, reader);
    SmallVector<int64_t, 8> writerSizes = getLeafBoxSizes(writer);
    bool fits = true;
    for (AffineExpr e : read.getResults()) {
      LinearForm form = *getLinearForm(e);
      for (unsigned k = common; k < form.coeffs.size(); ++k)
        if (form.coeffs[k] != 0 &&
            (k >= writerSizes.size() || writerSizes[k] < readerSizes[k]))
          fits = false;
    }
    if (fits)
      return true;
  }
  return false;
}

/// The disjoint-lifetime condition (S3, S5) for array `guest` and the other
/// arrays of its buffer in `kernel` (storage as it is).
std::optional<Overlap> findLifetimeOverlap(KernelOp kernel, StringRef guest) {
  DependenceAnalysis deps(kernel);
  BufferOp buffer = kernel.lookupArray(guest);
  SmallVector<LeafOp> leaves = collectLeaves(kernel);
  // Accesses to the buffer, split by the array they go through.
  struct Use {
    mutable LeafOp leaf;
    const PhysicalAccess *access;
  };
  SmallVector<Use> guestUses, hostUses;
  for (LeafOp leaf : leaves)
    for (const PhysicalAccess &access : deps.getLeafAccesses(leaf).accesses)
      if (access.buffer == buffer)
        (access.array == guest ? guestUses : hostUses)
            .push_back({leaf, &access});
  DependenceOptions options{/*reassociate=*/false, /*concurrency=*/true};
  // An access of `early` that may conflict with a later one of `late`.
  auto findEarlier = [&](ArrayRef<Use> early,
                         ArrayRef<Use> late) -> std::optional<Overlap> {
    for (const Use &x : early)
      for (const Use &y : late)
        if (mayConflictEarlier(deps, x.leaf, *x.access, y.leaf, *y.access,
                               options))
          return Overlap{Conflict{x.leaf, y.leaf, x.access, y.access}
                             .describe(),
                         x.leaf.getLoc(), y.leaf.getLoc(), "the earlier access",
                         "the later access"};
    return std::nullopt;
  };
  std::optional<Overlap> guestFirst = findEarlier(guestUses, hostUses);
  std::optional<Overlap> hostFirst = findEarlier(hostUses, guestUses);
  if (guestFirst && hostFirst) {
    guestFirst->message =
        "the lifetimes of '" + guest.str() +
        "' and the other arrays of its buffer overlap: the " +
        guestFirst->message +
        ", which runs later, and the opposite order occurs too (S3)";
    return guestFirst;
  }
  if (!guestFirst && !hostFirst)
    return std::nullopt;
  // S5: every read through the arrays that come last reads a value written
  // through them.
  SmallVector<StringRef> hostArrays;
  for (StringRef name : buffer.getArrayNames())
    if (name != guest)
      hostArrays.push_back(name);
  SmallVector<StringRef> later =
      hostFirst ? SmallVector<StringRef>{guest} : hostArrays;
  for (const Use &use : hostFirst ? guestUses : hostUses) {
    const PhysicalAccess &access = *use.access;
    if (access.kind == AccessKind::Write)
      continue;
    AffineMap map =
        access.operand < 0
            ? use.leaf.getIndices()
            : cast<AccessAttr>(use.leaf.getInputs()[access.operand])
                  .getIndices();
    if (isReadCovered(leaves, use.leaf, map, later))
      continue;
    return Overlap{"a read of '" + access.array.str() + "' in `" +
                       getStatementText(use.leaf) +
                       "` is not covered by an earlier write through the "
                       "same array, so it could see a value written through "
                       "another array of the buffer (S5)",
                   use.leaf.getLoc(), use.leaf.getLoc(), "the read",
                   "the read"};
  }
  return std::nullopt;
}

DiagnosedSilenceableFailure lifetimeFailure(const MoveRequest &request,
                                            Location errorLoc,
                                            const Overlap &overlap) {
  DiagnosedSilenceableFailure diag = fail(request, errorLoc, overlap.message);
  diag.attachNote(overlap.first) << overlap.firstWhat;
  if (overlap.second != overlap.first)
    diag.attachNote(overlap.second) << overlap.secondWhat;
  return diag;
}

/// Resolves `a,c` to the two names.
std::optional<std::pair<std::string, std::string>>
splitPair(const MoveRequest &request, Location errorLoc,
          DiagnosedSilenceableFailure &diag) {
  auto [first, second] = StringRef(request.location).split(',');
  if (first.empty() || second.empty() || second.contains(',')) {
    diag = fail(request, errorLoc,
                "expected two arrays 'a,c' (c moves into a's buffer) but "
                "found '" +
                    request.location + "'");
    return std::nullopt;
  }
  return std::make_pair(first.str(), second.str());
}

/// The buffer storing `array`; on failure fills `diag`.
BufferOp resolveArray(MoveState &state, const MoveRequest &request,
                      StringRef array, Location errorLoc,
                      DiagnosedSilenceableFailure &diag) {
  BufferOp buffer = state.getKernel().lookupArray(array);
  if (!buffer) {
    diag = fail(request, errorLoc, "no array named '" + array + "'");
    return {};
  }
  if (buffer.isArgument()) {
    diag = fail(request, errorLoc,
                "'" + array +
                    "' is a kernel argument; its storage belongs to the "
                    "caller (S1)");
    diag.attachNote(buffer.getLoc()) << "declared here";
    return {};
  }
  return buffer;
}

class ShareBuffer final : public MoveOf<MoveKind::ShareBuffer> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    SmallVector<BufferOp> buffers(state.getKernel().getBuffers());
    for (BufferOp host : buffers) {
      if (host.isArgument() || listsOnlyItsName(host))
        continue;
      for (BufferOp guest : buffers) {
        if (guest == host || guest.isArgument() || !guest.getArrays().empty())
          continue;
        if (guest.getElementType() != host.getElementType() ||
            guest.getShape() != host.getShape() ||
            guest.getPadding() != host.getPadding() ||
            guest.getReused() != host.getReused() ||
            guest.getLocation() != host.getLocation())
          continue;
        out.push_back({getName().str(),
                       host.getArrayNames().front().str() + "," +
                           guest.getName().str(),
                       {}});
      }
    }
  }

  DiagnosedSilenceableFailure checkRequest(MoveState &state,
                                           const MoveRequest &request,
                                           Location errorLoc) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    auto names = splitPair(request, errorLoc, diag);
    if (!names)
      return diag;
    auto [a, c] = *names;
    BufferOp host = resolveArray(state, request, a, errorLoc, diag);
    if (!host)
      return diag;
    BufferOp guest = resolveArray(state, request, c, errorLoc, diag);
    if (!guest)
      return diag;
    auto failAt = [&](BufferOp buffer, const Twine &message) {
      return failWithNote(request, errorLoc, message, buffer, "declared here");
    };
    if (host == guest)
      return failAt(host, "'" + a + "' and '" + c + "' already share buffer '" +
                              host.getName() + "'");
    if (guest.getName() != c || !guest.getArrays().empty())
      return failAt(guest, "'" + c + "' is not stored alone in a buffer of "
                                     "its own name; share_buffer moves such "
                                     "an array (S1)");
    if (listsOnlyItsName(host))
      return failAt(host, "buffer '" + host.getName() +
                              "' lists only its own name ('-> " +
                              host.getName() +
                              "'); drop the list first (S1)");
    StringRef differs;
    if (guest.getElementType() != host.getElementType())
      differs = "element type";
    else if (guest.getShape() != host.getShape())
      differs = "extents";
    else if (guest.getPadding() != host.getPadding())
      differs = "padding";
    else if (guest.getReused() != host.getReused())
      differs = ":N flags";
    else if (guest.getLocation() != host.getLocation())
      differs = "location";
    if (!differs.empty()) {
      DiagnosedSilenceableFailure d =
          fail(request, errorLoc,
               "buffers '" + host.getName() + "' and '" + guest.getName() +
                   "' differ in their " + differs + " (S2)");
      d.attachNote(host.getLoc()) << "the host buffer";
      d.attachNote(guest.getLoc()) << "the buffer of '" << c << "'";
      return d;
    }

    // S3 and S4 on a copy whose storage is shared.
    OwningOpRef<KernelOp> copy = state.getKernel().clone();
    MoveState copyState(*copy, state.getOptions());
    (void)rewrite(copyState, request);
    if (std::optional<Overlap> overlap = findLifetimeOverlap(*copy, c))
      return lifetimeFailure(request, errorLoc, *overlap);
    return checkConcurrency(*copy, request, errorLoc, c);
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    KernelOp kernel = state.getKernel();
    auto [a, c] = StringRef(request.location).split(',');
    BufferOp host = kernel.lookupArray(a);
    BufferOp guest = kernel.lookupArray(c);
    unsigned k = getBufferIndex(kernel, guest);
    appendArray(host, c);
    guest.erase();
    return {"unshare_buffer", c.str(), {int64_t(k)}};
  }

private:
  /// S4 on `copy`, the kernel with the storage shared.
  static DiagnosedSilenceableFailure
  checkConcurrency(KernelOp copy, const MoveRequest &request,
                   Location errorLoc, StringRef guest) {
    DependenceAnalysis deps(copy);
    BufferOp buffer = copy.lookupArray(guest);
    DependenceOptions options{/*reassociate=*/false, /*concurrency=*/true};
    for (ScopeOp scope : collectScopes(copy)) {
      if (scope.getMode() == Mode::seq || scope.getMode() == Mode::unroll)
        continue;
      SmallVector<DepthRelation, 8> relations(scope.getDepth(),
                                              DepthRelation::Equal);
      relations.push_back(DepthRelation::NotEqual);
      SmallVector<LeafOp> leaves = collectLeaves(scope);
      for (LeafOp x : leaves)
        for (const PhysicalAccess &a : deps.getLeafAccesses(x).accesses)
          for (LeafOp y : leaves)
            for (const PhysicalAccess &b : deps.getLeafAccesses(y).accesses) {
              if (a.buffer != buffer || b.buffer != buffer ||
                  (a.array == guest) == (b.array == guest))
                continue;
              if (!deps.mayConflict(deps.getLeafAccesses(x), a,
                                    deps.getLeafAccesses(y), b, relations,
                                    options))
                continue;
              DiagnosedSilenceableFailure diag = fail(
                  request, errorLoc,
                  "two iterations of a parallel, vector or GPU scope would "
                  "conflict through the shared storage: " +
                      Conflict{x, y, &a, &b}.describe() + " (S4)");
              diag.attachNote(scope.getLoc()) << "the scope";
              return diag;
            }
    }
    return DiagnosedSilenceableFailure::success();
  }
};

class UnshareBuffer final : public MoveOf<MoveKind::UnshareBuffer, 1> {
public:
  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    KernelOp kernel = state.getKernel();
    for (BufferOp host : kernel.getBuffers()) {
      SmallVector<StringRef> names = host.getArrayNames();
      if (names.size() < 2)
        continue;
      out.push_back({getName().str(),
                     names.back().str(),
                     {int64_t(getBufferIndex(kernel, host)) + 1}});
    }
  }

  DiagnosedSilenceableFailure checkRequest(MoveState &state,
                                           const MoveRequest &request,
                                           Location errorLoc) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    KernelOp kernel = state.getKernel();
    StringRef c = request.location;
    BufferOp host = resolveArray(state, request, c, errorLoc, diag);
    if (!host)
      return diag;
    auto failAt = [&](BufferOp buffer, const Twine &message) {
      return failWithNote(request, errorLoc, message, buffer, "declared here");
    };
    SmallVector<StringRef> names = host.getArrayNames();
    if (names.size() < 2)
      return failAt(host, "'" + c + "' does not share its buffer");
    if (names.back() != c)
      return failAt(host, "'" + c + "' is not the last array of buffer '" +
                              host.getName() +
                              "'; unshare the arrays after it first");
    if (host.getName() == c || lookupBuffer(kernel, c))
      return failAt(host, "a buffer named '" + c +
                              "' already exists; the new buffer takes the "
                              "array's name");
    int64_t k = request.params[0];
    int64_t count = llvm::range_size(kernel.getBuffers());
    if (k < 0 || k > count)
      return fail(request, errorLoc,
                  "declaration position " + Twine(k) +
                      " must lie between 0 and the number of buffers " +
                      Twine(count));
    if (std::optional<Overlap> overlap = findLifetimeOverlap(kernel, c))
      return lifetimeFailure(request, errorLoc, *overlap);
    return DiagnosedSilenceableFailure::success();
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    KernelOp kernel = state.getKernel();
    StringRef c = request.location;
    BufferOp host = kernel.lookupArray(c);
    std::string first = host.getArrayNames().front().str();
    OpBuilder builder(kernel.getContext());
    SmallVector<BufferOp> buffers(kernel.getBuffers());
    unsigned k = request.params[0];
    if (k < buffers.size())
      builder.setInsertionPoint(buffers[k]);
    else
      builder.setInsertionPointAfter(buffers.back());
    BufferOp::create(builder, host.getLoc(), builder.getStringAttr(c),
                     TypeAttr::get(host.getElementType()),
                     host.getShapeAttr(), host.getPaddingAttr(),
                     host.getReusedAttr(), host.getLocationAttr(),
                     host.getRoleAttr(), builder.getStrArrayAttr({}));
    SmallVector<StringRef> names = host.getArrayNames();
    names.pop_back();
    if (names.size() == 1 && names.front() == host.getName())
      names.clear();
    host.setArraysAttr(builder.getStrArrayAttr(names));
    return {"share_buffer", first + "," + c.str(), {}};
  }
};

} // namespace

PERFDOJO_DEFINE_MOVE(ShareBuffer)
PERFDOJO_DEFINE_MOVE(UnshareBuffer)
