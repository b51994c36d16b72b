//===- Dependence.cpp - the shared dependence test over scope trees ------===//
//
// For a pair of accesses (a in leaf X at instance x, b in leaf Y at y):
//   1. filters: different storage, read/read, commuting reductions;
//   2. the system  x in box(X), y in box(Y), phys(a, x) == phys(b, y),
//      relations(x_k, y_k) for the constrained depths;
//   3. per-equality GCD and interval tests, each a cheap proof of emptiness;
//   4. otherwise exact integer emptiness with presburger::IntegerPolyhedron.
// `NotEqual` splits into `Less` or `Greater`.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Analysis/Dependence.h"
#include "perfdojo/Dialect/Dojo/IR/TextSyntax.h"

#include "mlir/Analysis/Presburger/IntegerRelation.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

SmallVector<LeafOp> perfdojo::collectLeaves(Operation *op) {
  SmallVector<LeafOp> leaves;
  op->walk<WalkOrder::PreOrder>([&](LeafOp leaf) { leaves.push_back(leaf); });
  return leaves;
}

DependenceAnalysis::DependenceAnalysis(KernelOp kernel) : kernel(kernel) {}

static PhysicalAccess makeAccess(KernelOp kernel, AccessKind kind,
                                 ReduceKind reduce, int operand,
                                 StringRef array, AffineMap map) {
  PhysicalAccess access;
  access.kind = kind;
  access.reduce = reduce;
  access.operand = operand;
  access.array = array;
  access.buffer = kernel.lookupArray(array);
  for (auto [d, e] : llvm::enumerate(map.getResults()))
    if (!access.buffer.getReused()[d])
      access.indices.push_back(*getLinearForm(e));
  return access;
}

const LeafAccesses &DependenceAnalysis::getLeafAccesses(LeafOp leaf) {
  std::unique_ptr<LeafAccesses> &slot = cache[leaf];
  if (slot)
    return *slot;
  slot = std::make_unique<LeafAccesses>();
  slot->leaf = leaf;
  for (auto scope = leaf->getParentOfType<ScopeOp>(); scope;
       scope = scope->getParentOfType<ScopeOp>())
    slot->sizes.insert(slot->sizes.begin(), scope.getSize());
  bool reduces = leaf.getReduce() != ReduceKind::none;
  slot->accesses.push_back(makeAccess(
      kernel, reduces ? AccessKind::Reduce : AccessKind::Write,
      leaf.getReduce(), -1, leaf.getArray(), leaf.getIndices()));
  for (auto [j, input] : llvm::enumerate(leaf.getInputs()))
    if (auto access = dyn_cast<AccessAttr>(input))
      slot->accesses.push_back(makeAccess(kernel, AccessKind::Read,
                                          ReduceKind::none, j,
                                          access.getArray().getValue(),
                                          access.getIndices()));
  return *slot;
}

namespace {
/// Builds and decides one system over the variables (x_0..x_nx-1,
/// y_0..y_ny-1).
class PairSystem {
public:
  PairSystem(const LeafAccesses &x, const LeafAccesses &y)
      : x(x), y(y), nx(x.sizes.size()), ny(y.sizes.size()) {}

  /// One row `sum coeffs * vars + constant == 0` per materialized dim.
  void addIndexEqualities(const PhysicalAccess &a, const PhysicalAccess &b) {
    for (auto [fa, fb] : llvm::zip(a.indices, b.indices)) {
      SmallVector<int64_t, 16> row(nx + ny + 1, 0);
      for (unsigned k = 0; k < nx; ++k)
        row[k] = fa.coeff(k);
      for (unsigned k = 0; k < ny; ++k)
        row[nx + k] = -fb.coeff(k);
      row.back() = fa.constant - fb.constant;
      equalities.push_back(std::move(row));
    }
  }

  /// Whether the system with `relations` has an integer solution.
  bool feasible(ArrayRef<DepthRelation> relations) {
    // NotEqual is the union of Less and Greater.
    for (auto [k, rel] : llvm::enumerate(relations)) {
      if (rel != DepthRelation::NotEqual)
        continue;
      SmallVector<DepthRelation, 8> split(relations.begin(), relations.end());
      split[k] = DepthRelation::Less;
      if (feasible(split))
        return true;
      split[k] = DepthRelation::Greater;
      return feasible(split);
    }
    if (provablyEmpty(relations))
      return false;
    return !buildPolyhedron(relations).isIntegerEmpty();
  }

private:
  /// GCD and interval tests per equality, with x_k and y_k identified for
  /// depths related by Equal. Sound: each proves emptiness of a superset.
  bool provablyEmpty(ArrayRef<DepthRelation> relations) {
    for (const SmallVector<int64_t, 16> &row : equalities) {
      SmallVector<int64_t, 16> coeffs(row.begin(), row.end() - 1);
      SmallVector<int64_t, 16> extents;
      for (unsigned k = 0; k < nx; ++k)
        extents.push_back(x.sizes[k]);
      for (unsigned k = 0; k < ny; ++k)
        extents.push_back(y.sizes[k]);
      for (auto [k, rel] : llvm::enumerate(relations)) {
        if (rel != DepthRelation::Equal)
          continue;
        coeffs[k] += coeffs[nx + k];
        coeffs[nx + k] = 0;
        extents[k] = std::min(extents[k], extents[nx + k]);
      }
      int64_t constant = row.back();
      int64_t g = 0, lo = constant, hi = constant;
      bool overflow = false;
      for (auto [c, extent] : llvm::zip(coeffs, extents)) {
        if (c == 0)
          continue;
        g = std::gcd(g, c < 0 ? -c : c);
        int64_t term;
        overflow |= llvm::MulOverflow(c, extent - 1, term);
        overflow |= c > 0 ? llvm::AddOverflow(hi, term, hi)
                          : llvm::AddOverflow(lo, term, lo);
      }
      if (overflow)
        continue; // let the exact test decide
      if (g == 0 ? constant != 0 : constant % g != 0)
        return true;
      if (lo > 0 || hi < 0)
        return true;
    }
    return false;
  }

  presburger::IntegerPolyhedron
  buildPolyhedron(ArrayRef<DepthRelation> relations) {
    unsigned n = nx + ny;
    presburger::IntegerPolyhedron poly(
        presburger::PresburgerSpace::getSetSpace(n));
    for (unsigned k = 0; k < nx; ++k) {
      poly.addBound(presburger::BoundType::LB, k, 0);
      poly.addBound(presburger::BoundType::UB, k, x.sizes[k] - 1);
    }
    for (unsigned k = 0; k < ny; ++k) {
      poly.addBound(presburger::BoundType::LB, nx + k, 0);
      poly.addBound(presburger::BoundType::UB, nx + k, y.sizes[k] - 1);
    }
    for (const SmallVector<int64_t, 16> &row : equalities)
      poly.addEquality(row);
    for (auto [k, rel] : llvm::enumerate(relations)) {
      SmallVector<int64_t, 16> row(n + 1, 0);
      switch (rel) {
      case DepthRelation::Any:
      case DepthRelation::NotEqual: // split before we get here
        continue;
      case DepthRelation::Equal:
        row[k] = 1;
        row[nx + k] = -1;
        poly.addEquality(row);
        continue;
      case DepthRelation::Less: // y_k - x_k - 1 >= 0
        row[k] = -1;
        row[nx + k] = 1;
        row[n] = -1;
        poly.addInequality(row);
        continue;
      case DepthRelation::Greater: // x_k - y_k - 1 >= 0
        row[k] = 1;
        row[nx + k] = -1;
        row[n] = -1;
        poly.addInequality(row);
        continue;
      }
    }
    return poly;
  }

  const LeafAccesses &x, &y;
  unsigned nx, ny;
  SmallVector<SmallVector<int64_t, 16>, 4> equalities;
};
} // namespace

bool DependenceAnalysis::mayConflict(const LeafAccesses &x,
                                     const PhysicalAccess &a,
                                     const LeafAccesses &y,
                                     const PhysicalAccess &b,
                                     ArrayRef<DepthRelation> relations,
                                     DependenceOptions options) {
  if (a.buffer != b.buffer)
    return false;
  if (a.kind == AccessKind::Read && b.kind == AccessKind::Read)
    return false;
  if (!options.concurrency && options.reassociate &&
      a.kind == AccessKind::Reduce && b.kind == AccessKind::Reduce &&
      a.reduce == b.reduce)
    return false;
  // Relations may only constrain depths both instances have.
  if (relations.size() > x.sizes.size() || relations.size() > y.sizes.size())
    return true; // caller error: fail closed
  PairSystem system(x, y);
  system.addIndexEqualities(a, b);
  return system.feasible(relations);
}

std::optional<Conflict>
DependenceAnalysis::findConflict(ArrayRef<LeafOp> xs, ArrayRef<LeafOp> ys,
                                 ArrayRef<DepthRelation> relations,
                                 DependenceOptions options) {
  for (LeafOp xLeaf : xs) {
    const LeafAccesses &x = getLeafAccesses(xLeaf);
    for (LeafOp yLeaf : ys) {
      const LeafAccesses &y = getLeafAccesses(yLeaf);
      for (const PhysicalAccess &a : x.accesses)
        for (const PhysicalAccess &b : y.accesses)
          if (mayConflict(x, a, y, b, relations, options))
            return Conflict{xLeaf, yLeaf, &a, &b};
    }
  }
  return std::nullopt;
}

static StringRef kindName(AccessKind kind) {
  switch (kind) {
  case AccessKind::Read:
    return "read";
  case AccessKind::Write:
    return "write";
  case AccessKind::Reduce:
    return "reduction";
  }
  return "";
}

std::string Conflict::describe() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto one = [&](LeafOp leaf, const PhysicalAccess *access) {
    os << kindName(access->kind) << " of '" << access->array << "' in `";
    printStatement(os, leaf);
    os << "`";
  };
  one(first, firstAccess);
  os << " conflicts with the ";
  one(second, secondAccess);
  return text;
}
