//===- LeafRef.h - leaves named stably across moves -------------*- C++ -*-===//
//
// Private to lib/Search: a rule that applies several moves keeps track of
// a leaf by the array it writes and its rank among that array's writers.
// Moves that restructure scopes (split, fission, interchange, modes) keep
// that name; a move that copies a leaf (cut_scope) renumbers the later
// writers of its array.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_LIB_SEARCH_LEAFREF_H
#define PERFDOJO_LIB_SEARCH_LEAFREF_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"

#include <string>

namespace perfdojo {
namespace heuristic {

/// A leaf named stably across moves: the `ordinal`-th leaf writing `array`.
struct LeafRef {
  std::string array;
  unsigned ordinal = 0;
};

/// The leaf `ref` names in `kernel`, or null.
inline dojo::LeafOp findLeaf(dojo::KernelOp kernel, const LeafRef &ref) {
  dojo::LeafOp found;
  unsigned seen = 0;
  kernel.walk([&](dojo::LeafOp leaf) {
    if (found || leaf.getArray() != ref.array)
      return;
    if (seen++ == ref.ordinal)
      found = leaf;
  });
  return found;
}

/// The stable name of `leaf` in `kernel`.
inline LeafRef getLeafRef(dojo::KernelOp kernel, dojo::LeafOp leaf) {
  LeafRef ref{leaf.getArray().str(), 0};
  bool done = false;
  kernel.walk([&](dojo::LeafOp other) {
    if (done || other.getArray() != ref.array)
      return;
    if (other == leaf)
      done = true;
    else
      ++ref.ordinal;
  });
  return ref;
}

} // namespace heuristic
} // namespace perfdojo

#endif // PERFDOJO_LIB_SEARCH_LEAFREF_H
