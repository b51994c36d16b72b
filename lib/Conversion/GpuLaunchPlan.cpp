//===- GpuLaunchPlan.cpp - the launch plan of a lowered kernel ------------===//

#include "perfdojo/Conversion/GpuLaunchPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace perfdojo;
namespace rt = perfdojo::gpu;

namespace {

class PlanReader {
public:
  explicit PlanReader(rt::LaunchPlan &plan) : plan(plan) {}

  LogicalResult addBuffer(Value memref, Operation *where, StringAttr name,
                          StringRef role, StringAttr dtype) {
    auto type = dyn_cast<MemRefType>(memref.getType());
    if (!name || !dtype || !type || !type.hasStaticShape())
      return where->emitError("a host buffer needs a static memref type and "
                              "'dojo.buffer' and 'dojo.dtype' attributes");
    rt::PlanBuffer buffer;
    buffer.name = name.str();
    buffer.dtype = dtype.str();
    buffer.elementBytes = (type.getElementTypeBitWidth() + 7) / 8;
    buffer.elements = type.getNumElements();
    if (role == "in")
      buffer.role = rt::PlanBuffer::Role::In;
    else if (role == "out")
      buffer.role = rt::PlanBuffer::Role::Out;
    else if (role == "inout")
      buffer.role = rt::PlanBuffer::Role::InOut;
    else if (role == "internal")
      buffer.role = rt::PlanBuffer::Role::Scratch;
    else
      return where->emitError("unknown buffer role '") << role << "'";
    buffers[memref] = plan.buffers.size();
    plan.buffers.push_back(std::move(buffer));
    return success();
  }

  LogicalResult readBlock(Block &block, std::vector<rt::PlanStep> &steps) {
    for (Operation &op : block) {
      if (isa<arith::ConstantOp, memref::DeallocOp, func::ReturnOp,
              scf::YieldOp>(op))
        continue;
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        if (failed(addBuffer(alloc, alloc,
                             alloc->getAttrOfType<StringAttr>("dojo.buffer"),
                             "internal",
                             alloc->getAttrOfType<StringAttr>("dojo.dtype"))))
          return failure();
        continue;
      }
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        APInt lb, ub, step;
        if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) ||
            !matchPattern(loop.getUpperBound(), m_ConstantInt(&ub)) ||
            !matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
            !lb.isZero() || !step.isOne())
          return loop.emitError("a host loop must run from 0 by 1 to a "
                                "constant");
        rt::PlanStep step0;
        step0.kind = rt::PlanStep::Kind::Loop;
        step0.tripCount = ub.getSExtValue();
        loopLevels[loop.getInductionVar()] = numLoops++;
        LogicalResult result = readBlock(*loop.getBody(), step0.body);
        --numLoops;
        if (failed(result))
          return failure();
        steps.push_back(std::move(step0));
        continue;
      }
      if (auto launch = dyn_cast<mlir::gpu::LaunchFuncOp>(op)) {
        FailureOr<rt::PlanLaunch> read = readLaunch(launch);
        if (failed(read))
          return failure();
        rt::PlanStep step0;
        step0.launch = std::move(*read);
        steps.push_back(std::move(step0));
        continue;
      }
      return op.emitError("the launch plan cannot express this host "
                          "operation");
    }
    return success();
  }

private:
  FailureOr<rt::PlanLaunch> readLaunch(mlir::gpu::LaunchFuncOp launch) {
    rt::PlanLaunch out;
    out.function = launch.getKernelName().str();
    auto constant = [&](Value v, uint64_t &result) {
      APInt value;
      if (!matchPattern(v, m_ConstantInt(&value)))
        return false;
      result = value.getZExtValue();
      return true;
    };
    mlir::gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    mlir::gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    Value dims[6] = {grid.x, grid.y, grid.z, block.x, block.y, block.z};
    for (int i = 0; i < 6; ++i) {
      uint64_t v;
      if (!constant(dims[i], v) || v == 0 || v > UINT32_MAX)
        return launch.emitError("launch sizes must be positive 32-bit "
                                "constants");
      (i < 3 ? out.grid[i] : out.block[i - 3]) = static_cast<uint32_t>(v);
    }
    if (Value shared = launch.getDynamicSharedMemorySize())
      if (!constant(shared, out.sharedBytes))
        return launch.emitError("dynamic shared memory must be a constant");
    for (Value operand : launch.getKernelOperands()) {
      rt::PlanArgument argument;
      APInt value;
      if (auto it = buffers.find(operand); it != buffers.end()) {
        argument.kind = rt::PlanArgument::Kind::Buffer;
        argument.index = it->second;
      } else if (auto it = loopLevels.find(operand); it != loopLevels.end()) {
        argument.kind = rt::PlanArgument::Kind::LoopIndex;
        argument.index = it->second;
      } else if (matchPattern(operand, m_ConstantInt(&value))) {
        argument.kind = rt::PlanArgument::Kind::Constant;
        argument.value = value.getSExtValue();
      } else {
        return launch.emitError("kernel operand is neither a host buffer, "
                                "a host loop variable nor a constant");
      }
      out.arguments.push_back(argument);
    }
    return out;
  }

  rt::LaunchPlan &plan;
  DenseMap<Value, unsigned> buffers;
  DenseMap<Value, unsigned> loopLevels;
  unsigned numLoops = 0;
};

} // namespace

FailureOr<rt::LaunchPlan>
perfdojo::extractLaunchPlan(func::FuncOp host, StringRef chip,
                            StringRef binaryFormat) {
  rt::LaunchPlan plan;
  plan.kernel = host.getSymName().str();
  plan.target = chip.str();
  plan.binaryFormat = binaryFormat.str();
  PlanReader reader(plan);
  Block &entry = host.getBody().front();
  for (BlockArgument arg : entry.getArguments()) {
    unsigned i = arg.getArgNumber();
    auto role = host.getArgAttrOfType<StringAttr>(i, "dojo.role");
    if (failed(reader.addBuffer(
            arg, host, host.getArgAttrOfType<StringAttr>(i, "dojo.buffer"),
            role ? role.getValue() : "", 
            host.getArgAttrOfType<StringAttr>(i, "dojo.dtype"))))
      return failure();
  }
  if (failed(reader.readBlock(entry, plan.steps)))
    return failure();
  // Names the text form cannot spell, sizes beyond its limits.
  std::string error;
  if (!plan.verify(error))
    return host.emitError("the launch plan is not valid: ") << error;
  return plan;
}
