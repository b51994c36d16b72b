//===- TextSyntax.h - statement and buffer grammar -----------*- C++ -*-===//
//
// One grammar for leaf statements, buffer declarations and scope modes,
// shared by the MLIR custom assembly of the dojo ops and by the `.dojo` text
// importer, so both accept and print exactly the same text:
//
//   stmt    := access ('=' | '+=' | '*=' | 'max=' | 'min=') rhs
//   rhs     := operand | operand ('+'|'-'|'*'|'/') operand
//            | func '(' operand (',' operand)? ')'
//   operand := access | number | 'inf' | '-' number | '-inf'
//            | '{' int '}' | '(' index ')'
//   access  := name '[' index (',' index)* ']'
//   index   := term (('+'|'-') term)*    ; the first term may carry '-'
//   term    := '{' int '}' ('*' int)? | int ('*' '{' int '}')?
//
//   buffer  := name dtype '[' (dim (',' dim)*)? ']' location role?
//              ('->' name (',' name)*)?
//   dim     := int ('+' int)? (':' 'N')?
//   role    := 'in' | 'out' | 'inout'
//
// The grammar is written once against a small token-source interface
// (`Source` below); `MLIRAsmSource` adapts mlir::AsmParser and the `.dojo`
// importer provides its own lexer.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_DIALECT_DOJO_IR_TEXTSYNTAX_H
#define PERFDOJO_DIALECT_DOJO_IR_TEXTSYNTAX_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"

#include "llvm/Support/MathExtras.h"

#include <limits>
#include <string>

namespace perfdojo {

/// A parsed leaf statement, ready to become a `dojo.leaf`.
struct Statement {
  std::string array;
  llvm::SmallVector<mlir::AffineExpr, 4> indices;
  dojo::OpKind kind = dojo::OpKind::copy;
  dojo::ReduceKind reduce = dojo::ReduceKind::none;
  llvm::SmallVector<mlir::Attribute, 2> inputs;
  /// SSR stream marks `:s<e>`: entry 0 for the output, i + 1 for input i;
  /// the depth where the operand's stream starts, or -1. Empty when no
  /// operand is streamed.
  llvm::SmallVector<int64_t, 3> streams;

  /// Records the mark of operand `position` (0 the output), if any.
  void setStream(unsigned position, std::optional<unsigned> depth) {
    if (!depth)
      return;
    if (streams.size() <= position)
      streams.resize(position + 1, -1);
    streams[position] = *depth;
  }
  /// The marks with one entry per operand, or empty.
  llvm::SmallVector<int64_t, 3> getStreams() const {
    if (streams.empty())
      return {};
    llvm::SmallVector<int64_t, 3> all(streams);
    all.resize(inputs.size() + 1, -1);
    return all;
  }
};

/// A parsed buffer declaration, ready to become a `dojo.buffer`.
struct BufferDecl {
  std::string name;
  mlir::Type elementType;
  llvm::SmallVector<int64_t, 4> shape, padding;
  llvm::SmallVector<bool, 4> reused;
  dojo::BufferLocation location = dojo::BufferLocation::heap;
  dojo::Role role = dojo::Role::internal;
  llvm::SmallVector<std::string, 2> arrays;
  bool nontemporal = false;
};

/// The `.dojo` suffix letter of a scope mode (`v` for vector); empty for seq.
llvm::StringRef getModeSuffix(dojo::Mode mode);
/// The mode of a suffix letter, if any.
std::optional<dojo::Mode> symbolizeModeSuffix(llvm::StringRef suffix);
/// The statement of `leaf` as printed, for messages: `t[{0}] = exp(x[{0}])`.
std::string getStatementText(dojo::LeafOp leaf);
/// Prints a buffer declaration without its leading op name.
void printBufferDecl(llvm::raw_ostream &os, dojo::BufferOp buffer);
/// Prints `size` or `size:m`.
void printScopeHeader(llvm::raw_ostream &os, dojo::ScopeOp scope);

/// Maps a function name (`exp`, `max`, ...) to its operation, if any.
std::optional<dojo::OpKind> lookupFunction(llvm::StringRef name);
/// Spelling of a function-style operation (`exp`); null for infix ones.
llvm::StringRef getFunctionName(dojo::OpKind kind);
/// Infix symbol (`+`) of add/sub/mul/div; 0 for the others.
char getInfixSymbol(dojo::OpKind kind);
/// Spelling of a reduction in the assignment operator (`+=` -> "+").
llvm::StringRef getReduceSpelling(dojo::ReduceKind reduce);

/// Prints a constant so that it parses back to the same double: `0`, `1.5`,
/// `1e-05`, `inf`, `-inf`.
void printConstant(llvm::raw_ostream &os, double value);
/// Prints one operand attribute in statement syntax.
void printOperand(llvm::raw_ostream &os, mlir::Attribute operand);
/// Prints the statement of `leaf` (everything after the scope sizes).
void printStatement(llvm::raw_ostream &os, dojo::LeafOp leaf);

/// The grammar. `Source` provides:
///   bool consumeIf(char c);                 // one punctuation character
///   mlir::OptionalParseResult parseOptionalInteger(int64_t &v);
///                                           // a non-negative integer; a
///                                           // malformed one is reported
///                                           // and fails
///   bool parseOptionalIdentifier(std::string &name);
///   bool parseNumber(double &v);            // required; reports errors
///   bool parseOptionalKeywordIn(std::string &word,
///                               llvm::ArrayRef<llvm::StringRef> allowed);
///   bool consumeArrow();                    // `->`
///   bool parseElementType(mlir::Type &t);   // required; reports errors
///   bool emitError(const llvm::Twine &msg); // reports, returns false
///   bool emitErrorAtLastToken(const llvm::Twine &msg); // same, at the
///                                           // start of the last token
///   Loc getLastTokenLoc();                  // start of the last token
///   bool emitErrorAt(Loc loc, const llvm::Twine &msg);
///   mlir::MLIRContext *getContext();
/// Every method returns true on success. `maxDepth` (if set) rejects `{k}`
/// with k >= maxDepth at the point where it is written.
template <typename Source>
class TextParser {
public:
  TextParser(Source &src, std::optional<unsigned> maxDepth)
      : src(src), maxDepth(maxDepth) {}

  bool parseStatement(Statement &stmt) {
    if (!src.parseOptionalIdentifier(stmt.array))
      return src.emitError("expected the name of the output array");
    if (!parseIndexList(stmt.indices))
      return false;
    std::optional<unsigned> stream;
    if (!parseOptionalStreamMark(stream))
      return false;
    stmt.setStream(0, stream);
    if (!parseAssignment(stmt.reduce))
      return false;
    return parseRhs(stmt);
  }

  /// `:s<e>` after an access: the operand is an SSR stream that starts at
  /// depth e (docs/ir.md, "Stream marks").
  bool parseOptionalStreamMark(std::optional<unsigned> &depth) {
    if (!src.consumeIf(':'))
      return true;
    std::string word;
    unsigned value;
    bool parsed = src.parseOptionalIdentifier(word);
    llvm::StringRef digits(word);
    if (!parsed || !digits.consume_front("s") ||
        digits.getAsInteger(10, value))
      return src.emitErrorAtLastToken(
          "expected a stream mark ':s<depth>' after ':'");
    if (value >= kMaxScopeDepth)
      return src.emitErrorAtLastToken("stream depth " + llvm::Twine(value) +
                                      " exceeds the limit of " +
                                      llvm::Twine(kMaxScopeDepth));
    depth = value;
    return true;
  }

  /// An operand and its optional stream mark, as input `position` - 1.
  bool parseMarkedOperand(Statement &stmt, mlir::Attribute &operand) {
    std::optional<unsigned> stream;
    if (!parseOptionalStreamMark(stream))
      return false;
    if (stream && !llvm::isa<dojo::AccessAttr>(operand))
      return src.emitErrorAtLastToken(
          "only an array access can be a stream");
    stmt.setStream(stmt.inputs.size() + 1, stream);
    stmt.inputs.push_back(operand);
    return true;
  }

  bool parseBufferDecl(BufferDecl &decl) {
    if (!src.parseOptionalIdentifier(decl.name))
      return src.emitError("expected a buffer name");
    if (!src.parseElementType(decl.elementType))
      return false;
    if (!src.consumeIf('['))
      return src.emitError("expected '[' to open the dimension list");
    if (!src.consumeIf(']')) {
      do {
        int64_t extent, pad = 0;
        if (!parseInteger(extent, "expected a dimension size"))
          return false;
        if (src.consumeIf('+') &&
            !parseInteger(pad, "expected the padding after '+'"))
          return false;
        bool reused = false;
        if (src.consumeIf(':')) {
          std::string flag;
          if (!src.parseOptionalIdentifier(flag))
            return src.emitError("expected 'N' after ':' in a dimension");
          if (flag != "N")
            return src.emitErrorAtLastToken(
                "expected 'N' after ':' in a dimension");
          reused = true;
        }
        decl.shape.push_back(extent);
        decl.padding.push_back(pad);
        decl.reused.push_back(reused);
      } while (src.consumeIf(','));
      if (!src.consumeIf(']'))
        return src.emitError("expected ',' or ']' in the dimension list");
    }
    std::string word;
    if (!src.parseOptionalIdentifier(word))
      return src.emitError("expected a buffer location (heap, stack, reg, "
                           "gpu_shared, gpu_local, tcdm)");
    std::optional<dojo::BufferLocation> location =
        dojo::symbolizeBufferLocation(word);
    if (!location)
      return src.emitErrorAtLastToken("unknown buffer location '" + word +
                           "'; expected heap, stack, reg, gpu_shared, "
                           "gpu_local or tcdm");
    decl.location = *location;
    // The role is optional and must not swallow what follows the
    // declaration, so only the three role words are consumed.
    if (src.parseOptionalKeywordIn(word, {"in", "out", "inout"}))
      decl.role = *dojo::symbolizeRole(word);
    if (src.parseOptionalKeywordIn(word, {"nontemporal"}))
      decl.nontemporal = true;
    if (src.consumeArrow()) {
      do {
        std::string array;
        if (!src.parseOptionalIdentifier(array))
          return src.emitError("expected an array name after '->'");
        decl.arrays.push_back(array);
      } while (src.consumeIf(','));
    }
    return true;
  }

  bool parseIndexList(llvm::SmallVectorImpl<mlir::AffineExpr> &indices) {
    if (!src.consumeIf('['))
      return src.emitError("expected '[' to open an index list");
    if (src.consumeIf(']'))
      return true; // a rank-0 (scalar) array
    do {
      mlir::AffineExpr e;
      if (!parseIndex(e))
        return false;
      indices.push_back(e);
    } while (src.consumeIf(','));
    if (!src.consumeIf(']'))
      return src.emitError("expected ',' or ']' in index list");
    return true;
  }

  bool parseIndex(mlir::AffineExpr &result) {
    LinearForm form;
    bool first = true;
    while (true) {
      int64_t sign = 1;
      if (src.consumeIf('-'))
        sign = -1;
      else if (!first && !src.consumeIf('+'))
        break;
      // The sign, or the first term: where an overflow is reported.
      auto termLoc = src.getLastTokenLoc();
      int64_t coeff = 0;
      std::optional<unsigned> depth;
      if (!parseTerm(coeff, depth))
        return false;
      if (depth && form.coeffs.size() <= *depth)
        form.coeffs.resize(*depth + 1, 0);
      int64_t &sum = depth ? form.coeffs[*depth] : form.constant;
      // INT64_MIN has no printable magnitude, so it counts as overflow too.
      if (llvm::AddOverflow(sum, sign * coeff, sum) ||
          sum == std::numeric_limits<int64_t>::min())
        return src.emitErrorAt(termLoc,
                               "index expression overflows 64-bit integers");
      first = false;
    }
    result = buildAffineExpr(form, src.getContext());
    return true;
  }

private:
  /// Parses a required non-negative integer; reports `expected` if there is
  /// none (the source has already reported a malformed one).
  bool parseInteger(int64_t &value, const llvm::Twine &expected) {
    mlir::OptionalParseResult result = src.parseOptionalInteger(value);
    if (!result.has_value())
      return src.emitError(expected);
    return mlir::succeeded(*result);
  }

  bool parseDepth(unsigned &depth) {
    int64_t k;
    if (!parseInteger(k, "expected a scope depth after '{'"))
      return false;
    if (maxDepth && k >= static_cast<int64_t>(*maxDepth))
      return src.emitErrorAtLastToken(
          "{" + llvm::Twine(k) + "} refers to the scope at depth " +
          llvm::Twine(k) + " but the statement is nested in only " +
          llvm::Twine(*maxDepth) + " scope(s)");
    // Without the statement's own nesting (MLIR syntax) the verifier judges
    // the depth later; the IR's nesting bound (KernelTree.h) keeps
    // `{4294967296}` from wrapping to `{0}` and a huge depth from allocating
    // a coefficient per level.
    if (k >= static_cast<int64_t>(kMaxScopeDepth))
      return src.emitErrorAtLastToken("scope depth " + llvm::Twine(k) +
                                      " exceeds the limit of " +
                                      llvm::Twine(kMaxScopeDepth));
    if (!src.consumeIf('}'))
      return src.emitError("expected '}' after scope depth");
    depth = static_cast<unsigned>(k);
    return true;
  }

  // term := '{' int '}' ('*' int)? | int ('*' '{' int '}')?
  bool parseTerm(int64_t &coeff, std::optional<unsigned> &depth) {
    if (src.consumeIf('{')) {
      unsigned k;
      if (!parseDepth(k))
        return false;
      depth = k;
      coeff = 1;
      if (src.consumeIf('*') &&
          !parseInteger(coeff, "expected an integer coefficient after '*'"))
        return false;
      return true;
    }
    if (!parseInteger(coeff,
                      "expected '{k}' or an integer in index expression"))
      return false;
    if (src.consumeIf('*')) {
      unsigned k;
      if (!src.consumeIf('{'))
        return src.emitError("expected '{k}' after '*'");
      if (!parseDepth(k))
        return false;
      depth = k;
    }
    return true;
  }

  bool parseAssignment(dojo::ReduceKind &reduce) {
    using dojo::ReduceKind;
    reduce = ReduceKind::none;
    std::string word;
    if (src.consumeIf('+'))
      reduce = ReduceKind::add;
    else if (src.consumeIf('*'))
      reduce = ReduceKind::mul;
    else if (src.parseOptionalIdentifier(word)) {
      if (word == "max")
        reduce = ReduceKind::max;
      else if (word == "min")
        reduce = ReduceKind::min;
      else
        return src.emitErrorAtLastToken(
            "expected '=', '+=', '*=', 'max=' or 'min=' but found '" + word +
            "'");
    }
    if (!src.consumeIf('='))
      return src.emitError("expected '=', '+=', '*=', 'max=' or 'min='");
    return true;
  }

  bool parseRhs(Statement &stmt) {
    std::string name;
    if (src.parseOptionalIdentifier(name)) {
      auto nameLoc = src.getLastTokenLoc();
      if (src.consumeIf('('))
        return parseCall(name, nameLoc, stmt);
      mlir::Attribute first;
      if (!parseOperandAfterName(name, first) ||
          !parseMarkedOperand(stmt, first))
        return false;
    } else {
      mlir::Attribute first;
      if (!parseOperand(first) || !parseMarkedOperand(stmt, first))
        return false;
    }
    using dojo::OpKind;
    OpKind kind;
    if (src.consumeIf('+'))
      kind = OpKind::add;
    else if (src.consumeIf('-'))
      kind = OpKind::sub;
    else if (src.consumeIf('*'))
      kind = OpKind::mul;
    else if (src.consumeIf('/'))
      kind = OpKind::div;
    else {
      stmt.kind = OpKind::copy;
      return true;
    }
    stmt.kind = kind;
    mlir::Attribute second;
    return parseOperand(second) && parseMarkedOperand(stmt, second);
  }

  template <typename Loc>
  bool parseCall(llvm::StringRef name, Loc nameLoc, Statement &stmt) {
    std::optional<dojo::OpKind> kind = lookupFunction(name);
    if (!kind)
      return src.emitErrorAt(nameLoc, "unknown function '" + name + "'");
    stmt.kind = *kind;
    do {
      mlir::Attribute operand;
      if (!parseOperand(operand) || !parseMarkedOperand(stmt, operand))
        return false;
    } while (src.consumeIf(','));
    if (!src.consumeIf(')'))
      return src.emitError("expected ',' or ')' after function operand");
    unsigned arity = dojo::LeafOp::getArity(*kind);
    if (stmt.inputs.size() != arity)
      return src.emitErrorAt(
          nameLoc, "function '" + name + "' takes " + llvm::Twine(arity) +
                       " operand(s) but " + llvm::Twine(stmt.inputs.size()) +
                       " were given");
    return true;
  }

  bool parseOperand(mlir::Attribute &result) {
    mlir::MLIRContext *ctx = src.getContext();
    std::string name;
    if (src.parseOptionalIdentifier(name))
      return parseOperandAfterName(name, result);
    if (src.consumeIf('{')) {
      unsigned k;
      if (!parseDepth(k))
        return false;
      result = dojo::IndexValueAttr::get(
          ctx, makeIndexMap(mlir::getAffineDimExpr(k, ctx), ctx));
      return true;
    }
    if (src.consumeIf('(')) {
      mlir::AffineExpr e;
      if (!parseIndex(e))
        return false;
      if (!src.consumeIf(')'))
        return src.emitError("expected ')' to close an index value");
      result = dojo::IndexValueAttr::get(ctx, makeIndexMap(e, ctx));
      return true;
    }
    double value;
    if (src.consumeIf('-')) {
      if (src.parseOptionalIdentifier(name)) {
        if (name != "inf")
          return src.emitErrorAtLastToken(
              "expected a number or 'inf' after '-'");
        value = -std::numeric_limits<double>::infinity();
      } else if (!src.parseNumber(value)) {
        return false;
      } else {
        value = -value;
      }
    } else if (!src.parseNumber(value)) {
      return false;
    }
    result = mlir::FloatAttr::get(mlir::Float64Type::get(ctx), value);
    return true;
  }

  bool parseOperandAfterName(llvm::StringRef name, mlir::Attribute &result) {
    mlir::MLIRContext *ctx = src.getContext();
    if (name == "inf") {
      result = mlir::FloatAttr::get(mlir::Float64Type::get(ctx),
                                    std::numeric_limits<double>::infinity());
      return true;
    }
    llvm::SmallVector<mlir::AffineExpr, 4> indices;
    if (!parseIndexList(indices))
      return false;
    result = dojo::AccessAttr::get(ctx, mlir::StringAttr::get(ctx, name),
                                   makeIndexMap(indices, ctx));
    return true;
  }

  Source &src;
  std::optional<unsigned> maxDepth;
};

/// Adapts mlir::AsmParser to the Source interface of TextParser.
class MLIRAsmSource {
public:
  explicit MLIRAsmSource(mlir::AsmParser &parser) : parser(parser) {}
  bool consumeIf(char c);
  mlir::OptionalParseResult parseOptionalInteger(int64_t &value);
  bool parseOptionalIdentifier(std::string &name);
  bool parseOptionalKeywordIn(std::string &word,
                              llvm::ArrayRef<llvm::StringRef> allowed);
  bool parseNumber(double &value);
  bool consumeArrow();
  bool parseElementType(mlir::Type &type);
  bool emitError(const llvm::Twine &msg);
  bool emitErrorAtLastToken(const llvm::Twine &msg);
  llvm::SMLoc getLastTokenLoc() { return lastToken; }
  bool emitErrorAt(llvm::SMLoc loc, const llvm::Twine &msg);
  mlir::MLIRContext *getContext() { return parser.getContext(); }

private:
  /// Remembers where the next token starts, for emitErrorAtLastToken.
  void mark() { lastToken = parser.getCurrentLocation(); }

  mlir::AsmParser &parser;
  llvm::SMLoc lastToken;
};

} // namespace perfdojo

#endif // PERFDOJO_DIALECT_DOJO_IR_TEXTSYNTAX_H
