//===- Streams.h - the SSR data movers of one core --------------*- C++ -*-===//
//
// The stream semantic registers (Xssr) as the model sees them
// (snitch-target.md §2): per data mover a set of configuration words (REPEAT,
// BOUNDS[0..3], STRIDES[0..3]) and at most one running job. Writing a pointer
// word (24..27 read, 28..31 write) captures the configuration into a job and
// starts it; FP instructions then pop or push elements in order. Every limit
// comes from SnitchCore::streams.
//
// Not modelled (errors rather than silent approximations): indirection and
// intersection (words 10..23), direct STATUS writes, and queueing a second
// job in the shadow registers while the first still runs.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_LIB_TARGET_SNITCH_STREAMS_H
#define PERFDOJO_LIB_TARGET_SNITCH_STREAMS_H

#include "perfdojo/Target/Snitch/SnitchCore.h"
#include "perfdojo/Target/Snitch/SsrWords.h"

#include "llvm/Support/Error.h"

#include <array>
#include <optional>
#include <vector>

namespace perfdojo::snitch {

class Tcdm;

class StreamUnit {
public:
  explicit StreamUnit(const SnitchCore &core);

  /// The data mover that FP register `reg` streams through (DMi <-> fi).
  std::optional<unsigned> getMoverOfRegister(unsigned reg) const;

  /// scfgw/scfgwi: writes `value` to configuration address `word << 5 | dm`
  /// (dm 31 broadcasts). `cycle` is when the core issues the write, which
  /// starts a job's timing; `line` names the job in later errors.
  llvm::Error writeConfig(uint32_t address, uint32_t value, int64_t cycle,
                          unsigned line);
  /// scfgr/scfgri: STATUS for word 0, else the value last written.
  llvm::Expected<uint32_t> readConfig(uint32_t address) const;

  /// One element taken from a read stream, and the first cycle an FP
  /// instruction can consume it.
  struct Element {
    uint64_t value;
    int64_t readyCycle;
  };
  /// Pops the next element of data mover `dm`'s read stream.
  llvm::Expected<Element> pop(unsigned dm, const Tcdm &tcdm);
  /// Pushes `value` to data mover `dm`'s write stream (stored at once).
  llvm::Error push(unsigned dm, uint64_t value, Tcdm &tcdm);

  /// Fails if a started job has elements left: software must consume or
  /// produce exactly the configured count (§2.4). `when` says at what point
  /// ("SSR disable", "return").
  llvm::Error checkAllComplete(llvm::StringRef when) const;

  /// Elements popped or pushed so far, per data mover.
  std::vector<uint64_t> getElementCounts() const;

private:
  static constexpr unsigned kMaxLoops = kSsrMaxLoops;

  /// A running (or finished) stream: its configuration as captured at start
  /// (later configuration writes go to the next job) and its progress.
  struct Job {
    bool isWrite = false;
    unsigned dims = 1;
    std::array<uint32_t, kMaxLoops> bounds{};
    std::array<int32_t, kMaxLoops> strides{};
    uint32_t repeat = 0;
    uint32_t pointer = 0;
    std::array<uint32_t, kMaxLoops> index{};
    /// Deliveries of the current element so far (read streams).
    uint32_t delivered = 0;
    uint64_t total = 0;
    uint64_t done = 0;
    int64_t startCycle = 0;
    unsigned line = 0;
  };

  struct Mover {
    uint32_t repeat = 0;
    std::array<uint32_t, kMaxLoops> bounds{};
    std::array<uint32_t, kMaxLoops> strides{};
    uint32_t lastPointer = 0;
    std::optional<Job> job;
    uint64_t elements = 0;
  };

  llvm::Error writeMover(unsigned dm, unsigned word, uint32_t value,
                         int64_t cycle, unsigned line);
  llvm::Error start(unsigned dm, bool isWrite, unsigned dims, uint32_t pointer,
                    int64_t cycle, unsigned line);
  /// Moves `job` to its next element address (§2.4's delta strides).
  static void advance(Job &job);

  const SnitchCore &core;
  std::vector<Mover> movers;
};

} // namespace perfdojo::snitch

#endif // PERFDOJO_LIB_TARGET_SNITCH_STREAMS_H
