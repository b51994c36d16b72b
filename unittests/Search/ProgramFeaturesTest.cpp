//===- ProgramFeaturesTest.cpp - the feature vector of a kernel -----------===//
//
// The vector's contract on the library and on generated kernels (fixed
// size, named entries, finite, deterministic), that it tells kernels and
// moves apart, and a few structural entries on hand-written kernels.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Search/ProgramFeatures.h"
#include "perfdojo/Moves/Game.h"
#include "perfdojo/Target/DojoText/DojoText.h"
#include "perfdojo/Testing/KernelGenerator.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace perfdojo;

namespace {

std::vector<float> featuresOf(dojo::KernelOp kernel) {
  std::string text;
  llvm::raw_string_ostream os(text);
  exportDojo(kernel, os);
  return computeProgramFeatures(kernel, text);
}

std::vector<float> featuresOfText(llvm::StringRef text) {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module = importDojoString(text, &ctx);
  EXPECT_TRUE(module) << text.str();
  if (!module)
    return {};
  return featuresOf(getSingleKernel(*module));
}

/// The entry called `name` of `features`.
float feature(const std::vector<float> &features, llvm::StringRef name) {
  llvm::ArrayRef<std::string> names = getProgramFeatureNames();
  auto it = llvm::find(names, name);
  EXPECT_NE(it, names.end()) << name.str();
  if (it == names.end())
    return NAN;
  return features.at(it - names.begin());
}

void expectWellFormed(const std::vector<float> &features,
                      llvm::StringRef what) {
  ASSERT_EQ(features.size(), getProgramFeatureSize()) << what.str();
  for (size_t i = 0; i < features.size(); ++i)
    EXPECT_TRUE(std::isfinite(features[i]))
        << what.str() << ": " << getProgramFeatureNames()[i];
}

std::vector<std::string> getLibraryKernels() {
  std::vector<std::string> files;
  for (llvm::StringRef dir :
       {"kernels/bench", "kernels/small", "kernels/snitch"}) {
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end;
         !ec && it != end; it.increment(ec))
      if (llvm::StringRef(it->path()).ends_with(".dojo"))
        files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<float> featuresOfFile(llvm::StringRef path) {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module = loadKernelFile(path, &ctx);
  EXPECT_TRUE(module) << path.str();
  if (!module)
    return {};
  return featuresOf(getSingleKernel(*module));
}

TEST(ProgramFeatures, NamesAreUniqueAndCoverTheVector) {
  llvm::ArrayRef<std::string> names = getProgramFeatureNames();
  EXPECT_EQ(names.size(), getProgramFeatureSize());
  llvm::StringSet<> seen;
  for (const std::string &name : names)
    EXPECT_TRUE(seen.insert(name).second) << "duplicate " << name;
  EXPECT_EQ(names.front(), "scopes.log_count");
  EXPECT_EQ(names.back(), "ngram.255");
}

TEST(ProgramFeatures, LibraryKernelsGiveFiniteVectorsOfTheSize) {
  std::vector<std::string> files = getLibraryKernels();
  ASSERT_GE(files.size(), 32u);
  for (const std::string &file : files) {
    std::vector<float> features = featuresOfFile(file);
    expectWellFormed(features, file);
    EXPECT_EQ(features, featuresOfFile(file)) << file << " is not stable";
  }
}

TEST(ProgramFeatures, GeneratedKernelsGiveFiniteVectorsOfTheSize) {
  MLIRContext ctx;
  KernelGenerator generator(&ctx, KernelGenOptions());
  unsigned checked = 0;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    GeneratedKernel generated = generator.generate(seed);
    if (!generated.verified())
      continue;
    ++checked;
    expectWellFormed(featuresOfText(generated.text),
                     "seed " + std::to_string(seed));
  }
  EXPECT_GT(checked, 50u);
}

TEST(ProgramFeatures, TellsKernelsApart) {
  std::vector<float> softmax = featuresOfFile("kernels/small/softmax.dojo");
  std::vector<float> matmul = featuresOfFile("kernels/small/matmul.dojo");
  EXPECT_NE(softmax, matmul);
  // The same operator at other shapes differs only in its sizes.
  EXPECT_NE(matmul, featuresOfFile("kernels/bench/matmul.dojo"));
}

TEST(ProgramFeatures, TellsMovesApart) {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module =
      loadKernelFile("kernels/small/matmul.dojo", &ctx);
  ASSERT_TRUE(module);
  Game game(getSingleKernel(*module));
  std::vector<float> before = featuresOf(game.getKernel());

  std::string move = "split_scope c#1@2 4";
  llvm::SmallVector<MoveRequest> legal = game.legalMoves();
  ASSERT_TRUE(llvm::any_of(
      legal, [&](const MoveRequest &m) { return m.str() == move; }));
  llvm::cantFail(game.apply(move));
  std::vector<float> split = featuresOf(game.getKernel());
  EXPECT_NE(before, split);
  EXPECT_FLOAT_EQ(feature(before, "scopes.log_count"), std::log2(4.0f));
  EXPECT_FLOAT_EQ(feature(split, "scopes.log_count"), std::log2(5.0f));

  llvm::cantFail(game.apply("set_parallel c#0@0"));
  std::vector<float> parallel = featuresOf(game.getKernel());
  EXPECT_NE(split, parallel);
  EXPECT_FLOAT_EQ(feature(split, "mode.parallel.log_count"), 0.0f);
  EXPECT_FLOAT_EQ(feature(parallel, "mode.parallel.log_count"), 1.0f);
  // 9 rows on threads: the parallel width of the leaves.
  EXPECT_FLOAT_EQ(feature(parallel, "mode.parallel.log_width"),
                  std::log2(10.0f));
}

TEST(ProgramFeatures, SuccessorsThroughTheCacheAreTheSameAndComputedOnce) {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module =
      loadKernelFile("kernels/small/softmax.dojo", &ctx);
  ASSERT_TRUE(module);
  Game game(getSingleKernel(*module));
  std::string start = game.print();
  llvm::SmallVector<MoveRequest> legal = game.legalMoves();
  auto plain = computeSuccessorFeatures(game, legal);
  ASSERT_TRUE(bool(plain));
  ProgramEmbeddingCache cache;
  auto cached = computeSuccessorFeatures(game, legal, &cache);
  ASSERT_TRUE(bool(cached));
  EXPECT_EQ(*plain, *cached);
  EXPECT_EQ(game.print(), start);
  size_t programs = cache.size();
  EXPECT_LE(programs, legal.size()); // moves may reach the same program
  EXPECT_EQ(cache.getHits(), legal.size() - programs);
  // Asked again: every program comes from the cache.
  ASSERT_TRUE(bool(computeSuccessorFeatures(game, legal, &cache)));
  EXPECT_EQ(cache.size(), programs);
  EXPECT_EQ(cache.getHits(), 2 * legal.size() - programs);
  EXPECT_EQ(cache.get(game.getKernel(), start),
            featuresOf(game.getKernel()));
  // An illegal move fails and leaves the state.
  llvm::SmallVector<MoveRequest> bad = {legal[0],
                                        cantFail(parseMoveRequest("reuse_dims x.0"))};
  auto failed = computeSuccessorFeatures(game, bad, &cache);
  ASSERT_FALSE(bool(failed));
  llvm::consumeError(failed.takeError());
  EXPECT_EQ(game.print(), start);
}

TEST(ProgramFeatures, PlayLeavesOutMovesThatFailToApply) {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module =
      loadKernelFile("kernels/small/softmax.dojo", &ctx);
  ASSERT_TRUE(module);
  Game game(getSingleKernel(*module));
  std::string start = game.print();
  llvm::SmallVector<MoveRequest> legal = game.legalMoves();
  // A move that fails to apply among listed ones (in play, a move-check
  // bug; here simply an illegal request).
  llvm::SmallVector<MoveRequest> moves = {
      legal[0], cantFail(parseMoveRequest("reuse_dims x.0")), legal[1]};
  std::vector<std::string> refused;
  std::vector<std::vector<float>> rows =
      computeAppliedSuccessorFeatures(game, moves, refused);
  ASSERT_EQ(moves.size(), 2u);
  EXPECT_EQ(moves[0], legal[0]);
  EXPECT_EQ(moves[1], legal[1]);
  ASSERT_EQ(rows.size(), 2u);
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_TRUE(llvm::StringRef(refused[0]).starts_with("reuse_dims x.0: "))
      << refused[0];
  auto expected = computeSuccessorFeatures(game, moves);
  ASSERT_TRUE(bool(expected));
  EXPECT_EQ(rows, *expected);
  EXPECT_EQ(game.print(), start);
  // Without a failure it is computeSuccessorFeatures.
  llvm::SmallVector<MoveRequest> all = legal;
  refused.clear();
  EXPECT_EQ(computeAppliedSuccessorFeatures(game, all, refused),
            *computeSuccessorFeatures(game, legal));
  EXPECT_TRUE(refused.empty());
  EXPECT_EQ(all.size(), legal.size());
}

TEST(ProgramFeatures, CountsTheStructureOfATinyKernel) {
  std::vector<float> f =
      featuresOfText("x f32 [8, 4] heap in\n"
                     "t f32 [4] stack\n"
                     "y f32 [4, 8] heap out\n"
                     "4 t[{0}] = 0\n"
                     "| 8 t[{0}] max= x[{1}, {0}]\n"
                     "| 8:v y[{0}, {1}] = exp(x[{1}, {0}])\n");
  ASSERT_EQ(f.size(), getProgramFeatureSize());
  EXPECT_FLOAT_EQ(feature(f, "scopes.log_count"), std::log2(4.0f));
  EXPECT_FLOAT_EQ(feature(f, "leaves.log_count"), std::log2(4.0f));
  EXPECT_FLOAT_EQ(feature(f, "buffers.log_count"), 2.0f);
  EXPECT_FLOAT_EQ(feature(f, "depth.log_max"), std::log2(3.0f));
  // Extents 4, 8, 8: one scope in bucket 2^2, two in bucket 2^3.
  EXPECT_FLOAT_EQ(feature(f, "extent.log2_2.log_count"), 1.0f);
  EXPECT_FLOAT_EQ(feature(f, "extent.log2_3.log_count"), std::log2(3.0f));
  EXPECT_FLOAT_EQ(feature(f, "mode.seq.log_count"), std::log2(3.0f));
  EXPECT_FLOAT_EQ(feature(f, "mode.vector.log_count"), 1.0f);
  EXPECT_FLOAT_EQ(feature(f, "mode.vector.log_width"), std::log2(9.0f));
  EXPECT_FLOAT_EQ(feature(f, "location.stack.log_count"), 1.0f);
  EXPECT_FLOAT_EQ(feature(f, "location.stack.log_bytes"), std::log2(17.0f));
  EXPECT_FLOAT_EQ(feature(f, "location.heap.log_bytes"), std::log2(257.0f));
  EXPECT_FLOAT_EQ(feature(f, "op.exp.log_count"), 1.0f);
  EXPECT_FLOAT_EQ(feature(f, "reduce.max.log_count"), 1.0f);
  EXPECT_FLOAT_EQ(feature(f, "leaves.log_transcendental"), 1.0f);
  EXPECT_FLOAT_EQ(feature(f, "operands.log_constants"), 1.0f);
  // Along the innermost scope: the initialization of t moves by 1 (scope
  // 4), the reduction into t by 0 and y by 1 (scope 8); both reads of the
  // transposed x move by a row of 4 elements.
  EXPECT_FLOAT_EQ(feature(f, "stride.out.0.log_count"), 1.0f);
  EXPECT_FLOAT_EQ(feature(f, "stride.out.1.log_count"), std::log2(3.0f));
  EXPECT_FLOAT_EQ(feature(f, "stride.in.small.log_count"), std::log2(3.0f));
  EXPECT_FLOAT_EQ(feature(f, "stride.in.small.work_share"), 1.0f);
  // Of the outputs' 4 + 32 + 32 evaluations, 4 + 32 at stride 1.
  EXPECT_FLOAT_EQ(feature(f, "stride.out.1.work_share"), 36.0f / 68.0f);
}

TEST(ProgramFeatures, CountsStreamsAndUnscopedAccesses) {
  std::vector<float> f =
      featuresOfText("x f64 [16] tcdm in\n"
                     "y f64 [16] tcdm in\n"
                     "t f64 [1] tcdm out\n"
                     "t[0] = 0\n"
                     "16 t[0] += x[{0}]:s0 * y[{0}]:s0\n");
  ASSERT_EQ(f.size(), getProgramFeatureSize());
  EXPECT_FLOAT_EQ(feature(f, "location.tcdm.log_count"), 2.0f);
  EXPECT_FLOAT_EQ(feature(f, "accesses.log_streams"), std::log2(3.0f));
  EXPECT_FLOAT_EQ(feature(f, "stride.unscoped.log_count"), 1.0f);
  EXPECT_FLOAT_EQ(feature(f, "depth.log_mean"), std::log2(1.5f));
}

TEST(ProgramFeatures, NGramBlockIsUnitNormAndFollowsTheText) {
  std::vector<float> f = featuresOfFile("kernels/small/softmax.dojo");
  llvm::ArrayRef<std::string> names = getProgramFeatureNames();
  size_t first = llvm::find(names, "ngram.0") - names.begin();
  double norm = 0;
  for (size_t i = first; i < f.size(); ++i)
    norm += double(f[i]) * f[i];
  EXPECT_NEAR(norm, 1.0, 1e-5);

  // The structural block reads the kernel, the n-gram block the text.
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module =
      loadKernelFile("kernels/small/softmax.dojo", &ctx);
  ASSERT_TRUE(module);
  dojo::KernelOp kernel = getSingleKernel(*module);
  std::vector<float> renamed = computeProgramFeatures(kernel, "x y z\n");
  EXPECT_TRUE(std::equal(f.begin(), f.begin() + first, renamed.begin()));
  EXPECT_FALSE(std::equal(f.begin() + first, f.end(), renamed.begin() + first));
  std::vector<float> empty = computeProgramFeatures(kernel, "");
  EXPECT_TRUE(std::all_of(empty.begin() + first, empty.end(),
                          [](float v) { return v == 0.0f; }));
}

} // namespace
