//===- TimerTest.cpp - the rotating-call timing policy --------------------===//

#include "perfdojo/ExecutionEngine/Timer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

using namespace perfdojo;

namespace {

/// Records, in order, which copies were called and which were read.
struct Trace {
  std::vector<unsigned> calls, touches;
};

std::optional<TimingResult> timeWith(Trace &trace, unsigned copies,
                                     const TimingOptions &options,
                                     bool canTouch = true) {
  auto call = [&](unsigned c) {
    trace.calls.push_back(c);
    return true;
  };
  auto touch = [&](unsigned c) { trace.touches.push_back(c); };
  if (!canTouch)
    return timeRotatingCalls(copies, call, options);
  return timeRotatingCalls(copies, call, options, touch);
}

TEST(TimerTest, WarmupCallsEveryCopyByDefault) {
  TimingOptions options;
  options.warmup = 1;
  options.repetitions = 3;
  Trace trace;
  std::optional<TimingResult> result = timeWith(trace, 4, options);
  ASSERT_TRUE(result);
  // Four warm-up calls (one per copy) and three timed ones, cycling.
  EXPECT_EQ(trace.calls, (std::vector<unsigned>{0, 1, 2, 3, 0, 1, 2}));
  EXPECT_TRUE(trace.touches.empty());
  EXPECT_EQ(result->repetitions, 3u);
  EXPECT_EQ(result->copies, 4u);
}

TEST(TimerTest, ZeroWarmupSecondsReadsTheRemainingCopies) {
  TimingOptions options;
  options.warmup = 2;
  options.repetitions = 3;
  options.maxWarmupSeconds = 0;
  Trace trace;
  ASSERT_TRUE(timeWith(trace, 5, options));
  // Two warm-up calls, the other three copies read, then the timed calls
  // continue the cycle where the reads left it.
  EXPECT_EQ(trace.touches, (std::vector<unsigned>{2, 3, 4}));
  EXPECT_EQ(trace.calls, (std::vector<unsigned>{0, 1, 0, 1, 2}));
}

TEST(TimerTest, WithoutTouchEveryWarmupIsACall) {
  TimingOptions options;
  options.repetitions = 1;
  options.maxWarmupSeconds = 0;
  Trace trace;
  ASSERT_TRUE(timeWith(trace, 3, options, /*canTouch=*/false));
  EXPECT_EQ(trace.calls, (std::vector<unsigned>{0, 1, 2, 0}));
}

TEST(TimerTest, NegativeWarmupSecondsAlwaysCalls) {
  TimingOptions options;
  options.repetitions = 1;
  options.maxWarmupSeconds = -1;
  Trace trace;
  ASSERT_TRUE(timeWith(trace, 3, options));
  EXPECT_EQ(trace.calls.size(), 4u);
  EXPECT_TRUE(trace.touches.empty());
}

TEST(TimerTest, AFailingCallStopsTiming) {
  TimingOptions options;
  unsigned calls = 0;
  std::optional<TimingResult> result = timeRotatingCalls(
      2,
      [&](unsigned) {
        ++calls;
        return calls < 2;
      },
      options);
  EXPECT_FALSE(result);
  EXPECT_EQ(calls, 2u);
}

TEST(TimerTest, SummaryIsMedianAndMinimum) {
  TimingResult even = summarizeTimes({4, 1, 3, 2});
  EXPECT_DOUBLE_EQ(even.medianSeconds, 2.5);
  EXPECT_DOUBLE_EQ(even.minSeconds, 1);
  EXPECT_EQ(even.repetitions, 4u);
  EXPECT_DOUBLE_EQ(summarizeTimes({3, 1, 2}).medianSeconds, 2);
}

TEST(TimerTest, RotationSpansTheRequestedBytes) {
  // 1000 f32 elements = 4000 bytes per set: 10,000 bytes need 3 copies.
  std::vector<HostBuffer> args;
  args.emplace_back("x", ScalarType::f32, 1000);
  args[0].fill(1.5);
  TimingOptions options;
  options.rotationBytes = 10000;
  ArgumentRotation rotation(args, options);
  ASSERT_EQ(rotation.size(), 3u);
  EXPECT_EQ(rotation.getSet(2)[0].get(999), 1.5);
  EXPECT_NE(rotation.getSet(1)[0].data(), rotation.getSet(2)[0].data());
  // The cap wins over the byte target.
  options.rotationBytes = 1 << 20;
  options.maxCopies = 4;
  EXPECT_EQ(ArgumentRotation(args, options).size(), 4u);
}

TEST(TimerTest, AWarmCacheTimesOneCopy) {
  std::vector<HostBuffer> args;
  args.emplace_back("x", ScalarType::f32, 1000);
  TimingOptions options;
  options.cache = CacheState::Warm;
  options.rotationBytes = 1 << 20;
  ArgumentRotation rotation(args, options);
  EXPECT_EQ(rotation.size(), 1u);
  // Every warm-up and timed call then runs on that copy.
  options.warmup = 2;
  options.repetitions = 3;
  Trace trace;
  ASSERT_TRUE(timeWith(trace, rotation.size(), options));
  EXPECT_EQ(trace.calls, (std::vector<unsigned>{0, 0, 0, 0, 0}));
}

/// A call that takes at least `ms` milliseconds.
bool sleepFor(unsigned ms) {
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  return true;
}

/// One warm-up call and five timed ones, stopping above 1 ms.
TimingOptions stopAboveOneMillisecond() {
  TimingOptions options;
  options.warmup = 1;
  options.repetitions = 5;
  options.stopAboveSeconds = 1e-3;
  return options;
}

TEST(TimerTest, ASlowWarmupCallIsTheOnlyTimedCall) {
  TimingOptions options = stopAboveOneMillisecond();
  unsigned calls = 0;
  std::optional<TimingResult> result = timeRotatingCalls(
      1, [&](unsigned) { return ++calls, sleepFor(3); }, options);
  ASSERT_TRUE(result);
  EXPECT_EQ(calls, 1u);
  EXPECT_TRUE(result->stoppedEarly);
  EXPECT_EQ(result->repetitions, 1u);
  EXPECT_GE(result->medianSeconds, 3e-3);
}

TEST(TimerTest, TimingStopsAtTheFirstSlowCall) {
  TimingOptions options = stopAboveOneMillisecond();
  // Fast warm-up and first timed call, then a slow one: two timed calls.
  unsigned calls = 0;
  std::optional<TimingResult> result = timeRotatingCalls(
      1, [&](unsigned) { return ++calls < 3 || sleepFor(3); }, options);
  ASSERT_TRUE(result);
  EXPECT_EQ(calls, 3u);
  EXPECT_TRUE(result->stoppedEarly);
  EXPECT_EQ(result->repetitions, 2u);
  // Without a limit every repetition runs.
  options.stopAboveSeconds = 0;
  calls = 0;
  result = timeRotatingCalls(
      1, [&](unsigned) { return ++calls < 3 || sleepFor(2); }, options);
  ASSERT_TRUE(result);
  EXPECT_EQ(calls, 6u);
  EXPECT_FALSE(result->stoppedEarly);
}

TEST(TimerTest, CacheStatesHaveNames) {
  EXPECT_EQ(parseCacheState("warm"), CacheState::Warm);
  EXPECT_EQ(parseCacheState(getCacheStateName(CacheState::Cold)),
            CacheState::Cold);
  EXPECT_FALSE(parseCacheState("hot"));
}

} // namespace
