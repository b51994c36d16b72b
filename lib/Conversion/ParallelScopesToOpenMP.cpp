//===- ParallelScopesToOpenMP.cpp - :p loops as self-scheduled regions ----===//
//
// A `:p` scope becomes an omp.parallel region whose threads each loop over
// their own block of iterations (OpenMP's static schedule, computed here)
// instead of an omp.wsloop: the wsloop's runtime call formats a trace
// string on every call in Debian's libomp builds (docs/codegen.md).
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Conversion/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace perfdojo {
#define GEN_PASS_DEF_CONVERTPARALLELSCOPESTOOPENMPPASS
#include "perfdojo/Conversion/Passes.h.inc"
} // namespace perfdojo

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kThreadNumFn = "omp_get_thread_num";
constexpr llvm::StringLiteral kNumThreadsFn = "omp_get_num_threads";

/// `func.func private @name() -> i32`, declared once per module; null,
/// with an error at the symbol, where the module already defines `name` as
/// something else (another type, another kind of symbol).
func::FuncOp getOrDeclareRuntimeQuery(ModuleOp module, StringRef name) {
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  FunctionType type = b.getFunctionType({}, {b.getI32Type()});
  if (Operation *existing = module.lookupSymbol(name)) {
    auto fn = dyn_cast<func::FuncOp>(existing);
    if (fn && fn.getFunctionType() == type)
      return fn;
    existing->emitError("'")
        << name << "' is the OpenMP runtime's query of type " << type
        << ", which convert-parallel-scopes-to-openmp calls; this module "
           "defines the name otherwise";
    return nullptr;
  }
  auto fn = func::FuncOp::create(b, module.getLoc(), name, type);
  fn.setPrivate();
  return fn;
}

/// The loops this pass owns: one dimension, no reductions.
bool isSelfSchedulable(scf::ParallelOp loop) {
  return loop.getNumLoops() == 1 && loop.getNumReductions() == 0;
}

/// Replaces `loop` by
///   omp.parallel {
///     t = omp_get_thread_num(); T = omp_get_num_threads()
///     n = trip count; q = n / T; r = n % T
///     first = t*q + min(t, r); last = first + q + (t < r)
///     scf.for k = first to last { body at iv = lb + k*step }
///     omp.terminator }
void lowerLoop(scf::ParallelOp loop, func::FuncOp threadNum,
               func::FuncOp numThreads, IRRewriter &rewriter) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  auto region = omp::ParallelOp::create(rewriter, loc);
  Block *entry = rewriter.createBlock(&region.getRegion());
  rewriter.setInsertionPointToStart(entry);

  auto asIndex = [&](func::FuncOp query) -> Value {
    Value value = func::CallOp::create(rewriter, loc, query).getResult(0);
    return arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                      value);
  };
  Value thread = asIndex(threadNum);
  Value threads = asIndex(numThreads);

  Value lb = loop.getLowerBound().front();
  Value ub = loop.getUpperBound().front();
  Value step = loop.getStep().front();
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  // Trip count ceil((ub - lb) / step), zero when ub <= lb.
  Value span = arith::SubIOp::create(rewriter, loc, ub, lb);
  span = arith::MaxSIOp::create(rewriter, loc, span, zero);
  Value trips = arith::CeilDivUIOp::create(rewriter, loc, span, step);
  Value quotient = arith::DivUIOp::create(rewriter, loc, trips, threads);
  Value remainder = arith::RemUIOp::create(rewriter, loc, trips, threads);
  Value first = arith::AddIOp::create(
      rewriter, loc, arith::MulIOp::create(rewriter, loc, thread, quotient),
      arith::MinUIOp::create(rewriter, loc, thread, remainder));
  Value extra = arith::IndexCastUIOp::create(
      rewriter, loc, rewriter.getIndexType(),
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, thread,
                            remainder));
  Value last = arith::AddIOp::create(
      rewriter, loc, first,
      arith::AddIOp::create(rewriter, loc, quotient, extra));

  auto forOp = scf::ForOp::create(rewriter, loc, first, last, one);
  rewriter.setInsertionPointToStart(forOp.getBody());
  Value iv = arith::AddIOp::create(
      rewriter, loc, lb,
      arith::MulIOp::create(rewriter, loc, forOp.getInductionVar(), step));
  // Move the body (its terminator is an empty scf.reduce) into the loop;
  // stack allocations in it get a scope, released every iteration.
  Block *body = loop.getBody();
  rewriter.eraseOp(body->getTerminator());
  Operation *insertBefore = forOp.getBody()->getTerminator();
  bool allocates = body->walk([](memref::AllocaOp) {
                         return WalkResult::interrupt();
                       }).wasInterrupted();
  if (allocates) {
    auto scope = memref::AllocaScopeOp::create(rewriter, loc, TypeRange{});
    Block *scoped = rewriter.createBlock(&scope.getBodyRegion());
    memref::AllocaScopeReturnOp::create(rewriter, loc);
    insertBefore = scoped->getTerminator();
  }
  rewriter.inlineBlockBefore(body, insertBefore, {iv});

  rewriter.setInsertionPointToEnd(entry);
  omp::TerminatorOp::create(rewriter, loc);
  rewriter.eraseOp(loop);
}

struct ConvertParallelScopesToOpenMPPass
    : perfdojo::impl::ConvertParallelScopesToOpenMPPassBase<
          ConvertParallelScopesToOpenMPPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<scf::ParallelOp> loops;
    module.walk([&](scf::ParallelOp loop) {
      if (isSelfSchedulable(loop))
        loops.push_back(loop);
    });
    if (loops.empty())
      return;
    func::FuncOp threadNum = getOrDeclareRuntimeQuery(module, kThreadNumFn);
    func::FuncOp numThreads = getOrDeclareRuntimeQuery(module, kNumThreadsFn);
    if (!threadNum || !numThreads)
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    // Bodies move, never copy: nested loops collected here stay valid.
    for (scf::ParallelOp loop : loops)
      lowerLoop(loop, threadNum, numThreads, rewriter);
  }
};

} // namespace
