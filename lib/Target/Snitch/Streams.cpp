//===- Streams.cpp - the SSR data movers of one core ----------------------===//
//
// Configuration map and address generation of snitch-target.md §2.2-§2.4.
// A job's element i (before repeats) is ready `latency.streamStartup` cycles
// after the pointer write plus i cycles: the mover fetches at most one element
// per cycle and its prefetch FIFO keeps it ahead of an FPU that consumes at
// most one per cycle, so this bound is the only stream stall the model
// charges (TCDM bank conflicts are not modelled).
//
//===----------------------------------------------------------------------===//

#include "Streams.h"

#include "perfdojo/Target/Snitch/Tcdm.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

using namespace perfdojo::snitch;
using llvm::Twine;

namespace {
// The word numbers are SsrWords.h's; address = word << kSsrWordShift | dm.
constexpr unsigned kWordCount = kSsrWordCount;
constexpr unsigned kWordShift = kSsrWordShift;
constexpr uint32_t kMoverMask = (1u << kWordShift) - 1;
// STATUS layout: bits [31:27] = {done, write, dims - 1, indirect}, the low
// bits the current pointer.
constexpr unsigned kStatusDoneBit = 31;
constexpr unsigned kStatusWriteBit = 30;
constexpr unsigned kStatusDimsShift = 28;
constexpr uint32_t kStatusPointerMask = (1u << 27) - 1;

llvm::Error error(const Twine &message) {
  return llvm::make_error<llvm::StringError>(message.str(),
                                             llvm::inconvertibleErrorCode());
}
} // namespace

StreamUnit::StreamUnit(const SnitchCore &core)
    : core(core), movers(core.streams.dataMovers) {}

std::optional<unsigned> StreamUnit::getMoverOfRegister(unsigned reg) const {
  // Data mover i streams through FP register fi (§2.1).
  if (reg < movers.size())
    return reg;
  return std::nullopt;
}

llvm::Error StreamUnit::writeConfig(uint32_t address, uint32_t value,
                                    int64_t cycle, unsigned line) {
  unsigned word = address >> kWordShift, dm = address & kMoverMask;
  if (word >= kWordCount)
    return error("configuration word " + Twine(word) + " does not exist");
  if (dm == core.streams.broadcastMover) {
    for (unsigned i = 0; i < movers.size(); ++i)
      if (llvm::Error err = writeMover(i, word, value, cycle, line))
        return err;
    return llvm::Error::success();
  }
  if (dm >= movers.size())
    return error("data mover " + Twine(dm) + " does not exist (the core has " +
                 Twine(movers.size()) + "; " +
                 Twine(core.streams.broadcastMover) + " broadcasts)");
  return writeMover(dm, word, value, cycle, line);
}

llvm::Error StreamUnit::writeMover(unsigned dm, unsigned word, uint32_t value,
                                   int64_t cycle, unsigned line) {
  Mover &mover = movers[dm];
  auto moverError = [&](const Twine &message) {
    return error("data mover " + Twine(dm) + ": " + message);
  };
  if (word == kStatusWord)
    return moverError("writing STATUS directly is not modelled");
  if (word == kRepeatWord) {
    if (uint64_t(value) + 1 > uint64_t(core.streams.maxRepeat))
      return moverError("repeat value " + Twine(value) + " exceeds " +
                        Twine(core.streams.maxRepeat - 1) +
                        " (REPEAT holds repetitions - 1)");
    mover.repeat = value;
    return llvm::Error::success();
  }
  if (word >= kBoundsWord && word < kStridesWord + kMaxLoops) {
    bool isBound = word < kStridesWord;
    unsigned level = word - (isBound ? kBoundsWord : kStridesWord);
    if (level >= core.streams.loopLevels)
      return moverError("loop " + Twine(level) + " does not exist (" +
                        Twine(core.streams.loopLevels) + " loop levels)");
    if (!isBound) {
      mover.strides[level] = value;
      return llvm::Error::success();
    }
    if (uint64_t(value) + 1 > uint64_t(core.streams.maxIterations))
      return moverError("bound " + Twine(value) + " of loop " + Twine(level) +
                        " exceeds " + Twine(core.streams.maxIterations - 1) +
                        " (BOUNDS hold iterations - 1)");
    mover.bounds[level] = value;
    return llvm::Error::success();
  }
  if (word >= kReadPointerWord) {
    bool isWrite = word >= kWritePointerWord;
    unsigned dims = word - (isWrite ? kWritePointerWord : kReadPointerWord) + 1;
    return start(dm, isWrite, dims, value, cycle, line);
  }
  return moverError("configuration word " + Twine(word) +
                    " (indirection or intersection) is not modelled");
}

llvm::Error StreamUnit::start(unsigned dm, bool isWrite, unsigned dims,
                              uint32_t pointer, int64_t cycle, unsigned line) {
  Mover &mover = movers[dm];
  auto moverError = [&](const Twine &message) {
    return error("data mover " + Twine(dm) + ": " + message);
  };
  if (dims > core.streams.loopLevels)
    return moverError(Twine(dims) + "-dimensional stream exceeds the " +
                      Twine(core.streams.loopLevels) + " loop levels");
  if (mover.job && mover.job->done < mover.job->total)
    return moverError("stream started while the one started on line " +
                      Twine(mover.job->line) + " has " +
                      Twine(mover.job->total - mover.job->done) +
                      " elements left (queueing a job in the shadow "
                      "registers is not modelled)");
  uint32_t elementBytes = static_cast<uint32_t>(core.streams.elementBytes);
  if (pointer % elementBytes != 0)
    return moverError("stream pointer 0x" + llvm::utohexstr(pointer, true) +
                      " is not a multiple of " + Twine(elementBytes) +
                      " bytes");
  Job job;
  job.isWrite = isWrite;
  job.dims = dims;
  job.repeat = isWrite ? 0 : mover.repeat; // repeat applies to reads only
  job.pointer = pointer;
  job.startCycle = cycle;
  job.line = line;
  uint64_t total = job.repeat + 1;
  for (unsigned d = 0; d < dims; ++d) {
    job.bounds[d] = mover.bounds[d];
    job.strides[d] = static_cast<int32_t>(mover.strides[d]);
    if (mover.strides[d] % elementBytes != 0)
      return moverError("stride " + Twine(job.strides[d]) + " of loop " +
                        Twine(d) + " is not a multiple of " +
                        Twine(elementBytes) + " bytes");
    total = llvm::SaturatingMultiply(total, uint64_t(job.bounds[d]) + 1);
  }
  job.total = total;
  mover.lastPointer = pointer;
  mover.job = job;
  return llvm::Error::success();
}

void StreamUnit::advance(Job &job) {
  // The innermost loop that has not reached its bound advances; every loop
  // inside it wraps to 0 without adding its own stride (§2.4).
  for (unsigned d = 0; d < job.dims; ++d) {
    if (job.index[d] < job.bounds[d]) {
      ++job.index[d];
      job.pointer += static_cast<uint32_t>(job.strides[d]);
      return;
    }
    job.index[d] = 0;
  }
}

llvm::Expected<uint32_t> StreamUnit::readConfig(uint32_t address) const {
  unsigned word = address >> kWordShift, dm = address & kMoverMask;
  if (dm >= movers.size())
    return error("data mover " + Twine(dm) + " cannot be read (the core has " +
                 Twine(movers.size()) + ")");
  const Mover &mover = movers[dm];
  if (word == kStatusWord) {
    const std::optional<Job> &job = mover.job;
    bool done = !job || job->done == job->total;
    uint32_t status = uint32_t(done) << kStatusDoneBit;
    if (job) {
      status |= uint32_t(job->isWrite) << kStatusWriteBit;
      status |= (job->dims - 1) << kStatusDimsShift;
    }
    return status |
           ((job ? job->pointer : mover.lastPointer) & kStatusPointerMask);
  }
  if (word == kRepeatWord)
    return mover.repeat;
  if (word >= kBoundsWord && word < kStridesWord)
    return mover.bounds[word - kBoundsWord];
  if (word >= kStridesWord && word < kStridesWord + kMaxLoops)
    return mover.strides[word - kStridesWord];
  if (word >= kReadPointerWord && word < kWordCount)
    return mover.lastPointer;
  return error("configuration word " + Twine(word) + " is not modelled");
}

llvm::Expected<StreamUnit::Element> StreamUnit::pop(unsigned dm,
                                                    const Tcdm &tcdm) {
  Mover &mover = movers[dm];
  if (!mover.job || mover.job->isWrite)
    return error("data mover " + Twine(dm) + " has no read stream");
  Job &job = *mover.job;
  if (job.done == job.total)
    return error("read past the end of the " + Twine(job.total) +
                 "-element stream of data mover " + Twine(dm) +
                 " (started on line " + Twine(job.line) + ")");
  llvm::Expected<uint64_t> value = tcdm.read<uint64_t>(job.pointer);
  if (!value)
    return value.takeError();
  uint64_t fetched = job.done / (uint64_t(job.repeat) + 1);
  Element element{*value, job.startCycle + core.latency.streamStartup +
                              static_cast<int64_t>(fetched)};
  ++job.done;
  ++mover.elements;
  // Each fetched element is delivered REPEAT + 1 times before the next.
  if (++job.delivered > job.repeat) {
    job.delivered = 0;
    advance(job);
  }
  return element;
}

llvm::Error StreamUnit::push(unsigned dm, uint64_t value, Tcdm &tcdm) {
  Mover &mover = movers[dm];
  if (!mover.job || !mover.job->isWrite)
    return error("data mover " + Twine(dm) + " has no write stream");
  Job &job = *mover.job;
  if (job.done == job.total)
    return error("write past the end of the " + Twine(job.total) +
                 "-element stream of data mover " + Twine(dm) +
                 " (started on line " + Twine(job.line) + ")");
  if (llvm::Error err = tcdm.write<uint64_t>(job.pointer, value))
    return err;
  ++job.done;
  ++mover.elements;
  advance(job);
  return llvm::Error::success();
}

llvm::Error StreamUnit::checkAllComplete(llvm::StringRef when) const {
  for (auto [dm, mover] : llvm::enumerate(movers)) {
    if (!mover.job || mover.job->done == mover.job->total)
      continue;
    const Job &job = *mover.job;
    return error("data mover " + Twine(dm) + ": " +
                 (job.isWrite ? "write" : "read") + " stream started on line " +
                 Twine(job.line) + " has " + Twine(job.total - job.done) +
                 " of " + Twine(job.total) + " elements left at " + when +
                 " (a stream must be consumed exactly)");
  }
  return llvm::Error::success();
}

std::vector<uint64_t> StreamUnit::getElementCounts() const {
  std::vector<uint64_t> counts;
  for (const Mover &mover : movers)
    counts.push_back(mover.elements);
  return counts;
}
