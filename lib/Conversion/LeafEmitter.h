//===- LeafEmitter.h - one leaf's computation, for every target -*- C++ -*-===//
//
// What a leaf computes does not depend on where it runs: the CPU lowering
// (DojoToSCF.cpp) and the GPU lowering (DojoToGPU.cpp) emit every leaf, and
// every `:v` scope, through this one class. They differ only in how scopes
// become loops, threads or launches, and where each buffer's memref comes
// from (an argument, an allocation, block-shared memory), which they record
// in `storages` and `ivs` before emitting leaves.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_LIB_CONVERSION_LEAFEMITTER_H
#define PERFDOJO_LIB_CONVERSION_LEAFEMITTER_H

#include "perfdojo/Analysis/TransposingCopy.h"
#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"
#include "perfdojo/Dialect/Dojo/IR/TargetDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Alignment.h"

#include <optional>
#include <vector>

namespace perfdojo {

/// The memref that stores one declared buffer.
struct Storage {
  dojo::BufferOp buffer;
  /// Buffer dimensions that occupy memory, in order (the memref's dims).
  llvm::SmallVector<unsigned, 4> dims;
  mlir::MemRefType type;
  /// The `:p` scope inside which each iteration has its own copy (CPU), or
  /// null for storage allocated once. The GPU lowering places storage by
  /// its own Placement.
  dojo::ScopeOp privateTo;
  /// The memref in the code being emitted, or null where it is not
  /// available (not yet allocated, or outside the function that has it).
  mlir::Value memref;
};

/// The element type a buffer is stored in: its own, except bool, which is
/// stored one byte per element (0 or 1), the layout of PhysicalLayout.h
/// and of the runtime's buffers.
mlir::Type getStorageElementType(mlir::Type elementType);
mlir::Type getStorageElementType(dojo::BufferOp buffer);

/// Emits leaves (scalar, or as one vector operation in a `:v` scope) with
/// the interpreter's formulas, against the memrefs in `storages` and the
/// iteration variables in `ivs`.
class LeafEmitter {
public:
  explicit LeafEmitter(const TargetDescription &target) : target(target) {}

  /// A leaf outside `:v` scopes.
  mlir::LogicalResult lowerLeaf(dojo::LeafOp leaf, mlir::OpBuilder &b);
  /// A `:v` scope: its single leaf (ModeRules.h) on vectors of its size.
  mlir::LogicalResult lowerVectorScope(dojo::ScopeOp scope, mlir::OpBuilder &b);
  /// The transposing copy (Analysis/TransposingCopy.h) at `unroll`, a `:u`
  /// scope at the current depth, on the target's squares: one load per
  /// lane and square of the run, a transpose in registers and one store per
  /// row, instead of a lane-by-lane gather per row.
  std::optional<TransposingCopy> getTransposingCopy(dojo::ScopeOp unroll);
  mlir::LogicalResult lowerTransposingCopy(TransposingCopy &copy,
                                           mlir::OpBuilder &b);

protected:
  /// The value `leaf` computes at the current iteration point (scalar),
  /// before it is stored or combined into its output.
  mlir::FailureOr<mlir::Value> emitLeafValue(dojo::LeafOp leaf,
                                             mlir::OpBuilder &b);
  /// Stores `value` into `leaf`'s output element, or combines it there
  /// (`out op= value`) where the leaf reduces.
  void emitLeafStore(dojo::LeafOp leaf, mlir::Value value, mlir::OpBuilder &b);
  /// `acc op= v` by `leaf`'s reduction operator (the interpreter's formula).
  mlir::Value emitLeafCombine(dojo::LeafOp leaf, mlir::OpBuilder &b,
                              mlir::Value acc, mlir::Value v);
  /// The identity of `leaf`'s reduction in its output's storage type, or
  /// null where the IR has no constant for it (getReductionIdentity).
  mlir::Value emitLeafIdentity(dojo::LeafOp leaf, mlir::OpBuilder &b);

  /// Appends the storage of `buffer`: its materialized dimensions (`:N`
  /// dimensions dropped, padding included) in memory space `memorySpace`,
  /// less the dimensions `isOwnerDim` names (a GPU thread's own slice of a
  /// buffer its threads own, Privatization::threadDims).
  Storage &addStorage(dojo::BufferOp buffer, mlir::Attribute memorySpace = {},
                      llvm::function_ref<bool(unsigned)> isOwnerDim = {});
  Storage &storageOf(llvm::StringRef array) {
    return storages[arrayStorage.lookup(array)];
  }
  /// Memref indices of `map` for `storage` at the current iteration point;
  /// `lane` substitutes a constant for the vector lane variable.
  llvm::SmallVector<mlir::Value> emitIndices(mlir::OpBuilder &b,
                                             mlir::Location loc,
                                             Storage &storage,
                                             mlir::AffineMap map,
                                             int64_t lane = 0);
  mlir::Value emitLinear(mlir::OpBuilder &b, mlir::Location loc,
                         const LinearForm &form, int64_t lane);

  /// The target compiled for: its modes, locations and vector facts.
  const TargetDescription target;
  std::vector<Storage> storages;
  llvm::StringMap<unsigned> arrayStorage;
  /// Bytes every memref's base is known to be aligned to (0: unknown). The
  /// GPU sets it: the runtime's allocations, shared memory views and thread
  /// storage are 16-byte aligned, and a `:v` access whose offset keeps that
  /// alignment becomes one wide load or store. The CPU leaves it unknown:
  /// a C caller may pass any float pointer.
  int64_t baseAlignment = 0;
  /// Iteration variable of every enclosing scope, by depth (index type): a
  /// loop variable, a constant (`:u`), a thread or block coordinate (GPU).
  llvm::SmallVector<mlir::Value, 8> ivs;

private:
  /// How the lanes of a `:v` scope address one access.
  enum class LaneAccess { Uniform, Contiguous, Scattered };
  LaneAccess classify(Storage &storage, mlir::AffineMap map);
  /// The alignment of a contiguous `:v` access's first lane, provable from
  /// `baseAlignment` and the access's offsets; none when unknown.
  llvm::MaybeAlign getVectorAlignment(Storage &storage, mlir::AffineMap map);
  mlir::LogicalResult lowerVectorLeaf(dojo::LeafOp leaf, mlir::OpBuilder &b);
  /// The type each operand of `leaf` computes in (ElementTypes.h
  /// getOperandType): its IR type (null where the storages have no
  /// buffers) and the scalar type that holds it (bool: a byte).
  struct OperandType {
    mlir::Type ir, storage;
  };
  llvm::SmallVector<OperandType, 3> getOperandTypes(dojo::LeafOp leaf);
  /// The value of operand `input` as a scalar of type `type` (scalar mode).
  mlir::FailureOr<mlir::Value> emitScalarOperand(mlir::OpBuilder &b,
                                                 mlir::Location loc,
                                                 mlir::Attribute input,
                                                 OperandType type,
                                                 int64_t lane = 0);
  /// `v`, loaded from `operand`, as a value of type `result` holding an
  /// IR value of type `to`: the IR's conversion where the types differ.
  mlir::Value emitOperandConversion(mlir::OpBuilder &b, mlir::Location loc,
                                    mlir::Value v, Storage &operand,
                                    mlir::Type to, mlir::Type result);

  /// Depth and width of the enclosing `:v` scope, if any.
  std::optional<unsigned> laneDepth;
  int64_t laneWidth = 0;
};

} // namespace perfdojo

#endif // PERFDOJO_LIB_CONVERSION_LEAFEMITTER_H
