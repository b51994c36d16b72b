//===- TargetDescription.h - what a target accepts of a kernel --*- C++ -*-===//
//
// The IR's rules hold on every target (ModeRules.h, KernelInvariants.h). A
// target adds its own facts: which modes it can execute and the sizes it
// accepts (vector register width, unroll limit, threads per block, warp
// width, the capacity of stack and register buffers). One description per
// target, read by the moves (which refuse what the target cannot run), the
// search (vector widths, which moves to try) and the lowerings (which reject
// a mode the target lacks) -- in the spirit of Triton's per-vendor target
// info. GPU and Snitch targets add their descriptions here.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_DIALECT_DOJO_IR_TARGETDESCRIPTION_H
#define PERFDOJO_DIALECT_DOJO_IR_TARGETDESCRIPTION_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Target/Snitch/SnitchCore.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace perfdojo {

struct TargetDescription {
  /// How messages name the target.
  std::string name = "generic";
  /// A GPU's maker, "NVIDIA" or "AMD" (which lowering, binary format and
  /// runtime it takes); empty for other targets.
  std::string vendor;
  /// Modes the target can execute, one bit per dojo::Mode. The default
  /// target accepts every mode: it is what moves assume when no target is
  /// chosen (a kernel may be mapped for a GPU on any host).
  uint32_t modes = ~0u;
  /// Buffer locations the target has, one bit per dojo::BufferLocation:
  /// by default every one but Snitch's TCDM, which no target runs yet.
  uint32_t locations =
      ~0u & ~(1u << static_cast<unsigned>(dojo::BufferLocation::tcdm));
  int64_t vectorBytes = 64;    ///< a `:v` scope covers this many bytes
  int64_t vectorRegisters = 32; ///< architectural vector registers
  int64_t unrollLimit = 64;    ///< largest `:u` scope
  /// Rows of the register squares a transposing copy moves (Analysis/
  /// TransposingCopy.h), in bytes; 0 where copies never transpose in
  /// registers. 32 bytes (8 x 8 f32): on Zen 4 with AVX-512 a 16 x 16
  /// square's shuffles were slower than gathering the lanes one by one.
  int64_t transposeBytes = 32;
  int64_t maxBlockSize = 1024; ///< largest `:b` scope (threads per block)
  int64_t warpSize = 32;       ///< size of a `:w` scope
  /// Capacity of buffer locations (allocated storage, `:N` dimensions
  /// counting once).
  int64_t stackBytes = int64_t(1) << 20; ///< largest `stack` buffer
  int64_t registerElements = 64;         ///< largest `reg` buffer
  /// Block-shared memory of one GPU block (every `gpu_shared` buffer of a
  /// launch together; the opt-in maximum of the largest part, Hopper's
  /// 227 KiB, by default).
  int64_t sharedBytes = 232448;
  /// SSR data movers (Snitch's stream semantic registers): operands that
  /// may stream at once; 0 for a target without streams.
  int64_t streamDataMovers = snitch::StreamLimits().dataMovers;
  /// Repetitions of one FREP body (a `:f` scope's size): the Snitch
  /// sequencer's limit (Target/Snitch/SnitchCore.h).
  int64_t frepRepetitions = snitch::FrepLimits().maxRepetitions;
  /// Blocks of one GPU launch (the product of its `:g` sizes): the grid's
  /// x dimension.
  int64_t maxGridBlocks = (int64_t(1) << 31) - 1;

  bool supports(dojo::Mode mode) const {
    return modes & (1u << static_cast<unsigned>(mode));
  }
  bool hasLocation(dojo::BufferLocation location) const {
    return locations & (1u << static_cast<unsigned>(location));
  }
  /// Lanes of one vector register of `elementType` (at least 1): the size
  /// of a `:v` scope over that type.
  int64_t getVectorLanes(mlir::Type elementType) const;
  /// Side of the square of `elementType` elements a transposing copy
  /// moves through registers: transposeBytes' elements, at most a vector's
  /// lanes; 0 (no squares) below 2.
  int64_t getTransposeLanes(mlir::Type elementType) const;
  /// Why a scope of `size` cannot have `mode` on this target (the unroll
  /// limit, threads per block, the warp size, or for `:v` the lanes of
  /// `laneType`); nullopt if it can.
  std::optional<std::string> findModeSizeViolation(dojo::Mode mode,
                                                   int64_t size,
                                                   mlir::Type laneType) const;
  /// The lanes a block reduction (Analysis/Concurrency.h
  /// isBlockReduction) of `size` threads occupies: a group of a power of
  /// two up to the warp, or of whole warps, is its size; any other size is
  /// rounded up to whole warps (the paper's 300 -> 320), whose lanes past
  /// `size` take part with the reduction's identity. The lowering pads the
  /// block's innermost thread dimension to these lanes.
  int64_t getBlockReductionLanes(int64_t size) const;
  /// Why the threads of a block reduction of `size` threads cannot combine
  /// values of `type` on this target: a GPU combines them by warp shuffles,
  /// of 32-bit values (f32, i32), over getBlockReductionLanes(size) lanes
  /// (within a warp, or per warp and then the warps' results once more), at
  /// most a warp of warps and a block; nullopt if it can.
  std::optional<std::string> findBlockReductionViolation(int64_t size,
                                                         mlir::Type type) const;
  /// Why `elements` elements of `buffer`'s type do not fit `location` (the
  /// stack and register capacities); nullopt if they fit.
  std::optional<std::string>
  findCapacityViolation(dojo::BufferOp buffer, dojo::BufferLocation location,
                        int64_t elements) const;

  /// x86-64 with AVX-512 and an NVIDIA-like GPU: the defaults above. Its
  /// upper bounds (unroll limit, threads per block, location capacities)
  /// are also the IR's: the verifier holds every kernel to them, and a
  /// target may be stricter, never looser.
  static TargetDescription getDefault() { return {}; }
  /// The host CPU: seq, `:u`, `:p` and `:v` of `vectorBytes`.
  static TargetDescription getCpu(int64_t vectorBytes = 64);
  /// The CPU this process runs on: getCpu with its widest vector
  /// registers (AVX-512: 64 bytes, AVX: 32, otherwise 16), named "host".
  static TargetDescription getHost();
  /// A GPU by its chip name: NVIDIA `sm_80`, `sm_86`, `sm_89`, `sm_90`
  /// (warps of 32) and AMD `gfx90a`, `gfx942` (wavefronts of 64): seq, `:u`,
  /// `:v` of 16 bytes (one 128-bit load per thread), `:g`, `:b`, `:w`, and
  /// the part's block-shared memory. nullopt for another name.
  static std::optional<TargetDescription> getGpu(llvm::StringRef chip);
  /// One Snitch compute core (Target/Snitch/SnitchCore.h holds its
  /// hardware facts): seq and `:u` scopes, every buffer in its TCDM
  /// (`heap`, `stack`, `reg`, `tcdm`), 64-bit FP registers.
  static TargetDescription getSnitch();
  /// The chip names getGpu accepts, for messages.
  static llvm::ArrayRef<llvm::StringRef> getGpuChips();
  /// The chip a vendor's name stands for where a tool takes a target:
  /// `cuda` sm_90 and `rocm` gfx942 (the parts the GPU expert pass is
  /// tuned and checked on); any other name unchanged.
  static llvm::StringRef resolveGpuAlias(llvm::StringRef name);
  /// The target a name stands for: `default`, `cpu`, `host`, `snitch`, a chip
  /// of getGpuChips or a vendor's alias (resolveGpuAlias); nullopt for
  /// another name.
  static std::optional<TargetDescription> lookup(llvm::StringRef name);
  /// Every name lookup accepts, for messages.
  static llvm::SmallVector<llvm::StringRef> getNames();
  /// lookup, or an error naming the unknown target and every known name.
  static llvm::Expected<TargetDescription> lookupOrError(llvm::StringRef name);
};

} // namespace perfdojo

#endif // PERFDOJO_DIALECT_DOJO_IR_TARGETDESCRIPTION_H
