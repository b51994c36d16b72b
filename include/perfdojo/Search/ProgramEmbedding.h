//===- ProgramEmbedding.h - how an agent sees a program ---------*- C++ -*-===//
//
// The one interface between a program and the vector a learned agent reads.
// Two implementations exist: the program features of ProgramFeatures.h
// (structure plus hashed n-grams, computed here, the default) and a sentence
// embedding of the canonical text by a language model (Agent/MiniLM.h, with
// libtorch). Saved agents record the embedding's name, version and size, and
// are refused by another.
//
// Embeddings are cached by the hash of the program's canonical text
// (ProgramEmbeddingCache): a program reached again, in another episode or by
// other moves, is not embedded again.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SEARCH_PROGRAMEMBEDDING_H
#define PERFDOJO_SEARCH_PROGRAMEMBEDDING_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace perfdojo {

class ProgramEmbedding {
public:
  virtual ~ProgramEmbedding();
  /// Recorded in saved models: "features", "minilm".
  virtual llvm::StringRef getName() const = 0;
  /// Bumped whenever the meaning of the vector changes.
  virtual int64_t getVersion() const = 0;
  /// Length of every vector (fixed, independent of the kernel).
  virtual size_t getSize() const = 0;

  /// Whether the vector depends on the canonical text alone, so that the
  /// texts of many programs can be embedded in one batch (embedTexts) after
  /// their kernels are gone.
  virtual bool readsTextOnly() const { return false; }
  /// The vector of `kernel`, a verified kernel whose canonical `.dojo` text
  /// is `text`: getSize() finite values.
  virtual std::vector<float> embed(dojo::KernelOp kernel,
                                   llvm::StringRef text) = 0;
  /// The vectors of `texts`, in order; only for readsTextOnly() embeddings
  /// (the default embeds them one by one with a null kernel).
  virtual std::vector<std::vector<float>>
  embedTexts(llvm::ArrayRef<std::string> texts);
};

/// The program features of ProgramFeatures.h, as an embedding ("features"):
/// one shared instance (it holds no state), or a new one to own.
ProgramEmbedding &getProgramFeatureEmbedding();
std::unique_ptr<ProgramEmbedding> createProgramFeatureEmbedding();

/// Embeddings by the hash (XXH3) of their program's canonical text.
class ProgramEmbeddingCache {
public:
  /// Caches `embedding`'s vectors (the program features by default).
  explicit ProgramEmbeddingCache(
      ProgramEmbedding &embedding = getProgramFeatureEmbedding())
      : embedding(&embedding) {}

  ProgramEmbedding &getEmbedding() const { return *embedding; }
  /// The vector of `kernel`, whose canonical text is `text`.
  const std::vector<float> &get(dojo::KernelOp kernel, llvm::StringRef text);
  /// Whether `text`'s vector is cached.
  bool contains(llvm::StringRef text) const;
  /// Embeds the texts not cached yet in one batch (readsTextOnly()
  /// embeddings), so that get() answers them from the cache.
  void prefetch(llvm::ArrayRef<std::string> texts);

  size_t size() const { return vectors.size(); }
  /// Lookups answered from the cache.
  unsigned getHits() const { return hits; }

private:
  ProgramEmbedding *embedding;
  llvm::DenseMap<uint64_t, std::vector<float>> vectors;
  unsigned hits = 0;
};

} // namespace perfdojo

#endif // PERFDOJO_SEARCH_PROGRAMEMBEDDING_H
