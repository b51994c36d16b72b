//===- LowerToIsa.cpp - structured snitch ops to instructions ------------===//
//
// Rewrites the structured level of the snitch dialect into its ISA level:
//  1. every `snitch.frep` becomes `li counter, n-1` + `snitch.frep_o` over
//     its body, which is moved in place;
//  2. every `snitch.streaming_region` becomes its configuration writes
//     (SsrConfiguration below), `snitch.ssr_enable`, its body and
//     `snitch.ssr_disable`.
// The structured ops' verifiers have already held every hardware limit, so
// the rewrite cannot fail.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Dialect/Snitch/Transforms/Passes.h"
#include "perfdojo/Dialect/Snitch/IR/StreamConfiguration.h"

#include "mlir/IR/Builders.h"

#define DEBUG_TYPE "snitch-lower-to-isa"

namespace perfdojo::snitch {
#define GEN_PASS_DEF_SNITCHLOWERTOISAPASS
#include "perfdojo/Dialect/Snitch/Transforms/Passes.h.inc"
} // namespace perfdojo::snitch

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::snitch;

namespace {

/// Moves the ops of `region`'s block before `op`, then erases `op`.
void inlineBodyBefore(Operation *op, Region &region) {
  Block &body = region.front();
  op->getBlock()->getOperations().splice(op->getIterator(),
                                         body.getOperations());
  op->erase();
}

void lowerFrep(FrepOp frep) {
  OpBuilder builder(frep);
  Location loc = frep.getLoc();
  InsnOp::create(builder, loc, "li",
                 builder.getStrArrayAttr(
                     {frep.getCounter(),
                      builder.getStringAttr(
                          llvm::Twine(frep.getRepetitions() - 1))}));
  int64_t bodySize = llvm::range_size(frep.getBody().front());
  FrepOOp::create(builder, loc, frep.getCounterAttr(),
                  builder.getI64IntegerAttr(bodySize),
                  frep.getStaggerCountAttr(), frep.getStaggerMaskAttr());
  inlineBodyBefore(frep, frep.getBody());
}

void lowerStreamingRegion(StreamingRegionOp region) {
  OpBuilder builder(region);
  Location loc = region.getLoc();
  llvm::StringRef scratch = region.getScratch();
  // The value `scratch` holds, to skip reloading it.
  std::optional<int64_t> loaded;
  SmallVector<StreamAttr> streams =
      llvm::to_vector(region.getStreams().getAsRange<StreamAttr>());
  for (const ConfigurationWrite &write : planStreamConfiguration(streams)) {
    llvm::StringRef value = write.pointer;
    if (value.empty()) {
      if (write.value == 0) {
        value = "zero";
      } else {
        if (loaded != write.value)
          InsnOp::create(builder, loc, "li",
                         builder.getStrArrayAttr(
                             {scratch, builder.getStringAttr(
                                           llvm::Twine(write.value))}));
        loaded = write.value;
        value = scratch;
      }
    }
    ScfgwiOp::create(builder, loc, value, write.word, write.dm);
  }
  SsrEnableOp::create(builder, loc);
  builder.setInsertionPointAfter(region);
  SsrDisableOp::create(builder, loc);
  inlineBodyBefore(region, region.getBody());
}

struct SnitchLowerToIsaPass
    : perfdojo::snitch::impl::SnitchLowerToIsaPassBase<SnitchLowerToIsaPass> {
  void runOnOperation() override {
    SmallVector<FrepOp> freps;
    SmallVector<StreamingRegionOp> regions;
    getOperation().walk([&](Operation *op) {
      if (auto frep = dyn_cast<FrepOp>(op))
        freps.push_back(frep);
      else if (auto region = dyn_cast<StreamingRegionOp>(op))
        regions.push_back(region);
    });
    for (FrepOp frep : freps)
      lowerFrep(frep);
    for (StreamingRegionOp region : regions)
      lowerStreamingRegion(region);
  }
};

} // namespace
