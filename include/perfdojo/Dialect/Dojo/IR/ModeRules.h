//===- ModeRules.h - the one taxonomy of scope modes -----------*- C++ -*-===//
//
// What each scope mode is and which modes nest in which, stated once. The
// dialect verifier (ScopeOp::verify), every `set_*` move and `clear_mode`,
// the lowerings and the search read these rules; none restates them.
//
//   mode  runs its iterations      may enclose             needs around it
//   seq   in order                 anything                -
//   :u    in order (replicated)    seq, :u, :v             -
//   :p    on CPU threads           seq, :u, :v             -
//   :v    as SIMD lanes            nothing: one leaf only  -
//   :g    on GPU blocks            seq, :u, :v, :g, :b, :w -
//   :b    on threads of a block    seq, :u, :v, :b, :w     a :g scope
//   :w    on lanes of a warp       seq, :u, :v, :w         a :b scope
//   :f    repeated by Snitch's     :u (straight-line FP    -
//         FREP sequencer           code only)
//
// `:p :v :g :b :w` are concurrent: their iterations may run at the same
// time, so their legality is a race-freedom condition (KernelInvariants.h).
// Which sizes a target accepts (vector lanes, unroll limit, block size, warp
// size) is the target's part (TargetDescription.h), not the IR's.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_DIALECT_DOJO_IR_MODERULES_H
#define PERFDOJO_DIALECT_DOJO_IR_MODERULES_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"

#include <optional>
#include <string>

namespace perfdojo::dojo {

/// Whether `mode` maps iterations to GPU hardware (`:g :b :w`).
bool isGpuMode(Mode mode);
/// Whether iterations of `mode` may run at the same time (`:p :v :g :b :w`).
bool isConcurrentMode(Mode mode);
/// Whether a scope of mode `outer` may enclose, at any depth, a scope of
/// mode `inner` (the table above; symmetric in what it forbids).
bool mayEnclose(Mode outer, Mode inner);
/// The mode some enclosing scope must have (`:b` needs `:g`, `:w` needs
/// `:b`), if any.
std::optional<Mode> getRequiredEnclosingMode(Mode mode);
/// `:p (parallel)`, `:b (GPU block)`, `plain` for seq: how messages name a
/// mode.
std::string describeMode(Mode mode);

/// A broken mode rule: the message, and the node a note should point at.
struct ModeRuleViolation {
  std::string message;
  mlir::Operation *other = nullptr;
  std::string note;
};

/// The first rule a scope of mode `mode` at the place of `scope` breaks
/// against its enclosing scopes (mayEnclose, getRequiredEnclosingMode) or
/// its body (`:v` holds exactly one leaf), or nullopt. The verifier calls it
/// for every scope with its own mode: since mayEnclose is checked from the
/// inner scope, every pair is seen once.
std::optional<ModeRuleViolation> findEnclosingModeViolation(ScopeOp scope,
                                                            Mode mode);
/// The first scope strictly inside `scope` that a scope of mode `mode` may
/// not enclose, as a violation, or nullopt. A move that sets `mode` on an
/// existing scope checks both this and findEnclosingModeViolation.
std::optional<ModeRuleViolation> findEnclosedModeViolation(ScopeOp scope,
                                                           Mode mode);

} // namespace perfdojo::dojo

#endif // PERFDOJO_DIALECT_DOJO_IR_MODERULES_H
