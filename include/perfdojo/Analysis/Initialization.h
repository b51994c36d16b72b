//===- Initialization.h - every element read was written before -*- C++ -*-===//
//
// Only `in` and `inout` buffers hold data when a kernel starts; every other
// element (outputs, scratch) is undefined until a leaf writes it
// (docs/ir.md, "Initial contents"). Two element-precise questions follow,
// and both are decided exactly here (S10 and S11 of docs/ir.md):
//
//   * every element an `out` or internal array is read at, at an instance
//     i of a leaf (the read half of `+= *= max= min=` included), is written
//     by a leaf instance that runs before i in the semantic order (siblings
//     in text order, iterations ascending; modes do not change it);
//   * every element of an `out` buffer's logical index space is written by
//     some leaf instance (the caller reads them all).
//
// Elements are physical, as in the dependence test (Dependence.h): arrays
// of one buffer share storage, a `:N` dimension has one slot, padding is
// storage like any other. So a read is initialized when its storage was
// written before, whichever array wrote it; that it is the *right* value
// (one live slot per `:N` dimension) is the `:N` invariant's question.
//
// The question per read is "box(L) minus the union over writers W and
// disjuncts of 'W's instance runs first' of the instances whose element W
// writes", a Presburger set difference of the dependence test's pair
// systems (getSameElementPairs) with the writer's variables projected out.
// A syntactic cover (Privatization.h, coversRead: an earlier leaf writes,
// in every shared iteration, everything the read reads there) settles most
// reads without it. A question too large for the exact test within fixed
// limits is not reported: a correct kernel is never rejected.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_ANALYSIS_INITIALIZATION_H
#define PERFDOJO_ANALYSIS_INITIALIZATION_H

#include "perfdojo/Analysis/Dependence.h"

#include <optional>
#include <string>

namespace perfdojo {

/// A read of an element nothing wrote before, or an output element nothing
/// writes: the op it is reported at (the reading leaf, the output buffer),
/// the message naming the array, the element and the instance, and notes on
/// the declaration and the leaves that write the array.
struct InitializationViolation {
  mlir::Operation *at = nullptr;
  std::string message;
  llvm::SmallVector<std::pair<mlir::Location, std::string>, 4> notes = {};

  /// Attaches the notes to a diagnostic (InFlightDiagnostic or
  /// DiagnosedSilenceableFailure).
  template <typename Diag> void attachNotes(Diag &diag) const {
    for (const auto &[loc, what] : notes)
      diag.attachNote(loc) << what;
  }
};

/// The first read, in execution order, of an element of an `out` or
/// internal array (the read half of a reduction included) that no earlier
/// leaf instance writes, e.g. "reads t[3] at {0}=3, which no earlier leaf
/// writes".
std::optional<InitializationViolation>
findUninitializedRead(dojo::KernelOp kernel, DependenceAnalysis &deps);

/// The first `out` buffer, in declaration order, with an element that no
/// leaf instance writes.
std::optional<InitializationViolation>
findUnwrittenOutput(dojo::KernelOp kernel, DependenceAnalysis &deps);

/// Both questions, reads first: what the verifier reports (S10, S11).
std::optional<InitializationViolation>
findInitializationViolation(dojo::KernelOp kernel);

} // namespace perfdojo

#endif // PERFDOJO_ANALYSIS_INITIALIZATION_H
