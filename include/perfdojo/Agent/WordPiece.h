//===- WordPiece.h - BERT's tokenizer for a sentence encoder ----*- C++ -*-===//
//
// The tokenizer of BERT-family sentence encoders (Agent/SentenceEncoder.h):
// text -> vocabulary ids. As BERT's: control characters dropped, whitespace
// split, (optionally) lower-cased, every punctuation character a token of
// its own, CJK ideographs apart; then each word split greedily into the
// longest vocabulary pieces, continuations prefixed "##", a word that does
// not split (or longer than 100 characters) one [UNK].
//
// Not done: Unicode accent stripping and non-ASCII punctuation classes (a
// non-ASCII letter stays in its word and usually makes it [UNK]). Program
// texts, what PerfDojo embeds, are ASCII.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_AGENT_WORDPIECE_H
#define PERFDOJO_AGENT_WORDPIECE_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace perfdojo::agent {

class WordPieceTokenizer {
public:
  /// Reads a vocabulary file: one token per line, its id its line number.
  /// It must hold [CLS], [SEP], [UNK] and [PAD].
  static llvm::Expected<WordPieceTokenizer> load(llvm::StringRef vocabPath,
                                                 bool lowerCase);
  /// A tokenizer over `tokens` (id = position), for tests.
  static llvm::Expected<WordPieceTokenizer>
  fromTokens(llvm::ArrayRef<std::string> tokens, bool lowerCase);

  /// The ids of `text`'s pieces, without [CLS] and [SEP].
  std::vector<int64_t> encode(llvm::StringRef text) const;

  int64_t getClassId() const { return classId; }
  int64_t getSeparatorId() const { return separatorId; }
  int64_t getUnknownId() const { return unknownId; }
  int64_t getPadId() const { return padId; }
  size_t getVocabularySize() const { return vocabulary.size(); }

private:
  void encodeWord(llvm::StringRef word, std::vector<int64_t> &ids) const;

  llvm::StringMap<int64_t> vocabulary;
  bool lowerCase = true;
  int64_t classId = 0, separatorId = 0, unknownId = 0, padId = 0;
};

} // namespace perfdojo::agent

#endif // PERFDOJO_AGENT_WORDPIECE_H
