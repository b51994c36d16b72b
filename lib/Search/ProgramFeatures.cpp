//===- ProgramFeatures.cpp - a kernel as a fixed-length vector ------------===//
//
// The structural block is gathered into TreeStats, then written by one
// function that emits every entry with its name: the names (emitted from
// empty statistics) and the values can never disagree in order or length.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Search/ProgramFeatures.h"
#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"
#include "perfdojo/Dialect/Dojo/IR/PhysicalLayout.h"
#include "perfdojo/Runtime/WorkCounts.h"
#include "perfdojo/Support/SaturatingArithmetic.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/xxhash.h"

#include <array>
#include <cassert>
#include <cmath>

using namespace perfdojo;
using namespace perfdojo::dojo;

namespace {

// Slots per enum: more than the enum has today, so a new mode, location or
// operation takes a reserved slot (and a version bump) instead of moving
// every later entry.
constexpr unsigned kModeSlots = 12;
constexpr unsigned kLocationSlots = 8;
constexpr unsigned kRoleSlots = 4;
constexpr unsigned kOpSlots = 48;
constexpr unsigned kReduceSlots = 8;
static_assert(getMaxEnumValForMode() < kModeSlots);
static_assert(getMaxEnumValForBufferLocation() < kLocationSlots);
static_assert(getMaxEnumValForRole() < kRoleSlots);
static_assert(getMaxEnumValForOpKind() < kOpSlots);
static_assert(getMaxEnumValForReduceKind() < kReduceSlots);

/// Scope extents 2^0 .. 2^14 get a bucket each, larger ones share the last.
constexpr unsigned kExtentBuckets = 16;
constexpr unsigned kNGramBuckets = 256;
constexpr unsigned kMaxNGram = 3;

/// How far an access moves per iteration of its leaf's innermost scope.
enum StrideClass : unsigned { Zero, Unit, Small, Large, NumStrideClasses };
constexpr const char *kStrideClassNames[NumStrideClasses] = {"0", "1", "small",
                                                             "large"};
/// Strides up to this many elements touch a cache line or two per 4 steps.
constexpr int64_t kSmallStride = 16;

StrideClass classifyStride(int64_t stride) {
  if (stride == 0)
    return Zero;
  if (stride == 1 || stride == -1)
    return Unit;
  if (stride >= -kSmallStride && stride <= kSmallStride)
    return Small;
  return Large;
}


/// Accesses of one direction (outputs or inputs) by stride class.
struct StrideStats {
  std::array<int64_t, NumStrideClasses> accesses{};
  /// Leaf evaluations of those accesses, for each class's share of work.
  std::array<double, NumStrideClasses> evaluations{};
};

struct TreeStats {
  int64_t scopes = 0, leaves = 0, buffers = 0;
  int64_t maxDepth = 0, depthSum = 0;
  std::array<int64_t, kExtentBuckets> extents{};
  std::array<int64_t, kModeSlots> modeScopes{}, modeWidth{};
  std::array<int64_t, kLocationSlots> locationBuffers{}, locationBytes{};
  std::array<int64_t, kRoleSlots> roleBuffers{};
  int64_t reusedDims = 0, paddedDims = 0, sharedBuffers = 0;
  WorkCounts work;
  std::array<int64_t, kOpSlots> ops{};
  std::array<int64_t, kReduceSlots> reductions{};
  int64_t reducingLeaves = 0, transcendentalLeaves = 0;
  int64_t constants = 0, indexValues = 0, streams = 0;
  StrideStats outputs, inputs;
  int64_t unscopedAccesses = 0;
};

void addStride(StrideStats &stats, KernelOp kernel, llvm::StringRef array,
               mlir::AffineMap map, unsigned innermost, int64_t evaluations) {
  BufferOp buffer = kernel.lookupArray(array);
  if (!buffer)
    return;
  StrideClass c =
      classifyStride(getStrideAlong(buffer, getIndexForms(map), innermost));
  ++stats.accesses[c];
  stats.evaluations[c] += double(evaluations);
}

void collectLeafStats(TreeStats &stats, KernelOp kernel, LeafOp leaf) {
  ++stats.leaves;
  llvm::SmallVector<ScopeOp, 8> scopes = getEnclosingScopes(leaf);
  int64_t depth = scopes.size();
  stats.maxDepth = std::max(stats.maxDepth, depth);
  stats.depthSum += depth;

  // Per mode, the product of its scope sizes around the leaf (0: none).
  int64_t evaluations = 1;
  std::array<int64_t, kModeSlots> width{};
  for (ScopeOp scope : scopes) {
    evaluations = saturatingMul(evaluations, scope.getSize());
    int64_t &w = width[static_cast<unsigned>(scope.getMode())];
    w = w ? saturatingMul(w, scope.getSize()) : scope.getSize();
  }
  for (unsigned m = 0; m < kModeSlots; ++m)
    stats.modeWidth[m] = std::max(stats.modeWidth[m], width[m]);

  ++stats.ops[static_cast<unsigned>(leaf.getKind())];
  ++stats.reductions[static_cast<unsigned>(leaf.getReduce())];
  stats.reducingLeaves += leaf.getReduce() != ReduceKind::none;
  stats.transcendentalLeaves += isTranscendental(leaf.getKind());
  if (std::optional<llvm::ArrayRef<int64_t>> marks = leaf.getStreams())
    stats.streams += llvm::count_if(*marks, [](int64_t e) { return e >= 0; });

  for (mlir::Attribute input : leaf.getInputs()) {
    if (llvm::isa<IndexValueAttr>(input))
      ++stats.indexValues;
    else if (!llvm::isa<AccessAttr>(input))
      ++stats.constants;
  }

  if (scopes.empty()) {
    stats.unscopedAccesses +=
        1 + llvm::count_if(leaf.getInputs(), llvm::IsaPred<AccessAttr>);
    return;
  }
  unsigned innermost = depth - 1;
  addStride(stats.outputs, kernel, leaf.getArray(), leaf.getIndices(),
            innermost, evaluations);
  for (mlir::Attribute input : leaf.getInputs())
    if (auto access = llvm::dyn_cast<AccessAttr>(input))
      addStride(stats.inputs, kernel, access.getArray().getValue(),
                access.getIndices(), innermost, evaluations);
}

TreeStats collectTreeStats(KernelOp kernel) {
  TreeStats stats;
  for (ScopeOp scope : collectScopes(kernel)) {
    ++stats.scopes;
    unsigned bucket =
        llvm::Log2_64(uint64_t(std::max<int64_t>(scope.getSize(), 1)));
    ++stats.extents[std::min(bucket, kExtentBuckets - 1)];
    ++stats.modeScopes[static_cast<unsigned>(scope.getMode())];
  }
  for (BufferOp buffer : kernel.getBuffers()) {
    ++stats.buffers;
    unsigned location = static_cast<unsigned>(buffer.getLocation());
    ++stats.locationBuffers[location];
    stats.locationBytes[location] = saturatingAdd(
        stats.locationBytes[location],
        saturatingMul(getStorageElements(buffer), getElementBytes(buffer)));
    ++stats.roleBuffers[static_cast<unsigned>(buffer.getRole())];
    stats.reusedDims += llvm::count(buffer.getReused(), true);
    stats.paddedDims +=
        llvm::count_if(buffer.getPadding(), [](int64_t p) { return p > 0; });
    stats.sharedBuffers += !buffer.getArrays().empty();
  }
  stats.work = countWork(kernel);
  for (LeafOp leaf : collectLeaves(kernel))
    collectLeafStats(stats, kernel, leaf);
  return stats;
}

/// log2(1 + x): counts and sizes of any magnitude as values of about 0..64.
double logScale(double x) { return std::log2(1.0 + std::max(x, 0.0)); }

/// Receives the entries in vector order; names are built only when wanted.
class FeatureSink {
public:
  explicit FeatureSink(std::vector<std::string> *names) : names(names) {}
  void add(const llvm::Twine &name, double value) {
    if (names)
      names->push_back(name.str());
    // Every value is finite by construction; the guard keeps an agent's
    // input finite should a future entry slip.
    values.push_back(std::isfinite(value) ? float(value) : 0.0f);
  }
  std::vector<float> takeValues() { return std::move(values); }

private:
  std::vector<std::string> *names;
  std::vector<float> values;
};

template <typename Enum>
std::string slotName(unsigned slot, unsigned maxEnumValue) {
  if (slot <= maxEnumValue)
    return stringifyEnum(static_cast<Enum>(slot)).str();
  return "reserved" + std::to_string(slot);
}

void emitStrides(FeatureSink &sink, llvm::StringRef direction,
                 const StrideStats &strides) {
  for (unsigned c = 0; c < NumStrideClasses; ++c)
    sink.add("stride." + direction + "." + kStrideClassNames[c] + ".log_count",
             logScale(strides.accesses[c]));
  double all = 0;
  for (double e : strides.evaluations)
    all += e;
  for (unsigned c = 0; c < NumStrideClasses; ++c)
    sink.add("stride." + direction + "." + kStrideClassNames[c] + ".work_share",
             all > 0 ? strides.evaluations[c] / all : 0.0);
}

void emitStructure(FeatureSink &sink, const TreeStats &s) {
  sink.add("scopes.log_count", logScale(s.scopes));
  sink.add("leaves.log_count", logScale(s.leaves));
  sink.add("buffers.log_count", logScale(s.buffers));
  sink.add("depth.log_max", logScale(s.maxDepth));
  sink.add("depth.log_mean",
           logScale(s.leaves ? double(s.depthSum) / s.leaves : 0.0));
  for (unsigned b = 0; b < kExtentBuckets; ++b)
    sink.add("extent.log2_" + llvm::Twine(b) + ".log_count",
             logScale(s.extents[b]));

  unsigned maxMode = getMaxEnumValForMode();
  for (unsigned m = 0; m < kModeSlots; ++m)
    sink.add("mode." + slotName<Mode>(m, maxMode) + ".log_count",
             logScale(s.modeScopes[m]));
  for (unsigned m = 0; m < kModeSlots; ++m)
    sink.add("mode." + slotName<Mode>(m, maxMode) + ".log_width",
             logScale(s.modeWidth[m]));

  unsigned maxLocation = getMaxEnumValForBufferLocation();
  for (unsigned l = 0; l < kLocationSlots; ++l)
    sink.add("location." + slotName<BufferLocation>(l, maxLocation) +
                 ".log_count",
             logScale(s.locationBuffers[l]));
  for (unsigned l = 0; l < kLocationSlots; ++l)
    sink.add("location." + slotName<BufferLocation>(l, maxLocation) +
                 ".log_bytes",
             logScale(s.locationBytes[l]));
  for (unsigned r = 0; r < kRoleSlots; ++r)
    sink.add("role." + slotName<Role>(r, getMaxEnumValForRole()) +
                 ".log_count",
             logScale(s.roleBuffers[r]));
  sink.add("buffers.log_reused_dims", logScale(s.reusedDims));
  sink.add("buffers.log_padded_dims", logScale(s.paddedDims));
  sink.add("buffers.log_shared", logScale(s.sharedBuffers));

  sink.add("work.log_leaf_evaluations", logScale(s.work.leafEvaluations));
  sink.add("work.log_flops", logScale(s.work.flops));
  sink.add("work.log_compulsory_bytes", logScale(s.work.compulsoryBytes));

  for (unsigned k = 0; k < kOpSlots; ++k)
    sink.add("op." + slotName<OpKind>(k, getMaxEnumValForOpKind()) +
                 ".log_count",
             logScale(s.ops[k]));
  for (unsigned k = 0; k < kReduceSlots; ++k)
    sink.add("reduce." + slotName<ReduceKind>(k, getMaxEnumValForReduceKind()) +
                 ".log_count",
             logScale(s.reductions[k]));
  sink.add("leaves.log_reducing", logScale(s.reducingLeaves));
  sink.add("leaves.log_transcendental", logScale(s.transcendentalLeaves));
  sink.add("operands.log_constants", logScale(s.constants));
  sink.add("operands.log_index_values", logScale(s.indexValues));
  sink.add("accesses.log_streams", logScale(s.streams));

  emitStrides(sink, "out", s.outputs);
  emitStrides(sink, "in", s.inputs);
  sink.add("stride.unscoped.log_count", logScale(s.unscopedAccesses));
}

/// The tokens of `text`: identifiers, digit runs, single punctuation
/// characters, and line ends (the `|` bars and line breaks are the tree's
/// nesting). Other whitespace separates tokens.
llvm::SmallVector<llvm::StringRef> tokenize(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> tokens;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    size_t end = i + 1;
    if (llvm::isAlpha(c) || c == '_') {
      while (end < text.size() &&
             (llvm::isAlnum(text[end]) || text[end] == '_'))
        ++end;
    } else if (llvm::isDigit(c)) {
      while (end < text.size() && llvm::isDigit(text[end]))
        ++end;
    } else if (c != '\n' && llvm::isSpace(c)) {
      i = end;
      continue;
    }
    tokens.push_back(text.slice(i, end));
    i = end;
  }
  return tokens;
}

void emitNGrams(FeatureSink &sink, llvm::StringRef text) {
  std::array<double, kNGramBuckets> counts{};
  llvm::SmallVector<llvm::StringRef> tokens = tokenize(text);
  // The order leads the key and every token ends in a NUL (which canonical
  // text never holds), so no two n-grams share a key.
  std::string key;
  for (size_t start = 0; start < tokens.size(); ++start) {
    key.assign(1, '\0');
    for (unsigned n = 1; n <= kMaxNGram && start + n <= tokens.size(); ++n) {
      llvm::StringRef token = tokens[start + n - 1];
      key.append(token.begin(), token.end());
      key.push_back('\0');
      key[0] = char(n);
      ++counts[llvm::xxh3_64bits(key) % kNGramBuckets];
    }
  }
  double norm = 0;
  for (double &c : counts) {
    c = logScale(c);
    norm += c * c;
  }
  norm = std::sqrt(norm);
  for (unsigned b = 0; b < kNGramBuckets; ++b)
    sink.add("ngram." + llvm::Twine(b), norm > 0 ? counts[b] / norm : 0.0);
}

void emitAll(FeatureSink &sink, const TreeStats &stats, llvm::StringRef text) {
  emitStructure(sink, stats);
  emitNGrams(sink, text);
}

const std::vector<std::string> &getNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> result;
    FeatureSink sink(&result);
    emitAll(sink, TreeStats(), "");
    return result;
  }();
  return names;
}

} // namespace

size_t perfdojo::getProgramFeatureSize() { return getNames().size(); }

llvm::ArrayRef<std::string> perfdojo::getProgramFeatureNames() {
  return getNames();
}

std::vector<float> perfdojo::computeProgramFeatures(KernelOp kernel,
                                                    llvm::StringRef text) {
  FeatureSink sink(nullptr);
  emitAll(sink, collectTreeStats(kernel), text);
  std::vector<float> values = sink.takeValues();
  assert(values.size() == getProgramFeatureSize() && "layout drifted");
  return values;
}

llvm::Expected<std::vector<std::vector<float>>>
perfdojo::computeSuccessorFeatures(Game &game,
                                   llvm::ArrayRef<MoveRequest> moves,
                                   ProgramEmbeddingCache *cache) {
  bool batch = cache && cache->getEmbedding().readsTextOnly();
  std::vector<std::vector<float>> rows;
  std::vector<std::string> texts;
  rows.reserve(moves.size());
  for (const MoveRequest &move : moves) {
    if (llvm::Error error = game.apply(move))
      return std::move(error);
    std::string text = game.print();
    if (batch)
      texts.push_back(std::move(text));
    else
      rows.push_back(cache ? cache->get(game.getKernel(), text)
                           : computeProgramFeatures(game.getKernel(), text));
    // The inverse of a move just applied is legal by construction.
    if (!game.undo())
      return llvm::createStringError("cannot undo '" + move.str() + "'");
  }
  if (batch) {
    cache->prefetch(texts);
    for (const std::string &text : texts)
      rows.push_back(cache->get(nullptr, text));
  }
  return rows;
}

std::vector<std::vector<float>> perfdojo::computeAppliedSuccessorFeatures(
    Game &game, llvm::SmallVectorImpl<MoveRequest> &moves,
    std::vector<std::string> &refused, ProgramEmbeddingCache *cache) {
  llvm::Expected<std::vector<std::vector<float>>> rows =
      computeSuccessorFeatures(game, moves, cache);
  if (rows)
    return std::move(*rows);
  // Rare: find the moves that fail one by one.
  llvm::consumeError(rows.takeError());
  std::vector<std::vector<float>> kept;
  llvm::SmallVector<MoveRequest> applied;
  for (const MoveRequest &move : moves) {
    llvm::Expected<std::vector<std::vector<float>>> one =
        computeSuccessorFeatures(game, move, cache);
    if (!one) {
      refused.push_back(move.str() + ": " + llvm::toString(one.takeError()));
      continue;
    }
    applied.push_back(move);
    kept.push_back(std::move(one->front()));
  }
  moves.assign(applied.begin(), applied.end());
  return kept;
}
