//===- DojoToGPU.cpp - lower dojo kernels to GPU launches -----------------===//
//
// A kernel becomes a host function (the launch sequence, with host loops)
// and a `gpu.module` of kernel functions (docs/gpu.md, "Lowering"):
//
//   1. Storage. Argument buffers are the host function's memrefs; shared
//      internal buffers are device global memory allocated by the host
//      function; a `gpu_shared` buffer lives in the dynamic shared memory of
//      its block; a `reg` or `gpu_local` buffer private to a GPU thread
//      (getPrivatizingScope, the rule of the moves) is a per-thread alloca.
//   2. Launches. Every outermost `:g` scope is one launch: its perfect nest
//      of `:g` scopes is the grid (linearized over blockIdx.x, innermost
//      fastest), the `:b` sizes of its phases (one shape per launch, K3) and
//      a `:w` lane dimension the block (linearized over threadIdx.x,
//      innermost fastest). Host scopes (plain) around `:g` scopes become
//      host loops whose variables are kernel arguments. Runs of nodes with
//      no `:g` scope become single-thread launches.
//   3. The block program. Every thread walks the body of the innermost grid
//      scope: `:b`/`:w` scopes bind their variable to the thread's
//      coordinate, plain scopes are loops, `:u` scopes repeat, `:v` scopes
//      are vector operations, and a leaf that does not bind every thread
//      dimension runs on the threads whose unbound coordinates are 0.
//   4. Barriers. The concurrency rules (Analysis/Concurrency.h) make
//      instances of one phase on different threads independent when they
//      have `:b` scopes at the same depths (and, for `:w`, lie in one
//      instance of one `:w` scope); every other pair that shares memory
//      other threads can see (global or block-shared storage, one of them
//      writing it) is ordered by a block barrier: before a leaf that
//      conflicts with a leaf of another thread signature run since the last
//      barrier, before a loop whose leaves conflict with those, at the end
//      of a loop iteration whose leaves conflict with the iteration's
//      start, and after every `:w` scope. Per-thread storage never
//      conflicts (each thread has its own), so a GEMM's operand tiles are
//      filled one after the other without a barrier between them. Guards
//      surround single leaves only, so every barrier is reached by all
//      threads of the block.
//
//===----------------------------------------------------------------------===//

#include "LeafEmitter.h"
#include "perfdojo/Analysis/Concurrency.h"
#include "perfdojo/Analysis/Privatization.h"
#include "perfdojo/Conversion/Passes.h"
#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"
#include "perfdojo/Dialect/Dojo/IR/ModeRules.h"
#include "perfdojo/Dialect/Dojo/IR/PhysicalLayout.h"
#include "perfdojo/Dialect/Dojo/IR/TargetDescription.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/FormatVariadic.h"

namespace perfdojo {
#define GEN_PASS_DEF_CONVERTDOJOTOGPUPASS
#include "perfdojo/Conversion/Passes.h.inc"
} // namespace perfdojo

#define DEBUG_TYPE "convert-dojo-to-gpu"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

namespace {

/// Where a buffer lives on the GPU.
enum class Placement {
  Global, ///< device global memory: an argument or host-allocated scratch
  Shared, ///< dynamic shared memory, one copy per block
  Thread, ///< a per-thread alloca
};

/// Which threads run a leaf, and which concurrency query covers them: two
/// leaves with equal signatures need no barrier between them.
struct ThreadSignature {
  /// The leaf's phase (outermost `:b` ancestor), null outside phases.
  Operation *phase = nullptr;
  /// Depths of its `:b` ancestors.
  SmallVector<unsigned, 3> blockDepths;
  /// Its `:w` ancestor, if any.
  Operation *warp = nullptr;

  bool operator==(const ThreadSignature &o) const {
    return phase == o.phase && blockDepths == o.blockDepths && warp == o.warp;
  }
  bool operator!=(const ThreadSignature &o) const { return !(*this == o); }
};

/// A leaf as a barrier sees it: its threads, and the storage other threads
/// can see that it reads and writes (indices into the lowering's storages).
struct SyncedLeaf {
  ThreadSignature signature;
  SmallVector<unsigned, 4> reads, writes;

  /// Whether the two may touch one element from different threads: one
  /// writes what the other reads or writes, under other signatures.
  bool conflictsWith(const SyncedLeaf &other) const {
    if (signature == other.signature)
      return false;
    auto meets = [](ArrayRef<unsigned> x, ArrayRef<unsigned> y) {
      return llvm::any_of(x, [&](unsigned i) { return llvm::is_contained(y, i); });
    };
    return meets(writes, other.reads) || meets(writes, other.writes) ||
           meets(reads, other.writes);
  }
};

/// The leaves run since the last barrier (none at the kernel's start).
struct SyncState {
  SmallVector<SyncedLeaf, 8> pending;
};

/// The threads of one launch.
struct BlockShape {
  /// The `:b` sizes, outermost first.
  SmallVector<int64_t, 4> blockSizes;
  /// The warp width when some leaf is under a `:w` scope, else 0.
  int64_t warp = 0;
  /// The threads of the innermost `:b` dimension when a block reduction
  /// pads it to whole warps (TargetDescription::getBlockReductionLanes),
  /// else 0: the threads past its size run no leaf.
  int64_t paddedInner = 0;
  /// Every thread dimension, outermost first: the `:b` sizes (the
  /// innermost padded), the lanes.
  SmallVector<int64_t, 4> getDims() const {
    SmallVector<int64_t, 4> dims(blockSizes.begin(), blockSizes.end());
    if (paddedInner)
      dims.back() = paddedInner;
    if (warp)
      dims.push_back(warp);
    return dims;
  }
  int64_t getThreads() const {
    int64_t threads = 1;
    for (int64_t size : getDims())
      threads *= size;
    return threads;
  }
};

/// The coordinates of linear index `linear` over `sizes` (outermost
/// first, the innermost varying fastest): how blockIdx.x and threadIdx.x
/// become the `:g` and `:b`/`:w` variables.
SmallVector<Value> emitDelinearized(OpBuilder &b, Location loc, Value linear,
                                    ArrayRef<int64_t> sizes) {
  SmallVector<Value> coords(sizes.size());
  for (int i = int(sizes.size()) - 1; i >= 0; --i) {
    if (i == 0) {
      coords[i] = linear; // below the outermost size by construction
      break;
    }
    Value size = arith::ConstantIndexOp::create(b, loc, sizes[i]);
    coords[i] = arith::RemUIOp::create(b, loc, linear, size);
    linear = arith::DivUIOp::create(b, loc, linear, size);
  }
  return coords;
}

class GpuKernelLowering : public LeafEmitter {
public:
  GpuKernelLowering(KernelOp kernel, const TargetDescription &target,
                    bool approximateMath)
      : LeafEmitter(target), kernel(kernel),
        approximateMath(approximateMath) {
    // cuMemAlloc and hipMalloc return 256-byte aligned memory; shared views
    // and per-thread storage are 16-byte aligned below.
    baseAlignment = 16;
  }
  LogicalResult run();

private:
  LogicalResult planStorage();
  /// Modes, mode sizes and transcendentals the chip can run.
  LogicalResult checkSupport();
  LogicalResult lowerHostNodes(Block &block, OpBuilder &hb);
  LogicalResult emitLaunch(ArrayRef<Operation *> nodes, ScopeOp gridRoot,
                           OpBuilder &hb);
  FailureOr<SmallVector<ScopeOp>> getGridChain(ScopeOp gridRoot,
                                               int64_t &blocks);
  FailureOr<BlockShape> getBlockShape(ArrayRef<Operation *> nodes);
  ThreadSignature getSignature(LeafOp leaf);
  SyncedLeaf getSyncedLeaf(LeafOp leaf);
  LogicalResult emitBlockNodes(Block &block, OpBuilder &b, SyncState &sync);
  LogicalResult emitBlockNode(Operation *node, OpBuilder &b, SyncState &sync);
  LogicalResult emitGuardedLeaf(Operation *node, LeafOp leaf,
                                const ThreadSignature &sig, OpBuilder &b);
  LogicalResult emitBlockReduction(ScopeOp scope, unsigned position,
                                   OpBuilder &b, SyncState &sync);
  /// A barrier where one of `next` conflicts with a leaf run since the last
  /// one; with `record`, `next` then counts as run.
  void syncBefore(ArrayRef<LeafOp> next, SyncState &sync, OpBuilder &b,
                  Location loc, bool record);

  KernelOp kernel;
  /// Whether f32 transcendentals become polynomials (dojo-approximate-math).
  bool approximateMath;
  SmallVector<Placement> placements;
  func::FuncOp host;
  gpu::GPUModuleOp deviceModule;
  /// The host function's memref of every Global storage, by storage index.
  SmallVector<Value> hostMemrefs;
  /// Variables of the enclosing host loops (host function values).
  SmallVector<Value> hostIvs;
  unsigned numLaunches = 0;

  // State of the launch being emitted.
  /// Thread coordinates, outermost dimension first: one per `:b` position,
  /// then the `:w` lanes.
  SmallVector<Value, 4> threadCoords;
  unsigned numBlockDims = 0;
  int64_t blockThreads = 1;
  /// The size of the innermost `:b` dimension when it is padded
  /// (BlockShape::paddedInner), else 0.
  int64_t paddedInnerSize = 0;
  /// Block-shared words where the warps of block reductions larger than a
  /// warp leave their results: the dynamic shared memory and the offset.
  Value sharedBase;
  int64_t reductionScratchOffset = -1;
};

bool containsGrid(Operation *node) {
  bool found = false;
  node->walk([&](ScopeOp scope) {
    if (scope.getMode() == Mode::gpu_grid)
      found = true;
  });
  return found;
}

std::string describeChip(const TargetDescription &target) {
  return "the " + target.name + " target";
}

//===----------------------------------------------------------------------===//
// Storage
//===----------------------------------------------------------------------===//

LogicalResult GpuKernelLowering::planStorage() {
  MLIRContext *ctx = kernel.getContext();
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto privateSpace =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Private);
  for (BufferOp buffer : kernel.getBuffers()) {
    BufferLocation location = buffer.getLocation();
    if (!target.hasLocation(location))
      return buffer.emitOpError("buffer '")
             << buffer.getName() << "' is located in "
             << stringifyBufferLocation(location) << " memory, which "
             << describeChip(target) << " does not have";
    Placement placement = Placement::Global;
    Privatization privatization;
    if (!buffer.isArgument()) {
      // The one privatization rule (Analysis/Privatization.h): a
      // `gpu_shared` buffer per block of a `:g` scope, `reg`/`gpu_local`
      // per thread of a GPU scope (only the thread's own elements where its
      // threads own them). Everything else is shared by all.
      privatization = getPrivatization(kernel, buffer);
      ScopeOp scope = privatization.scope;
      bool gpuScope = scope && isGpuMode(scope.getMode());
      if (location == BufferLocation::gpu_shared) {
        if (!scope || scope.getMode() != Mode::gpu_grid)
          return buffer.emitOpError("gpu_shared buffer '")
                 << buffer.getName()
                 << "' is not private to the blocks of one ':g' scope: every "
                    "access must lie inside that scope and every read must "
                    "read a value written by the same block";
        placement = Placement::Shared;
      } else if ((location == BufferLocation::reg ||
                  location == BufferLocation::gpu_local) &&
                 gpuScope) {
        placement = Placement::Thread;
      }
    }
    Attribute space;
    if (placement == Placement::Shared)
      space = workgroup;
    else if (placement == Placement::Thread)
      space = privateSpace;
    if (placement == Placement::Thread)
      addStorage(buffer, space,
                 [&](unsigned d) { return privatization.isThreadDim(d); });
    else
      addStorage(buffer, space);
    placements.push_back(placement);
  }
  return success();
}

LogicalResult GpuKernelLowering::checkSupport() {
  WalkResult result = kernel.walk([&](ScopeOp scope) {
    Mode mode = scope.getMode();
    if (!target.supports(mode)) {
      scope.emitOpError("has mode ")
          << describeMode(mode) << ", which " << describeChip(target)
          << " cannot execute";
      return WalkResult::interrupt();
    }
    // The sizes the hardware fixes (the warp width, threads per block,
    // the unroll limit); a `:v` scope of any width runs in one thread.
    if (mode == Mode::vector)
      return WalkResult::advance();
    if (std::optional<std::string> violation =
            target.findModeSizeViolation(mode, scope.getSize(), Type())) {
      scope.emitOpError("cannot run on ")
          << describeChip(target) << ": " << *violation;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  // Transcendentals: without the vendor's device library (never linked),
  // only the polynomial approximations of f32 (f16 and bf16 through f32)
  // implement them on a GPU; sqrt and rsqrt are instructions.
  result = kernel.walk([&](LeafOp leaf) {
    OpKind kind = leaf.getKind();
    if (!isTranscendental(kind) || kind == OpKind::sqrt ||
        kind == OpKind::rsqrt)
      return WalkResult::advance();
    Type type = kernel.lookupArray(leaf.getArray()).getElementType();
    bool approximated = hasPolynomialApproximation(kind);
    if (approximated && approximateMath && !type.isF64())
      return WalkResult::advance();
    InFlightDiagnostic diag = leaf.emitOpError("computes ")
                              << stringifyOpKind(kind) << " in "
                              << getElementTypeName(type) << ", which "
                              << describeChip(target);
    if (!approximated)
      diag << " does not implement (no polynomial approximates it and no "
              "vendor device library is linked)";
    else
      diag << (approximateMath ? " implements only in f32, f16 and bf16"
                               : " implements only with approximate-math")
           << " (no vendor device library is linked)";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// Host: loops and launches
//===----------------------------------------------------------------------===//

LogicalResult GpuKernelLowering::lowerHostNodes(Block &block, OpBuilder &hb) {
  SmallVector<Operation *> serial;
  auto flush = [&]() -> LogicalResult {
    if (serial.empty())
      return success();
    LogicalResult result = emitLaunch(serial, ScopeOp(), hb);
    serial.clear();
    return result;
  };
  for (Operation &op : block) {
    if (!isa<ScopeOp, LeafOp>(op))
      continue; // buffer declarations
    auto scope = dyn_cast<ScopeOp>(op);
    if (!scope || !containsGrid(scope)) {
      serial.push_back(&op);
      continue;
    }
    if (failed(flush()))
      return failure();
    if (scope.getMode() == Mode::gpu_grid) {
      if (failed(emitLaunch({scope}, scope, hb)))
        return failure();
      continue;
    }
    // The mode rules let only plain scopes enclose a `:g` scope: a host
    // loop, whose variable the launches inside receive as an argument.
    Location loc = scope.getLoc();
    auto loop = scf::ForOp::create(
        hb, loc, arith::ConstantIndexOp::create(hb, loc, 0),
        arith::ConstantIndexOp::create(hb, loc, scope.getSize()),
        arith::ConstantIndexOp::create(hb, loc, 1));
    OpBuilder::InsertionGuard guard(hb);
    hb.setInsertionPoint(loop.getBody()->getTerminator());
    hostIvs.push_back(loop.getInductionVar());
    LogicalResult result = lowerHostNodes(scope.getBlock(), hb);
    hostIvs.pop_back();
    if (failed(result))
      return failure();
  }
  return flush();
}

FailureOr<SmallVector<ScopeOp>>
GpuKernelLowering::getGridChain(ScopeOp gridRoot, int64_t &blocks) {
  SmallVector<ScopeOp> chain = {gridRoot};
  while (true) {
    Block &body = chain.back().getBlock();
    auto inner = dyn_cast<ScopeOp>(body.front());
    if (!inner || inner.getMode() != Mode::gpu_grid ||
        &body.front() != &body.back())
      break;
    chain.push_back(inner);
  }
  // Every other `:g` scope of the kernel would be a second grid shape.
  for (Operation &op : chain.back().getBlock()) {
    WalkResult stray = op.walk([&](ScopeOp scope) {
      if (scope.getMode() != Mode::gpu_grid)
        return WalkResult::advance();
      InFlightDiagnostic diag = scope.emitOpError(
          "':g' scope is not part of its kernel's grid: the ':g' scopes of "
          "a kernel must form a perfect nest (each the only child of the "
          "one above) at the kernel's top");
      diag.attachNote(chain.front().getLoc()) << "the kernel starts here";
      return WalkResult::interrupt();
    });
    if (stray.wasInterrupted())
      return failure();
  }
  blocks = 1;
  for (ScopeOp scope : chain) {
    int64_t size = scope.getSize();
    blocks = size > target.maxGridBlocks / blocks
                 ? target.maxGridBlocks + 1
                 : blocks * size;
    if (blocks > target.maxGridBlocks)
      return {chain.front().emitOpError("launches more than ")
              << target.maxGridBlocks << " blocks, the grid limit of "
              << describeChip(target)};
  }
  return chain;
}

FailureOr<BlockShape>
GpuKernelLowering::getBlockShape(ArrayRef<Operation *> nodes) {
  BlockShape shape;
  for (Operation *node : nodes) {
    for (LeafOp leaf : collectLeaves(node)) {
      SmallVector<int64_t, 3> sizes;
      for (Operation *p = leaf->getParentOp(); p && !isa<KernelOp>(p);
           p = p->getParentOp()) {
        auto scope = cast<ScopeOp>(p);
        if (scope.getMode() == Mode::gpu_block)
          sizes.insert(sizes.begin(), scope.getSize());
        if (scope.getMode() == Mode::gpu_warp)
          shape.warp = target.warpSize;
      }
      // One block shape per launch (K3): positions agree, one shape may
      // be a prefix of another.
      for (auto [i, size] : llvm::enumerate(sizes)) {
        if (i < shape.blockSizes.size() && shape.blockSizes[i] != size)
          return leaf.emitOpError("its ':b' sizes disagree with another "
                                  "phase of its launch (one block shape per "
                                  "launch)");
        if (i >= shape.blockSizes.size())
          shape.blockSizes.push_back(size);
      }
    }
  }
  // A block reduction over the innermost dimension whose threads are no
  // whole group of warp lanes pads that dimension to whole warps.
  for (Operation *node : nodes)
    node->walk([&](ScopeOp scope) {
      if (!shape.warp && isBlockReduction(scope) &&
          static_cast<int64_t>(scope.getSize()) == shape.blockSizes.back()) {
        int64_t lanes = target.getBlockReductionLanes(scope.getSize());
        if (lanes != shape.blockSizes.back())
          shape.paddedInner = lanes;
      }
    });
  if (shape.getThreads() > target.maxBlockSize) {
    InFlightDiagnostic d = nodes.front()->emitOpError("launch has ")
                           << shape.getThreads()
                           << " threads per block, more than the "
                           << target.maxBlockSize << " of "
                           << describeChip(target);
    if (shape.paddedInner)
      d << " (its innermost dimension of " << shape.blockSizes.back()
        << " threads padded to " << shape.paddedInner
        << " lanes of whole warps for a block reduction)";
    return d;
  }
  return shape;
}

LogicalResult GpuKernelLowering::emitLaunch(ArrayRef<Operation *> nodes,
                                            ScopeOp gridRoot, OpBuilder &hb) {
  MLIRContext *ctx = kernel.getContext();
  Location loc = nodes.front()->getLoc();
  SmallVector<ScopeOp> grid;
  int64_t blocks = 1;
  if (gridRoot) {
    FailureOr<SmallVector<ScopeOp>> chain = getGridChain(gridRoot, blocks);
    if (failed(chain))
      return failure();
    grid = std::move(*chain);
  }
  FailureOr<BlockShape> shape = getBlockShape(nodes);
  if (failed(shape))
    return failure();
  int64_t threads = shape->getThreads();

  // The storages the launch touches.
  SmallVector<bool> used(storages.size(), false);
  for (Operation *node : nodes)
    for (LeafOp leaf : collectLeaves(node)) {
      used[arrayStorage.lookup(leaf.getArray())] = true;
      for (Attribute input : leaf.getInputs())
        if (auto access = dyn_cast<AccessAttr>(input))
          used[arrayStorage.lookup(access.getArray().getValue())] = true;
    }
  SmallVector<unsigned> globals;
  for (auto [index, placement] : llvm::enumerate(placements))
    if (used[index] && placement == Placement::Global)
      globals.push_back(index);

  // The kernel function: global memrefs, then the host loop variables.
  SmallVector<Type> argTypes;
  for (unsigned index : globals)
    argTypes.push_back(storages[index].type);
  argTypes.append(hostIvs.size(), IndexType::get(ctx));
  std::string name =
      (kernel.getSymName() + "_k" + Twine(numLaunches++)).str();
  OpBuilder mb = OpBuilder::atBlockEnd(deviceModule.getBody());
  auto func = gpu::GPUFuncOp::create(mb, loc, name,
                                     FunctionType::get(ctx, argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), UnitAttr::get(ctx));
  func.setKnownBlockSizeAttr(DenseI32ArrayAttr::get(
      ctx, {static_cast<int32_t>(threads), 1, 1}));
  func.setKnownGridSizeAttr(DenseI32ArrayAttr::get(
      ctx, {static_cast<int32_t>(blocks), 1, 1}));
  // Every global buffer is an allocation of its own (the launch plan's
  // `buffer` lines; the driver aligns allocations to 256 bytes): 16-byte
  // alignment lets the back end merge adjacent loads into 128-bit ones.
  for (unsigned i = 0; i < globals.size(); ++i) {
    func.setArgAttr(i, "llvm.noalias", UnitAttr::get(ctx));
    func.setArgAttr(i, "llvm.align",
                    IntegerAttr::get(IntegerType::get(ctx, 64), 16));
  }
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  gpu::ReturnOp::create(b, loc);
  b.setInsertionPointToStart(&entry);

  // Memrefs inside the kernel: arguments, shared views, private allocas.
  for (auto [i, index] : llvm::enumerate(globals))
    storages[index].memref = entry.getArgument(i);
  int64_t sharedBytes = 0;
  sharedBase = Value();
  auto getSharedBase = [&](Attribute space) {
    if (!sharedBase)
      sharedBase = gpu::DynamicSharedMemoryOp::create(
          b, loc,
          MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                          MemRefLayoutAttrInterface(), space));
    return sharedBase;
  };
  for (auto [index, storage] : llvm::enumerate(storages)) {
    if (!used[index] || placements[index] == Placement::Global)
      continue;
    Location bloc = storage.buffer.getLoc();
    if (placements[index] == Placement::Thread) {
      storage.memref = memref::AllocaOp::create(b, bloc, storage.type,
                                                b.getI64IntegerAttr(16));
      continue;
    }
    sharedBytes = llvm::alignTo(sharedBytes, 16);
    storage.memref = memref::ViewOp::create(
        b, bloc, storage.type, getSharedBase(storage.type.getMemorySpace()),
        arith::ConstantIndexOp::create(b, bloc, sharedBytes), ValueRange());
    sharedBytes += getStorageElements(storage.buffer) *
                   getElementBytes(storage.buffer);
  }
  // One 32-bit word per warp for the block reductions wider than a warp.
  reductionScratchOffset = -1;
  for (Operation *node : nodes) {
    WalkResult wide = node->walk([&](ScopeOp scope) {
      return isBlockReduction(scope) &&
                     target.getBlockReductionLanes(scope.getSize()) >
                         target.warpSize
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (!wide.wasInterrupted())
      continue;
    getSharedBase(gpu::AddressSpaceAttr::get(ctx,
                                             gpu::AddressSpace::Workgroup));
    reductionScratchOffset = sharedBytes = llvm::alignTo(sharedBytes, 16);
    sharedBytes += llvm::divideCeil(threads, target.warpSize) * 4;
    break;
  }
  if (sharedBytes > target.sharedBytes)
    return nodes.front()->emitOpError("launch needs ")
           << sharedBytes << " bytes of block-shared memory, more than the "
           << target.sharedBytes << " of " << describeChip(target);

  // Iteration variables: host loops, then the grid coordinates.
  ivs.clear();
  for (unsigned k = 0; k < hostIvs.size(); ++k)
    ivs.push_back(entry.getArgument(globals.size() + k));
  if (!grid.empty()) {
    SmallVector<int64_t> gridSizes;
    for (ScopeOp scope : grid)
      gridSizes.push_back(scope.getSize());
    ivs.append(emitDelinearized(
        b, loc, gpu::BlockIdOp::create(b, loc, gpu::Dimension::x), gridSizes));
  }
  numBlockDims = shape->blockSizes.size();
  blockThreads = threads;
  paddedInnerSize = shape->paddedInner ? shape->blockSizes.back() : 0;
  SmallVector<int64_t, 4> dims = shape->getDims();
  threadCoords =
      threads > 1
          ? emitDelinearized(
                b, loc, gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x),
                dims)
          : SmallVector<Value>(dims.size(),
                               arith::ConstantIndexOp::create(b, loc, 0));

  // The block program: the innermost grid scope's body, or the nodes.
  SyncState sync;
  LogicalResult result = success();
  if (!grid.empty()) {
    result = emitBlockNodes(grid.back().getBlock(), b, sync);
  } else {
    for (Operation *node : nodes)
      if (failed(emitBlockNode(node, b, sync)))
        result = failure();
  }
  for (Storage &storage : storages)
    storage.memref = Value();
  if (failed(result))
    return failure();

  // The launch on the host.
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(hb, loc, v).getResult();
  };
  SmallVector<Value> operands;
  for (unsigned i : globals)
    operands.push_back(hostMemrefs[i]);
  operands.append(hostIvs.begin(), hostIvs.end());
  Value shared = arith::ConstantIntOp::create(hb, loc, hb.getI32Type(),
                                              sharedBytes);
  gpu::LaunchFuncOp::create(hb, loc, func,
                            gpu::KernelDim3{index(blocks), index(1), index(1)},
                            gpu::KernelDim3{index(threads), index(1), index(1)},
                            shared, operands);
  return success();
}

//===----------------------------------------------------------------------===//
// The block program
//===----------------------------------------------------------------------===//

ThreadSignature GpuKernelLowering::getSignature(LeafOp leaf) {
  ThreadSignature sig;
  SmallVector<ScopeOp, 8> scopes;
  for (Operation *p = leaf->getParentOp(); p && !isa<KernelOp>(p);
       p = p->getParentOp())
    scopes.push_back(cast<ScopeOp>(p));
  // Outermost first: depth = position.
  std::reverse(scopes.begin(), scopes.end());
  for (auto [depth, scope] : llvm::enumerate(scopes)) {
    if (scope.getMode() == Mode::gpu_block) {
      if (!sig.phase)
        sig.phase = scope;
      sig.blockDepths.push_back(depth);
    } else if (scope.getMode() == Mode::gpu_warp) {
      sig.warp = scope;
    }
  }
  return sig;
}

SyncedLeaf GpuKernelLowering::getSyncedLeaf(LeafOp leaf) {
  SyncedLeaf synced;
  synced.signature = getSignature(leaf);
  auto add = [&](SmallVector<unsigned, 4> &set, StringRef array) {
    unsigned index = &storageOf(array) - storages.data();
    if (placements[index] != Placement::Thread &&
        !llvm::is_contained(set, index))
      set.push_back(index);
  };
  add(synced.writes, leaf.getArray());
  if (leaf.getReduce() != ReduceKind::none)
    add(synced.reads, leaf.getArray());
  for (Attribute input : leaf.getInputs())
    if (auto access = dyn_cast<AccessAttr>(input))
      add(synced.reads, access.getArray().getValue());
  return synced;
}

void GpuKernelLowering::syncBefore(ArrayRef<LeafOp> next, SyncState &sync,
                                   OpBuilder &b, Location loc, bool record) {
  SmallVector<SyncedLeaf, 4> leaves;
  for (LeafOp leaf : next)
    leaves.push_back(getSyncedLeaf(leaf));
  if (llvm::any_of(leaves, [&](const SyncedLeaf &leaf) {
        return llvm::any_of(sync.pending, [&](const SyncedLeaf &run) {
          return leaf.conflictsWith(run);
        });
      })) {
    gpu::BarrierOp::create(b, loc);
    sync.pending.clear();
  }
  if (record)
    sync.pending.append(leaves.begin(), leaves.end());
}

LogicalResult GpuKernelLowering::emitBlockNodes(Block &block, OpBuilder &b,
                                                SyncState &sync) {
  for (Operation &op : block)
    if (failed(emitBlockNode(&op, b, sync)))
      return failure();
  return success();
}

LogicalResult GpuKernelLowering::emitBlockNode(Operation *node, OpBuilder &b,
                                               SyncState &sync) {
  Location loc = node->getLoc();
  if (auto leaf = dyn_cast<LeafOp>(node)) {
    syncBefore({leaf}, sync, b, loc, /*record=*/true);
    return emitGuardedLeaf(leaf, leaf, getSignature(leaf), b);
  }
  auto scope = cast<ScopeOp>(node);
  if (collectLeaves(scope).empty())
    return success();
  switch (scope.getMode()) {
  case Mode::vector: {
    auto leaf = cast<LeafOp>(scope.getBlock().front());
    syncBefore({leaf}, sync, b, loc, /*record=*/true);
    return emitGuardedLeaf(scope, leaf, getSignature(leaf), b);
  }
  case Mode::gpu_block:
  case Mode::gpu_warp: {
    unsigned position = numBlockDims; // the lanes
    if (scope.getMode() == Mode::gpu_block) {
      position = 0;
      for (Operation *p = scope->getParentOp(); !isa<KernelOp>(p);
           p = p->getParentOp())
        if (cast<ScopeOp>(p).getMode() == Mode::gpu_block)
          ++position;
    }
    ivs.push_back(threadCoords[position]);
    LogicalResult result = isBlockReduction(scope)
                               ? emitBlockReduction(scope, position, b, sync)
                               : emitBlockNodes(scope.getBlock(), b, sync);
    ivs.pop_back();
    if (scope.getMode() == Mode::gpu_warp) {
      // The lanes of one `:w` instance are independent of each other only
      // (the `:w` concurrency query): order them before anything else.
      gpu::BarrierOp::create(b, loc);
      sync.pending.clear();
    }
    return result;
  }
  case Mode::unroll:
    for (int64_t i = 0, e = scope.getSize(); i < e; ++i) {
      ivs.push_back(arith::ConstantIndexOp::create(b, loc, i));
      LogicalResult result = emitBlockNodes(scope.getBlock(), b, sync);
      ivs.pop_back();
      if (failed(result))
        return failure();
    }
    return success();
  case Mode::seq: {
    // Every leaf of the loop may run before the body's first barrier.
    SmallVector<LeafOp> leaves = collectLeaves(scope);
    syncBefore(leaves, sync, b, loc, /*record=*/false);
    auto loop = scf::ForOp::create(
        b, loc, arith::ConstantIndexOp::create(b, loc, 0),
        arith::ConstantIndexOp::create(b, loc, scope.getSize()),
        arith::ConstantIndexOp::create(b, loc, 1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    ivs.push_back(loop.getInductionVar());
    LogicalResult result = emitBlockNodes(scope.getBlock(), b, sync);
    ivs.pop_back();
    // The next iteration's leaves follow this one's (a barrier here ends
    // every iteration, the last one too).
    if (scope.getSize() > 1)
      syncBefore(leaves, sync, b, loc, /*record=*/false);
    return result;
  }
  default:
    return scope.emitOpError("has mode ")
           << describeMode(scope.getMode()) << ", which "
           << describeChip(target) << " cannot execute";
  }
}

LogicalResult GpuKernelLowering::emitGuardedLeaf(Operation *node, LeafOp leaf,
                                                 const ThreadSignature &sig,
                                                 OpBuilder &b) {
  Location loc = leaf.getLoc();
  // Thread dimensions the leaf does not bind (its `:b` scopes bind the
  // first ones, its `:w` scope the lanes): it runs where they are 0.
  // A padded innermost dimension binds only the threads below its size.
  Value condition;
  auto require = [&](Value holds) {
    condition =
        condition ? arith::AndIOp::create(b, loc, condition, holds).getResult()
                  : holds;
  };
  for (auto [i, coord] : llvm::enumerate(threadCoords)) {
    bool bound = i < sig.blockDepths.size() || (sig.warp && i == numBlockDims);
    if (bound && paddedInnerSize && i + 1 == numBlockDims)
      require(arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ult, coord,
          arith::ConstantIndexOp::create(b, loc, paddedInnerSize)));
    if (bound ||
        isa_and_nonnull<arith::ConstantIndexOp>(coord.getDefiningOp()))
      continue;
    require(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, coord,
                                  arith::ConstantIndexOp::create(b, loc, 0)));
  }
  OpBuilder::InsertionGuard guard(b);
  if (condition) {
    auto guarded = scf::IfOp::create(b, loc, condition, /*withElse=*/false);
    b.setInsertionPoint(guarded.thenBlock()->getTerminator());
  }
  if (auto scope = dyn_cast<ScopeOp>(node))
    return lowerVectorScope(scope, b);
  return lowerLeaf(leaf, b);
}

/// A block reduction (Analysis/Concurrency.h): every thread computes its
/// term; each group of the scope's threads (consecutive lanes: the
/// innermost thread dimension) combines them by butterfly warp shuffles,
/// and where the group spans whole warps, the warps' results once more
/// through block-shared words in the group's first warp; the group's
/// thread 0 combines the total into the output.
LogicalResult GpuKernelLowering::emitBlockReduction(ScopeOp scope,
                                                    unsigned position,
                                                    OpBuilder &b,
                                                    SyncState &sync) {
  auto leaf = cast<LeafOp>(scope.getBlock().front());
  Location loc = leaf.getLoc();
  int64_t size = scope.getSize(), warp = target.warpSize;
  if (position + 1 != threadCoords.size())
    return scope.emitOpError(
        "reduces over threads that are not consecutive lanes: a block "
        "reduction must be the innermost thread dimension of its launch, "
        "with no ':w' scope in the launch");
  if (blockThreads > warp && blockThreads % warp != 0)
    return scope.emitOpError("reduces by warp shuffles in a block of ")
           << blockThreads << " threads, which is not a whole number of "
           << warp << "-thread warps";
  Type type = storageOf(leaf.getArray()).type.getElementType();
  if (std::optional<std::string> problem =
          target.findBlockReductionViolation(size, type))
    return scope.emitOpError("cannot reduce over its threads on ")
           << describeChip(target) << ": " << *problem;
  syncBefore({leaf}, sync, b, loc, /*record=*/true);
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  auto compare = [&](arith::CmpIPredicate predicate, Value x, int64_t v) {
    return arith::CmpIOp::create(b, loc, predicate, x, index(v)).getResult();
  };
  Value coord = threadCoords[position];
  // Lanes past the threads (a group padded to whole warps) hold the
  // identity and read nothing.
  int64_t lanes = target.getBlockReductionLanes(size);
  // Padded lanes, and the lanes past a group's warp words, hold the
  // reduction's identity.
  Value identity = emitLeafIdentity(leaf, b);
  if ((lanes != size || lanes > warp) && !identity)
    return leaf.emitOpError("reduces over ")
           << size << " threads (" << lanes
           << " lanes), which needs an identity of its reduction";
  FailureOr<Value> term = failure();
  if (lanes == size) {
    term = emitLeafValue(leaf, b);
  } else {
    auto inside = scf::IfOp::create(
        b, loc, TypeRange{identity.getType()},
        compare(arith::CmpIPredicate::ult, coord, size), true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(inside.thenBlock());
    FailureOr<Value> value = emitLeafValue(leaf, b);
    if (failed(value))
      return failure();
    scf::YieldOp::create(b, loc, *value);
    b.setInsertionPointToStart(inside.elseBlock());
    scf::YieldOp::create(b, loc, identity);
    term = inside.getResult(0);
  }
  if (failed(term))
    return failure();
  // Lanes [0, width) of each warp take part (a block smaller than a warp
  // is one partial warp); xor offsets below `span` stay in aligned groups.
  auto width = static_cast<int32_t>(std::min(warp, blockThreads));
  auto butterfly = [&](Value v, int64_t span) {
    for (int64_t offset = span / 2; offset >= 1; offset /= 2) {
      auto shuffle = gpu::ShuffleOp::create(b, loc, v, offset, width,
                                            gpu::ShuffleMode::XOR);
      v = emitLeafCombine(leaf, b, v, shuffle.getShuffleResult());
    }
    return v;
  };
  Value total = butterfly(*term, std::min(lanes, warp));
  if (lanes > warp) {
    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    Value lane = arith::RemUIOp::create(b, loc, tid, index(warp));
    Value warpIndex = arith::DivUIOp::create(b, loc, tid, index(warp));
    auto wordsType = MemRefType::get(
        {static_cast<int64_t>(llvm::divideCeil(blockThreads, warp))}, type,
        MemRefLayoutAttrInterface(),
        cast<MemRefType>(sharedBase.getType()).getMemorySpace());
    Value words = memref::ViewOp::create(b, loc, wordsType, sharedBase,
                                         index(reductionScratchOffset),
                                         ValueRange());
    auto leader = scf::IfOp::create(
        b, loc, compare(arith::CmpIPredicate::eq, lane, 0), false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(leader.thenBlock()->getTerminator());
      memref::StoreOp::create(b, loc, total, words, warpIndex);
    }
    gpu::BarrierOp::create(b, loc);
    // The group's first warp (coord < groupWarps <= warp: its lanes are
    // the coordinates) reads the group's words; lanes past them, and every
    // other warp, hold the identity.
    int64_t groupWarps = lanes / warp;
    auto read = scf::IfOp::create(
        b, loc, TypeRange{type},
        compare(arith::CmpIPredicate::ult, coord, groupWarps), true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(read.thenBlock());
      Value word = memref::LoadOp::create(
          b, loc, words,
          ValueRange{arith::AddIOp::create(b, loc, warpIndex, coord)});
      scf::YieldOp::create(b, loc, word);
      b.setInsertionPointToStart(read.elseBlock());
      scf::YieldOp::create(b, loc, identity);
    }
    // Every read lands before any thread writes the words again.
    gpu::BarrierOp::create(b, loc);
    total = butterfly(read.getResult(0), llvm::PowerOf2Ceil(groupWarps));
  }
  auto writer =
      scf::IfOp::create(b, loc, compare(arith::CmpIPredicate::eq, coord, 0),
                        false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(writer.thenBlock()->getTerminator());
  emitLeafStore(leaf, total, b);
  return success();
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

LogicalResult GpuKernelLowering::run() {
  if (failed(checkSupport()) || failed(planStorage()))
    return failure();
  MLIRContext *ctx = kernel.getContext();
  auto module = kernel->getParentOfType<ModuleOp>();
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(ctx));
  OpBuilder mb(kernel);
  Location loc = kernel.getLoc();
  deviceModule = gpu::GPUModuleOp::create(
      mb, loc, (kernel.getSymName() + "_device").str());

  // The host function: argument memrefs in declaration order, each named
  // by its buffer and role (the launch plan reads them), and the global
  // scratch allocations.
  SmallVector<Type> argumentTypes;
  for (Storage &storage : storages)
    if (storage.buffer.isArgument())
      argumentTypes.push_back(storage.type);
  host = func::FuncOp::create(mb, loc, kernel.getSymName(),
                              mb.getFunctionType(argumentTypes, {}));
  Block *entry = host.addEntryBlock();
  OpBuilder hb = OpBuilder::atBlockBegin(entry);
  hostMemrefs.assign(storages.size(), Value());
  unsigned argument = 0;
  for (auto [index, storage] : llvm::enumerate(storages)) {
    auto nameAttr = StringAttr::get(ctx, storage.buffer.getName());
    auto dtypeAttr = StringAttr::get(
        ctx, getElementTypeName(storage.buffer.getElementType()));
    if (storage.buffer.isArgument()) {
      host.setArgAttr(argument, "dojo.buffer", nameAttr);
      host.setArgAttr(argument, "dojo.dtype", dtypeAttr);
      host.setArgAttr(argument, "dojo.role",
                      StringAttr::get(ctx, stringifyRole(
                                               storage.buffer.getRole())));
      hostMemrefs[index] = entry->getArgument(argument++);
    } else if (placements[index] == Placement::Global) {
      auto alloc = memref::AllocOp::create(hb, storage.buffer.getLoc(),
                                           storage.type,
                                           hb.getI64IntegerAttr(64));
      alloc->setAttr("dojo.buffer", nameAttr);
      alloc->setAttr("dojo.dtype", dtypeAttr);
      hostMemrefs[index] = alloc;
    }
  }
  if (failed(lowerHostNodes(kernel.getBlock(), hb))) {
    host.erase();
    deviceModule.erase();
    return failure();
  }
  for (auto [index, storage] : llvm::enumerate(storages))
    if (!storage.buffer.isArgument() &&
        placements[index] == Placement::Global)
      memref::DeallocOp::create(hb, loc, hostMemrefs[index]);
  func::ReturnOp::create(hb, loc);
  kernel.erase();
  return success();
}

struct ConvertDojoToGPUPass
    : perfdojo::impl::ConvertDojoToGPUPassBase<ConvertDojoToGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    std::optional<TargetDescription> target =
        TargetDescription::getGpu(chip);
    if (!target) {
      getOperation().emitError("unknown GPU chip '")
          << chip << "'; known: "
          << llvm::join(TargetDescription::getGpuChips(), ", ");
      return signalPassFailure();
    }
    SmallVector<KernelOp> kernels(getOperation().getOps<KernelOp>());
    for (KernelOp kernel : kernels)
      if (failed(GpuKernelLowering(kernel, *target, approximateMath).run()))
        return signalPassFailure();
  }
};

} // namespace
