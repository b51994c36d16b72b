//===- DojoInputForMLIR.cpp - `.dojo` text where MLIR is expected ---------===//
//
// MLIR drivers parse MLIR themselves. These helpers let them recognize
// `.dojo` text (to say so instead of "custom op 'x' is unknown") and hand
// them an imported kernel as MLIR text that keeps the `.dojo` locations.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

/// Skips an identifier at the front of `text`; false if there is none.
static bool consumeIdentifier(StringRef &text) {
  if (text.empty() || !(llvm::isAlpha(text.front()) || text.front() == '_'))
    return false;
  text = text.drop_while(
      [](char c) { return llvm::isAlnum(c) || c == '_'; });
  return true;
}

bool perfdojo::looksLikeDojoText(StringRef text) {
  if (text.starts_with("\xEF\xBB\xBF"))
    text = text.drop_front(3);
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    line = line.trim();
    if (line.empty() || line.starts_with("#") || line.starts_with("//"))
      continue;
    // A buffer line, `name type [extents] ...`: no MLIR construct begins
    // with two bare identifiers followed by `[`.
    if (!consumeIdentifier(line))
      return false;
    StringRef afterName = line.ltrim();
    if (afterName.size() == line.size() || !consumeIdentifier(afterName))
      return false;
    return afterName.ltrim().starts_with("[");
  }
  return false;
}

std::unique_ptr<llvm::MemoryBuffer>
perfdojo::translateDojoToMLIRBuffer(llvm::SourceMgr &sourceMgr,
                                    MLIRContext *context) {
  OwningOpRef<ModuleOp> module = importDojo(sourceMgr, context);
  if (!module)
    return nullptr;
  std::string text;
  llvm::raw_string_ostream os(text);
  // With locations, later diagnostics point into the `.dojo` text.
  module->print(os, OpPrintingFlags().enableDebugInfo());
  StringRef name = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                       ->getBufferIdentifier();
  // A name of its own: diagnostics at `.dojo` locations then quote the
  // `.dojo` file, not this MLIR text.
  return llvm::MemoryBuffer::getMemBufferCopy(text,
                                              (name + " (as MLIR)").str());
}
