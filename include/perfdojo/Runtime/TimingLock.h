//===- TimingLock.h - one run at a time touches kernel data -----*- C++ -*-===//
//
// Concurrent runs (perfdojo-search --jobs) compile side by side but must not
// time, fill inputs or validate at the same time: one run's memory traffic
// would slow another's timed calls. Each run holds an exclusive lock on a
// shared file while it touches kernel data.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_RUNTIME_TIMINGLOCK_H
#define PERFDOJO_RUNTIME_TIMINGLOCK_H

#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"

#include <optional>

namespace perfdojo {

/// An exclusive lock on a file, released when destroyed.
class TimingLock {
public:
  /// Opens (creating it if needed) and locks `path`, waiting for other
  /// holders. An empty path locks nothing.
  static llvm::Expected<TimingLock> acquire(llvm::StringRef path);

  TimingLock(TimingLock &&other) noexcept;
  TimingLock &operator=(TimingLock &&other) noexcept;
  TimingLock(const TimingLock &) = delete;
  TimingLock &operator=(const TimingLock &) = delete;
  ~TimingLock() { release(); }

  /// Unlocks early; the destructor then does nothing.
  void release();

private:
  TimingLock() = default;
  std::optional<llvm::sys::fs::file_t> file;
};

} // namespace perfdojo

#endif // PERFDOJO_RUNTIME_TIMINGLOCK_H
