//===- Dependence.cpp - the shared dependence test over scope trees ------===//
//
// For a pair of accesses (a in leaf X at instance x, b in leaf Y at y):
//   1. filters: different storage, read/read, commuting reductions;
//   2. the system  x in box(X), y in box(Y), phys(a, x) == phys(b, y),
//      relations(x_k, y_k) for the constrained depths;
//   3. the relations substituted (y_k = x_k, y_k = x_k + d_k, ...), then
//      per-equality GCD and interval tests, each a cheap proof of emptiness;
//   4. an exact search over the substituted box, pruned by the equalities'
//      intervals (within a budget of visited nodes);
//   5. otherwise exact integer emptiness with presburger::IntegerPolyhedron.
// `NotEqual` splits into `Less` or `Greater`. A buffer private to the
// iterations of a scope at depth p (getPrivatizingScope) adds x_k = y_k for
// k <= p to its pairs: the privatizing coordinates are part of the address.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Analysis/Dependence.h"
#include "perfdojo/Analysis/Privatization.h"
#include "perfdojo/Dialect/Dojo/IR/TextSyntax.h"

#include "mlir/Analysis/Presburger/IntegerRelation.h"
#include "llvm/Support/MathExtras.h"

#include <functional>
#include <limits>
#include <numeric>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

DependenceAnalysis::DependenceAnalysis(KernelOp kernel) : kernel(kernel) {}

ScopeOp DependenceAnalysis::getPrivatizingScope(BufferOp buffer) {
  auto [it, inserted] = privatizing.try_emplace(buffer, ScopeOp());
  if (inserted)
    it->second = perfdojo::getPrivatizingScope(kernel, buffer);
  return it->second;
}

static PhysicalAccess makeAccess(DependenceAnalysis &analysis,
                                 KernelOp kernel, AccessKind kind,
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
  if (ScopeOp scope = analysis.getPrivatizingScope(access.buffer))
    access.privateDepths = scope.getDepth() + 1;
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
      *this, kernel, reduces ? AccessKind::Reduce : AccessKind::Write,
      leaf.getReduce(), -1, leaf.getArray(), leaf.getIndices()));
  for (auto [j, input] : llvm::enumerate(leaf.getInputs()))
    if (auto access = dyn_cast<AccessAttr>(input))
      slot->accesses.push_back(makeAccess(*this, kernel, AccessKind::Read,
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
  PairSystem(const LeafAccesses &x, const LeafAccesses &y, bool fastPaths)
      : x(x), y(y), nx(x.sizes.size()), ny(y.sizes.size()),
        fastPaths(fastPaths) {}

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

  /// Whether the system with `relations` has an integer solution: the
  /// cheap exact paths (unless `fastPaths` is off), then, where they give
  /// up and `exact` is set, Presburger emptiness; nullopt if undecided.
  std::optional<bool> decide(ArrayRef<DepthRelation> relations, bool exact) {
    // NotEqual is the union of Less and Greater.
    for (auto [k, rel] : llvm::enumerate(relations)) {
      if (rel != DepthRelation::NotEqual)
        continue;
      SmallVector<DepthRelation, 8> split(relations.begin(), relations.end());
      split[k] = DepthRelation::Less;
      std::optional<bool> less = decide(split, exact);
      if (less && *less)
        return true;
      split[k] = DepthRelation::Greater;
      std::optional<bool> greater = decide(split, exact);
      if (greater && *greater)
        return true;
      if (!less || !greater)
        return std::nullopt;
      return false;
    }
    if (fastPaths)
      if (std::optional<Substituted> system = substitute(relations)) {
        if (provablyEmpty(*system))
          return false;
        if (std::optional<bool> found = search(*system))
          return *found;
      }
    if (!exact)
      return std::nullopt;
    return !buildPolyhedron(relations).isIntegerEmpty();
  }

private:
  /// One variable of the search: its value lies in [lo, hi], and, for the
  /// distance d_k standing for y_k = x_k + d_k (x_k = y_k + d_k), at most
  /// `hi` minus the value of its `base` (x_k, resp. y_k).
  struct SearchVar {
    int64_t lo = 0, hi = 0;
    int base = -1;
    bool present = true;
  };

  /// The system after substituting the depth relations: y_k = x_k for
  /// Equal (one variable), y_k = x_k + d_k with d_k >= 1 for Less, x_k =
  /// y_k + d_k for Greater. On the systems moves ask about, where both
  /// sides share their outer iterations, their coefficients cancel and
  /// those depths leave the equalities. Each variable's static range is a
  /// superset of its values (a distance's also depends on its base).
  struct Substituted {
    SmallVector<SearchVar, 16> vars;
    SmallVector<SmallVector<int64_t, 16>, 4> rows;
  };
  std::optional<Substituted> substitute(ArrayRef<DepthRelation> relations) {
    Substituted system;
    SmallVector<SearchVar, 16> &vars = system.vars;
    SmallVector<SmallVector<int64_t, 16>, 4> &rows = system.rows;
    vars.resize(nx + ny);
    for (unsigned k = 0; k < nx; ++k)
      vars[k].hi = x.sizes[k] - 1;
    for (unsigned k = 0; k < ny; ++k)
      vars[nx + k].hi = y.sizes[k] - 1;
    rows = equalities;
    // Folds column `from` into column `to` (the substitution of one
    // variable by another plus a distance keeps `from` as the distance).
    auto fold = [&](unsigned from, unsigned to, bool keepFrom) {
      for (SmallVector<int64_t, 16> &row : rows) {
        if (llvm::AddOverflow(row[to], row[from], row[to]))
          return false;
        if (!keepFrom)
          row[from] = 0;
      }
      return true;
    };
    for (auto [k, rel] : llvm::enumerate(relations)) {
      if (k >= nx || k >= ny)
        break;
      unsigned xk = k, yk = nx + k;
      switch (rel) {
      case DepthRelation::Any:
      case DepthRelation::NotEqual: // split before we get here
        continue;
      case DepthRelation::Equal:
        if (!fold(yk, xk, /*keepFrom=*/false))
          return std::nullopt;
        vars[xk].hi = std::min(vars[xk].hi, vars[yk].hi);
        vars[yk].present = false;
        continue;
      case DepthRelation::Less: // y_k = x_k + d_k
        if (!fold(yk, xk, /*keepFrom=*/true))
          return std::nullopt;
        vars[yk] = {1, vars[yk].hi, int(xk), true};
        continue;
      case DepthRelation::Greater: // x_k = y_k + d_k
        if (!fold(xk, yk, /*keepFrom=*/true))
          return std::nullopt;
        vars[xk] = {1, vars[xk].hi, int(yk), true};
        continue;
      }
    }
    // A base outside every equality only bounds its distance, most loosely
    // at 0.
    auto inRows = [&](unsigned v) {
      return llvm::any_of(rows, [&](const auto &row) { return row[v] != 0; });
    };
    for (SearchVar &var : vars)
      if (var.present && var.base >= 0 && !inRows(var.base))
        vars[var.base].hi = std::min<int64_t>(vars[var.base].hi, 0);
    return system;
  }

  /// GCD and interval tests per equality of the substituted system
  /// (substitute: x_k and y_k one variable for Equal, y_k = x_k + d_k with
  /// d_k >= 1 for Less), which settles the common "different iterations
  /// touch different elements" case without a search. Sound: each proves
  /// emptiness of a superset.
  bool provablyEmpty(const Substituted &system) {
    for (const SmallVector<int64_t, 16> &row : system.rows) {
      int64_t constant = row.back();
      int64_t g = 0, lo = constant, hi = constant;
      bool overflow = false;
      ArrayRef<int64_t> coeffs = ArrayRef<int64_t>(row).drop_back();
      for (auto [c, var] : llvm::zip(coeffs, system.vars)) {
        if (!var.present)
          continue;
        if (var.lo > var.hi)
          return true; // an empty range (a distance in a scope of size 1)
        if (c == 0)
          continue;
        g = std::gcd(g, c < 0 ? -c : c);
        int64_t atLower, atUpper;
        overflow |= llvm::MulOverflow(c, var.lo, atLower);
        overflow |= llvm::MulOverflow(c, var.hi, atUpper);
        overflow |= llvm::AddOverflow(lo, std::min(atLower, atUpper), lo);
        overflow |= llvm::AddOverflow(hi, std::max(atLower, atUpper), hi);
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

  /// Exact depth-first search for an integer solution of the substituted
  /// system. The variables split into independent components (linked by
  /// sharing an equality, or d_k with its base), the system is feasible
  /// iff each is, and each is searched alone, the variables of largest
  /// reach (|coefficient| times range) first: on mixed-radix addresses
  /// (splits of splits) each choice then narrows the rest to a few values
  /// through each equality's interval. Nullopt if it visits more than a
  /// fixed budget of nodes (then the exact Presburger test decides).
  std::optional<bool> search(const Substituted &system) {
    unsigned nvars = nx + ny;
    ArrayRef<SearchVar> vars = system.vars;
    ArrayRef<SmallVector<int64_t, 16>> rows = system.rows;
    // Components: union-find over the variables.
    SmallVector<unsigned, 16> parent(nvars);
    for (unsigned v = 0; v < nvars; ++v)
      parent[v] = v;
    std::function<unsigned(unsigned)> root = [&](unsigned v) {
      return parent[v] == v ? v : parent[v] = root(parent[v]);
    };
    auto join = [&](unsigned a, unsigned b) { parent[root(a)] = root(b); };
    for (const SmallVector<int64_t, 16> &row : rows) {
      std::optional<unsigned> first;
      for (unsigned v = 0; v < nvars; ++v)
        if (row[v] != 0) {
          if (first)
            join(*first, v);
          else
            first = v;
        }
      // A row without variables holds iff its constant is 0.
      if (!first && row.back() != 0)
        return false;
    }
    for (unsigned v = 0; v < nvars; ++v)
      if (vars[v].present && vars[v].base >= 0)
        join(v, vars[v].base);
    // The reach of a variable: how far it can move some equality's sum.
    auto reach = [&](unsigned v) {
      int64_t most = 0;
      for (const SmallVector<int64_t, 16> &row : rows) {
        int64_t c = row[v] < 0 ? -row[v] : row[v], term;
        if (llvm::MulOverflow(c, vars[v].hi - vars[v].lo, term))
          return std::numeric_limits<int64_t>::max();
        most = std::max(most, term);
      }
      return most;
    };
    int64_t budget = int64_t(1) << 16;
    SmallVector<bool, 16> done(nvars, false);
    for (unsigned v = 0; v < nvars; ++v) {
      if (!vars[v].present)
        continue;
      unsigned component = root(v);
      if (done[component])
        continue;
      done[component] = true;
      // Depth order (x_0, y_0, x_1, ...), then largest reach first, a
      // distance's base before it.
      SmallVector<unsigned, 16> order;
      auto take = [&](unsigned u) {
        if (vars[u].present && root(u) == component)
          order.push_back(u);
      };
      for (unsigned k = 0; k < std::max(nx, ny); ++k) {
        if (k < nx)
          take(k);
        if (k < ny)
          take(nx + k);
      }
      SmallVector<int64_t, 16> reaches(nvars, 0);
      for (unsigned u : order)
        reaches[u] = reach(u);
      for (unsigned u : order)
        if (vars[u].base >= 0)
          reaches[vars[u].base] =
              std::max(reaches[vars[u].base], reaches[u]);
      // A base reaches at least as far as its distance and goes first on a
      // tie, so it is chosen before the distance's range is needed.
      SmallVector<unsigned, 16> position(nvars, 0);
      for (auto [i, u] : llvm::enumerate(order))
        position[u] = i;
      llvm::sort(order, [&](unsigned a, unsigned b) {
        return std::make_tuple(-reaches[a], vars[a].base >= 0, position[a]) <
               std::make_tuple(-reaches[b], vars[b].base >= 0, position[b]);
      });
      SmallVector<unsigned, 4> rowsHere;
      for (unsigned r = 0; r < rows.size(); ++r)
        if (llvm::any_of(order, [&](unsigned u) { return rows[r][u]; }))
          rowsHere.push_back(r);
      std::optional<bool> found =
          searchComponent(vars, rows, order, rowsHere, budget);
      if (!found || !*found)
        return found;
    }
    return true;
  }

  /// The search of one component: `order` its variables, `rowIds` the
  /// equalities over them; `budget` nodes left, shared by all components.
  static std::optional<bool>
  searchComponent(ArrayRef<SearchVar> vars,
                  ArrayRef<SmallVector<int64_t, 16>> rows,
                  ArrayRef<unsigned> order, ArrayRef<unsigned> rowIds,
                  int64_t &budget) {
    unsigned n = order.size(), nrows = rowIds.size();
    // suffixLo[r][i], suffixHi[r][i]: range of row r's terms over order[i..]
    // (a distance over its widest range: a superset, sound for pruning).
    SmallVector<SmallVector<int64_t, 16>, 4> suffixLo(nrows), suffixHi(nrows);
    for (unsigned r = 0; r < nrows; ++r) {
      suffixLo[r].assign(n + 1, 0);
      suffixHi[r].assign(n + 1, 0);
      for (unsigned i = n; i-- > 0;) {
        const SearchVar &var = vars[order[i]];
        int64_t c = rows[rowIds[r]][order[i]], atLo, atHi;
        if (llvm::MulOverflow(c, var.lo, atLo) ||
            llvm::MulOverflow(c, var.hi, atHi))
          return std::nullopt;
        if (llvm::AddOverflow(suffixLo[r][i + 1], std::min(atLo, atHi),
                              suffixLo[r][i]) ||
            llvm::AddOverflow(suffixHi[r][i + 1], std::max(atLo, atHi),
                              suffixHi[r][i]))
          return std::nullopt;
      }
    }
    SmallVector<int64_t, 16> value(vars.size(), 0);
    SmallVector<int64_t, 4> partial(nrows);
    for (unsigned r = 0; r < nrows; ++r)
      partial[r] = rows[rowIds[r]].back();
    // Returns 1 if a solution exists below, 0 if not, -1 if out of budget.
    std::function<int(unsigned)> visit = [&](unsigned i) -> int {
      if (--budget < 0)
        return -1;
      for (unsigned r = 0; r < nrows; ++r)
        if (partial[r] + suffixLo[r][i] > 0 || partial[r] + suffixHi[r][i] < 0)
          return 0;
      if (i == n)
        return 1;
      unsigned v = order[i];
      int64_t lo = vars[v].lo, hi = vars[v].hi;
      if (vars[v].base >= 0)
        hi -= value[vars[v].base];
      // Bound propagation: a value from which some row's sum can no longer
      // reach 0, whatever the later variables take, is not tried: c * val
      // must lie in [-partial - suffixHi, -partial - suffixLo].
      for (unsigned r = 0; r < nrows && lo <= hi; ++r) {
        __int128 c = rows[rowIds[r]][v];
        if (c == 0)
          continue;
        __int128 a = -__int128(partial[r]) - suffixHi[r][i + 1],
                 b = -__int128(partial[r]) - suffixLo[r][i + 1];
        if (c < 0) {
          std::swap(a, b);
          a = -a;
          b = -b;
          c = -c;
        }
        // c > 0: val in [ceil(a / c), floor(b / c)].
        __int128 first = a >= 0 ? (a + c - 1) / c : -((-a) / c);
        __int128 last = b >= 0 ? b / c : -((-b + c - 1) / c);
        if (first > lo)
          lo = first > hi ? hi + 1 : int64_t(first);
        if (last < hi)
          hi = last < lo ? lo - 1 : int64_t(last);
      }
      for (int64_t val = lo; val <= hi; ++val) {
        value[v] = val;
        for (unsigned r = 0; r < nrows; ++r)
          partial[r] += rows[rowIds[r]][v] * val;
        int found = visit(i + 1);
        for (unsigned r = 0; r < nrows; ++r)
          partial[r] -= rows[rowIds[r]][v] * val;
        if (found != 0)
          return found;
      }
      return 0;
    };
    int found = visit(0);
    if (found < 0)
      return std::nullopt;
    return found == 1;
  }

public:
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

private:
  const LeafAccesses &x, &y;
  unsigned nx, ny;
  bool fastPaths;
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
  // A private buffer: only instances of one execution of the privatizing
  // scope's body share a copy (both accesses lie below that scope).
  SmallVector<DepthRelation, 8> constrained(relations.begin(),
                                            relations.end());
  unsigned priv = a.privateDepths;
  if (priv > 0 && priv <= x.sizes.size() && priv <= y.sizes.size()) {
    if (constrained.size() < priv)
      constrained.resize(priv, DepthRelation::Any);
    for (unsigned k = 0; k < priv; ++k) {
      if (constrained[k] == DepthRelation::Any)
        constrained[k] = DepthRelation::Equal;
      else if (constrained[k] != DepthRelation::Equal)
        return false; // different copies
    }
  }
  return mayTouchSameElement(x, a, y, b, constrained, options.fastPaths);
}

bool perfdojo::mayTouchSameElement(const LeafAccesses &x,
                                   const PhysicalAccess &a,
                                   const LeafAccesses &y,
                                   const PhysicalAccess &b,
                                   ArrayRef<DepthRelation> relations,
                                   bool fastPaths) {
  if (a.buffer != b.buffer)
    return false;
  PairSystem system(x, y, fastPaths);
  system.addIndexEqualities(a, b);
  return *system.decide(relations, /*exact=*/true);
}

std::optional<bool> perfdojo::decideWithoutPresburger(
    const LeafAccesses &x, const PhysicalAccess &a, const LeafAccesses &y,
    const PhysicalAccess &b, ArrayRef<DepthRelation> relations) {
  if (a.buffer != b.buffer)
    return false;
  PairSystem system(x, y, /*fastPaths=*/true);
  system.addIndexEqualities(a, b);
  return system.decide(relations, /*exact=*/false);
}

presburger::IntegerPolyhedron
perfdojo::getSameElementPairs(const LeafAccesses &x, const PhysicalAccess &a,
                              const LeafAccesses &y, const PhysicalAccess &b,
                              ArrayRef<DepthRelation> relations) {
  PairSystem system(x, y, /*fastPaths=*/false);
  system.addIndexEqualities(a, b);
  return system.buildPolyhedron(relations);
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
