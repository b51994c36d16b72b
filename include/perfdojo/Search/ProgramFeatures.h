//===- ProgramFeatures.h - a kernel as a fixed-length vector ----*- C++ -*-===//
//
// The one numeric observation of a kernel that learned agents read (the
// Python gym environment, the Max-Q agent): deterministic, of a fixed
// length for every kernel, every value finite. Counts and sizes enter as
// log2(1 + x), so values stay within about 0..64 whatever the kernel's
// size. docs/search.md, "Program features", describes the vector.
//
// Blocks, in order, 405 entries in all (getProgramFeatureNames() names
// every entry):
//
//   1. Structure of the scope tree (149 entries):
//      - scopes, leaves, buffers; max and mean leaf depth;
//      - scope extents in 16 log2 buckets (2^0 .. 2^15 and above);
//      - per scope mode (12 slots, one per dojo::Mode value, the rest
//        reserved): scopes of the mode, and the largest product of the
//        mode's scope sizes around one leaf (its parallel, vector, unroll
//        ... width);
//      - per buffer location (8 slots, one per dojo::BufferLocation):
//        buffers and their allocated bytes; buffers per role (4 slots);
//        non-materialized and padded dimensions, buffers of shared arrays;
//      - work of WorkCounts.h: leaf evaluations, flops, compulsory bytes;
//      - leaves per operation (48 slots, one per dojo::OpKind, the rest
//        reserved) and per reduction (8 slots, one per dojo::ReduceKind),
//        leaves that reduce,
//        leaves of a transcendental function; constant and index-value
//        operands, stream marks;
//      - the stride of every access along its leaf's innermost scope
//        (PhysicalLayout.h), bucketed as 0, +-1, up to 16, larger, for
//        outputs and inputs apart: counts, accesses outside any scope, and
//        each bucket's share of the leaf evaluations (0..1).
//   2. Hashed token n-grams of the canonical `.dojo` text (256 entries):
//      identifiers, digit runs, punctuation and line ends as tokens; every
//      unigram, bigram and trigram hashed (XXH3) into a bucket; each count
//      log-scaled, then the block scaled to unit L2 norm (all zeros for an
//      empty text).
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SEARCH_PROGRAMFEATURES_H
#define PERFDOJO_SEARCH_PROGRAMFEATURES_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Moves/Game.h"
#include "perfdojo/Search/ProgramEmbedding.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace perfdojo {

/// Bumped whenever the meaning or layout of the vector changes (saved
/// models record it).
constexpr int64_t kProgramFeatureVersion = 2;

/// Length of every feature vector (fixed, independent of the kernel).
size_t getProgramFeatureSize();

/// A short name per entry (`scopes.log_count`, `ngram.17`), for docs and
/// debugging; getProgramFeatureSize() of them, in vector order.
llvm::ArrayRef<std::string> getProgramFeatureNames();

/// The features of `kernel`, a verified kernel, whose canonical `.dojo` text
/// (exportDojo of it) is `text`: the structural block, then the n-gram
/// block. getProgramFeatureSize() values, all finite.
std::vector<float> computeProgramFeatures(dojo::KernelOp kernel,
                                          llvm::StringRef text);

/// The features of the program each of `moves` leads to from `game`'s
/// state: each applied, embedded (through `cache` and its embedding when
/// given, else the program features) and undone, so the state is
/// unchanged. Text-only embeddings embed the new programs in one batch. An illegal move fails with its
/// reason (the moves before it undone too). What an agent that scores
/// every legal move needs in one call.
llvm::Expected<std::vector<std::vector<float>>>
computeSuccessorFeatures(Game &game, llvm::ArrayRef<MoveRequest> moves,
                         ProgramEmbeddingCache *cache = nullptr);

/// computeSuccessorFeatures for play over listed moves, where a move that
/// fails to apply is a move-check bug to report, not a reason to stop: the
/// moves that fail are left out of `moves`, each with "move: reason" in
/// `refused`; the rows are those of the moves kept.
std::vector<std::vector<float>>
computeAppliedSuccessorFeatures(Game &game,
                                llvm::SmallVectorImpl<MoveRequest> &moves,
                                std::vector<std::string> &refused,
                                ProgramEmbeddingCache *cache = nullptr);

} // namespace perfdojo

#endif // PERFDOJO_SEARCH_PROGRAMFEATURES_H
