//===- Move.h - atomic, legality-checked, invertible rewrites --*- C++ -*-===//
//
// A move is one atomic rewrite of a kernel's scope tree at one named
// location. Each move kind is defined once (one file in lib/Moves) as the
// single source for:
//   * candidates: every location (and parameter from a finite set) where the
//     move could apply; `enumerate` keeps the legal ones;
//   * check: pure, never mutates; success, or a silenceable failure naming the
//     violated condition and the offending leaf, scope or dependence;
//   * apply: the rewrite, only after check succeeded; returns the inverse
//     request, which restores the exact previous tree.
//
// Requests are text (`split_scope y@0 16`), printed by enumeration exactly as
// apply accepts them; docs/moves.md gives the grammar.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_MOVES_MOVE_H
#define PERFDOJO_MOVES_MOVE_H

#include "perfdojo/Analysis/Dependence.h"
#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/IR/TargetDescription.h"
#include "perfdojo/Moves/MoveKind.h"

#include "mlir/Dialect/Transform/Utils/DiagnosedSilenceableFailure.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace perfdojo {

/// A move as written: `name location param...`.
struct MoveRequest {
  std::string name;
  std::string location;
  llvm::SmallVector<int64_t, 2> params;

  std::string str() const;
  /// The move kind `name` names, or nullopt for an unknown move. Code that
  /// branches on moves compares kinds, never names.
  std::optional<MoveKind> getKind() const { return symbolizeMoveKind(name); }
  bool operator==(const MoveRequest &other) const {
    return name == other.name && location == other.location &&
           params == other.params;
  }
};

/// Parses one request (`split_scope y@0 16`). Fails with a message.
llvm::Expected<MoveRequest> parseMoveRequest(llvm::StringRef text);
/// Parses a `;`-separated script; empty entries are skipped.
llvm::Expected<llvm::SmallVector<MoveRequest>>
parseMoveScript(llvm::StringRef text);
/// A script file's text as one `;`-separated script: `#` comments dropped
/// (stripScriptComment), lines joined.
std::string joinScriptLines(llvm::StringRef contents);
/// The moves of a script file: `#` comments, moves separated by newlines or
/// `;` (the syntax of perfdojo-opt --dojo-apply=file=...). The error names
/// the file.
llvm::Expected<llvm::SmallVector<MoveRequest>>
readMoveScriptFile(llvm::StringRef path);

struct MoveOptions {
  /// Same-operator reductions may be reordered (float results then differ
  /// by rounding only). Off: bitwise-reproducible mode.
  bool reassociate = true;
  /// The target the kernel is mapped for: the modes and sizes the mode
  /// moves accept and the capacity of buffer locations.
  TargetDescription target;
};

/// The kernel a move sees, with the analyses shared by all checks.
class MoveState {
public:
  explicit MoveState(dojo::KernelOp kernel, MoveOptions options = {})
      : kernel(kernel), options(options), dependences(kernel) {}

  dojo::KernelOp getKernel() { return kernel; }
  const MoveOptions &getOptions() const { return options; }
  DependenceAnalysis &getDependences() { return dependences; }
  /// Dependence options for reordering checks under the current policy.
  DependenceOptions ordering() const {
    return DependenceOptions{options.reassociate, /*concurrency=*/false};
  }
  /// Must be called after the tree changed.
  void invalidate() { dependences.invalidate(); }

private:
  dojo::KernelOp kernel;
  MoveOptions options;
  DependenceAnalysis dependences;
};

class Move {
public:
  Move(MoveKind kind, unsigned numParams) : kind(kind), numParams(numParams) {}
  virtual ~Move() = default;
  MoveKind getKind() const { return kind; }
  /// The move's name as written in requests, e.g. `split_scope`.
  llvm::StringRef getName() const { return stringifyMoveKind(kind); }
  /// The mode the move gives a scope (`set_gpu_block`: `:b`), for the moves
  /// that set one: a target that does not support the mode (`
  /// TargetDescription::supports`) refuses the move wherever it is asked.
  virtual std::optional<dojo::Mode> getRequiredMode() const {
    return std::nullopt;
  }
  /// Whether the move can apply at all on `target`.
  virtual bool isAvailableOn(const TargetDescription &target) const {
    std::optional<dojo::Mode> mode = getRequiredMode();
    return !mode || target.supports(*mode);
  }
  /// Appends every request worth checking (legal or not).
  virtual void candidates(MoveState &state,
                          llvm::SmallVectorImpl<MoveRequest> &out) const = 0;
  /// The number of parameters a request of this move has.
  unsigned getNumParams() const { return numParams; }
  /// Legality of `request`: its parameter count, then checkRequest. Never
  /// mutates the kernel. Errors are reported at `errorLoc` (what the user
  /// wrote), with notes on the payload.
  mlir::DiagnosedSilenceableFailure check(MoveState &state,
                                          const MoveRequest &request,
                                          mlir::Location errorLoc) const;
  /// Rewrites the kernel; `request` has passed check(). Returns the inverse.
  virtual MoveRequest rewrite(MoveState &state,
                              const MoveRequest &request) const = 0;
  /// Whether the move restructures the scope tree. checkMove() and
  /// enumerate() then also post-verify every `:N` mark on the result (on a
  /// copy of the kernel), so a restructuring never leaves a mark that
  /// `reuse_dims` would not accept again.
  virtual bool restructuresTree() const { return true; }

  /// The legal subset of candidates() (check plus post-verification), in
  /// order.
  void enumerate(MoveState &state,
                 llvm::SmallVectorImpl<MoveRequest> &legal) const;

protected:
  /// The move's own legality check, for a request with getNumParams()
  /// parameters.
  virtual mlir::DiagnosedSilenceableFailure
  checkRequest(MoveState &state, const MoveRequest &request,
               mlir::Location errorLoc) const = 0;

private:
  MoveKind kind;
  unsigned numParams;
};

/// The move of kind `Kind` (its identity comes from Moves.td), whose
/// requests have `NumParams` parameters, on the base `Base` (Move, or a
/// shared shape of lib/Moves such as a move on a buffer dimension).
template <MoveKind Kind, unsigned NumParams = 0, typename Base = Move>
class MoveOf : public Base {
public:
  MoveOf() : Base(Kind, NumParams) {}
};

/// Every move kind, in catalogue order (the order of MoveKind).
llvm::ArrayRef<const Move *> getAllMoves();
/// The move of kind `kind`.
const Move &getMove(MoveKind kind);
/// The move called `name`, or null.
const Move *lookupMove(llvm::StringRef name);

/// All legal moves of the kernel, move kind by move kind.
llvm::SmallVector<MoveRequest> enumerateLegalMoves(MoveState &state);

/// Checks `request` (unknown names and malformed locations included), then
/// post-verifies the `:N` marks on a copy for moves that restructure the tree.
mlir::DiagnosedSilenceableFailure checkMove(MoveState &state,
                                           const MoveRequest &request,
                                           mlir::Location errorLoc);

/// Checks and applies `request`, then re-verifies the kernel. Returns the
/// inverse request; on failure the kernel is unchanged.
mlir::FailureOr<MoveRequest>
applyMove(MoveState &state, const MoveRequest &request,
          mlir::Location errorLoc,
          mlir::DiagnosedSilenceableFailure *failureOut = nullptr);

/// Applies `moves` to `kernel` in place, in order, each checked as
/// applyMove does; stops at the first illegal one (its diagnostics are
/// emitted at the kernel), with the moves before it applied.
mlir::LogicalResult applyMoves(dojo::KernelOp kernel,
                               llvm::ArrayRef<MoveRequest> moves,
                               const MoveOptions &options);

} // namespace perfdojo

#endif // PERFDOJO_MOVES_MOVE_H
