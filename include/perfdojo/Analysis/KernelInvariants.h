//===- KernelInvariants.h - the rules every kernel keeps --------*- C++ -*-===//
//
// Modes and locations never change results. The rules that make that true
// need the whole tree (and, for races, the dependence test), so they are
// pure analyses here, each written once and run in two places:
//   * the dialect verifier (KernelOp::verifyRegions) runs every rule on every
//     kernel, hand-written ones included, and reports the first violation
//     at its op, naming the rule;
//   * the move engine runs the same functions on the result of a move
//     (post-verification, Moves/Move.cpp) and blames the move.
//
//   rule                  what it demands (docs/ir.md, "Kernel invariants")
//   :N dimension          a non-materialized dimension only ever holds one
//                         live slot (NM2-NM4 of docs/moves.md 3.1)
//   register addressing   a `reg` buffer is indexed by constants, `:u`
//                         variables and the `:v` lane only (B8)
//   one block shape       every phase of a GPU kernel has the same `:b` sizes
//   race freedom          no two instances of a `:p :g :b :w` scope that
//                         may run at the same time conflict; no lane of a
//                         `:v` scope reads what an earlier lane writes
//                         (Concurrency.h)
//   SSR streams           stream marks walk a perfect chain of at most 4
//                         levels without hazards (SnitchRules.h)
//   FREP body             a `:f` body is FP code over streams and
//                         registers that fits the sequencer (SnitchRules.h)
// The nesting of modes is a rule of single scopes (ModeRules.h) checked by
// ScopeOp::verify.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_ANALYSIS_KERNELINVARIANTS_H
#define PERFDOJO_ANALYSIS_KERNELINVARIANTS_H

#include "perfdojo/Analysis/Dependence.h"

#include <optional>
#include <string>

namespace perfdojo {

enum class InvariantRule {
  ReusedDimension,
  RegisterAddressing,
  VectorLanes,
  BlockShape,
  RaceFreedom,
  Streams,
  Frep,
};

/// The rule's name as diagnostics write it, e.g. "race freedom".
llvm::StringRef getInvariantRuleName(InvariantRule rule);

/// A broken invariant: which rule, the op it is reported at, what breaks it
/// (`subject`: "the :p scope", "dimension 0 of 't'"), the one wording of
/// why (`reason`), and notes on the other ops involved. The verifier prints
/// "violates <rule> (<subject>): <reason>"; a move names the subject as the
/// user sees it before the move and keeps the reason.
struct InvariantViolation {
  InvariantRule rule;
  mlir::Operation *at = nullptr;
  std::string subject;
  std::string reason;
  llvm::SmallVector<std::pair<mlir::Location, std::string>, 3> notes = {};

  /// Attaches the notes to a diagnostic (InFlightDiagnostic or
  /// DiagnosedSilenceableFailure).
  template <typename Diag> void attachNotes(Diag &diag) const {
    for (const auto &[loc, what] : notes)
      diag.attachNote(loc) << what;
  }
};

/// The `:N` invariant for dimension `k` of `buffer` as the kernel stands
/// (whether or not `k` is marked: expand_dim and collapse_dim ask it of a
/// materialized dimension that could be folded).
std::optional<InvariantViolation>
findReusedDimViolation(dojo::KernelOp kernel, dojo::BufferOp buffer,
                       unsigned k);

/// The first access to `buffer` whose address would not be known at compile
/// time in registers (whether or not `buffer` is in `reg` yet: set_location
/// asks it before the move): a materialized dimension indexed by a variable
/// other than a `:u` scope's or a size-1 scope's, except the `:v` lane with
/// coefficient 1 in the innermost materialized dimension.
std::optional<InvariantViolation>
findRegisterAddressingViolation(dojo::KernelOp kernel, dojo::BufferOp buffer);

/// The vector access shape of the leaf of the `:v` scope `scope` in the
/// physical layout: the output moves by 1 element per lane; an operand
/// moves by any stride (0: one broadcast load, 1: a vector load, another:
/// the lanes loaded one by one into a vector, a transposing copy's read).
/// Not a rule of the IR (the lowering scatters other output strides lane by
/// lane, with the same result): the shape the vector moves keep
/// (set_vector offers only it, layout moves preserve it), so that a `:v`
/// leaf stores whole vectors.
std::optional<InvariantViolation> findVectorLaneViolation(dojo::ScopeOp scope);

/// Two phases of one GPU kernel with different `:b` sizes
/// (findBlockShapeMismatch).
std::optional<InvariantViolation> findBlockShapeViolation(dojo::KernelOp kernel);

/// A conflict between two instances of the concurrent scope `scope` that may
/// run at the same time (getConcurrencyQuery), reductions racing; for `:v`
/// the lane rule (findLaneConflict), whose reductions into one element need
/// `reassociate` (the reduction policy; the IR's default is on).
std::optional<InvariantViolation> findRaceViolation(DependenceAnalysis &deps,
                                                    dojo::ScopeOp scope,
                                                    bool reassociate = true);

/// The first broken stream or FREP rule (SnitchRules.h), in execution
/// order, or nullopt.
std::optional<InvariantViolation> findSnitchViolation(dojo::KernelOp kernel);

/// The first violation of any rule, in the order of the table above (per
/// rule in execution order), or nullopt.
std::optional<InvariantViolation>
findKernelInvariantViolation(dojo::KernelOp kernel);

} // namespace perfdojo

#endif // PERFDOJO_ANALYSIS_KERNELINVARIANTS_H
