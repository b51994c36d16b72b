//===- KernelGenerator.h - random valid kernels from a grammar --*- C++ -*-===//
//
// A seeded generator of random kernels as `.dojo` text, for differential
// testing (DifferentialRun.h, perfdojo-fuzz-kernels). Every kernel it
// returns verifies; one that does not is a generator bug and is returned
// with its text and the verifier's message instead.
//
//   1. Buffers: inputs, outputs, an inout, scratch and a buffer of two
//      shared arrays (`->`), of the requested element types, rank 0-4, with
//      padding on internal buffers.
//   2. The tree, in execution order: scopes (siblings, nesting), leaves of
//      every operation and reduction, operands that are accesses, constants
//      and index values (each only where its element type allows it:
//      findOperationTypeViolation, findConstantViolation and
//      findIndexValueViolation of ElementTypes.h), affine indices with
//      strides and offsets that stay in bounds. Scratch and outputs are
//      read only where every element read was written before: a whole
//      array, or the slice of the current iteration of the scopes that
//      index it, is initialized first, and accumulations (`m = -inf`
//      then `m max= ...`) cover every element.
//   3. Values: every buffer has a value range fixed when it is declared;
//      a statement is kept only if its result, computed by interval
//      arithmetic from the ranges of its operands (reductions from the
//      number of terms per element), stays inside, so every value is finite
//      and within the element type; the arguments of log, sqrt, rsqrt and
//      divisors stay positive (inputs in those places are filled in
//      [0.5, 2) by fillInputs). Every buffer also has an error bound, in
//      epsilons of its type, that its statements' rounding (a forward
//      error analysis, counting a few units for the JIT's approximate
//      transcendentals) must respect, and sums never mix signs, so right
//      engines stay within the validation tolerance and a mismatch means a
//      wrong result, not an ill-conditioned kernel.
//   4. Modes, locations and `:N`: on the imported kernel, scopes get random
//      modes of the target (TargetDescription) where the mode taxonomy
//      allows them (ModeRules.h), internal buffers random locations and
//      non-materialized dimensions; a choice the verifier then rejects (a
//      race, the `:N` or register rules, K1-K5) is dropped and counted.
//
// The same seed and options give the same text.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TESTING_KERNELGENERATOR_H
#define PERFDOJO_TESTING_KERNELGENERATOR_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"

#include "llvm/ADT/MapVector.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace perfdojo {

/// Every element type of the IR (dojo::isSupportedElementType), in a fixed
/// order.
llvm::SmallVector<mlir::Type> getDojoElementTypes(mlir::MLIRContext *context);

/// Whether the CPU JIT executes `kernel`: its modes are the CPU target's
/// (TargetDescription::getCpu) and its buffers live on the heap, the stack
/// or in registers (what the CPU lowering allocates).
bool isCpuExecutable(dojo::KernelOp kernel);

struct KernelGenOptions {
  /// Element types kernels may use; empty means every IR element type.
  llvm::SmallVector<mlir::Type> dtypes;
  /// Largest buffer (logical elements; internal buffers add at most 3
  /// elements of padding per dimension) and largest iteration box of a
  /// leaf, so one run executes at most about maxLeaves * maxElements leaf
  /// instances.
  int64_t maxElements = 4096;
  unsigned maxRank = 4;
  /// Scope nesting depth and leaves per kernel (approximate upper bounds).
  unsigned maxDepth = 5;
  unsigned maxLeaves = 10;
  /// Chance that a kernel is mapped for the generic target (GPU modes and
  /// locations) instead of the host CPU.
  double gpuFraction = 0.15;
  /// Copies of leaves that `:u` scopes may create in all (a policy of the
  /// generator: nested unrolling multiplies code and compile time).
  int64_t maxUnrolled = 128;
  /// Chance that a scope is given a mode, an internal buffer another
  /// location, or one of its dimensions `:N`.
  double modeChance = 0.5;
  double locationChance = 0.4;
  double reuseChance = 0.3;
};

/// One generated kernel and what it exercises.
struct GeneratedKernel {
  uint64_t seed = 0;
  std::string text;
  /// Empty when the kernel verifies; otherwise the verifier's messages (a
  /// generator bug).
  std::string error;
  /// Mapped for the generic target: it has a GPU mode or location, which
  /// the CPU JIT does not execute.
  bool gpu = false;
  /// Element types used, and feature counts such as `op:exp`, `reduce:max`,
  /// `mode:p`, `loc:reg`, `reuse`, `padding`, `shared`, `index-value`,
  /// `rank:3`, `slice-init`, `accumulate`.
  std::vector<std::string> dtypes;
  std::map<std::string, unsigned> features;
  /// Modes, locations and `:N` marks that the mode taxonomy and the target
  /// allowed but the verifier rejected (races, K1-K5), and were dropped.
  unsigned droppedModes = 0, droppedLocations = 0, droppedReuse = 0;

  bool verified() const { return error.empty(); }
};

class KernelGenerator {
public:
  KernelGenerator(mlir::MLIRContext *context, KernelGenOptions options);

  /// The kernel of `seed`. Verifies it (in `context`) before returning.
  GeneratedKernel generate(uint64_t seed);

  const KernelGenOptions &getOptions() const { return options; }

private:
  mlir::MLIRContext *context;
  KernelGenOptions options;
};

} // namespace perfdojo

#endif // PERFDOJO_TESTING_KERNELGENERATOR_H
