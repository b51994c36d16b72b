//===- GpuPipeline.h - dojo to GPU binaries ---------------------*- C++ -*-===//
//
// The GPU lowering as one pipeline: `convert-dojo-to-gpu` (vendor neutral,
// against the chip's TargetDescription), then the vendor half (NVVM -> PTX
// for NVIDIA, ROCDL -> AMDGPU for AMD) chosen by the chip name, as Triton's
// and IREE's per-vendor target infos do. `perfdojo-opt --dojo-to-gpu`,
// `perfdojo-translate --emit=ptx|gpu-asm|hsaco|launch-plan` and
// `perfdojo-run --device=cuda` all build it here.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_CONVERSION_GPUPIPELINE_H
#define PERFDOJO_CONVERSION_GPUPIPELINE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include <memory>
#include <string>

namespace perfdojo {

struct DojoToGpuOptions : mlir::PassPipelineOptions<DojoToGpuOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("sm_80, sm_86, sm_89, sm_90, gfx90a "
                                          "or gfx942"),
                           llvm::cl::init("sm_90")};
  Option<bool> approximateMath{
      *this, "approximate-math",
      llvm::cl::desc("Expand f32 exp/log/tanh into polynomials (off: "
                     "transcendentals need the vendor's device library)"),
      llvm::cl::init(true)};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What the device module becomes: 'isa' (PTX text, "
                     "AMDGPU assembly), 'bin' (an AMDGPU code object, "
                     "linked with ld.lld; NVIDIA needs ptxas for it), or "
                     "'none' (stop at the vendor dialect)"),
      llvm::cl::init("isa")};
};

/// The vendor half of the GPU lowering.
class GpuVendor {
public:
  virtual ~GpuVendor() = default;
  /// "NVIDIA", "AMD".
  virtual llvm::StringRef getName() const = 0;
  /// What the runtime loads: "ptx" or "hsaco".
  virtual llvm::StringRef getRuntimeFormat() const = 0;
  /// Passes on each `gpu.module`: from gpu/scf/memref/arith/vector/math to
  /// the vendor's LLVM dialect, with LLVM intrinsics for math (never the
  /// vendor's device library, which a user's machine may not have).
  virtual void addDeviceLowering(mlir::OpPassManager &pm,
                                 const DojoToGpuOptions &options) const = 0;
  /// Attaches the chip's target attribute to every `gpu.module`.
  virtual void addTargetAttach(mlir::OpPassManager &pm,
                               const DojoToGpuOptions &options) const = 0;

  /// The vendor of `chip` (as TargetDescription::getGpu knows it), or null.
  static std::unique_ptr<GpuVendor> get(llvm::StringRef chip);
};

/// Registers what the GPU pipeline needs in a context: the gpu, NVVM and
/// ROCDL dialects, their target attributes' serialization and the LLVM IR
/// translations used to serialize.
void registerGpuLowering(mlir::DialectRegistry &registry);

/// Adds every pass from `dojo` to a `gpu.binary` per kernel (with
/// `format=none`, to the vendor's LLVM dialect) to `pm`, a pass manager on
/// a builtin module. The host side stays `func.func` + `scf.for` +
/// `gpu.launch_func` (read by extractLaunchPlan).
void buildDojoToGpuPipeline(mlir::OpPassManager &pm,
                            const DojoToGpuOptions &options);

/// Registers `--dojo-to-gpu` (with the options above) for perfdojo-opt.
void registerDojoToGpuPipeline();

/// The code of the device module `<kernel>_device` after the pipeline: PTX
/// or assembly text, or code object bytes. Emits an error at the module and
/// fails if there is none.
mlir::FailureOr<std::string> getGpuBinary(mlir::ModuleOp module,
                                          llvm::StringRef kernel);

} // namespace perfdojo

#endif // PERFDOJO_CONVERSION_GPUPIPELINE_H
