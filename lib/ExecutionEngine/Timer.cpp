//===- Timer.cpp - time a compiled kernel ---------------------------------===//

#include "perfdojo/ExecutionEngine/Timer.h"
#include "perfdojo/Support/Statistics.h"

#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <chrono>

using namespace perfdojo;

int64_t perfdojo::getLastLevelCacheBytes() {
  int64_t largest = 0;
  for (int index = 0; index < 8; ++index) {
    std::string path = "/sys/devices/system/cpu/cpu0/cache/index" +
                       std::to_string(index) + "/size";
    // sysfs files claim a page of size but hold a few bytes: read them as
    // streams, not by their stat size.
    auto file = llvm::MemoryBuffer::getFileAsStream(path);
    if (!file)
      continue;
    llvm::StringRef text = (*file)->getBuffer().trim();
    int64_t scale = 1;
    if (text.consume_back("K"))
      scale = 1024;
    else if (text.consume_back("M"))
      scale = 1024 * 1024;
    int64_t value;
    if (!text.getAsInteger(10, value))
      largest = std::max(largest, value * scale);
  }
  return largest ? largest : int64_t(32) << 20;
}

ArgumentRotation::ArgumentRotation(llvm::ArrayRef<HostBuffer> inputs,
                                   const TimingOptions &options) {
  int64_t bytesPerSet = 0;
  for (const HostBuffer &buffer : inputs)
    bytesPerSet += buffer.size() * buffer.getElementBytes();
  int64_t target = options.rotationBytes > 0 ? options.rotationBytes
                                             : 2 * getLastLevelCacheBytes();
  unsigned copies = 1;
  if (options.cache == CacheState::Cold && bytesPerSet > 0 &&
      bytesPerSet < target)
    copies = static_cast<unsigned>(
        std::min<int64_t>(std::max(1u, options.maxCopies),
                          (target + bytesPerSet - 1) / bytesPerSet));
  sets.resize(copies);
  pointers.resize(copies);
  for (unsigned c = 0; c < copies; ++c) {
    sets[c].assign(inputs.begin(), inputs.end());
    for (HostBuffer &buffer : sets[c])
      pointers[c].push_back(buffer.data());
  }
}

void **ArgumentRotation::next() {
  void **result = pointers[position].data();
  position = (position + 1) % pointers.size();
  return result;
}

/// Reads every cache line of [data, data + bytes) so that it is cached, as
/// a kernel reading it would leave it.
static void touchMemory(const void *data, size_t bytes) {
  const volatile char *bytesPtr = static_cast<const volatile char *>(data);
  char sink = 0;
  for (size_t i = 0; i < bytes; i += 64)
    sink ^= bytesPtr[i];
  (void)sink;
}

TimingResult perfdojo::summarizeTimes(std::vector<double> seconds) {
  TimingResult result;
  result.repetitions = seconds.size();
  MedianAndMin summary = getMedianAndMin(std::move(seconds));
  result.medianSeconds = summary.median;
  result.minSeconds = summary.min;
  return result;
}

std::optional<TimingResult>
perfdojo::timeRotatingCalls(unsigned copies,
                            llvm::function_ref<bool(unsigned)> call,
                            const TimingOptions &options,
                            llvm::function_ref<void(unsigned)> touch) {
  using Clock = std::chrono::steady_clock;
  copies = std::max(1u, copies);
  unsigned next = 0;
  auto callNext = [&] {
    unsigned copy = next;
    next = (next + 1) % copies;
    return call(copy);
  };
  // Warm up with at least one pass over every copy: the copies were just
  // written, so the last of them still sit in the cache; timing starts in
  // the steady state where every call finds its data out of cache. A slow
  // kernel finishes the pass by reading the copies: the cache holds the
  // same data as if it had run on them.
  auto secondsSince = [](Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  auto tooSlow = [&](double seconds) {
    return options.stopAboveSeconds > 0 && seconds > options.stopAboveSeconds;
  };
  auto warmupStart = Clock::now();
  for (unsigned w = 0; w < std::max(options.warmup, copies); ++w) {
    bool slow = options.maxWarmupSeconds >= 0 &&
                secondsSince(warmupStart) > options.maxWarmupSeconds;
    if (slow && touch && w >= options.warmup) {
      touch(next);
      next = (next + 1) % copies;
      continue;
    }
    auto start = Clock::now();
    if (!callNext())
      return std::nullopt;
    if (double seconds = secondsSince(start); tooSlow(seconds)) {
      TimingResult result = summarizeTimes({seconds});
      result.copies = copies;
      result.stoppedEarly = true;
      return result;
    }
  }
  std::vector<double> seconds;
  bool stoppedEarly = false;
  for (unsigned r = 0; r < std::max(1u, options.repetitions); ++r) {
    auto start = Clock::now();
    if (!callNext())
      return std::nullopt;
    seconds.push_back(secondsSince(start));
    if (tooSlow(seconds.back())) {
      stoppedEarly = r + 1 < std::max(1u, options.repetitions);
      break;
    }
  }
  TimingResult result = summarizeTimes(std::move(seconds));
  result.copies = copies;
  result.stoppedEarly = stoppedEarly;
  return result;
}

llvm::Expected<TimingResult>
perfdojo::timeKernel(JitKernel &kernel, llvm::ArrayRef<HostBuffer> inputs,
                     const TimingOptions &options) {
  ArgumentRotation rotation(inputs, options);
  // Checks the argument types once; the timed calls go through call().
  if (llvm::Error error = kernel.run(rotation.getSet(0)))
    return std::move(error);
  std::vector<void **> pointers;
  for (unsigned c = 0; c < rotation.size(); ++c)
    pointers.push_back(rotation.next());
  return *timeRotatingCalls(
      rotation.size(),
      [&](unsigned copy) {
        kernel.call(pointers[copy]);
        return true;
      },
      options,
      [&](unsigned copy) {
        for (const HostBuffer &buffer : rotation.getSet(copy))
          touchMemory(buffer.data(), buffer.size() * buffer.getElementBytes());
      });
}
