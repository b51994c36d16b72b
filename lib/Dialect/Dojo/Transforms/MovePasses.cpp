//===- MovePasses.cpp - list, apply and check moves from perfdojo-opt ----===//

#include "perfdojo/Dialect/Dojo/Transforms/Passes.h"
#include "perfdojo/Moves/Move.h"
#include "perfdojo/Moves/Selector.h"

#include "llvm/Support/MemoryBuffer.h"

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
      trimmed.starts_with("file=") || trimmed.starts_with("reassociate="))
    return std::nullopt;
  return trimmed.str();
}

class ListMovesPass
    : public perfdojo::dojo::impl::DojoListMovesPassBase<ListMovesPass> {
public:
  using Base::Base;
  void runOnOperation() override {
    MoveState state(getOperation(),
                    MoveOptions{reassociate, TargetDescription::getDefault()});
    for (const MoveRequest &request : enumerateLegalMoves(state))
      llvm::outs() << request.str() << "\n";
    markAllAnalysesPreserved();
  }
};

/// What dojo-apply and dojo-check share: the raw-script option spelling and
/// parsing the `moves` option, with an error on the kernel if malformed.
template <typename Derived, template <typename> class GeneratedBase>
class ScriptPass : public GeneratedBase<Derived> {
public:
  using Parent = GeneratedBase<Derived>;
  using Parent::Parent;

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (std::optional<std::string> script = getRawScript(options)) {
      this->moves = *script;
      return success();
    }
    return Parent::initializeOptions(options, errorHandler);
  }

protected:
  /// The moves of the `file` option (if any), then of `moves`.
  std::optional<SmallVector<MoveRequest>> parseScript() {
    std::string text;
    if (!this->file.empty()) {
      llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
          llvm::MemoryBuffer::getFile(this->file);
      if (!buffer) {
        this->getOperation().emitError("cannot read move script '")
            << this->file << "': " << buffer.getError().message();
        return std::nullopt;
      }
      text = joinScriptLines((*buffer)->getBuffer());
    }
    text += ";" + this->moves;
    auto script = parseMoveScript(text);
    if (script)
      return std::move(*script);
    this->getOperation().emitError("invalid move script")
        << (this->file.empty() ? "" : " '" + this->file + "'") << ": "
        << llvm::toString(script.takeError());
    return std::nullopt;
  }
};

class ApplyMovesPass
    : public ScriptPass<ApplyMovesPass,
                        perfdojo::dojo::impl::DojoApplyMovesPassBase> {
public:
  using ScriptPass::ScriptPass;
  void runOnOperation() override {
    KernelOp kernel = getOperation();
    std::optional<SmallVector<MoveRequest>> script = parseScript();
    if (!script)
      return signalPassFailure();
    if (failed(applyMoves(kernel, *script,
                          MoveOptions{reassociate,
                                      TargetDescription::getDefault()})))
      return signalPassFailure();
  }
};

class CheckMovePass
    : public ScriptPass<CheckMovePass,
                        perfdojo::dojo::impl::DojoCheckMovePassBase> {
public:
  using ScriptPass::ScriptPass;
  void runOnOperation() override {
    KernelOp kernel = getOperation();
    std::optional<SmallVector<MoveRequest>> script = parseScript();
    if (!script)
      return signalPassFailure();
    MoveState state(kernel,
                    MoveOptions{reassociate, TargetDescription::getDefault()});
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
