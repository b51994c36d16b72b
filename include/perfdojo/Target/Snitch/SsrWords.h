//===- SsrWords.h - the configuration words of an SSR data mover -*- C++ -*-===//
//
// The Xssr register map (shared/docs/snitch-target.md, section 2.2), once:
// the lowering writes these words (Dialect/Snitch/IR/StreamConfiguration.h)
// and the executable model interprets them (lib/Target/Snitch/Streams.cpp).
// A configuration address is `word << kSsrWordShift | dm`.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TARGET_SNITCH_SSRWORDS_H
#define PERFDOJO_TARGET_SNITCH_SSRWORDS_H

#include <cstdint>

namespace perfdojo::snitch {

enum SsrWord : int64_t {
  kStatusWord = 0,       ///< {done, write, dims - 1, indirect} and pointer
  kRepeatWord = 1,       ///< deliveries of each read element, minus one
  kBoundsWord = 2,       ///< + level: iterations of the level, minus one
  kStridesWord = 6,      ///< + level: delta stride of the level, in bytes
  kReadPointerWord = 24, ///< + rank - 1: start a read stream
  kWritePointerWord = 28 ///< + rank - 1: start a write stream
};

/// Words per data mover, and the shift of the word in an address.
constexpr unsigned kSsrWordCount = 32;
constexpr unsigned kSsrWordShift = 5;
/// Loop levels the register map can describe (four bound and four stride
/// words); a configuration may have fewer (StreamLimits::loopLevels).
constexpr unsigned kSsrMaxLoops = 4;

} // namespace perfdojo::snitch

#endif // PERFDOJO_TARGET_SNITCH_SSRWORDS_H
