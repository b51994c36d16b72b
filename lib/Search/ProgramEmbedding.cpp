//===- ProgramEmbedding.cpp - how an agent sees a program -----------------===//

#include "perfdojo/Search/ProgramEmbedding.h"
#include "perfdojo/Search/ProgramFeatures.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

using namespace perfdojo;

ProgramEmbedding::~ProgramEmbedding() = default;

std::vector<std::vector<float>>
ProgramEmbedding::embedTexts(llvm::ArrayRef<std::string> texts) {
  std::vector<std::vector<float>> rows;
  rows.reserve(texts.size());
  for (const std::string &text : texts)
    rows.push_back(embed(nullptr, text));
  return rows;
}

namespace {
class ProgramFeatureEmbedding : public ProgramEmbedding {
public:
  llvm::StringRef getName() const override { return "features"; }
  int64_t getVersion() const override { return kProgramFeatureVersion; }
  size_t getSize() const override { return getProgramFeatureSize(); }
  std::vector<float> embed(dojo::KernelOp kernel,
                           llvm::StringRef text) override {
    return computeProgramFeatures(kernel, text);
  }
};
} // namespace

ProgramEmbedding &perfdojo::getProgramFeatureEmbedding() {
  static ProgramFeatureEmbedding embedding;
  return embedding;
}

std::unique_ptr<ProgramEmbedding> perfdojo::createProgramFeatureEmbedding() {
  return std::make_unique<ProgramFeatureEmbedding>();
}

static uint64_t hashText(llvm::StringRef text) {
  return llvm::xxh3_64bits(llvm::arrayRefFromStringRef(text));
}

const std::vector<float> &
ProgramEmbeddingCache::get(dojo::KernelOp kernel, llvm::StringRef text) {
  auto [it, inserted] = vectors.try_emplace(hashText(text));
  if (inserted)
    it->second = embedding->embed(kernel, text);
  else
    ++hits;
  return it->second;
}

bool ProgramEmbeddingCache::contains(llvm::StringRef text) const {
  return vectors.count(hashText(text));
}

void ProgramEmbeddingCache::prefetch(llvm::ArrayRef<std::string> texts) {
  std::vector<std::string> missing;
  llvm::DenseSet<uint64_t> seen;
  for (const std::string &text : texts)
    if (!contains(text) && seen.insert(hashText(text)).second)
      missing.push_back(text);
  if (missing.empty())
    return;
  std::vector<std::vector<float>> rows = embedding->embedTexts(missing);
  for (size_t i = 0; i < missing.size(); ++i)
    vectors[hashText(missing[i])] = std::move(rows[i]);
}
