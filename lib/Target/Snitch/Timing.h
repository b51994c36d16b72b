//===- Timing.h - the two in-order agents of a Snitch core ------*- C++ -*-===//
//
// The cycle bookkeeping of the executable model (the rules are listed in
// Model.h). The interpreter executes instructions in program order and asks
// this class, for each one, when it issues:
//
//  * the integer core issues one instruction per cycle, in order, once its
//    integer operands are written back; offloading an FP instruction also
//    needs a free sequencer-buffer entry, and a direct-path instruction
//    waits until every earlier FP instruction has issued;
//  * the FP subsystem issues one instruction per cycle, in order, once it
//    has arrived from the core, its FP operands are written back and its
//    stream elements are ready.
//
// Because both agents are in order, each instruction's issue cycle depends
// only on earlier ones, so one pass in program order computes the schedule.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_LIB_TARGET_SNITCH_TIMING_H
#define PERFDOJO_LIB_TARGET_SNITCH_TIMING_H

#include "perfdojo/Target/Snitch/SnitchCore.h"

#include "llvm/ADT/ArrayRef.h"

#include <array>
#include <cstdint>
#include <vector>

namespace perfdojo::snitch {

class TimingModel {
public:
  explicit TimingModel(const SnitchCore &core);

  /// What an integer-core issue waits for besides order and operands.
  enum class Offload {
    None,      ///< executed by the core (or sent to MULDIV / the SSR block)
    Queued,    ///< an FP instruction entering the sequencer buffer
    DirectPath ///< waits until all queued FP work has issued
  };

  /// Issues the next instruction on the integer core; returns its cycle.
  int64_t issueOnCore(llvm::ArrayRef<unsigned> integerSources, Offload kind);
  /// A taken branch or jump: the next issue is delayed by the penalty.
  void takeBranch();
  /// Integer register `reg` is written back (usable) at `cycle`.
  void setIntegerReady(unsigned reg, int64_t cycle);

  /// The sequencer-buffer entry the last Queued issue took. It stays
  /// occupied until release() (an FREP body entry until its last
  /// repetition issued).
  uint64_t getLastEntry() const { return entryCount - 1; }
  void release(uint64_t entry, int64_t cycle);

  /// Issues an FP instruction that arrived from the core at `arrival`, reads
  /// the FP registers `fpSources` through the scoreboard and the stream
  /// elements ready at `streamReady`; returns its cycle.
  int64_t issueOnFpu(int64_t arrival, llvm::ArrayRef<unsigned> fpSources,
                     llvm::ArrayRef<int64_t> streamReady);
  /// FP register `reg` is written back at `cycle`.
  void setFpReady(unsigned reg, int64_t cycle);
  /// Some result (a store, a stream push) completes at `cycle`.
  void noteCompletion(int64_t cycle);

  /// The cycle the core will issue its next instruction at the earliest.
  int64_t getCoreCycle() const { return nextCoreCycle; }
  /// The cycle after the last FP issue: when the sequencer is empty.
  int64_t getFpDrainCycle() const { return nextFpCycle; }
  /// Total cycles of a kernel whose return issued at `returnCycle`: the
  /// core and all outstanding results are done.
  int64_t finish(int64_t returnCycle) const;

private:
  const SnitchCore &core;
  int64_t nextCoreCycle = 0;
  int64_t nextFpCycle = 0;
  int64_t lastCompletion = 0;
  std::array<int64_t, 32> integerReady{};
  std::array<int64_t, 32> fpReady{};
  /// Ring of sequencer-buffer entries: the cycle each becomes free again.
  std::vector<int64_t> entryFree;
  uint64_t entryCount = 0;
};

} // namespace perfdojo::snitch

#endif // PERFDOJO_LIB_TARGET_SNITCH_TIMING_H
