//===- LaunchPlan.h - what the host does to run a GPU kernel ---*- C++ -*-===//
//
// A dojo kernel lowered for a GPU is a device module (PTX or an AMDGPU code
// object) plus a launch plan: the buffers to allocate, and the launches to
// make in order, possibly inside host loops (the host scopes around `:g`
// scopes). The GPU lowering records the plan at compile time
// (Conversion/GpuLaunchPlan.h); the runtime (CudaRuntime.h) and the
// standalone launcher execute it.
//
// This library depends on the C++ standard library alone (no LLVM, no
// MLIR), so the launcher that runs a plan on a GPU machine builds with any
// C++17 compiler and needs only libc and libdl at run time.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_GPURUNTIME_LAUNCHPLAN_H
#define PERFDOJO_GPURUNTIME_LAUNCHPLAN_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace perfdojo::gpu {

/// One device buffer: a kernel argument or internal storage in global
/// memory (block-shared and per-thread storage never appears here).
struct PlanBuffer {
  enum class Role { In, Out, InOut, Scratch };
  std::string name;
  /// The `.dojo` element type name ("f32", "bf16", "bool", ...).
  std::string dtype;
  int64_t elementBytes = 0;
  /// Elements of storage (the buffer's materialized, padded extent).
  int64_t elements = 0;
  Role role = Role::Scratch;

  int64_t getBytes() const { return elementBytes * elements; }
  bool isArgument() const { return role != Role::Scratch; }
};

/// One kernel parameter of a launch, in parameter order.
struct PlanArgument {
  enum class Kind {
    Buffer,    ///< a device pointer: `index` is a buffer of the plan
    LoopIndex, ///< an i64: the current iteration of host loop `index`
               ///< (0 = outermost enclosing loop)
    Constant,  ///< an i64 `value` (an iteration of an unrolled host scope)
  };
  Kind kind = Kind::Buffer;
  unsigned index = 0;
  int64_t value = 0;
};

/// One kernel launch.
struct PlanLaunch {
  /// The kernel function's name in the device module.
  std::string function;
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::array<uint32_t, 3> block = {1, 1, 1};
  /// Dynamic block-shared memory (every `gpu_shared` buffer of the launch).
  uint64_t sharedBytes = 0;
  std::vector<PlanArgument> arguments;

  uint64_t getThreadsPerBlock() const {
    return uint64_t(block[0]) * block[1] * block[2];
  }
};

/// A launch, or a host loop of `tripCount` iterations over `body`.
struct PlanStep {
  enum class Kind { Launch, Loop };
  Kind kind = Kind::Launch;
  PlanLaunch launch;
  int64_t tripCount = 0;
  std::vector<PlanStep> body;
};

struct LaunchPlan {
  static constexpr int kVersion = 1;
  /// The dojo kernel's name.
  std::string kernel;
  /// The chip the module was built for ("sm_90", "gfx942").
  std::string target;
  /// "ptx" (text) or "hsaco" (an AMDGPU code object).
  std::string binaryFormat;
  std::vector<PlanBuffer> buffers;
  std::vector<PlanStep> steps;

  /// Every launch, in the order of the text (loops not expanded).
  std::vector<const PlanLaunch *> getLaunches() const;
  /// The plan in its text form (docs/gpu-runtime.md, "Launch plans").
  std::string print() const;
  /// Parses the text form; on failure, nullopt and `error` says where
  /// ("line 4: expected 'grid'").
  static std::optional<LaunchPlan> parse(const std::string &text,
                                         std::string &error);
  /// Checks what `parse` checks, for plans built in code: names that the
  /// text can spell, positive sizes and dimensions, argument indices in
  /// range, loops nested at most 256 deep. On failure, false and `error`
  /// names the offending buffer or launch.
  bool verify(std::string &error) const;
};

} // namespace perfdojo::gpu

#endif // PERFDOJO_GPURUNTIME_LAUNCHPLAN_H
