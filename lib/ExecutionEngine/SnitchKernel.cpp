//===- SnitchKernel.cpp - a dojo kernel on the Snitch model ---------------===//

#include "perfdojo/ExecutionEngine/SnitchKernel.h"
#include "perfdojo/Conversion/Passes.h"
#include "perfdojo/Dialect/Dojo/IR/PhysicalLayout.h"
#include "perfdojo/Dialect/Snitch/Transforms/Passes.h"
#include "perfdojo/Target/SnitchAssembly/SnitchAssembly.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace perfdojo;

/// Stack the lowering's frame needs besides internal buffers: the constant
/// slot and saved registers (12 integer, 12 FP), rounded up.
static constexpr int64_t kFrameOverheadBytes = 256;

llvm::Expected<std::unique_ptr<SnitchKernel>>
SnitchKernel::compile(dojo::KernelOp kernel, const snitch::SnitchCore &core) {
  MLIRContext *ctx = kernel.getContext();
  ctx->getOrLoadDialect<snitch::SnitchDialect>();
  OwningOpRef<ModuleOp> module = ModuleOp::create(kernel.getLoc());
  OpBuilder builder(module->getBodyRegion());
  builder.clone(*kernel);
  PassManager pm(ctx);
  pm.addPass(createConvertDojoToSnitchPass());
  pm.addNestedPass<snitch::FunctionOp>(snitch::createSnitchLowerToIsaPass());
  if (failed(pm.run(*module)))
    return llvm::createStringError("the Snitch lowering of '" +
                                   kernel.getSymName() + "' failed");
  std::unique_ptr<SnitchKernel> result(new SnitchKernel());
  result->core = core;
  result->name = kernel.getSymName().str();
  llvm::raw_string_ostream os(result->assembly);
  if (failed(emitSnitchAssembly(*module, os)))
    return llvm::createStringError("cannot print the Snitch assembly");
  llvm::Expected<snitch::Program> program =
      snitch::parseAssembly(result->assembly);
  if (!program)
    return llvm::createStringError(
        "the Snitch model cannot read the emitted assembly: " +
        llvm::toString(program.takeError()));
  result->program = std::move(*program);
  result->stackBytes = kFrameOverheadBytes;
  for (dojo::BufferOp buffer : kernel.getBuffers()) {
    if (buffer.isArgument())
      result->isOutput.push_back(buffer.getRole() != dojo::Role::in);
    else
      result->stackBytes += llvm::alignTo(
          getStorageElements(buffer) * getElementBytes(buffer), 8);
  }
  return std::move(result);
}

llvm::Expected<snitch::RunResult>
SnitchKernel::run(std::vector<HostBuffer> &args) const {
  snitch::Tcdm tcdm(core);
  std::vector<uint32_t> addresses;
  uint64_t offset = 0;
  for (const HostBuffer &arg : args) {
    addresses.push_back(tcdm.getBase() + static_cast<uint32_t>(offset));
    offset = llvm::alignTo(offset + arg.size() * arg.getElementBytes(), 8);
    if (offset + stackBytes > tcdm.getSizeInBytes())
      return llvm::createStringError(
          "the arguments of '" + name + "' need " + llvm::Twine(offset) +
          " bytes and its stack up to " + llvm::Twine(stackBytes) +
          ", more than the " + llvm::Twine(tcdm.getSizeInBytes()) +
          "-byte TCDM of a Snitch core: run it at a smaller shape");
  }
  for (auto [arg, address] : llvm::zip(args, addresses))
    if (llvm::Error err = tcdm.copyIn(
            address, llvm::ArrayRef(static_cast<const uint8_t *>(arg.data()),
                                    arg.size() * arg.getElementBytes())))
      return std::move(err);
  llvm::Expected<snitch::RunResult> result =
      snitch::runProgram(program, name, addresses, tcdm, core);
  if (!result)
    return result.takeError();
  for (auto [arg, address, output] : llvm::zip(args, addresses, isOutput)) {
    if (!output)
      continue;
    if (llvm::Error err = tcdm.copyOut(
            address,
            llvm::MutableArrayRef(static_cast<uint8_t *>(arg.data()),
                                  arg.size() * arg.getElementBytes())))
      return std::move(err);
  }
  return result;
}
