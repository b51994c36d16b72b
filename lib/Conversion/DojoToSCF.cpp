//===- DojoToSCF.cpp - lower dojo kernels to loops over memrefs -----------===//
//
// A scope tree is structural (buffers are declared once, leaves address them
// through affine maps over the enclosing scopes' variables), so the lowering
// is one walk per kernel rather than a set of local patterns:
//
//   1. Storage: one memref per buffer over its materialized dimensions
//      (allocated extents, `:N` dimensions dropped). Arguments are the
//      function's parameters; internal buffers are allocated at function
//      entry or, when privatized by location, inside their `:p` scope.
//   2. Scopes become loops according to their mode (see Passes.td).
//   3. Each leaf loads its operands, computes with the interpreter's
//      formulas, combines with the old value for reductions, and stores.
//      Inside a `:v` scope the same code runs on vectors of the scope's
//      width. Leaves are LeafEmitter's, shared with the GPU lowering.
//
//===----------------------------------------------------------------------===//

#include "LeafEmitter.h"
#include "perfdojo/Conversion/Passes.h"
#include "perfdojo/Analysis/Privatization.h"
#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/IR/ModeRules.h"
#include "perfdojo/Dialect/Dojo/IR/TargetDescription.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace perfdojo {
#define GEN_PASS_DEF_CONVERTDOJOTOSCFPASS
#include "perfdojo/Conversion/Passes.h.inc"
} // namespace perfdojo

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

namespace {

/// The CPU walk: scopes become loops, unrolled bodies, OpenMP loops or
/// vector operations; leaves are LeafEmitter's.
class KernelLowering : public LeafEmitter {
public:
  KernelLowering(KernelOp kernel, const TargetDescription &cpu)
      : LeafEmitter(cpu), kernel(kernel) {}
  LogicalResult run();

private:
  LogicalResult planStorage();
  LogicalResult allocate(Storage &storage, OpBuilder &b);
  LogicalResult lowerNodes(Block &block, OpBuilder &b);
  LogicalResult lowerScope(ScopeOp scope, OpBuilder &b);
  LogicalResult lowerParallelBody(ScopeOp scope, Value iv, OpBuilder &b);
  void fenceNontemporalStores(OpBuilder &b, Location loc);

  KernelOp kernel;
  DenseMap<Operation *, SmallVector<unsigned, 2>> privateAllocations;
  /// The kernel's function, and how many parallel bodies were outlined.
  func::FuncOp function;
  SmallVector<func::FuncOp> outlined;
};

//===----------------------------------------------------------------------===//
// Storage
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::planStorage() {
  for (BufferOp buffer : kernel.getBuffers()) {
    if (!target.hasLocation(buffer.getLocation()))
      return buffer.emitOpError("buffer '")
             << buffer.getName() << "' is located in "
             << stringifyBufferLocation(buffer.getLocation())
             << " memory, which the CPU target does not have";
    addStorage(buffer);
  }

  // Privatization by location: the one rule the moves' dependence test
  // also uses (Analysis/Privatization.h). A buffer private to a `:p` scope
  // gets one copy per iteration: it is allocated in the scope's outlined
  // body (once per thread after inlining; every read is covered by a write
  // of the same iteration, so reusing the copy across iterations is exact).
  for (Storage &storage : storages) {
    ScopeOp scope = getPrivatizingScope(kernel, storage.buffer);
    if (!scope || scope.getMode() != Mode::parallel)
      continue;
    storage.privateTo = scope;
    privateAllocations[scope].push_back(&storage - storages.data());
  }
  return success();
}

LogicalResult KernelLowering::allocate(Storage &storage, OpBuilder &b) {
  Location loc = storage.buffer.getLoc();
  IntegerAttr alignment = b.getI64IntegerAttr(64);
  if (storage.buffer.getLocation() == BufferLocation::heap)
    storage.memref = memref::AllocOp::create(b, loc, storage.type, alignment);
  else
    storage.memref = memref::AllocaOp::create(b, loc, storage.type, alignment);
  return success();
}

//===----------------------------------------------------------------------===//
// Tree
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::lowerNodes(Block &block, OpBuilder &b) {
  for (Operation &op : block) {
    if (auto scope = dyn_cast<ScopeOp>(op)) {
      if (failed(lowerScope(scope, b)))
        return failure();
    } else if (auto leaf = dyn_cast<LeafOp>(op)) {
      if (failed(lowerLeaf(leaf, b)))
        return failure();
    }
  }
  return success();
}

LogicalResult KernelLowering::lowerScope(ScopeOp scope, OpBuilder &b) {
  Location loc = scope.getLoc();
  int64_t size = scope.getSize();
  if (!target.supports(scope.getMode()))
    return scope.emitOpError("has mode ")
           << describeMode(scope.getMode()) << ", which the " << target.name
           << " target cannot execute";
  switch (scope.getMode()) {
  case Mode::seq: {
    Value lb = arith::ConstantIndexOp::create(b, loc, 0);
    Value ub = arith::ConstantIndexOp::create(b, loc, size);
    Value step = arith::ConstantIndexOp::create(b, loc, 1);
    auto loop = scf::ForOp::create(b, loc, lb, ub, step);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    ivs.push_back(loop.getInductionVar());
    LogicalResult result = lowerNodes(scope.getBlock(), b);
    ivs.pop_back();
    return result;
  }
  case Mode::parallel: {
    Value lb = arith::ConstantIndexOp::create(b, loc, 0);
    Value ub = arith::ConstantIndexOp::create(b, loc, size);
    Value step = arith::ConstantIndexOp::create(b, loc, 1);
    auto loop = scf::ParallelOp::create(b, loc, lb, ub, step);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    return lowerParallelBody(scope, loop.getInductionVars().front(), b);
  }
  case Mode::unroll: {
    if (std::optional<TransposingCopy> copy = getTransposingCopy(scope))
      return lowerTransposingCopy(*copy, b);
    for (int64_t i = 0; i < size; ++i) {
      ivs.push_back(arith::ConstantIndexOp::create(b, loc, i));
      LogicalResult result = lowerNodes(scope.getBlock(), b);
      ivs.pop_back();
      if (failed(result))
        return failure();
    }
    return success();
  }
  case Mode::vector:
    return lowerVectorScope(scope, b);
  case Mode::gpu_grid:
  case Mode::gpu_block:
  case Mode::gpu_warp:
  case Mode::frep:
    break; // refused above: not a mode of the CPU target
  }
  llvm_unreachable("unknown mode");
}

/// The body of a `:p` scope becomes a private function called once per
/// iteration, taking every memref and loop variable it uses as arguments,
/// with `noalias` on the memrefs. The OpenMP lowering passes the captured
/// pointers through a structure, which hides that kernel arguments never
/// alias; LLVM inlines the function back and keeps the `noalias` facts as
/// alias scopes, so accumulators stay in registers inside parallel loops.
/// Privatized buffers are allocated in the function: after inlining, once
/// per thread.
LogicalResult KernelLowering::lowerParallelBody(ScopeOp scope, Value iv,
                                                OpBuilder &b) {
  Location loc = scope.getLoc();
  SmallVector<Value> captured;
  SmallVector<Type> types;
  SmallVector<unsigned> capturedStorages;
  for (auto [index, storage] : llvm::enumerate(storages))
    if (storage.memref) {
      capturedStorages.push_back(index);
      captured.push_back(storage.memref);
      types.push_back(storage.type);
    }
  unsigned numMemrefs = captured.size();
  for (Value outer : ivs)
    captured.push_back(outer);
  captured.push_back(iv);
  types.append(ivs.size() + 1, b.getIndexType());

  OpBuilder moduleBuilder(function);
  std::string name = (kernel.getSymName() + "_par" +
                      llvm::Twine(outlined.size()))
                         .str();
  auto body = func::FuncOp::create(moduleBuilder, loc, name,
                                   b.getFunctionType(types, {}));
  body.setPrivate();
  // Internal linkage: no exported symbol in objects, no JIT entry point.
  body->setAttr("llvm.linkage", LLVM::LinkageAttr::get(
                                    b.getContext(), LLVM::Linkage::Internal));
  outlined.push_back(body);
  for (unsigned i = 0; i < numMemrefs; ++i)
    body.setArgAttr(i, "llvm.noalias", b.getUnitAttr());
  Block *entry = body.addEntryBlock();

  // Lower the scope's children into the function, its arguments standing
  // in for the caller's memrefs and loop variables.
  SmallVector<Value> savedMemrefs, savedIvs(ivs.begin(), ivs.end());
  for (unsigned index : capturedStorages)
    savedMemrefs.push_back(storages[index].memref);
  for (auto [i, index] : llvm::enumerate(capturedStorages))
    storages[index].memref = entry->getArgument(i);
  for (unsigned k = 0; k < ivs.size(); ++k)
    ivs[k] = entry->getArgument(numMemrefs + k);
  ivs.push_back(entry->getArgument(numMemrefs + savedIvs.size()));

  OpBuilder inner = OpBuilder::atBlockEnd(entry);
  LogicalResult result = success();
  for (unsigned index : privateAllocations.lookup(scope))
    if (failed(allocate(storages[index], inner)))
      result = failure();
  if (succeeded(result))
    result = lowerNodes(scope.getBlock(), inner);
  func::ReturnOp::create(inner, loc);

  ivs.assign(savedIvs.begin(), savedIvs.end());
  for (auto [i, index] : llvm::enumerate(capturedStorages))
    storages[index].memref = savedMemrefs[i];
  for (unsigned index : privateAllocations.lookup(scope))
    storages[index].memref = Value();
  if (failed(result))
    return failure();
  func::CallOp::create(b, loc, body, captured);
  return success();
}

/// Non-temporal stores are weakly ordered: a full fence makes them visible
/// before the kernel returns its results to the caller. Within the kernel,
/// the barrier closing each parallel region (an OpenMP flush: locked
/// instructions on x86, which drain the write-combining buffers) orders a
/// thread's stores before any other thread reads them; a fence per
/// parallel iteration would stall every iteration until its stores reach
/// memory.
void KernelLowering::fenceNontemporalStores(OpBuilder &b, Location loc) {
  if (llvm::any_of(storages, [](Storage &storage) {
        return storage.buffer.getNontemporal();
      }))
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::seq_cst);
}

LogicalResult KernelLowering::run() {
  if (failed(planStorage()))
    return failure();
  OpBuilder b(kernel);
  Location loc = kernel.getLoc();
  SmallVector<Type> argumentTypes;
  for (Storage &storage : storages)
    if (storage.buffer.isArgument())
      argumentTypes.push_back(storage.type);
  auto func = func::FuncOp::create(b, loc, kernel.getSymName(),
                                   b.getFunctionType(argumentTypes, {}));
  function = func;
  // Kernel arguments never alias each other (docs/ir.md, the moves'
  // dependence test assumes it): tell LLVM, so it can keep accumulators in
  // registers across loops and vectorize without runtime alias checks.
  for (unsigned i = 0, e = argumentTypes.size(); i < e; ++i)
    func.setArgAttr(i, "llvm.noalias", b.getUnitAttr());
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  unsigned argument = 0;
  for (Storage &storage : storages) {
    if (storage.buffer.isArgument())
      storage.memref = entry->getArgument(argument++);
    else if (!storage.privateTo && failed(allocate(storage, b)))
      return failure();
  }
  if (failed(lowerNodes(kernel.getBlock(), b))) {
    func.erase();
    for (func::FuncOp body : outlined)
      body.erase();
    return failure();
  }
  for (Storage &storage : storages)
    if (!storage.buffer.isArgument() && !storage.privateTo &&
        storage.buffer.getLocation() == BufferLocation::heap)
      memref::DeallocOp::create(b, loc, storage.memref);
  fenceNontemporalStores(b, loc);
  func::ReturnOp::create(b, loc);
  kernel.erase();
  return success();
}

struct ConvertDojoToSCFPass
    : perfdojo::impl::ConvertDojoToSCFPassBase<ConvertDojoToSCFPass> {
  using Base::Base;
  void runOnOperation() override {
    if (vectorBytes < 1) {
      getOperation().emitError("convert-dojo-to-scf: vector-bytes must be "
                               "positive, not ")
          << static_cast<int64_t>(vectorBytes);
      return signalPassFailure();
    }
    TargetDescription cpu = TargetDescription::getCpu(vectorBytes);
    SmallVector<KernelOp> kernels(getOperation().getOps<KernelOp>());
    for (KernelOp kernel : kernels)
      if (failed(KernelLowering(kernel, cpu).run()))
        return signalPassFailure();
  }
};

} // namespace
