//===- SnitchKernel.h - a dojo kernel on the Snitch model ------*- C++ -*-===//
//
// One kernel through the Snitch path: `convert-dojo-to-snitch`, then
// `snitch-lower-to-isa`, then assembly (docs/snitch.md), parsed back and run
// on the executable model of one core (Target/Snitch/Model.h) with its
// arguments laid out in the TCDM. The model is deterministic: one run gives
// the outputs and the cycle count.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_EXECUTIONENGINE_SNITCHKERNEL_H
#define PERFDOJO_EXECUTIONENGINE_SNITCHKERNEL_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Runtime/HostBuffer.h"
#include "perfdojo/Target/Snitch/Model.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace perfdojo {

class SnitchKernel {
public:
  /// Lowers a copy of `kernel` (the kernel itself is left as it is).
  /// Diagnostics with locations go to the context's handler.
  static llvm::Expected<std::unique_ptr<SnitchKernel>>
  compile(dojo::KernelOp kernel,
          const snitch::SnitchCore &core = snitch::SnitchCore::getDefault());

  /// The RISC-V assembly the model runs (and llvm-mc assembles).
  const std::string &getAssembly() const { return assembly; }

  /// Runs on the model: `args` (the kernel's arguments in declaration
  /// order) are copied into the TCDM, one after the other 8-byte aligned
  /// from its base; the outputs are copied back. Fails when the arguments
  /// and the stack frame do not fit the TCDM, or the model reports an error.
  llvm::Expected<snitch::RunResult> run(std::vector<HostBuffer> &args) const;

private:
  SnitchKernel() = default;
  snitch::SnitchCore core;
  std::string name, assembly;
  snitch::Program program;
  /// Bytes the kernel's stack frame may use below the top of the TCDM.
  int64_t stackBytes = 0;
  std::vector<bool> isOutput;
};

} // namespace perfdojo

#endif // PERFDOJO_EXECUTIONENGINE_SNITCHKERNEL_H
