//===- LaunchLimits.cpp - what a device and a function allow a launch -----===//

#include "perfdojo/GpuRuntime/LaunchLimits.h"

#include <algorithm>
#include <cstdint>

using namespace perfdojo::gpu;

std::string DeviceInfo::getArch() const {
  return "sm_" + std::to_string(computeMajor) + std::to_string(computeMinor);
}

static bool fail(const PlanLaunch &launch, const std::string &message,
                 std::string &reason) {
  reason = "launch " + launch.function + ": " + message;
  return false;
}

bool perfdojo::gpu::checkLaunch(const PlanLaunch &launch,
                                const DeviceInfo &device,
                                const FunctionInfo &function,
                                std::string &reason) {
  static const char *axes[] = {"x", "y", "z"};
  // A parameter list that differs from the function's makes the driver
  // read past the plan's values: refuse it rather than run on garbage.
  if (function.parametersKnown) {
    size_t expected = function.parameterBytes.size();
    if (launch.arguments.size() != expected)
      return fail(launch,
                  "the plan passes " + std::to_string(launch.arguments.size()) +
                      " parameters, function " + function.name + " takes " +
                      std::to_string(expected),
                  reason);
    for (size_t i = 0; i < expected; ++i)
      if (function.parameterBytes[i] != 8)
        return fail(launch,
                    "parameter " + std::to_string(i) + " of function " +
                        function.name + " has " +
                        std::to_string(function.parameterBytes[i]) +
                        " bytes, the plan passes 8 (a pointer or an i64)",
                    reason);
  }
  uint64_t threads = launch.getThreadsPerBlock();
  if (threads > uint64_t(device.maxThreadsPerBlock))
    return fail(launch,
                std::to_string(threads) +
                    " threads per block exceed the "
                    "device's " +
                    std::to_string(device.maxThreadsPerBlock),
                reason);
  for (int i = 0; i < 3; ++i) {
    if (launch.block[i] > uint32_t(std::max(device.maxBlockDims[i], 0)))
      return fail(launch,
                  std::string("block dimension ") + axes[i] + " of " +
                      std::to_string(launch.block[i]) +
                      " exceeds the "
                      "device's " +
                      std::to_string(device.maxBlockDims[i]),
                  reason);
    if (launch.grid[i] > uint32_t(std::max(device.maxGridDims[i], 0)))
      return fail(launch,
                  std::string("grid dimension ") + axes[i] + " of " +
                      std::to_string(launch.grid[i]) +
                      " exceeds the "
                      "device's " +
                      std::to_string(device.maxGridDims[i]),
                  reason);
  }
  // The function's own maximum is the exact register test: the driver
  // lowers it by the registers the function uses.
  if (threads > uint64_t(function.maxThreadsPerBlock))
    return fail(launch,
                std::to_string(threads) + " threads per block exceed the " +
                    std::to_string(function.maxThreadsPerBlock) +
                    " that function " + function.name + " allows (it uses " +
                    std::to_string(function.registers) +
                    " registers per thread)",
                reason);
  // A coarser, independent test in case the attribute is unreliable: the
  // registers of every warp the block occupies fit the block's file.
  uint64_t warp = uint64_t(std::max(device.warpSize, 1));
  uint64_t registers = uint64_t(std::max(function.registers, 0)) *
                       ((threads + warp - 1) / warp * warp);
  if (registers > uint64_t(device.registersPerBlock))
    return fail(launch,
                std::to_string(function.registers) + " registers x " +
                    std::to_string(threads) + " threads need " +
                    std::to_string(registers) + " registers, the device has " +
                    std::to_string(device.registersPerBlock) + " per block",
                reason);
  uint64_t optin = uint64_t(
      std::max(device.sharedBytesPerBlockOptin, device.sharedBytesPerBlock));
  uint64_t shared =
      launch.sharedBytes + uint64_t(std::max(function.staticSharedBytes, 0));
  if (shared > optin)
    return fail(launch,
                std::to_string(launch.sharedBytes) + " dynamic + " +
                    std::to_string(function.staticSharedBytes) +
                    " static shared bytes exceed the device's " +
                    std::to_string(optin) + " per block",
                reason);
  reason.clear();
  return true;
}

bool perfdojo::gpu::needsSharedOptin(const PlanLaunch &launch,
                                     const DeviceInfo &device,
                                     const FunctionInfo &function) {
  return launch.sharedBytes +
             uint64_t(std::max(function.staticSharedBytes, 0)) >
         uint64_t(std::max(device.sharedBytesPerBlock, 0));
}
