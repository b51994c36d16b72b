//===- ApplyTunedPass.cpp - dojo-apply-tuned ------------------------------===//

#include "perfdojo/Search/Passes.h"

#include "PassSupport.h"
#include "perfdojo/Search/TunedRecords.h"
#include "perfdojo/Target/DojoText/DojoText.h"

namespace perfdojo {
#define GEN_PASS_DEF_DOJOAPPLYTUNEDPASS
#include "perfdojo/Search/Passes.h.inc"
} // namespace perfdojo

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

namespace {

class ApplyTunedPass : public perfdojo::impl::DojoApplyTunedPassBase<ApplyTunedPass> {
public:
  using DojoApplyTunedPassBase::DojoApplyTunedPassBase;

  /// Reads the records once per pipeline, not once per kernel.
  LogicalResult initialize(MLIRContext *context) override {
    if (records.empty())
      return emitError(UnknownLoc::get(context))
             << "dojo-apply-tuned needs records=DIR (a perfdojo-search "
                "--out directory, or a directory of them)";
    llvm::Expected<TunedRecords> loaded = TunedRecords::load(records);
    if (!loaded)
      return emitError(UnknownLoc::get(context))
             << "dojo-apply-tuned: " << llvm::toString(loaded.takeError());
    tuned = std::make_shared<TunedRecords>(std::move(*loaded));
    return success();
  }

  void runOnOperation() override {
    if (failed(forEachKernel(getOperation(), [&](KernelOp kernel) {
          return runOnKernel(kernel);
        })))
      signalPassFailure();
  }

private:
  LogicalResult runOnKernel(KernelOp kernel) {
    std::string hash = hashKernel(kernel);
    const TunedProgram *program = tuned->lookup(hash, threads);
    if (!program) {
      emitRemark(kernel.getLoc())
          << "no tuned program for this kernel (hash " << hash << ") in '"
          << records << "'; left as it is";
      return success();
    }
    std::optional<TargetDescription> target =
        lookupTargetOption(kernel, this->target);
    if (!target)
      return failure();
    if (succeeded(applyMoves(kernel, program->moves,
                              MoveOptions{reassociate, *target})))
      return success();
    return kernel.emitError() << "the program recorded in '" << program->source
                              << "' does not replay on this kernel";
  }

  /// Shared by the pass's clones on other threads (read only).
  std::shared_ptr<TunedRecords> tuned;
};

} // namespace
