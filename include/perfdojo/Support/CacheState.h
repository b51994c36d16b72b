//===- CacheState.h - the cache a timed call starts from --------*- C++ -*-===//
//
// One option of every timing (perfdojo-run, perfdojo-run-torch, the search's
// evaluations): whether the repetitions find their data in the caches.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SUPPORT_CACHESTATE_H
#define PERFDOJO_SUPPORT_CACHESTATE_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace perfdojo {

/// Cold: every repetition runs on an argument copy that the last-level
/// cache no longer holds, as a kernel called once between other work finds
/// its data. Warm: every repetition runs on the same arguments, as a kernel
/// called in a loop finds whatever of them fits the caches (a library
/// user's benchmark loop, the peer harness).
enum class CacheState { Cold, Warm };

/// "cold" or "warm".
inline llvm::StringRef getCacheStateName(CacheState state) {
  return state == CacheState::Warm ? "warm" : "cold";
}

/// The state called `name`, or nullopt.
inline std::optional<CacheState> parseCacheState(llvm::StringRef name) {
  if (name == "cold")
    return CacheState::Cold;
  if (name == "warm")
    return CacheState::Warm;
  return std::nullopt;
}

} // namespace perfdojo

#endif // PERFDOJO_SUPPORT_CACHESTATE_H
