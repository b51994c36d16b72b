//===- MovePasses.cpp - list, apply and check moves from perfdojo-opt ----===//

#include "perfdojo/Dialect/Dojo/Transforms/Passes.h"
#include "perfdojo/Moves/Move.h"

#define DEBUG_TYPE "dojo-moves"

namespace perfdojo::dojo {
#define GEN_PASS_DEF_DOJOLISTMOVESPASS
#define GEN_PASS_DEF_DOJOAPPLYMOVESPASS
#define GEN_PASS_DEF_DOJOCHECKMOVEPASS
#include "perfdojo/Dialect/Dojo/Transforms/Passes.h.inc"
} // namespace perfdojo::dojo

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

namespace {

/// Lets `--dojo-apply="split_scope y@0 16; ..."` pass the script directly:
/// a value that is not `key=value` options is the script itself.
std::optional<std::string> getRawScript(StringRef options) {
  StringRef trimmed = options.trim();
  if (trimmed.empty() || trimmed.starts_with("moves=") ||
      trimmed.starts_with("reassociate="))
    return std::nullopt;
  return trimmed.str();
}

class ListMovesPass
    : public perfdojo::dojo::impl::DojoListMovesPassBase<ListMovesPass> {
public:
  using Base::Base;
  void runOnOperation() override {
    MoveState state(getOperation(), MoveOptions{reassociate});
    for (const MoveRequest &request : enumerateLegalMoves(state))
      llvm::outs() << request.str() << "\n";
    markAllAnalysesPreserved();
  }
};

class ApplyMovesPass
    : public perfdojo::dojo::impl::DojoApplyMovesPassBase<ApplyMovesPass> {
public:
  using Base::Base;
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (std::optional<std::string> script = getRawScript(options)) {
      moves = *script;
      return success();
    }
    return Base::initializeOptions(options, errorHandler);
  }
  void runOnOperation() override {
    KernelOp kernel = getOperation();
    auto script = parseMoveScript(moves);
    if (!script) {
      kernel.emitError("invalid move script: ")
          << llvm::toString(script.takeError());
      return signalPassFailure();
    }
    MoveState state(kernel, MoveOptions{reassociate});
    for (const MoveRequest &request : *script)
      if (failed(applyMove(state, request, kernel.getLoc())))
        return signalPassFailure();
  }
};

class CheckMovePass : public perfdojo::dojo::impl::DojoCheckMovePassBase<CheckMovePass> {
public:
  using Base::Base;
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (std::optional<std::string> script = getRawScript(options)) {
      moves = *script;
      return success();
    }
    return Base::initializeOptions(options, errorHandler);
  }
  void runOnOperation() override {
    KernelOp kernel = getOperation();
    auto script = parseMoveScript(moves);
    if (!script) {
      kernel.emitError("invalid move script: ")
          << llvm::toString(script.takeError());
      return signalPassFailure();
    }
    MoveState state(kernel, MoveOptions{reassociate});
    for (const MoveRequest &request : *script) {
      DiagnosedSilenceableFailure result =
          checkMove(state, request, kernel.getLoc());
      if (result.succeeded()) {
        emitRemark(kernel.getLoc()) << "'" << request.str() << "' is legal";
        continue;
      }
      // Report the reasons as remarks: checking never fails the pass.
      SmallVector<Diagnostic> diags;
      result.takeDiagnostics(diags);
      for (Diagnostic &diag : diags) {
        InFlightDiagnostic remark = emitRemark(diag.getLocation())
                                    << "illegal: " << diag.str();
        for (Diagnostic &note : diag.getNotes())
          remark.attachNote(note.getLocation()) << note.str();
      }
    }
    markAllAnalysesPreserved();
  }
};
} // namespace
