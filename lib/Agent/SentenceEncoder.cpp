//===- SentenceEncoder.cpp - a BERT sentence embedding model --------------===//

#include "perfdojo/Agent/SentenceEncoder.h"
#include "perfdojo/Agent/Safetensors.h"
#include "perfdojo/Support/FileIO.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace perfdojo::agent;

static llvm::Expected<llvm::json::Object> readJson(llvm::StringRef directory,
                                                   llvm::StringRef name) {
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, name);
  return perfdojo::readJsonObject(path);
}

llvm::Expected<std::unique_ptr<SentenceEncoder>>
SentenceEncoder::load(llvm::StringRef directory) {
  auto model = std::unique_ptr<SentenceEncoder>(new SentenceEncoder());
  EncoderConfig &c = model->config;

  llvm::Expected<llvm::json::Object> config = readJson(directory, "config.json");
  if (!config)
    return config.takeError();
  auto integer = [&](llvm::StringRef key, int64_t &out) {
    std::optional<int64_t> value = config->getInteger(key);
    if (value && *value > 0)
      out = *value;
    return value && *value > 0;
  };
  if (!integer("hidden_size", c.hidden) ||
      !integer("num_attention_heads", c.heads) ||
      !integer("num_hidden_layers", c.layers) ||
      !integer("intermediate_size", c.intermediate) ||
      !integer("max_position_embeddings", c.maxPositions) ||
      c.hidden % c.heads != 0)
    return llvm::createStringError(
        "'" + directory + "/config.json' does not describe a BERT encoder");
  if (config->getString("hidden_act").value_or("") != "gelu")
    return llvm::createStringError("'" + directory +
                                   "/config.json': only the gelu activation "
                                   "is implemented");
  if (std::optional<double> epsilon = config->getNumber("layer_norm_eps"))
    c.layerNormEpsilon = *epsilon;

  c.maxSequence = c.maxPositions;
  if (llvm::Expected<llvm::json::Object> sentence =
          readJson(directory, "sentence_bert_config.json"))
    c.maxSequence = std::min(
        c.maxPositions,
        sentence->getInteger("max_seq_length").value_or(c.maxPositions));
  else
    return sentence.takeError();
  if (c.maxSequence < 3)
    return llvm::createStringError("'" + directory +
                                   "': a sequence limit below 3 tokens");

  llvm::Expected<llvm::json::Object> pooling =
      readJson(directory, "1_Pooling/config.json");
  if (!pooling)
    return pooling.takeError();
  if (!pooling->getBoolean("pooling_mode_mean_tokens").value_or(false) ||
      pooling->getBoolean("pooling_mode_cls_token").value_or(false) ||
      pooling->getBoolean("pooling_mode_max_tokens").value_or(false))
    return llvm::createStringError(
        "'" + directory + "/1_Pooling/config.json': only mean pooling is "
                          "implemented");

  bool lowerCase = true;
  if (llvm::Expected<llvm::json::Object> tokenizerConfig =
          readJson(directory, "tokenizer_config.json"))
    lowerCase = tokenizerConfig->getBoolean("do_lower_case").value_or(true);
  else
    return tokenizerConfig.takeError();
  llvm::SmallString<256> vocab(directory);
  llvm::sys::path::append(vocab, "vocab.txt");
  llvm::Expected<WordPieceTokenizer> tokenizer =
      WordPieceTokenizer::load(vocab, lowerCase);
  if (!tokenizer)
    return tokenizer.takeError();
  model->tokenizer = std::move(*tokenizer);

  llvm::SmallString<256> weightsPath(directory);
  llvm::sys::path::append(weightsPath, "model.safetensors");
  llvm::Expected<std::map<std::string, torch::Tensor>> weights =
      readSafetensors(weightsPath);
  if (!weights)
    return weights.takeError();
  model->weights = std::move(*weights);

  // Every weight the forward pass reads, with its shape.
  std::vector<std::pair<std::string, std::vector<int64_t>>> expected = {
      {"embeddings.word_embeddings.weight",
       {static_cast<int64_t>(model->tokenizer.getVocabularySize()), c.hidden}},
      {"embeddings.position_embeddings.weight", {c.maxPositions, c.hidden}},
      {"embeddings.token_type_embeddings.weight", {-1, c.hidden}},
      {"embeddings.LayerNorm.weight", {c.hidden}},
      {"embeddings.LayerNorm.bias", {c.hidden}}};
  for (int64_t l = 0; l < c.layers; ++l) {
    std::string p = "encoder.layer." + std::to_string(l) + ".";
    for (const char *name : {"attention.self.query", "attention.self.key",
                             "attention.self.value", "attention.output.dense"}) {
      expected.push_back({p + name + ".weight", {c.hidden, c.hidden}});
      expected.push_back({p + name + ".bias", {c.hidden}});
    }
    expected.push_back(
        {p + "intermediate.dense.weight", {c.intermediate, c.hidden}});
    expected.push_back({p + "intermediate.dense.bias", {c.intermediate}});
    expected.push_back({p + "output.dense.weight", {c.hidden, c.intermediate}});
    expected.push_back({p + "output.dense.bias", {c.hidden}});
    for (const char *norm : {"attention.output.LayerNorm", "output.LayerNorm"}) {
      expected.push_back({p + norm + ".weight", {c.hidden}});
      expected.push_back({p + norm + ".bias", {c.hidden}});
    }
  }
  for (const auto &[name, shape] : expected) {
    auto it = model->weights.find(name);
    bool matches = it != model->weights.end() &&
                   it->second.dim() == static_cast<int64_t>(shape.size());
    for (size_t d = 0; matches && d < shape.size(); ++d)
      matches = shape[d] < 0 ? it->second.size(d) > 0
                             : it->second.size(d) == shape[d];
    if (!matches)
      return llvm::createStringError("'" + weightsPath + "' lacks '" + name +
                                     "' of the shape config.json implies");
  }
  return model;
}

torch::Tensor SentenceEncoder::weight(const std::string &name) const {
  return weights.at(name);
}

torch::Tensor SentenceEncoder::layerNorm(const torch::Tensor &x,
                                         const std::string &prefix) const {
  return torch::layer_norm(x, {config.hidden}, weight(prefix + ".weight"),
                           weight(prefix + ".bias"), config.layerNormEpsilon);
}

torch::Tensor SentenceEncoder::linear(const torch::Tensor &x,
                                      const std::string &prefix) const {
  return torch::linear(x, weight(prefix + ".weight"), weight(prefix + ".bias"));
}

torch::Tensor
SentenceEncoder::encode(const std::vector<std::vector<int64_t>> &sequences) {
  torch::InferenceMode inference;
  int64_t batch = sequences.size(), length = 0;
  for (const std::vector<int64_t> &sequence : sequences)
    length = std::max<int64_t>(length, sequence.size());
  if (batch == 0 || length == 0)
    return torch::zeros({batch, config.hidden});
  if (length > config.maxSequence)
    throw std::invalid_argument("a sequence longer than the model's limit");

  torch::Tensor ids = torch::full({batch, length}, tokenizer.getPadId(),
                                  torch::kInt64);
  torch::Tensor mask = torch::zeros({batch, length}, torch::kFloat32);
  for (int64_t b = 0; b < batch; ++b) {
    int64_t n = sequences[b].size();
    ids[b].slice(0, 0, n).copy_(torch::tensor(sequences[b], torch::kInt64));
    mask[b].slice(0, 0, n).fill_(1);
  }

  torch::Tensor x = weight("embeddings.word_embeddings.weight").index({ids}) +
                    weight("embeddings.position_embeddings.weight")
                        .slice(0, 0, length)
                        .unsqueeze(0) +
                    weight("embeddings.token_type_embeddings.weight")[0];
  x = layerNorm(x, "embeddings.LayerNorm");

  int64_t heads = config.heads, headSize = config.hidden / config.heads;
  // Padded keys get the lowest float, as the reference model adds.
  torch::Tensor keyBias =
      ((1 - mask) * std::numeric_limits<float>::lowest()).view(
          {batch, 1, 1, length});
  auto splitHeads = [&](const torch::Tensor &t) {
    return t.view({batch, length, heads, headSize}).transpose(1, 2);
  };
  for (int64_t l = 0; l < config.layers; ++l) {
    std::string p = "encoder.layer." + std::to_string(l) + ".";
    torch::Tensor q = splitHeads(linear(x, p + "attention.self.query"));
    torch::Tensor k = splitHeads(linear(x, p + "attention.self.key"));
    torch::Tensor v = splitHeads(linear(x, p + "attention.self.value"));
    torch::Tensor scores =
        torch::matmul(q, k.transpose(-1, -2)) / std::sqrt(double(headSize)) +
        keyBias;
    torch::Tensor context = torch::matmul(torch::softmax(scores, -1), v)
                                .transpose(1, 2)
                                .reshape({batch, length, config.hidden});
    x = layerNorm(linear(context, p + "attention.output.dense") + x,
                  p + "attention.output.LayerNorm");
    torch::Tensor hidden = torch::gelu(linear(x, p + "intermediate.dense"));
    x = layerNorm(linear(hidden, p + "output.dense") + x,
                  p + "output.LayerNorm");
  }
  torch::Tensor weights3 = mask.unsqueeze(-1);
  return (x * weights3).sum(1) / weights3.sum(1).clamp_min(1e-9);
}

std::vector<std::vector<float>>
SentenceEncoder::embedTexts(llvm::ArrayRef<std::string> texts) {
  torch::InferenceMode inference;
  // Every text's windows, then batches of windows of similar length.
  struct Window {
    size_t text;
    std::vector<int64_t> ids;
  };
  std::vector<Window> windows;
  int64_t content = config.maxSequence - 2;
  for (size_t t = 0; t < texts.size(); ++t) {
    std::vector<int64_t> ids = tokenizer.encode(texts[t]);
    size_t start = 0;
    do {
      size_t end = std::min(ids.size(), start + size_t(content));
      Window window{t, {tokenizer.getClassId()}};
      window.ids.insert(window.ids.end(), ids.begin() + start,
                        ids.begin() + end);
      window.ids.push_back(tokenizer.getSeparatorId());
      windows.push_back(std::move(window));
      start = end;
    } while (start < ids.size());
  }
  std::vector<size_t> order(windows.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::make_pair(windows[a].ids.size(), a) <
           std::make_pair(windows[b].ids.size(), b);
  });

  torch::Tensor sums = torch::zeros({int64_t(texts.size()), config.hidden});
  std::vector<double> tokens(texts.size(), 0);
  constexpr size_t kBatch = 16;
  for (size_t first = 0; first < order.size(); first += kBatch) {
    std::vector<std::vector<int64_t>> batch;
    size_t last = std::min(order.size(), first + kBatch);
    for (size_t i = first; i < last; ++i)
      batch.push_back(windows[order[i]].ids);
    torch::Tensor pooled = encode(batch);
    for (size_t i = first; i < last; ++i) {
      const Window &window = windows[order[i]];
      double n = window.ids.size();
      sums[window.text] += pooled[i - first] * n;
      tokens[window.text] += n;
    }
  }
  std::vector<std::vector<float>> rows;
  for (size_t t = 0; t < texts.size(); ++t) {
    torch::Tensor row = sums[t] / tokens[t];
    row = row / row.norm().clamp_min(1e-12);
    rows.emplace_back(row.data_ptr<float>(),
                      row.data_ptr<float>() + config.hidden);
  }
  return rows;
}
