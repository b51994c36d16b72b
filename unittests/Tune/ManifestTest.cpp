//===- ManifestTest.cpp - what perfdojo-tune reads from a manifest --------===//

#include "perfdojo/Tune/Manifest.h"

#include <gtest/gtest.h>

using namespace perfdojo::tune;

namespace {

std::string errorOf(llvm::StringRef text) {
  llvm::Expected<Manifest> manifest = parseManifest(text, "dir/m.json");
  if (manifest)
    return "";
  return llvm::toString(manifest.takeError());
}

TEST(ManifestTest, DefaultsAndPathsRelativeToTheManifest) {
  llvm::Expected<Manifest> manifest = parseManifest(
      R"({"entries": [{"kernel": "k/softmax.dojo"},
                      {"kernel": "/abs/mm.dojo", "name": "gemm",
                       "threads": [4, 1], "strategy": "anneal",
                       "budget_evals": 50, "budget_seconds": 1.5,
                       "seed": 7, "target": "cpu"}]})",
      "dir/m.json");
  ASSERT_TRUE(bool(manifest)) << llvm::toString(manifest.takeError());
  ASSERT_EQ(manifest->entries.size(), 2u);
  const ManifestEntry &first = manifest->entries[0];
  EXPECT_EQ(first.kernelPath, "dir/k/softmax.dojo");
  EXPECT_EQ(first.name, "softmax");
  EXPECT_EQ(first.threads, llvm::SmallVector<unsigned>({1}));
  EXPECT_EQ(first.strategy, "heuristic");
  EXPECT_EQ(first.budgetEvals, 0u);
  EXPECT_EQ(first.target, "cpu");
  const ManifestEntry &second = manifest->entries[1];
  EXPECT_EQ(second.kernelPath, "/abs/mm.dojo");
  EXPECT_EQ(second.name, "gemm");
  EXPECT_EQ(second.threads, llvm::SmallVector<unsigned>({4, 1}));
  EXPECT_EQ(second.strategy, "anneal");
  EXPECT_EQ(second.budgetEvals, 50u);
  EXPECT_EQ(second.budgetSeconds, 1.5);
  EXPECT_EQ(second.seed, 7u);
}

TEST(ManifestTest, ErrorsNameTheEntryAndTheField) {
  EXPECT_EQ(errorOf(R"({"entries": [{"kernel": "a.dojo"},
                                    {"kernel": "b.dojo", "threads": [0]}]})"),
            "dir/m.json: entries[1] (b.dojo): threads: expected thread counts "
            "from 1 to 4096");
  EXPECT_EQ(errorOf(R"({"entries": [{"kernel": "a.dojo", "strategy": 3}]})"),
            "dir/m.json: entries[0] (a.dojo): strategy: expected a strategy "
            "name (a string)");
  EXPECT_EQ(errorOf(R"({"entries": [{"name": "x"}]})"),
            "dir/m.json: entries[0]: kernel: expected the path of a kernel "
            "file (a string)");
  EXPECT_EQ(errorOf(R"({"entries": [{"kernel": "a.dojo", "seed": -1}]})"),
            "dir/m.json: entries[0] (a.dojo): seed: expected a non-negative "
            "integer");
  EXPECT_EQ(errorOf(R"({"entries": [{"kernel": "a.dojo", "threads": [1]},
                                    {"kernel": "b/a.dojo", "threads": [1]}]})"),
            "dir/m.json: entries[1] (b/a.dojo): name: the function a_t1 is "
            "also tuned by entries[0]; give one of them another name");
  EXPECT_NE(errorOf("{"), "");
}

TEST(ManifestTest, SameKernelTwiceUnderOtherNames) {
  EXPECT_EQ(errorOf(R"({"entries": [{"kernel": "a.dojo", "threads": [1]},
                                    {"kernel": "a.dojo", "name": "a_fast",
                                     "threads": [1]}]})"),
            "");
}

} // namespace
