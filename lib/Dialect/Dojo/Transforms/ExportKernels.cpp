//===- ExportKernels.cpp - dojo-export-kernels ----------------------------===//

#include "perfdojo/Dialect/Dojo/Transforms/Passes.h"
#include "perfdojo/Support/FileIO.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace perfdojo::dojo {
#define GEN_PASS_DEF_DOJOEXPORTKERNELSPASS
#include "perfdojo/Dialect/Dojo/Transforms/Passes.h.inc"
} // namespace perfdojo::dojo

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

namespace {
class ExportKernelsPass
    : public perfdojo::dojo::impl::DojoExportKernelsPassBase<ExportKernelsPass> {
public:
  using Base::Base;
  void runOnOperation() override {
    if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
      getOperation()->emitError("cannot create '")
          << dir << "': " << ec.message();
      return signalPassFailure();
    }
    WalkResult result = getOperation()->walk([&](KernelOp kernel) {
      std::string text;
      llvm::raw_string_ostream os(text);
      exportDojo(kernel, os);
      llvm::SmallString<128> path(dir);
      llvm::sys::path::append(path, kernel.getSymName() + ".dojo");
      if (llvm::Error error = writeFile(path, text)) {
        kernel.emitError() << llvm::toString(std::move(error));
        return WalkResult::interrupt();
      }
      kernel.emitRemark() << "wrote " << path << " (hash "
                          << hashKernelText(text) << ")";
      return WalkResult::skip();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
