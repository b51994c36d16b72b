//===- DojoTextImport.cpp - `.dojo` text to the dojo dialect -------------===//
//
// The importer reads one line at a time:
//   1. comments (`#` to end of line) and blank lines are skipped;
//   2. a line starting with a name followed by something other than `[` is
//      a buffer declaration and must precede the tree;
//   3. any other line is a tree line: bars `|` (re-enter open scopes), then
//      scope sizes with optional `:mode` (open new scopes), then one
//      statement. The statement and buffer grammars are shared with the MLIR
//      assembly (TextSyntax.h).
// Every op gets the file:line:col of the text that produced it, so verifier
// errors point into the `.dojo` file.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"
#include "perfdojo/Dialect/Dojo/IR/TextSyntax.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <cmath>
#include <cstdlib>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

namespace {

/// Token source over one line of `.dojo` text (the Source interface of
/// TextParser).
class LineSource {
public:
  LineSource(StringRef line, unsigned lineNo, StringAttr file,
             MLIRContext *ctx)
      : line(line), lineNo(lineNo), file(file), ctx(ctx) {}

  MLIRContext *getContext() { return ctx; }

  void skipSpaces() {
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t' ||
                                 line[pos] == '\r'))
      ++pos;
  }
  bool atEnd() {
    skipSpaces();
    return pos >= line.size();
  }
  char peek() {
    skipSpaces();
    return pos < line.size() ? line[pos] : 0;
  }
  /// Location of the next token.
  Location loc() {
    skipSpaces();
    return FileLineColLoc::get(file, lineNo, pos + 1);
  }

  bool consumeIf(char c) {
    skipSpaces();
    lastToken = pos;
    if (peek() != c)
      return false;
    ++pos;
    return true;
  }

  bool consumeArrow() {
    skipSpaces();
    if (!line.substr(pos).starts_with("->"))
      return false;
    pos += 2;
    return true;
  }

  OptionalParseResult parseOptionalInteger(int64_t &value) {
    skipSpaces();
    lastToken = pos;
    size_t end = pos;
    while (end < line.size() && llvm::isDigit(line[end]))
      ++end;
    if (end == pos)
      return std::nullopt;
    if (line.substr(pos, end - pos).getAsInteger(10, value)) {
      emitError("integer '" + line.substr(pos, end - pos) + "' is too large");
      return failure();
    }
    pos = end;
    return success();
  }

  bool parseOptionalIdentifier(std::string &name) {
    skipSpaces();
    lastToken = pos;
    if (pos >= line.size() || !(llvm::isAlpha(line[pos]) || line[pos] == '_'))
      return false;
    size_t end = pos;
    while (end < line.size() && (llvm::isAlnum(line[end]) || line[end] == '_'))
      ++end;
    name = line.substr(pos, end - pos).str();
    pos = end;
    return true;
  }

  bool parseOptionalKeywordIn(std::string &word, ArrayRef<StringRef> allowed) {
    size_t saved = pos;
    if (parseOptionalIdentifier(word) && llvm::is_contained(allowed, word))
      return true;
    pos = saved;
    return false;
  }

  /// A decimal literal: digits, optional fraction, optional exponent.
  bool parseNumber(double &value) {
    skipSpaces();
    size_t end = pos;
    auto digits = [&] {
      size_t start = end;
      while (end < line.size() && llvm::isDigit(line[end]))
        ++end;
      return end > start;
    };
    bool any = digits();
    if (end < line.size() && line[end] == '.') {
      ++end;
      any |= digits();
    }
    if (!any)
      return emitError("expected an operand: an array access, a number, "
                       "'inf', '{k}' or '(index)'");
    if (end < line.size() && (line[end] == 'e' || line[end] == 'E')) {
      ++end;
      if (end < line.size() && (line[end] == '+' || line[end] == '-'))
        ++end;
      if (!digits())
        return emitError("expected digits in the exponent");
    }
    std::string text = line.substr(pos, end - pos).str();
    value = std::strtod(text.c_str(), nullptr);
    if (std::isinf(value))
      return emitError("the literal " + text + " is out of the range of "
                       "f64; write 'inf' for infinity");
    pos = end;
    return true;
  }

  bool parseElementType(Type &type) {
    std::string name;
    Location at = loc();
    if (parseOptionalIdentifier(name)) {
      type = lookupElementType(name, ctx);
      if (type)
        return true;
      mlir::emitError(at) << "unknown element type '" << name << "'; expected "
                          << getSupportedElementTypeList();
      return false;
    }
    return emitError("expected an element type (" +
                     getSupportedElementTypeList() + ")");
  }

  bool emitError(const Twine &msg) {
    mlir::emitError(loc()) << msg;
    return false;
  }

  bool emitErrorAtLastToken(const Twine &msg) {
    return emitErrorAt(lastToken, msg);
  }

  size_t getLastTokenLoc() { return lastToken; }

  bool emitErrorAt(size_t column, const Twine &msg) {
    mlir::emitError(FileLineColLoc::get(file, lineNo, column + 1)) << msg;
    return false;
  }

  /// Text from the current position to the end of the line, for messages.
  StringRef rest() {
    skipSpaces();
    return line.substr(pos).rtrim(" \t\r");
  }

private:
  StringRef line;
  size_t pos = 0;
  size_t lastToken = 0;
  unsigned lineNo;
  StringAttr file;
  MLIRContext *ctx;
};

/// Builds the kernel line by line.
class Importer {
public:
  Importer(KernelOp kernel, StringAttr file)
      : kernel(kernel), file(file), builder(kernel.getContext()) {}

  LogicalResult importLine(StringRef text, unsigned lineNo) {
    text = text.take_until([](char c) { return c == '#'; });
    LineSource src(text, lineNo, file, kernel.getContext());
    if (src.atEnd())
      return success();
    if (isBufferLine(text))
      return importBuffer(src);
    return importTreeLine(src);
  }

private:
  /// A buffer line starts with a name that is not followed by `[`.
  static bool isBufferLine(StringRef text) {
    text = text.ltrim(" \t");
    if (text.empty() || !(llvm::isAlpha(text[0]) || text[0] == '_'))
      return false;
    text = text.drop_while([](char c) { return llvm::isAlnum(c) || c == '_'; });
    return !text.ltrim(" \t").starts_with("[");
  }

  LogicalResult importBuffer(LineSource &src) {
    Location at = src.loc();
    if (seenTree)
      return emitError(at) << "buffer declarations must precede the tree";
    TextParser<LineSource> grammar(src, std::nullopt);
    BufferDecl decl;
    if (!grammar.parseBufferDecl(decl) ||
        failed(expectEnd(src, "the buffer declaration")))
      return failure();
    builder.setInsertionPointToEnd(&kernel.getBlock());
    SmallVector<StringRef> arrays(decl.arrays.begin(), decl.arrays.end());
    BufferOp::create(builder, at, builder.getStringAttr(decl.name),
                     TypeAttr::get(decl.elementType),
                     builder.getDenseI64ArrayAttr(decl.shape),
                     builder.getDenseI64ArrayAttr(decl.padding),
                     builder.getDenseBoolArrayAttr(decl.reused),
                     BufferLocationAttr::get(builder.getContext(),
                                             decl.location),
                     RoleAttr::get(builder.getContext(), decl.role),
                     builder.getStrArrayAttr(arrays),
                     decl.nontemporal ? builder.getUnitAttr() : UnitAttr());
    return success();
  }

  LogicalResult importTreeLine(LineSource &src) {
    seenTree = true;
    // Bars re-enter the innermost open scopes; sizes open new ones.
    unsigned bars = 0;
    struct NewScope {
      int64_t size;
      Mode mode;
      Location loc;
    };
    SmallVector<NewScope> sizes;
    while (true) {
      Location at = src.loc();
      if (src.consumeIf('|')) {
        if (!sizes.empty())
          return emitError(at) << "'|' must come before the scope sizes of "
                                  "a line";
        if (bars >= open.size())
          return emitError(at) << "'|' at depth " << bars
                               << " but the previous line leaves "
                               << open.size() << " scope(s) open";
        ++bars;
        continue;
      }
      int64_t size;
      if (!llvm::isDigit(src.peek()))
        break;
      // The nesting bound of the IR, checked while reading: nothing deeper
      // is ever built.
      if (std::optional<std::string> tooDeep =
              findScopeDepthViolation(bars + sizes.size()))
        return emitError(at) << *tooDeep;
      if (failed(*src.parseOptionalInteger(size)))
        return failure();
      Mode mode = Mode::seq;
      if (src.consumeIf(':')) {
        Location modeLoc = src.loc();
        std::string suffix;
        std::optional<Mode> parsed;
        if (src.parseOptionalIdentifier(suffix))
          parsed = symbolizeModeSuffix(suffix);
        if (!parsed)
          return emitError(modeLoc)
                 << "expected a scope mode after ':' (u, p, v, g, b or w)";
        mode = *parsed;
      }
      sizes.push_back({size, mode, at});
    }
    open.resize(bars);
    Block *parent = open.empty() ? &kernel.getBlock() : &open.back().getBlock();
    for (const NewScope &s : sizes) {
      builder.setInsertionPointToEnd(parent);
      auto scope = ScopeOp::create(builder, s.loc, s.size, s.mode);
      open.push_back(scope);
      parent = &scope.getBlock();
    }
    Location at = src.loc();
    TextParser<LineSource> grammar(src, open.size());
    Statement stmt;
    if (!grammar.parseStatement(stmt) ||
        failed(expectEnd(src, "the statement (one operation per statement)")))
      return failure();
    builder.setInsertionPointToEnd(parent);
    MLIRContext *ctx = builder.getContext();
    LeafOp::create(builder, at, builder.getStringAttr(stmt.array),
                   AffineMapAttr::get(makeIndexMap(stmt.indices, ctx)),
                   OpKindAttr::get(ctx, stmt.kind),
                   ReduceKindAttr::get(ctx, stmt.reduce),
                   builder.getArrayAttr(stmt.inputs),
                   stmt.streams.empty()
                       ? DenseI64ArrayAttr()
                       : builder.getDenseI64ArrayAttr(stmt.getStreams()));
    return success();
  }

  LogicalResult expectEnd(LineSource &src, StringRef what) {
    if (src.atEnd())
      return success();
    return emitError(src.loc())
           << "unexpected '" << src.rest() << "' after " << what;
  }

  KernelOp kernel;
  StringAttr file;
  OpBuilder builder;
  SmallVector<ScopeOp> open;
  bool seenTree = false;
};

/// A kernel name from a file name: its stem with non-identifier characters
/// replaced by '_'.
std::string kernelNameFromPath(StringRef path) {
  std::string name = llvm::sys::path::stem(path).str();
  if (name.empty() || name == "-" || name == "<stdin>")
    return "kernel";
  for (char &c : name)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  if (llvm::isDigit(name[0]))
    name = "k" + name;
  return name;
}

} // namespace

OwningOpRef<ModuleOp> perfdojo::importDojo(llvm::SourceMgr &sourceMgr,
                                           MLIRContext *context,
                                           StringRef kernelName) {
  context->loadDialect<DojoDialect>();
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  StringAttr file = StringAttr::get(context, buffer->getBufferIdentifier());
  Location fileLoc = FileLineColLoc::get(file, 1, 1);

  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(module->getBody());
  std::string name = kernelName.empty()
                         ? kernelNameFromPath(buffer->getBufferIdentifier())
                         : kernelName.str();
  auto kernel = KernelOp::create(builder, fileLoc, name);

  Importer importer(kernel, file);
  SmallVector<StringRef> lines;
  // A UTF-8 byte-order mark, as some editors write, is not text.
  StringRef text = buffer->getBuffer();
  text.consume_front("\xEF\xBB\xBF");
  text.split(lines, '\n');
  for (auto [i, line] : llvm::enumerate(lines))
    if (failed(importer.importLine(line, i + 1)))
      return nullptr;
  if (kernel.getBlock().empty()) {
    emitError(fileLoc) << "the file declares no buffers and no tree";
    return nullptr;
  }
  // The diagnostic already points at the `.dojo` line; the generic op dump
  // that MLIR appends by default would only repeat it less readably.
  bool printOp = context->shouldPrintOpOnDiagnostic();
  context->printOpOnDiagnostic(false);
  LogicalResult verified = verify(*module);
  context->printOpOnDiagnostic(printOp);
  if (failed(verified))
    return nullptr;
  return module;
}

OwningOpRef<ModuleOp> perfdojo::importDojoString(StringRef text,
                                                 MLIRContext *context,
                                                 StringRef bufferName) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), llvm::SMLoc());
  return importDojo(sourceMgr, context);
}

OwningOpRef<ModuleOp> perfdojo::loadKernelFile(llvm::SourceMgr &sourceMgr,
                                               StringRef path,
                                               MLIRContext *context,
                                               StringRef kernelName) {
  context->loadDialect<DojoDialect>();
  std::string error;
  auto file = openInputFile(path, &error);
  if (!file) {
    emitError(FileLineColLoc::get(context, path, 0, 0)) << error;
    return nullptr;
  }
  bool dojoText = looksLikeDojoText(file->getBuffer());
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  if (path.ends_with(".dojo"))
    return importDojo(sourceMgr, context, kernelName);
  if (dojoText) {
    emitError(FileLineColLoc::get(context, path == "-" ? "<stdin>" : path, 1,
                                  1))
        << "this looks like .dojo text, which is read from files named "
           "*.dojo; other files are read as MLIR";
    return nullptr;
  }
  if (failed(checkBraceNesting(sourceMgr, context)))
    return nullptr;
  return parseSourceFile<ModuleOp>(sourceMgr, context);
}

OwningOpRef<ModuleOp> perfdojo::loadKernelFile(StringRef path,
                                               MLIRContext *context,
                                               StringRef kernelName) {
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, context);
  return loadKernelFile(sourceMgr, path, context, kernelName);
}

OwningOpRef<ModuleOp>
perfdojo::loadKernelLibrary(llvm::ArrayRef<std::string> paths,
                            MLIRContext *context, StringRef kernelName) {
  assert(!paths.empty() && "a library of no files");
  OwningOpRef<ModuleOp> library =
      ModuleOp::create(FileLineColLoc::get(context, paths.front(), 0, 0));
  llvm::StringMap<Location> kernels;
  for (const std::string &path : paths) {
    OwningOpRef<ModuleOp> module = loadKernelFile(path, context, kernelName);
    if (!module)
      return nullptr;
    for (Operation &op :
         llvm::make_early_inc_range(module->getBody()->getOperations())) {
      if (auto kernel = dyn_cast<KernelOp>(op)) {
        auto [it, inserted] =
            kernels.try_emplace(kernel.getSymName(), kernel.getLoc());
        if (!inserted) {
          InFlightDiagnostic diag = kernel.emitError()
                                    << "kernel '" << kernel.getSymName()
                                    << "' is defined twice in the library";
          diag.attachNote(it->second) << "first defined here";
          return nullptr;
        }
      }
      op.moveBefore(library->getBody(), library->getBody()->end());
    }
  }
  return library;
}

KernelOp perfdojo::getSingleKernel(ModuleOp module) {
  auto kernels = module.getOps<KernelOp>();
  if (!llvm::hasSingleElement(kernels)) {
    emitError(module.getLoc())
        << "expected exactly one dojo.kernel, found "
        << std::distance(kernels.begin(), kernels.end());
    return {};
  }
  return *kernels.begin();
}
