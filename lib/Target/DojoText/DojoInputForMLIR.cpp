//===- DojoInputForMLIR.cpp - `.dojo` text where MLIR is expected ---------===//
//
// MLIR drivers parse MLIR themselves. These helpers let them recognize
// `.dojo` text (to say so instead of "custom op 'x' is unknown") and hand
// them an imported kernel as MLIR text that keeps the `.dojo` locations.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Target/DojoText/DojoText.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Tools/ParseUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
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

std::optional<size_t> perfdojo::findExcessiveBraceNesting(StringRef text) {
  // A scope is one region, one brace pair, in either MLIR form; the module,
  // the kernel and attribute dictionaries add a few. Four per scope is far
  // above any kernel within the bound and far below what the parser's
  // stack holds.
  const unsigned limit = 4 * kMaxScopeDepth;
  unsigned depth = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (c == '"') { // a string: skip to its closing quote
      for (++i; i < e && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (c == '/' && i + 1 < e && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == StringRef::npos)
        return std::nullopt;
    } else if (c == '{' || c == '(' || c == '[') {
      if (++depth > limit)
        return i;
    } else if ((c == '}' || c == ')' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

LogicalResult perfdojo::checkBraceNesting(llvm::SourceMgr &sourceMgr,
                                          MLIRContext *context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  std::optional<size_t> offset =
      findExcessiveBraceNesting(buffer->getBuffer());
  if (!offset)
    return success();
  auto [line, column] = sourceMgr.getLineAndColumn(
      llvm::SMLoc::getFromPointer(buffer->getBufferStart() + *offset));
  emitError(FileLineColLoc::get(context, buffer->getBufferIdentifier(), line,
                                column))
      << "brackets nest more than " << 4 * kMaxScopeDepth
      << " deep here; the IR nests at most " << kMaxScopeDepth
      << " scopes, and the MLIR parser is not run on such text";
  return failure();
}

/// mlir-translate's `--no-implicit-module`, read from the option registry
/// (the driver owns the option); an implicit module when it is not there.
static bool insertImplicitModule() {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("no-implicit-module");
  if (it == options.end() ||
      it->second->getValueExpectedFlag() != llvm::cl::ValueOptional)
    return true;
  return !static_cast<llvm::cl::opt<bool> *>(it->second)->getValue();
}

void perfdojo::registerCheckedTranslationFromMLIR(
    llvm::StringRef name, llvm::StringRef description,
    const TranslateFromMLIRFunction &function,
    const DialectRegistrationFunction &dialects) {
  TranslateRegistration(
      name, description,
      [function, dialects](const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
                           llvm::raw_ostream &output,
                           MLIRContext *context) -> LogicalResult {
        DialectRegistry registry;
        dialects(registry);
        context->appendDialectRegistry(registry);
        if (failed(checkBraceNesting(*sourceMgr, context)))
          return failure();
        OwningOpRef<Operation *> op = parseSourceFileForTool(
            sourceMgr, ParserConfig(context), insertImplicitModule());
        if (!op || failed(verify(*op)))
          return failure();
        return function(op.get(), output);
      });
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
