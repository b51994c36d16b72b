//===- Timing.cpp - the two in-order agents of a Snitch core --------------===//
//
// Issue-cycle arithmetic only; the interpreter decides which rule applies to
// which instruction (see Model.h for the rules and their sources).
//
//===----------------------------------------------------------------------===//

#include "Timing.h"

#include <algorithm>

using namespace perfdojo::snitch;

TimingModel::TimingModel(const SnitchCore &core)
    // The sequencer buffer is what holds FP instructions the FPU has not
    // issued yet, FREP bodies included (§1, §3.5): its depth bounds how far
    // the core runs ahead.
    : core(core), entryFree(core.frep.maxBodyInstructions, 0) {}

int64_t TimingModel::issueOnCore(llvm::ArrayRef<unsigned> integerSources,
                                 Offload kind) {
  int64_t cycle = nextCoreCycle;
  for (unsigned reg : integerSources)
    cycle = std::max(cycle, integerReady[reg]);
  if (kind == Offload::Queued) {
    // The entry this instruction takes held the instruction `depth` places
    // earlier; the core stalls until that one left the buffer.
    cycle = std::max(cycle, entryFree[entryCount % entryFree.size()]);
    ++entryCount;
  }
  if (kind == Offload::DirectPath)
    cycle = std::max(cycle, nextFpCycle);
  nextCoreCycle = cycle + 1;
  return cycle;
}

void TimingModel::takeBranch() { nextCoreCycle += core.latency.takenBranch; }

void TimingModel::setIntegerReady(unsigned reg, int64_t cycle) {
  if (reg != 0)
    integerReady[reg] = cycle;
  lastCompletion = std::max(lastCompletion, cycle);
}

void TimingModel::release(uint64_t entry, int64_t cycle) {
  entryFree[entry % entryFree.size()] = cycle;
}

int64_t TimingModel::issueOnFpu(int64_t arrival,
                                llvm::ArrayRef<unsigned> fpSources,
                                llvm::ArrayRef<int64_t> streamReady) {
  int64_t cycle = std::max(nextFpCycle, arrival + core.latency.fpOffload);
  for (unsigned reg : fpSources)
    cycle = std::max(cycle, fpReady[reg]);
  for (int64_t ready : streamReady)
    cycle = std::max(cycle, ready);
  nextFpCycle = cycle + 1;
  return cycle;
}

void TimingModel::setFpReady(unsigned reg, int64_t cycle) {
  fpReady[reg] = cycle;
  lastCompletion = std::max(lastCompletion, cycle);
}

void TimingModel::noteCompletion(int64_t cycle) {
  lastCompletion = std::max(lastCompletion, cycle);
}

int64_t TimingModel::finish(int64_t returnCycle) const {
  return std::max(returnCycle + 1, lastCompletion);
}
