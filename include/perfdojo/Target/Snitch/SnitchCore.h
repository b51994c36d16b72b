//===- SnitchCore.h - the facts of one Snitch compute core -----*- C++ -*-===//
//
// One home for what the Snitch hardware allows and how fast it runs: the
// `snitch` dialect's verifiers, the Snitch moves (stream and FREP legality),
// the lowering and the executable model all read this description and none
// restates a number. The defaults are the open-source snitch_cluster's
// default configuration as documented in docs/snitch.md (which cites the
// hardware sources): RV32IMAFD + Xssr + Xfrep, three stream data movers on
// ft0-ft2 with four loop levels each, a 16-entry FREP sequencer, and a
// 128 KiB TCDM at 0x10000000.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TARGET_SNITCH_SNITCHCORE_H
#define PERFDOJO_TARGET_SNITCH_SNITCHCORE_H

#include <cstdint>

namespace perfdojo::snitch {

/// Limits of the stream semantic registers (Xssr).
struct StreamLimits {
  /// Data movers DM0..DM(n-1), bound to ft0..ft(n-1).
  int64_t dataMovers = 3;
  /// Nested hardware loops of one data mover (pattern rank).
  int64_t loopLevels = 4;
  /// Iterations of one loop level: BOUNDS holds iterations - 1 in 17 bits.
  int64_t maxIterations = int64_t(1) << 17;
  /// Deliveries of one read element: REPEAT holds repetitions - 1 in 4 bits.
  int64_t maxRepeat = 16;
  /// Bytes of one stream element (the data width): strides are multiples.
  int64_t elementBytes = 8;
  /// The configuration word that broadcasts a write to every data mover.
  int64_t broadcastMover = 31;
  /// The CSR whose bit 0 enables streaming (`csrsi/csrci 0x7c0, 1`).
  int64_t enableCsr = 0x7c0;
};

/// Limits of the FREP sequencer (Xfrep, `frep.o`).
struct FrepLimits {
  /// Instructions one repeated body may hold (the sequencer buffer).
  int64_t maxBodyInstructions = 16;
  /// Repetitions of one body (the rs1 register holds repetitions - 1).
  int64_t maxRepetitions = 65536;
  /// Largest stagger count (3 bits) and stagger mask (4 bits).
  int64_t maxStaggerCount = 7;
  int64_t maxStaggerMask = 15;
};

/// Issue-to-use distances in cycles, by functional unit (docs/snitch.md,
/// "Timing model", gives the source of each).
struct Latencies {
  int64_t integerAlu = 1;   ///< RV32I ALU, result usable next cycle
  int64_t integerMul = 4;   ///< M extension (offloaded MULDIV unit)
  int64_t integerDiv = 20;  ///< iterative divider (not documented; assumed)
  int64_t integerLoad = 3;  ///< lw from TCDM to a dependent use
  int64_t fpFma64 = 4;      ///< fadd/fmul/fmadd.d and relatives
  int64_t fpFma32 = 3;      ///< the same on f32
  int64_t fpNonComp = 2;    ///< fsgnj, fmv, fmin/fmax, compares, classify
  int64_t fpConversion = 3; ///< fcvt.*
  int64_t fpLoad = 3;       ///< fld/flw from TCDM to a dependent use
  int64_t fpDivSqrt = 21;   ///< fdiv/fsqrt: iterative (disabled in the
                            ///< default cluster; emitted code avoids them)
  int64_t streamStartup = 4; ///< a stream's first element after its pointer write
  int64_t takenBranch = 0;  ///< extra cycles of a taken branch
  /// From the integer core's offload of an FP instruction to the earliest
  /// cycle the FP subsystem can issue it: the accelerator request crosses one
  /// register between core and sequencer (assumed, not measured).
  int64_t fpOffload = 1;
};

/// The memory a core addresses: the cluster's tightly coupled data memory.
struct MemoryMap {
  uint32_t tcdmBase = 0x10000000u;
  uint32_t tcdmBytes = 128u * 1024u;
  /// Where the executable model places a program's instructions (what `auipc`
  /// and `jal` see): DRAM, from which snitch_cluster binaries run.
  uint32_t textBase = 0x80000000u;
};

/// One Snitch compute core and its view of the cluster.
struct SnitchCore {
  StreamLimits streams;
  FrepLimits frep;
  Latencies latency;
  MemoryMap memory;
  /// FP operations the FPU can issue per cycle: the compute peak.
  int64_t fpOpsPerCycle = 1;
  /// Clock frequency, to state model cycles as times (the search compares
  /// times): the 1 GHz of the Snitch cluster's 22 nm implementation.
  double clockHz = 1e9;

  /// The snitch_cluster default configuration.
  static SnitchCore getDefault() { return {}; }
};

} // namespace perfdojo::snitch

#endif // PERFDOJO_TARGET_SNITCH_SNITCHCORE_H
