//===- MoveFuzzer.h - random legal move walks, checked ----------*- C++ -*-===//
//
// The move fuzzer walks random sequences of legal moves from a kernel, or
// replays a move script, and checks after every move that:
//   1. the interpreter's outputs (f64 reference mode, inputs filled from the
//      seed) match the original kernel's within the dtype and reduction
//      tolerance;
//   2. the returned inverse restores the exact previous `.dojo` text, and
//      re-applying the move gives the same result again.
// A failure ends its walk; the result keeps the shortest move sequence that
// reproduces any failure.
//
// Size limits keep long walks finite: a drawn move whose result exceeds the
// node, leaf-evaluation or buffer-element limit is undone by its inverse,
// counted as skipped, and another legal move is drawn. add_scope multiplies
// leaf evaluations, privatize_reduction on its own partial results
// multiplies buffer elements, and both (with cut_scope) grow the tree.
//
// perfdojo-fuzz-moves is the command-line front end; the lit tests in
// test/Moves/fuzz-*.test and test/kernels/*-script.test use it.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TESTING_MOVEFUZZER_H
#define PERFDOJO_TESTING_MOVEFUZZER_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Moves/Move.h"
#include "perfdojo/Runtime/HostBuffer.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace perfdojo {

/// Operations in `kernel`'s body: its buffers, scopes and leaves.
unsigned countKernelNodes(dojo::KernelOp kernel);

/// Leaf instances one run of `kernel` executes (saturating at INT64_MAX).
int64_t countLeafEvaluations(dojo::KernelOp kernel);

/// Elements allocated by all buffers of `kernel`; a reused (`:N`) dimension
/// counts once (saturating at INT64_MAX).
int64_t countBufferElements(dojo::KernelOp kernel);

/// Bounds on the kernels a walk may reach; 0 turns a bound off.
struct FuzzLimits {
  unsigned maxNodes = 0;
  int64_t maxEvaluations = 0;
  int64_t maxElements = 0;

  /// The defaults for walks from `kernel`: twice its nodes (at least 64),
  /// 64 times its leaf evaluations (at least 65536) and 64 times its buffer
  /// elements (at least 2^20).
  static FuzzLimits getDefaults(dojo::KernelOp kernel);
  /// Whether `kernel` is within every bound that is on.
  bool admits(dojo::KernelOp kernel) const;
};

struct MoveFuzzOptions {
  /// Random walks, and moves per walk (replay: one walk over the script).
  unsigned walks = 10;
  unsigned length = 20;
  /// Seeds both the input generator and the move draws.
  uint64_t seed = 1;
  /// The reassociation policy of the moves (MoveOptions::reassociate).
  bool reassociate = true;
  /// Bounds; unset ones take FuzzLimits::getDefaults of the original.
  std::optional<unsigned> maxNodes;
  std::optional<int64_t> maxEvaluations;
  std::optional<int64_t> maxElements;
  /// When set, every move is printed here (`walk W step S: MOVE`, or
  /// `step S: MOVE` for a replay, before the move is applied).
  llvm::raw_ostream *trace = nullptr;
  /// Where interpreter failures are printed.
  llvm::raw_ostream *errors = &llvm::errs();
};

/// What a fuzzing run found.
struct MoveFuzzResult {
  /// Whether this is a script replay (one walk, no limits).
  bool replay = false;
  /// Moves in the replayed script.
  unsigned scriptLength = 0;
  unsigned walks = 0;
  /// Moves made, the failing one included.
  unsigned moves = 0;
  /// Moves whose result computes something else (or no longer runs).
  unsigned mismatches = 0;
  /// Moves whose inverse or re-application misbehaved, and listed moves
  /// that failed to apply.
  unsigned inverseFailures = 0;
  /// Drawn moves undone for exceeding a limit (walks only).
  unsigned skipped = 0;
  /// Illegal script moves (replay only).
  unsigned illegal = 0;
  /// The most nodes a kernel reached (walks only).
  unsigned largest = 0;
  /// The shortest move sequence that reproduces a failure, and the failure.
  std::optional<std::vector<MoveRequest>> shortest;
  std::string shortestWhy;

  bool passed() const { return !shortest; }
  /// The summary line `walks=N moves=M mismatches=K inverse-failures=J`
  /// (then `illegal=I`, or `skipped=S largest=L`), and the reproducer as a
  /// perfdojo-opt command line if there is one.
  void print(llvm::raw_ostream &os) const;
};

/// Walks moves from one kernel and checks every state against it.
class MoveFuzzer {
public:
  /// Takes the single kernel of `module` (which must outlive the fuzzer) as
  /// the original and runs it once for the expected outputs. Fails if it
  /// does not run (the reason is printed to `options.errors`).
  static mlir::FailureOr<MoveFuzzer> create(mlir::ModuleOp module,
                                            const MoveFuzzOptions &options);

  /// The limits in effect: the options' bounds, defaults for unset ones.
  const FuzzLimits &getLimits() const { return limits; }

  /// `options.walks` random walks of `options.length` legal moves, each
  /// from a fresh copy of the original.
  MoveFuzzResult runWalks();

  /// Applies `script` in order to a copy of the original, checking every
  /// prefix. An illegal move (its diagnostic goes to the context's handler)
  /// ends the replay as a failure.
  MoveFuzzResult replay(llvm::ArrayRef<MoveRequest> script);

private:
  MoveFuzzer(mlir::ModuleOp module, const MoveFuzzOptions &options)
      : module(module), options(options) {}

  struct Walk;
  /// Draws and applies one legal move within the limits. Returns false
  /// (after recording any failure) if the walk ends.
  bool drawMove(Walk &walk, std::mt19937_64 &rng, MoveRequest &move,
                MoveRequest &inverse, MoveFuzzResult &result);
  /// The checks after one applied move: outputs, inverse, re-application.
  /// Returns false (after recording the failure) if one fails.
  bool checkMove(Walk &walk, const MoveRequest &move,
                 const MoveRequest &inverse, MoveFuzzResult &result);

  mlir::ModuleOp module;
  MoveFuzzOptions options;
  FuzzLimits limits;
  std::vector<HostBuffer> inputs;
  std::vector<HostBuffer> expected;
  /// Per argument: the f64 tolerance for floats (the walk runs in f64),
  /// getOutputTolerance for integers and bool.
  std::vector<double> tolerances;
};

} // namespace perfdojo

#endif // PERFDOJO_TESTING_MOVEFUZZER_H
