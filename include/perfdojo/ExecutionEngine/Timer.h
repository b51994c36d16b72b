//===- Timer.h - time a compiled kernel --------------------------*- C++ -*-===//
//
// The one timing method behind perfdojo-run, the benchmarks and the search:
// warm-up calls, then repetitions that rotate through enough copies of the
// argument buffers that a kernel whose data would fit in the last-level
// cache still starts every repetition on data it has not just touched
// (CacheState::Cold), or that all run on one copy (CacheState::Warm).
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_EXECUTIONENGINE_TIMER_H
#define PERFDOJO_EXECUTIONENGINE_TIMER_H

#include "perfdojo/ExecutionEngine/JitKernel.h"
#include "perfdojo/Support/CacheState.h"

namespace perfdojo {

struct TimingOptions {
  CacheState cache = CacheState::Cold;
  /// Untimed calls first; at least one per argument copy.
  unsigned warmup = 1;
  unsigned repetitions = 10;
  /// Cold: rotate argument copies until they span this many bytes (0:
  /// twice the last-level cache). At most `maxCopies` copies are made.
  int64_t rotationBytes = 0;
  unsigned maxCopies = 64;
  /// Once warm-up calls have taken this long, the copies not yet used are
  /// read instead of run on (when the caller can read them): the cache
  /// ends in the same state, and a slow kernel does not spend a minute
  /// warming up. 0: only the `warmup` calls run, the rest of the pass
  /// reads; negative: always call.
  double maxWarmupSeconds = 1;
  /// Stop at the first call, warm-up or timed, that takes longer than
  /// this (0: never): a search candidate that slow is no contender, and
  /// one call says so. The result then holds the calls timed so far, or
  /// that one call.
  double stopAboveSeconds = 0;
};

struct TimingResult {
  double medianSeconds = 0;
  double minSeconds = 0;
  unsigned repetitions = 0;
  /// Argument copies rotated through (1: the kernel ran on one set).
  unsigned copies = 1;
  /// A call took longer than TimingOptions::stopAboveSeconds.
  bool stoppedEarly = false;
};

/// Copies of a kernel's argument buffers: for a cold cache enough of them
/// to span `options.rotationBytes` (0: twice the last-level cache), at most
/// `options.maxCopies`; for a warm one a single copy. Each call of `next()`
/// returns the argument pointers of the next copy.
class ArgumentRotation {
public:
  ArgumentRotation(llvm::ArrayRef<HostBuffer> inputs,
                   const TimingOptions &options);
  void **next();
  unsigned size() const { return sets.size(); }
  std::vector<HostBuffer> &getSet(unsigned i) { return sets[i]; }

private:
  std::vector<std::vector<HostBuffer>> sets;
  std::vector<std::vector<void *>> pointers;
  unsigned position = 0;
};

/// Size of the last-level cache of this machine in bytes (a 32 MiB guess if
/// the system does not say).
int64_t getLastLevelCacheBytes();

/// Median, minimum and count of `seconds` (at least one).
TimingResult summarizeTimes(std::vector<double> seconds);

/// The timing policy shared by every timed thing (compiled kernels,
/// libtorch operators): `call(c)` runs once on argument copy c of `copies`,
/// cycling; first warm-up calls, at least one per copy, then
/// `options.repetitions` timed calls. `call` returns false to stop (its
/// caller reports why); the result is then nullopt. `touch(c)`, if given,
/// reads copy c's memory: past `options.maxWarmupSeconds` the warm-up
/// touches the remaining copies instead of calling on them.
std::optional<TimingResult>
timeRotatingCalls(unsigned copies, llvm::function_ref<bool(unsigned)> call,
                  const TimingOptions &options,
                  llvm::function_ref<void(unsigned)> touch = nullptr);

/// Times `kernel` on copies of `inputs` (its arguments in declaration order,
/// already filled).
llvm::Expected<TimingResult> timeKernel(JitKernel &kernel,
                                        llvm::ArrayRef<HostBuffer> inputs,
                                        const TimingOptions &options = {});

} // namespace perfdojo

#endif // PERFDOJO_EXECUTIONENGINE_TIMER_H
