//===- Model.h - an executable model of one Snitch core ---------*- C++ -*-===//
//
// Runs a parsed Snitch assembly program on a model of one compute core
// (RV32IMFD integer core, FP subsystem with FREP sequencer and three SSR data
// movers) and a TCDM, computing both the results and a cycle count. Every
// hardware number comes from the SnitchCore passed in.
//
// Semantics (snitch-target.md §2, §3):
//  * RV32 integer registers (x0 reads 0), 32 64-bit FP registers with f32
//    NaN-boxed; integer division by zero as RISC-V defines it.
//  * SSR: CSR 0x7c0 bit 0 (`csrsi/csrci 0x7c0, 1`) enables streaming. While
//    enabled, an FP-subsystem instruction reading f0..f2 pops the next
//    element of that data mover's read stream (once per instruction, however
//    many source slots name the register); one writing f0..f2 pushes to its
//    write stream. FP loads into f0..f2 go to the register file (§2.6).
//    Elements are 64 bits; an f32 instruction uses the low 32 bits of a
//    popped element (packed SIMD is not modelled) and pushes its 64-bit
//    register image. Popping without a read stream or past its end, pushing
//    likewise, and disabling SSR or returning while a started stream has
//    elements left are errors.
//  * FREP: `frep.o` repeats the next N instructions as a block x[rs1]+1
//    times, `frep.i` repeats each of them x[rs1]+1 times. With stagger count
//    c and mask m, repetition r adds r mod (c+1) to each register field
//    whose mask bit is set (bit 0 rd, 1 rs1, 2 rs2, 3 rs3), modulo 32. The
//    body must be FREP-repeatable (Instructions.h) and within the
//    SnitchCore::frep limits.
//  * Returning from the entry point ends the kernel: ra starts at the
//    caller's address, textBase - 4, so `ret` there stops the run (and calls
//    inside the kernel still work). sp starts at the top of the TCDM.
//
// Timing rules (snitch-target.md §6.1 rule numbers; each number is a
// SnitchCore field):
//  T1 The integer core issues in order, at most one instruction per cycle
//     (§6.1.1). A result is usable `getResultLatency(unit)` cycles after its
//     producer issued: ALU next cycle, integer loads `integerLoad`, MULDIV
//     `integerMul`/`integerDiv` (§6.1.2). A taken branch or jump delays the
//     next issue by `takenBranch`.
//  T2 Every FP-subsystem instruction (fld/fsd included) takes one integer
//     issue slot to offload (§6.1.1); its integer operands (address base,
//     fcvt/fmv source) are read then. It enters the FP sequencer's buffer,
//     which holds `frep.maxBodyInstructions` entries; an entry is freed when
//     its instruction issues on the FP side, an FREP body entry when its
//     last repetition issues. The core stalls while no entry is free
//     (§6.1.5).
//  T3 `frep` takes one slot and its N body instructions one slot each, once
//     (§3.1, §6.1.5); the sequencer then replays the body from its buffer.
//  T4 Direct-path instructions (FP compares, fclass, fmv.x.w/fmv.w.x,
//     int<->FP fcvt) and `csrsi/csrci 0x7c0` are offloaded only once every
//     earlier FP instruction has issued (§2.5, §3.5). A direct-path result
//     in an integer register is usable `getResultLatency(unit)` after its FP
//     issue (§6.1.2).
//  T5 The FP subsystem issues in order, at most one instruction per cycle,
//     no earlier than `fpOffload` cycles after the core offloaded it, once
//     every FP source register is written back (producer's FP issue +
//     latency of its unit: fpFma64/fpFma32/fpNonComp/fpConversion/
//     fpDivSqrt/fpLoad) (§6.1.3). Stream registers bypass the scoreboard
//     (§2.6) and wait for their element instead: element i of a stream
//     (before repeats) is ready `streamStartup` + i cycles after the core
//     issued the pointer write (§6.1.4).
//  T6 Returning from the kernel waits, like a fence, for the FP subsystem to
//     drain; the cycle count is the later of the return's issue + 1 and the
//     last write-back (register, stream push or store) (§6.5).
// Not modelled: instruction cache, TCDM bank conflicts (SSR0 shares a port
// with the core's LSU), the shared MULDIV unit's contention, WAW hazards in
// the FP pipeline, the SSR shadow-register job queue, nested FREP.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TARGET_SNITCH_MODEL_H
#define PERFDOJO_TARGET_SNITCH_MODEL_H

#include "perfdojo/Target/Snitch/Assembly.h"
#include "perfdojo/Target/Snitch/SnitchCore.h"
#include "perfdojo/Target/Snitch/Tcdm.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <vector>

namespace perfdojo::snitch {

/// Guards that turn a runaway program into an error.
struct ModelOptions {
  /// Dynamic instructions (integer-core issues plus FP issues, each FREP
  /// repetition counted).
  uint64_t maxInstructions = 100'000'000;
  uint64_t maxCycles = 100'000'000;
};

/// What a run computed and how long it took.
struct RunResult {
  /// Cycles from the first issue until the kernel returned and all its
  /// results were written back (rule T6).
  uint64_t cycles = 0;
  /// Instructions the integer core executed itself (RV32IM, branches, CSR,
  /// SSR configuration, frep), not counting FP offloads.
  uint64_t integerInstructionsIssued = 0;
  /// FP-subsystem instructions the core handed over (each once, FREP bodies
  /// too).
  uint64_t fpInstructionsOffloaded = 0;
  /// Instructions the FP subsystem issued to the FPU, counting each FREP
  /// repetition: everything it executes except FP loads/stores (which go to
  /// its LSU). This is the numerator of the calibration's
  /// `fpss_fpu_occupancy`, which counts moves, conversions and reduction ops
  /// too (snitch-target.md §6.3).
  uint64_t fpInstructionsIssued = 0;
  /// FP loads and stores the FP subsystem issued.
  uint64_t fpLoadStoresIssued = 0;
  /// Of fpInstructionsIssued, the FP compute operations: FMA-class
  /// (fadd/fsub/fmul/fmadd/fmsub/fnmadd/fnmsub) and div/sqrt, each
  /// instruction counted once (an fmadd is one operation here).
  uint64_t fpArithmeticOps = 0;
  /// Sum over executed frep instructions of their repetition count.
  uint64_t frepRepetitions = 0;
  /// Elements popped or pushed, per data mover.
  std::vector<uint64_t> streamElements;
  /// Register state at return.
  std::array<uint32_t, 32> integerRegisters{};
  std::array<uint64_t, 32> fpRegisters{};

  /// FPU issues per cycle: fpInstructionsIssued / cycles.
  double fpuUtilization() const {
    return cycles ? double(fpInstructionsIssued) / double(cycles) : 0.0;
  }
};

/// Runs `program` from `entryLabel` with a0.. set to `integerArgs` (at most
/// eight) on `tcdm`, until the entry function returns. Errors (bad memory
/// access, stream misuse, FREP limits, runaway execution) name the source
/// line: "line N: mnemonic: ...".
llvm::Expected<RunResult> runProgram(const Program &program,
                                     llvm::StringRef entryLabel,
                                     llvm::ArrayRef<uint32_t> integerArgs,
                                     Tcdm &tcdm, const SnitchCore &core,
                                     ModelOptions options = {});

} // namespace perfdojo::snitch

#endif // PERFDOJO_TARGET_SNITCH_MODEL_H
