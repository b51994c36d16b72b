//===- SnitchRules.h - when streams and FREP keep a kernel's meaning -*- C++ -*-===//
//
// The rules of Snitch's stream marks (`x[...]:s<e>`, docs/ir.md "Stream
// marks") and FREP scopes (`:f`), written once: the verifier holds every
// kernel to them (KernelInvariants.h), the `set_ssr` and `set_frep` moves
// check them and post-verification re-runs them after every move, and the
// Snitch lowering reads the stream patterns and instruction counts from
// here. The hardware numbers are the default core's (SnitchCore.h).
//
//   streams (S1-S6 of docs/moves.md, F1)
//     S1 a streamed operand is an access to an f64 array outside `reg`
//        (an SSR element is 64 bits; registers need no stream);
//     S2 every streamed operand of a leaf starts at one depth e below the
//        leaf, and the scopes from depth e to the leaf form a perfect chain
//        of plain, `:u` or `:f` scopes with at most 4 of size > 1, each of
//        at most 2^17 iterations (the data mover's loop levels);
//     S5 a streamed output is written, not reduced (a reduction reads its
//        output: keep it in a `reg` buffer);
//     S6 no streamed input reads the buffer the leaf writes, and a streamed
//        output's buffer is not read by the leaf (read streams prefetch,
//        write streams drain late).
//   FREP bodies (F2-F5 of docs/moves.md, F2)
//     the body of a `:f` scope is straight-line (leaves and `:u` scopes,
//     ModeRules.h); each leaf is FP code the sequencer can repeat: no index
//     values, no transcendental, every array operand a stream whose region
//     encloses the scope or an element of a `reg` buffer, all in the
//     output's type; the unrolled body has at most 16 FP instructions.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_ANALYSIS_SNITCHRULES_H
#define PERFDOJO_ANALYSIS_SNITCHRULES_H

#include "perfdojo/Analysis/KernelInvariants.h"

namespace perfdojo {

/// The address walk of a streamed operand, outermost level first: the
/// scopes of size > 1 from its start depth to its leaf, their iteration
/// counts, and the byte stride of each (the access's stride along the
/// scope's variable in the physical layout).
struct StreamPattern {
  llvm::SmallVector<unsigned, 4> depths;
  llvm::SmallVector<int64_t, 4> bounds;
  llvm::SmallVector<int64_t, 4> strides;
};

/// The pattern of operand `position` (0 the output, i + 1 input i) of
/// `leaf`, streamed from `startDepth`, as the lowering configures it.
StreamPattern getStreamPattern(dojo::LeafOp leaf, unsigned position,
                               unsigned startDepth);

/// Whether the Snitch lowering computes `kind` with FP instructions alone
/// (copy, + - * /, min, max, neg, abs, sqrt, rsqrt, relu): what an `:f`
/// scope can repeat.
bool isSnitchFpInstruction(dojo::OpKind kind);
/// Whether the Snitch lowering computes `kind` at all: the FP instructions,
/// and exp and sigmoid, for which it emits a polynomial.
bool hasSnitchLowering(dojo::OpKind kind);

/// The FP instructions the Snitch lowering emits for `leaf` when every
/// operand is in a register or a stream: 1, or 2 for rsqrt (sqrt, divide)
/// and for a reduction that is not a multiply-add or a plain combine.
unsigned getFrepInstructionCount(dojo::LeafOp leaf);

/// The first broken stream rule of `leaf`'s marks, or nullopt.
std::optional<InvariantViolation> findStreamViolation(dojo::LeafOp leaf);

/// The first broken rule of the `:f` scope `scope`'s body, or nullopt.
std::optional<InvariantViolation> findFrepViolation(dojo::ScopeOp scope);

} // namespace perfdojo

#endif // PERFDOJO_ANALYSIS_SNITCHRULES_H
