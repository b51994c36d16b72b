//===- LaunchLimitsTest.cpp - launches against device and function limits -===//

#include "perfdojo/GpuRuntime/LaunchLimits.h"

#include <gtest/gtest.h>

using namespace perfdojo::gpu;

namespace {

DeviceInfo getH100() {
  DeviceInfo d;
  d.name = "H100";
  d.computeMajor = 9;
  d.computeMinor = 0;
  d.multiprocessors = 132;
  d.warpSize = 32;
  d.maxThreadsPerBlock = 1024;
  d.maxBlockDims = {1024, 1024, 64};
  d.maxGridDims = {2147483647, 65535, 65535};
  d.sharedBytesPerBlock = 48 * 1024;
  d.sharedBytesPerBlockOptin = 227 * 1024;
  d.registersPerBlock = 65536;
  return d;
}

FunctionInfo getFunction(int registers = 32, int maxThreads = 1024) {
  FunctionInfo f;
  f.name = "k";
  f.registers = registers;
  f.maxThreadsPerBlock = maxThreads;
  return f;
}

PlanLaunch getLaunch(std::array<uint32_t, 3> block,
                     std::array<uint32_t, 3> grid = {1, 1, 1},
                     uint64_t shared = 0) {
  PlanLaunch l;
  l.function = "softmax_k0";
  l.block = block;
  l.grid = grid;
  l.sharedBytes = shared;
  return l;
}

std::string reject(const PlanLaunch &l, const FunctionInfo &f = getFunction()) {
  std::string reason;
  EXPECT_FALSE(checkLaunch(l, getH100(), f, reason));
  return reason;
}

TEST(LaunchLimits, AcceptsWhatFits) {
  std::string reason;
  EXPECT_TRUE(checkLaunch(getLaunch({1024, 1, 1}, {2147483647, 65535, 65535}),
                          getH100(), getFunction(64), reason))
      << reason;
  EXPECT_TRUE(checkLaunch(getLaunch({16, 16, 4}, {1, 1, 1}, 227 * 1024),
                          getH100(), getFunction(), reason))
      << reason;
  EXPECT_EQ(getH100().getArch(), "sm_90");
}

TEST(LaunchLimits, ThreadsPerBlockOfTheDevice) {
  EXPECT_EQ(reject(getLaunch({2048, 1, 1})),
            "launch softmax_k0: 2048 threads per block exceed the device's "
            "1024");
  EXPECT_EQ(reject(getLaunch({64, 64, 1})),
            "launch softmax_k0: 4096 threads per block exceed the device's "
            "1024");
  // The product of three 32-bit dimensions does not wrap.
  EXPECT_EQ(reject(getLaunch({65536, 65536, 65536})),
            "launch softmax_k0: 281474976710656 threads per block exceed the "
            "device's 1024");
}

TEST(LaunchLimits, BlockAndGridDimensions) {
  EXPECT_EQ(reject(getLaunch({1, 1, 128})),
            "launch softmax_k0: block dimension z of 128 exceeds the device's "
            "64");
  EXPECT_EQ(reject(getLaunch({1, 1, 1}, {1, 70000, 1})),
            "launch softmax_k0: grid dimension y of 70000 exceeds the "
            "device's 65535");
  EXPECT_EQ(reject(getLaunch({1, 1, 1}, {4294967295u, 1, 1})),
            "launch softmax_k0: grid dimension x of 4294967295 exceeds the "
            "device's 2147483647");
}

TEST(LaunchLimits, ThreadsTheFunctionAllows) {
  EXPECT_EQ(reject(getLaunch({1024, 1, 1}), getFunction(128, 512)),
            "launch softmax_k0: 1024 threads per block exceed the 512 that "
            "function k allows (it uses 128 registers per thread)");
}

TEST(LaunchLimits, RegistersOfTheBlock) {
  // A function whose reported maximum is too generous is still caught by
  // the register count, per whole warp.
  EXPECT_EQ(reject(getLaunch({1024, 1, 1}), getFunction(128, 1024)),
            "launch softmax_k0: 128 registers x 1024 threads need 131072 "
            "registers, the device has 65536 per block");
  EXPECT_EQ(reject(getLaunch({513, 1, 1}), getFunction(128, 1024)),
            "launch softmax_k0: 128 registers x 513 threads need 69632 "
            "registers, the device has 65536 per block");
  std::string reason;
  EXPECT_TRUE(checkLaunch(getLaunch({512, 1, 1}), getH100(),
                          getFunction(128, 512), reason))
      << reason;
}

TEST(LaunchLimits, ParametersOfTheFunction) {
  FunctionInfo f = getFunction();
  PlanLaunch l = getLaunch({32, 1, 1});
  l.arguments.resize(2);
  std::string reason;
  // Unknown parameters (an older driver) are not checked.
  EXPECT_TRUE(checkLaunch(l, getH100(), f, reason)) << reason;
  f.parametersKnown = true;
  f.parameterBytes = {8, 8};
  EXPECT_TRUE(checkLaunch(l, getH100(), f, reason)) << reason;
  f.parameterBytes = {8, 8, 8};
  EXPECT_EQ(reject(l, f), "launch softmax_k0: the plan passes 2 parameters, "
                          "function k takes 3");
  f.parameterBytes = {8, 4};
  EXPECT_EQ(reject(l, f), "launch softmax_k0: parameter 1 of function k has 4 "
                          "bytes, the plan passes 8 (a pointer or an i64)");
}

TEST(LaunchLimits, SharedMemoryAndTheOptin) {
  DeviceInfo d = getH100();
  FunctionInfo f = getFunction();
  EXPECT_FALSE(
      needsSharedOptin(getLaunch({1, 1, 1}, {1, 1, 1}, 48 * 1024), d, f));
  EXPECT_TRUE(
      needsSharedOptin(getLaunch({1, 1, 1}, {1, 1, 1}, 48 * 1024 + 1), d, f));
  f.staticSharedBytes = 1024;
  EXPECT_TRUE(
      needsSharedOptin(getLaunch({1, 1, 1}, {1, 1, 1}, 48 * 1024), d, f));
  EXPECT_EQ(reject(getLaunch({1, 1, 1}, {1, 1, 1}, 227 * 1024), f),
            "launch softmax_k0: 232448 dynamic + 1024 static shared bytes "
            "exceed the device's 232448 per block");
  EXPECT_EQ(reject(getLaunch({1, 1, 1}, {1, 1, 1}, 4294967295u)),
            "launch softmax_k0: 4294967295 dynamic + 0 static shared bytes "
            "exceed the device's 232448 per block");
}

} // namespace
