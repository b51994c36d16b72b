//===- WordPiece.cpp - BERT's tokenizer for a sentence encoder ------------===//

#include "perfdojo/Agent/WordPiece.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace perfdojo::agent;

llvm::Expected<WordPieceTokenizer>
WordPieceTokenizer::fromTokens(llvm::ArrayRef<std::string> tokens,
                               bool lowerCase) {
  WordPieceTokenizer tokenizer;
  tokenizer.lowerCase = lowerCase;
  for (size_t i = 0; i < tokens.size(); ++i)
    tokenizer.vocabulary.try_emplace(tokens[i], static_cast<int64_t>(i));
  auto find = [&](llvm::StringRef name, int64_t &id) -> llvm::Error {
    auto it = tokenizer.vocabulary.find(name);
    if (it == tokenizer.vocabulary.end())
      return llvm::createStringError("the vocabulary has no " + name.str());
    id = it->second;
    return llvm::Error::success();
  };
  if (llvm::Error error = llvm::joinErrors(
          llvm::joinErrors(find("[CLS]", tokenizer.classId),
                           find("[SEP]", tokenizer.separatorId)),
          llvm::joinErrors(find("[UNK]", tokenizer.unknownId),
                           find("[PAD]", tokenizer.padId))))
    return std::move(error);
  return tokenizer;
}

llvm::Expected<WordPieceTokenizer>
WordPieceTokenizer::load(llvm::StringRef vocabPath, bool lowerCase) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(vocabPath);
  if (!file)
    return llvm::createStringError("cannot read '" + vocabPath + "': " +
                                   file.getError().message());
  llvm::SmallVector<llvm::StringRef> lines;
  (*file)->getBuffer().split(lines, '\n');
  if (!lines.empty() && lines.back().empty())
    lines.pop_back();
  std::vector<std::string> tokens;
  for (llvm::StringRef line : lines)
    tokens.push_back(line.rtrim("\r").str());
  llvm::Expected<WordPieceTokenizer> tokenizer = fromTokens(tokens, lowerCase);
  if (!tokenizer)
    return llvm::createStringError("'" + vocabPath + "': " +
                                   llvm::toString(tokenizer.takeError()));
  return tokenizer;
}

/// BERT's punctuation: every non-alphanumeric printable ASCII character.
static bool isPunctuation(uint32_t c) {
  return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) ||
         (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
}

static bool isWhitespace(uint32_t c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x00A0 ||
         c == 0x3000 || (c >= 0x2000 && c <= 0x200A);
}

/// Dropped as BERT drops them: NUL, the replacement character and the
/// other C0/C1 controls.
static bool isDropped(uint32_t c) {
  return c == 0 || c == 0xFFFD || (c < 32 && !isWhitespace(c)) ||
         (c >= 0x7F && c < 0xA0);
}

/// The CJK ideograph blocks BERT splits into one token per character.
static bool isIdeograph(uint32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F) ||
         (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B820 && c <= 0x2CEAF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

std::vector<int64_t> WordPieceTokenizer::encode(llvm::StringRef text) const {
  std::vector<int64_t> ids;
  std::string word;
  auto flush = [&] {
    if (!word.empty())
      encodeWord(word, ids);
    word.clear();
  };
  const auto *cursor = reinterpret_cast<const llvm::UTF8 *>(text.begin());
  const auto *end = reinterpret_cast<const llvm::UTF8 *>(text.end());
  while (cursor < end) {
    const llvm::UTF8 *start = cursor;
    llvm::UTF32 c = 0;
    if (llvm::convertUTF8Sequence(&cursor, end, &c, llvm::strictConversion) !=
        llvm::conversionOK) {
      c = 0xFFFD; // Invalid UTF-8 is dropped, a byte at a time.
      cursor = start + 1;
    }
    if (isDropped(c))
      continue;
    if (isWhitespace(c)) {
      flush();
      continue;
    }
    if (isPunctuation(c) || isIdeograph(c)) {
      flush();
      encodeWord(llvm::StringRef(reinterpret_cast<const char *>(start),
                                 cursor - start),
                 ids);
      continue;
    }
    if (c < 128) {
      word.push_back(lowerCase ? llvm::toLower(static_cast<char>(c))
                               : static_cast<char>(c));
      continue;
    }
    word.append(reinterpret_cast<const char *>(start), cursor - start);
  }
  flush();
  return ids;
}

void WordPieceTokenizer::encodeWord(llvm::StringRef word,
                                    std::vector<int64_t> &ids) const {
  constexpr size_t kMaxWordCharacters = 100;
  if (word.size() > kMaxWordCharacters) {
    ids.push_back(unknownId);
    return;
  }
  std::vector<int64_t> pieces;
  std::string candidate;
  for (size_t start = 0; start < word.size();) {
    size_t end = word.size();
    std::optional<int64_t> found;
    for (; end > start; --end) {
      candidate = (start ? "##" : "") + word.slice(start, end).str();
      auto it = vocabulary.find(candidate);
      if (it != vocabulary.end()) {
        found = it->second;
        break;
      }
    }
    if (!found) {
      ids.push_back(unknownId);
      return;
    }
    pieces.push_back(*found);
    start = end;
  }
  ids.insert(ids.end(), pieces.begin(), pieces.end());
}
