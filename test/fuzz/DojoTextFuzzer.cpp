//===- DojoTextFuzzer.cpp - libFuzzer target for the `.dojo` importer -----===//
//
// Feeds arbitrary bytes to perfdojo::importDojo. Rejecting the input is fine;
// crashing, hanging or tripping a sanitizer is not. When the input imports,
// three round trips must be exact, or the fuzzer aborts:
//   1. export(import(input)) imports again and exports to the same text;
//   2. both imports print to the same MLIR (locations aside);
//   3. the printed MLIR parses back (custom assembly), verifies and prints
//      the same.
// Each input gets a fresh single-threaded MLIRContext so runs reproduce and
// uniqued attributes do not accumulate across inputs.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir;

namespace {

/// Imports `text` as `.dojo`; null if it is rejected.
OwningOpRef<ModuleOp> import(StringRef text, MLIRContext &ctx) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.dojo"), llvm::SMLoc());
  return perfdojo::importDojo(sourceMgr, &ctx, "fuzz");
}

std::string exportText(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (failed(perfdojo::exportDojo(module, os)))
    return "<export failed>";
  return text;
}

std::string printMLIR(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os, OpPrintingFlags().assumeVerified());
  return text;
}

[[noreturn]] void fail(StringRef what, StringRef input, StringRef a,
                       StringRef b) {
  llvm::errs() << "round-trip failure: " << what << "\n--- input\n"
               << input << "\n--- first\n"
               << a << "\n--- second\n"
               << b << "\n";
  std::abort();
}

} // namespace

/// LLVM's headers poison the unused tail of BumpPtrAllocator slabs in
/// ASan builds, but Debian's uninstrumented libMLIR allocates from the same
/// slabs (the context's storage uniquer) without unpoisoning them, so every
/// such allocation would be a false "use-after-poison". Manual poisoning is
/// turned off; ASan's own redzones on heap, stack and globals stay.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  StringRef input(reinterpret_cast<const char *>(data), size);
  MLIRContext ctx(MLIRContext::Threading::DISABLED);
  ctx.loadDialect<perfdojo::dojo::DojoDialect>();
  // Rejections are expected; keep the fuzzer's output quiet.
  ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });

  OwningOpRef<ModuleOp> first = import(input, ctx);
  if (!first)
    return 0;

  // 1 and 2: `.dojo` text round trip.
  std::string text = exportText(*first);
  OwningOpRef<ModuleOp> second = import(text, ctx);
  if (!second)
    fail("exported text does not import", input, text, "");
  std::string text2 = exportText(*second);
  if (text != text2)
    fail("export is not a fixed point", input, text, text2);
  std::string mlir1 = printMLIR(*first), mlir2 = printMLIR(*second);
  if (mlir1 != mlir2)
    fail("re-imported kernel differs", input, mlir1, mlir2);

  // 3: the MLIR custom assembly reads back what it prints.
  OwningOpRef<ModuleOp> parsed = parseSourceString<ModuleOp>(mlir1, &ctx);
  if (!parsed || failed(verify(*parsed)))
    fail("printed MLIR does not parse and verify", input, mlir1, "");
  std::string mlir3 = printMLIR(*parsed);
  if (mlir1 != mlir3)
    fail("printed MLIR does not read back identically", input, mlir1, mlir3);
  return 0;
}
