//===- LaunchLimits.h - what a device and a function allow -----*- C++ -*-===//
//
// The limits a launch must respect, as facts about a device (queried from
// the driver, or written down for a device that is not here) and about one
// compiled function (its registers, static shared and local memory). The
// check is pure so that a caller can reject an over-limit candidate without
// a GPU, and so that the runtime rejects it before anything is launched: a
// launch over a limit fails in the driver with an error that does not say
// which limit.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_GPURUNTIME_LAUNCHLIMITS_H
#define PERFDOJO_GPURUNTIME_LAUNCHLIMITS_H

#include "perfdojo/GpuRuntime/LaunchPlan.h"

#include <array>
#include <string>
#include <vector>

namespace perfdojo::gpu {

/// A CUDA device's properties (cuDeviceGetAttribute).
struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  /// The driver's CUDA version, 1000 * major + 10 * minor (12040 = 12.4).
  int driverVersion = 0;
  int computeMajor = 0;
  int computeMinor = 0;
  int multiprocessors = 0;
  int warpSize = 32;
  int maxThreadsPerBlock = 0;
  std::array<int, 3> maxBlockDims = {0, 0, 0};
  std::array<int, 3> maxGridDims = {0, 0, 0};
  /// Shared memory a block gets without opting in (48 KiB on every NVIDIA
  /// GPU since Kepler).
  int sharedBytesPerBlock = 0;
  /// The most a block gets after opting in
  /// (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES): 227 KiB on H100.
  int sharedBytesPerBlockOptin = 0;
  /// 32-bit registers available to one block.
  int registersPerBlock = 0;

  /// The PTX target of the device ("sm_90").
  std::string getArch() const;
};

/// One compiled kernel function (cuFuncGetAttribute).
struct FunctionInfo {
  std::string name;
  /// Registers per thread.
  int registers = 0;
  /// The most threads a block of this function may have: the device's
  /// maximum, lowered by the function's registers (and `.maxntid`).
  int maxThreadsPerBlock = 0;
  int staticSharedBytes = 0;
  /// Local memory per thread (register spills, local arrays).
  int localBytes = 0;
  /// The bytes of each kernel parameter, when the driver says
  /// (cuFuncGetParamInfo, CUDA 12.4 and later drivers).
  bool parametersKnown = false;
  std::vector<size_t> parameterBytes;
};

/// Whether `launch` of `function` fits `device`, and, where the function's
/// parameters are known, passes as many 8-byte parameters as it takes. On
/// failure, false and `reason` names the launch and the limit ("launch
/// softmax_k0: 2048 threads per block exceed the device's 1024").
bool checkLaunch(const PlanLaunch &launch, const DeviceInfo &device,
                 const FunctionInfo &function, std::string &reason);

/// Whether the launch's shared memory is more than a block gets by default,
/// so the function's MAX_DYNAMIC_SHARED_SIZE_BYTES must be raised to
/// `launch.sharedBytes` before launching.
bool needsSharedOptin(const PlanLaunch &launch, const DeviceInfo &device,
                      const FunctionInfo &function);

} // namespace perfdojo::gpu

#endif // PERFDOJO_GPURUNTIME_LAUNCHLIMITS_H
