//===- CudaRuntimeTest.cpp - the runtime against a recording driver -------===//
//
// These tests run the runtime on libperfdojo-fake-cuda.so
// (FakeCudaDriver.cpp), which records every driver call and runs no kernel
// code. They check PLUMBING ONLY: the sequence of driver calls, the grid,
// block, shared bytes and parameters of every launch, the copies, the
// timing protocol, the release of everything on every error path, and the
// messages. Whether kernels compute the right values on a GPU is tested
// where a GPU is (docs/gpu-runtime.md, "Testing").
//
//===----------------------------------------------------------------------===//

#include "perfdojo/GpuRuntime/CudaRuntime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace perfdojo::gpu;

namespace {

/// Three functions, a scratch buffer, a host loop, every argument role.
const char *kPlan = R"(perfdojo-launch-plan 1
kernel small
target sm_90 ptx
buffer x f32 4 6 in
buffer m f32 4 2 scratch
buffer y f32 4 6 out
buffer acc i64 8 2 inout
launch k_init grid 2 1 1 block 32 1 1 shared 0 args buffer:1
loop 2
  launch k_row grid 1 1 1 block 64 1 1 shared 256 args buffer:0 buffer:1 buffer:2 loop:0 const:7
end
launch k_acc grid 1 1 1 block 2 1 1 shared 0 args buffer:3
)";

/// The fake driver reads the entries' parameter lists and the
/// `fake-function` lines only.
const char *kPtx = R"(.version 8.0
.target sm_90
.address_size 64
// fake-function k_row regs=40
.visible .entry k_init(.param .u64 p0) { ret; }
.visible .entry k_row(.param .u64 p0, .param .u64 p1, .param .u64 p2,
                      .param .u64 p3, .param .u64 p4) { ret; }
.visible .entry k_acc(.param .u64 p0) { ret; }
)";

class CudaRuntime : public ::testing::Test {
protected:
  void SetUp() override {
    logPath = ::testing::TempDir() + "perfdojo-fake-cuda-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name() +
              ".log";
    std::remove(logPath.c_str());
    setenv("PERFDOJO_CUDA_DRIVER", PERFDOJO_FAKE_CUDA_PATH, 1);
    setenv("PERFDOJO_FAKE_CUDA_LOG", logPath.c_str(), 1);
    for (const char *name :
         {"PERFDOJO_FAKE_CUDA_FAIL", "PERFDOJO_FAKE_CUDA_DEVICES",
          "PERFDOJO_FAKE_CUDA_TIMES"})
      unsetenv(name);
    std::string error;
    std::optional<LaunchPlan> parsed = LaunchPlan::parse(kPlan, error);
    ASSERT_TRUE(parsed) << error;
    plan = *parsed;
    x.resize(24);
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = char(i);
    acc.assign(16, char(0x5a));
  }

  void TearDown() override {
    for (const char *name :
         {"PERFDOJO_CUDA_DRIVER", "PERFDOJO_FAKE_CUDA_LOG",
          "PERFDOJO_FAKE_CUDA_FAIL", "PERFDOJO_FAKE_CUDA_DEVICES",
          "PERFDOJO_FAKE_CUDA_TIMES"})
      unsetenv(name);
    std::remove(logPath.c_str());
  }

  bool SetUpPlanAgain() {
    std::string error;
    std::optional<LaunchPlan> parsed = LaunchPlan::parse(kPlan, error);
    if (parsed)
      plan = *parsed;
    return bool(parsed);
  }

  std::vector<std::vector<char>> getArguments() const { return {x, {}, acc}; }

  bool run(GpuRunResult &result, std::string &error, int warmup = 1,
           int reps = 2, const std::string &ptx = kPtx) {
    GpuRunOptions options;
    options.warmup = warmup;
    options.reps = reps;
    return runPlan(plan, ptx, getArguments(), options, result, error);
  }

  /// The recorded calls, without the attribute and parameter queries when
  /// `brief`.
  std::vector<std::string> getLog(bool brief = true) const {
    std::ifstream in(logPath);
    std::vector<std::string> lines;
    std::string line;
    while (std::getline(in, line))
      if (!brief || (line.rfind("cuDeviceGetAttribute", 0) != 0 &&
                     line.rfind("cuFuncGetAttribute", 0) != 0 &&
                     line.rfind("cuFuncGetParamInfo", 0) != 0))
        lines.push_back(line);
    return lines;
  }

  size_t countCalls(const std::string &prefix) const {
    size_t n = 0;
    for (const std::string &line : getLog(false))
      n += line.rfind(prefix, 0) == 0;
    return n;
  }

  /// Calls of `prefix` that succeeded.
  size_t countSucceeded(const std::string &prefix) const {
    size_t n = 0;
    for (const std::string &line : getLog(false))
      n += line.rfind(prefix, 0) == 0 &&
           line.find(" -> CUDA_ERROR") == std::string::npos;
    return n;
  }

  /// Every allocation freed, the module unloaded, the context released.
  void expectReleased() const {
    EXPECT_EQ(countSucceeded("cuMemAlloc_v2"), countCalls("cuMemFree_v2"));
    EXPECT_EQ(countSucceeded("cuEventCreate"), countCalls("cuEventDestroy_v2"));
    EXPECT_EQ(countSucceeded("cuModuleLoadDataEx"),
              countCalls("cuModuleUnload"));
    EXPECT_EQ(countSucceeded("cuDevicePrimaryCtxRetain"),
              countCalls("cuDevicePrimaryCtxRelease_v2"));
    EXPECT_EQ(countCalls("cuMemFree_v2 ?") + countCalls("cuModuleUnload ?"),
              0u);
  }

  std::string logPath;
  LaunchPlan plan;
  std::vector<char> x, acc;
};

std::string join(const std::vector<std::string> &lines) {
  std::string text;
  for (const std::string &line : lines)
    text += line + "\n";
  return text;
}

TEST_F(CudaRuntime, CallSequenceOfAPlanWithAHostLoop) {
  GpuRunResult result;
  std::string error;
  ASSERT_TRUE(run(result, error)) << error;

  std::string launches =
      "cuLaunchKernel k_init grid=2,1,1 block=32,1,1 shared=0 params=1: "
      "mem#1\n"
      "cuLaunchKernel k_row grid=1,1,1 block=64,1,1 shared=256 params=5: "
      "mem#0 mem#1 mem#2 0 7\n"
      "cuLaunchKernel k_row grid=1,1,1 block=64,1,1 shared=256 params=5: "
      "mem#0 mem#1 mem#2 1 7\n"
      "cuLaunchKernel k_acc grid=1,1,1 block=2,1,1 shared=0 params=1: "
      "mem#3\n";
  // Inputs re-copied and the out buffer reset before every execution.
  std::string fresh = "cuMemcpyHtoD_v2 mem#0 bytes=24\n"
                      "cuMemsetD8_v2 mem#2 value=255 bytes=24\n"
                      "cuMemcpyHtoD_v2 mem#3 bytes=16\n";
  std::string timed = fresh + "cuEventRecord event#0\n" + launches +
                      "cuEventRecord event#1\n"
                      "cuEventSynchronize event#1\n"
                      "cuEventElapsedTime event#0 event#1 -> 1\n";
  std::string expected = "cuInit flags=0\n"
                         "cuDriverGetVersion -> 12080\n"
                         "cuDeviceGetCount -> 1\n"
                         "cuDeviceGet ordinal=0\n"
                         "cuDeviceGetName\n"
                         "cuDevicePrimaryCtxRetain device=0\n"
                         "cuCtxSetCurrent\n"
                         "cuModuleLoadDataEx ptx_bytes=" +
                         std::to_string(std::string(kPtx).size()) +
                         " options=5 -> module#0\n"
                         "cuModuleGetFunction k_init -> params=1\n"
                         "cuModuleGetFunction k_row -> params=5\n"
                         "cuModuleGetFunction k_acc -> params=1\n"
                         "cuMemAlloc_v2 bytes=24 -> mem#0\n"
                         "cuMemAlloc_v2 bytes=8 -> mem#1\n"
                         "cuMemsetD8_v2 mem#1 value=255 bytes=8\n"
                         "cuMemAlloc_v2 bytes=24 -> mem#2\n"
                         "cuMemAlloc_v2 bytes=16 -> mem#3\n"
                         "cuEventCreate flags=0 -> event#0\n"
                         "cuEventCreate flags=0 -> event#1\n" +
                         fresh + launches + "cuCtxSynchronize\n" + timed +
                         timed +
                         "cuMemcpyDtoH_v2 mem#2 bytes=24\n"
                         "cuMemcpyDtoH_v2 mem#3 bytes=16\n"
                         "cuEventDestroy_v2 event#0\n"
                         "cuEventDestroy_v2 event#1\n"
                         "cuMemFree_v2 mem#0\n"
                         "cuMemFree_v2 mem#1\n"
                         "cuMemFree_v2 mem#2\n"
                         "cuMemFree_v2 mem#3\n"
                         "cuModuleUnload module#0\n"
                         "cuDevicePrimaryCtxRelease_v2 device=0\n";
  EXPECT_EQ(join(getLog()), expected);
  // 14 device attributes, 4 per function, each parameter and one past.
  EXPECT_EQ(countCalls("cuDeviceGetAttribute"), 14u);
  EXPECT_EQ(countCalls("cuFuncGetAttribute"), 12u);
  EXPECT_EQ(countCalls("cuFuncGetParamInfo"), 10u);
  EXPECT_EQ(
      countCalls("cuFuncGetParamInfo k_row 5 -> CUDA_ERROR_INVALID_VALUE"), 1u);

  // One output per argument buffer: in empty, out the sentinel (no kernel
  // ran), inout its input.
  ASSERT_EQ(result.outputs.size(), 3u);
  EXPECT_TRUE(result.outputs[0].empty());
  EXPECT_EQ(result.outputs[1], std::vector<char>(24, char(kUnwrittenByte)));
  EXPECT_EQ(result.outputs[2], acc);

  EXPECT_EQ(result.timesMs, (std::vector<double>{1.0, 1.0}));
  EXPECT_EQ(result.medianMs, 1.0);
  EXPECT_EQ(result.minMs, 1.0);
  EXPECT_EQ(result.device.name, "Fake H100 (perfdojo-fake-cuda)");
  EXPECT_EQ(result.device.getArch(), "sm_90");
  EXPECT_EQ(result.device.multiprocessors, 132);
  EXPECT_EQ(result.device.sharedBytesPerBlockOptin, 227 * 1024);
  EXPECT_EQ(result.device.driverVersion, 12080);
  ASSERT_EQ(result.functions.size(), 3u);
  EXPECT_EQ(result.functions[1].name, "k_row");
  EXPECT_EQ(result.functions[1].registers, 40);
  EXPECT_EQ(result.functions[1].maxThreadsPerBlock, 1024);
  EXPECT_TRUE(result.functions[1].parametersKnown);
  EXPECT_EQ(result.functions[1].parameterBytes, std::vector<size_t>(5, 8));
  EXPECT_NE(result.jitLog.find("ptxas info    : Used 40 registers"),
            std::string::npos)
      << result.jitLog;
}

TEST_F(CudaRuntime, TimesMedianAndMinimum) {
  setenv("PERFDOJO_FAKE_CUDA_TIMES", "3,1,2,5", 1);
  GpuRunResult result;
  std::string error;
  ASSERT_TRUE(run(result, error, /*warmup=*/0, /*reps=*/3)) << error;
  EXPECT_EQ(result.timesMs, (std::vector<double>{3, 1, 2}));
  EXPECT_EQ(result.medianMs, 2);
  EXPECT_EQ(result.minMs, 1);
  EXPECT_EQ(countCalls("cuCtxSynchronize"), 0u);

  double median, min;
  summarizeTimes({4, 1, 3, 2}, median, min);
  EXPECT_EQ(median, 2.5);
  EXPECT_EQ(min, 1);
  summarizeTimes({}, median, min);
  EXPECT_EQ(median, 0);
}

TEST_F(CudaRuntime, NoDriverLibrary) {
  setenv("PERFDOJO_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
  GpuRunResult result;
  std::string error;
  EXPECT_FALSE(run(result, error));
  EXPECT_EQ(error.rfind("no CUDA driver: cannot load "
                        "/nonexistent/libcuda.so.1 (",
                        0),
            0u)
      << error;
}

TEST_F(CudaRuntime, LibraryThatIsNotADriver) {
  setenv("PERFDOJO_CUDA_DRIVER", "libc.so.6", 1);
  GpuRunResult result;
  std::string error;
  EXPECT_FALSE(run(result, error));
  EXPECT_EQ(error, "the CUDA driver libc.so.6 does not export cuInit (is it a "
                   "CUDA driver library?)");
}

TEST_F(CudaRuntime, NoDevice) {
  setenv("PERFDOJO_FAKE_CUDA_DEVICES", "0", 1);
  GpuRunResult result;
  std::string error;
  EXPECT_FALSE(run(result, error));
  EXPECT_EQ(error, std::string("no CUDA device: the driver ") +
                       PERFDOJO_FAKE_CUDA_PATH + " reports none");

  setenv("PERFDOJO_FAKE_CUDA_DEVICES", "1", 1);
  setenv("PERFDOJO_FAKE_CUDA_FAIL", "cuInit", 1);
  EXPECT_FALSE(run(result, error));
  EXPECT_EQ(error, "no CUDA device: cuInit failed: CUDA_ERROR_NO_DEVICE (no "
                   "CUDA-capable device is detected)");

  unsetenv("PERFDOJO_FAKE_CUDA_FAIL");
  GpuRunOptions options;
  options.device = 3;
  EXPECT_FALSE(runPlan(plan, kPtx, getArguments(), options, result, error));
  EXPECT_EQ(error, "no CUDA device 3: the driver reports 1 device(s)");
  EXPECT_EQ(countCalls("cuMemAlloc"), 0u);
}

TEST_F(CudaRuntime, ModuleLoadFailureCarriesTheJitLog) {
  setenv("PERFDOJO_FAKE_CUDA_FAIL", "cuModuleLoadDataEx", 1);
  GpuRunResult result;
  std::string error;
  EXPECT_FALSE(run(result, error));
  std::string log = "ptxas application ptx input, line 1; fatal   : fake JIT "
                    "failure (PERFDOJO_FAKE_CUDA_FAIL)";
  EXPECT_EQ(error, "cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (a PTX "
                   "JIT compilation failed); JIT log: " +
                       log);
  EXPECT_EQ(result.jitLog, log);
  EXPECT_EQ(result.device.name, "Fake H100 (perfdojo-fake-cuda)");
  EXPECT_EQ(countCalls("cuMemAlloc"), 0u);
  EXPECT_EQ(countCalls("cuLaunchKernel"), 0u);
  expectReleased();
}

TEST_F(CudaRuntime, MissingFunction) {
  GpuRunResult result;
  std::string error;
  std::string ptx = kPtx;
  ptx.replace(ptx.find("k_acc("), 5, "k_xyz");
  EXPECT_FALSE(run(result, error, 1, 2, ptx));
  EXPECT_EQ(error, "cuModuleGetFunction(k_acc) failed: CUDA_ERROR_NOT_FOUND "
                   "(named symbol not found)");
  EXPECT_EQ(countCalls("cuLaunchKernel"), 0u);
  expectReleased();
}

TEST_F(CudaRuntime, LaunchFailureMidPlan) {
  setenv("PERFDOJO_FAKE_CUDA_FAIL", "cuLaunchKernel@3", 1);
  GpuRunResult result;
  std::string error;
  EXPECT_FALSE(run(result, error));
  EXPECT_EQ(error, "launch k_row: cuLaunchKernel failed: "
                   "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (too many resources "
                   "requested for launch)");
  EXPECT_EQ(countCalls("cuLaunchKernel"), 3u);
  expectReleased();
}

TEST_F(CudaRuntime, KernelFaultAtSynchronization) {
  setenv("PERFDOJO_FAKE_CUDA_FAIL", "cuEventSynchronize", 1);
  GpuRunResult result;
  std::string error;
  EXPECT_FALSE(run(result, error));
  EXPECT_EQ(error, "while running the plan: cuEventSynchronize failed: "
                   "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was "
                   "encountered)");
  expectReleased();

  setenv("PERFDOJO_FAKE_CUDA_FAIL", "cuCtxSynchronize", 1);
  EXPECT_FALSE(run(result, error));
  EXPECT_EQ(error.rfind("while running the plan: cuCtxSynchronize failed: "
                        "CUDA_ERROR_ILLEGAL_ADDRESS",
                        0),
            0u)
      << error;
}

TEST_F(CudaRuntime, AllocationFailure) {
  setenv("PERFDOJO_FAKE_CUDA_FAIL", "cuMemAlloc_v2@3", 1);
  GpuRunResult result;
  std::string error;
  EXPECT_FALSE(run(result, error));
  EXPECT_EQ(error, "cuMemAlloc(24 bytes) failed: CUDA_ERROR_OUT_OF_MEMORY "
                   "(out of memory)");
  EXPECT_EQ(countCalls("cuMemFree_v2"), 2u);
  expectReleased();
}

TEST_F(CudaRuntime, OverLimitLaunchIsRejectedBeforeAnything) {
  plan.steps[0].launch.block = {2048, 1, 1};
  GpuRunResult result;
  std::string error;
  EXPECT_FALSE(run(result, error));
  EXPECT_EQ(error, "launch k_init: 2048 threads per block exceed the "
                   "device's 1024");
  EXPECT_EQ(countCalls("cuLaunchKernel"), 0u);
  EXPECT_EQ(countCalls("cuMemAlloc"), 0u);
  expectReleased();
}

TEST_F(CudaRuntime, RegisterLimitOfAFunction) {
  std::string ptx = kPtx;
  ptx.replace(ptx.find("regs=40"), 7, "regs=128");
  plan.steps[1].body[0].launch.block = {1024, 1, 1};
  GpuRunResult result;
  std::string error;
  EXPECT_FALSE(run(result, error, 1, 2, ptx));
  EXPECT_EQ(error, "launch k_row: 1024 threads per block exceed the 512 that "
                   "function k_row allows (it uses 128 registers per "
                   "thread)");
  EXPECT_EQ(countCalls("cuLaunchKernel"), 0u);
  expectReleased();
}

TEST_F(CudaRuntime, ParametersMustMatchTheFunction) {
  plan.steps[1].body[0].launch.arguments.pop_back();
  GpuRunResult result;
  std::string error;
  EXPECT_FALSE(run(result, error));
  EXPECT_EQ(error, "launch k_row: the plan passes 4 parameters, function k_row "
                   "takes 5");
  EXPECT_EQ(countCalls("cuLaunchKernel"), 0u);
  expectReleased();

  ASSERT_TRUE(SetUpPlanAgain());
  std::string ptx = kPtx;
  ptx.replace(ptx.find(".param .u64 p3"), 14, ".param .u32 p3");
  EXPECT_FALSE(run(result, error, 1, 2, ptx));
  EXPECT_EQ(error, "launch k_row: parameter 3 of function k_row has 4 bytes, "
                   "the plan passes 8 (a pointer or an i64)");

  // A driver that cannot tell (older than CUDA 12.4) is trusted.
  setenv("PERFDOJO_FAKE_CUDA_FAIL", "cuFuncGetParamInfo", 1);
  EXPECT_TRUE(run(result, error)) << error;
  EXPECT_FALSE(result.functions[1].parametersKnown);
}

TEST_F(CudaRuntime, LargeSharedMemoryOptsIn) {
  plan.steps[1].body[0].launch.sharedBytes = 100000;
  GpuRunResult result;
  std::string error;
  ASSERT_TRUE(run(result, error)) << error;
  std::vector<std::string> log = getLog();
  auto set =
      std::find(log.begin(), log.end(), "cuFuncSetAttribute k_row 8 100000");
  ASSERT_NE(set, log.end()) << join(log);
  auto firstLaunch = std::find_if(log.begin(), log.end(), [](auto &line) {
    return line.rfind("cuLaunchKernel", 0) == 0;
  });
  EXPECT_LT(set, firstLaunch);
  EXPECT_EQ(countCalls("cuFuncSetAttribute"), 1u);

  plan.steps[1].body[0].launch.sharedBytes = 300000;
  EXPECT_FALSE(run(result, error));
  EXPECT_EQ(error, "launch k_row: 300000 dynamic + 0 static shared bytes "
                   "exceed the device's 232448 per block");
}

TEST_F(CudaRuntime, RequestErrorsNeedNoDriver) {
  setenv("PERFDOJO_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
  GpuRunResult result;
  std::string error;
  GpuRunOptions options;

  x.resize(20);
  EXPECT_FALSE(run(result, error));
  EXPECT_EQ(error, "argument x has 20 bytes, the plan's buffer (6 x f32) has "
                   "24");
  x.resize(24);

  EXPECT_FALSE(runPlan(plan, kPtx, {x, {}}, options, result, error));
  EXPECT_EQ(error, "plan small has 3 argument buffers, got 2 arguments");

  EXPECT_FALSE(run(result, error, 1, 0));
  EXPECT_EQ(error, "needs at least 1 timed repetition and no negative warmup "
                   "(reps 0, warmup 1)");

  EXPECT_FALSE(run(result, error, 1, 1, ""));
  EXPECT_EQ(error, "the PTX module is empty");

  LaunchPlan amd = plan;
  amd.target = "gfx942";
  amd.binaryFormat = "hsaco";
  EXPECT_FALSE(runPlan(amd, kPtx, getArguments(), options, result, error));
  EXPECT_EQ(error, "plan small is a hsaco module for gfx942: the CUDA runtime "
                   "runs ptx modules only");

  plan.steps[0].launch.arguments[0].index = 9;
  EXPECT_FALSE(run(result, error));
  EXPECT_EQ(error, "invalid launch plan: launch k_init: buffer index 9 out of "
                   "range (the plan has 4 buffers)");
}

TEST_F(CudaRuntime, QueryDevice) {
  DeviceInfo info;
  std::string error;
  ASSERT_TRUE(queryDevice(0, info, error)) << error;
  EXPECT_EQ(info.getArch(), "sm_90");
  EXPECT_EQ(info.maxBlockDims, (std::array<int, 3>{1024, 1024, 64}));
  EXPECT_EQ(info.maxGridDims, (std::array<int, 3>{2147483647, 65535, 65535}));
  EXPECT_EQ(info.registersPerBlock, 65536);
  EXPECT_EQ(info.sharedBytesPerBlock, 48 * 1024);
  expectReleased();
}

} // namespace
