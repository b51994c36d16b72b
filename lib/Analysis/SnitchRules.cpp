//===- SnitchRules.cpp - when streams and FREP keep a kernel's meaning ----===//

#include "perfdojo/Analysis/SnitchRules.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"
#include "perfdojo/Dialect/Dojo/IR/ModeRules.h"
#include "perfdojo/Dialect/Dojo/IR/PhysicalLayout.h"
#include "perfdojo/Dialect/Dojo/IR/TextSyntax.h"
#include "perfdojo/Target/Snitch/SnitchCore.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

namespace {

/// The array and index map of operand `position` (0 the output), if it is
/// an access.
std::optional<std::pair<StringRef, AffineMap>> getAccess(LeafOp leaf,
                                                         unsigned position) {
  if (position == 0)
    return std::make_pair(leaf.getArray(), leaf.getIndices());
  auto access = dyn_cast<AccessAttr>(leaf.getInputs()[position - 1]);
  if (!access)
    return std::nullopt;
  return std::make_pair(access.getArray().getValue(), access.getIndices());
}

std::string describeOperand(unsigned position) {
  return position == 0 ? "the output" : "operand " + std::to_string(position);
}

InvariantViolation streamViolation(LeafOp leaf, unsigned position,
                                   const Twine &reason) {
  return InvariantViolation{InvariantRule::Streams, leaf,
                            "the stream of " + describeOperand(position) +
                                " of `" + getStatementText(leaf) + "`",
                            reason.str()};
}

} // namespace

StreamPattern perfdojo::getStreamPattern(LeafOp leaf, unsigned position,
                                         unsigned startDepth) {
  auto kernel = leaf->getParentOfType<KernelOp>();
  auto [array, map] = *getAccess(leaf, position);
  BufferOp buffer = kernel.lookupArray(array);
  SmallVector<LinearForm, 4> forms = getIndexForms(map);
  int64_t bytes = getElementBytes(buffer);
  StreamPattern pattern;
  for (unsigned d = startDepth, e = leaf.getDepth(); d < e; ++d) {
    auto scope = cast<ScopeOp>(getAncestorAtDepth(leaf, d));
    if (scope.getSize() == 1)
      continue;
    pattern.depths.push_back(d);
    pattern.bounds.push_back(scope.getSize());
    pattern.strides.push_back(getStrideAlong(buffer, forms, d) * bytes);
  }
  return pattern;
}

bool perfdojo::isSnitchFpInstruction(OpKind kind) {
  switch (kind) {
  case OpKind::copy:
  case OpKind::add:
  case OpKind::sub:
  case OpKind::mul:
  case OpKind::div:
  case OpKind::max:
  case OpKind::min:
  case OpKind::neg:
  case OpKind::abs:
  case OpKind::sqrt:
  case OpKind::rsqrt:
  case OpKind::relu:
    return true;
  default:
    return false;
  }
}

bool perfdojo::hasSnitchLowering(OpKind kind) {
  return isSnitchFpInstruction(kind) || kind == OpKind::exp ||
         kind == OpKind::sigmoid;
}

unsigned perfdojo::getFrepInstructionCount(LeafOp leaf) {
  unsigned count = leaf.getKind() == OpKind::rsqrt ? 2 : 1;
  if (leaf.getReduce() == ReduceKind::none)
    return count;
  // `+= a * b` is one fmadd; `op= a` one instruction into the accumulator.
  if ((leaf.getReduce() == ReduceKind::add && leaf.getKind() == OpKind::mul) ||
      leaf.getKind() == OpKind::copy)
    return count;
  return count + 1;
}

std::optional<InvariantViolation> perfdojo::findStreamViolation(LeafOp leaf) {
  std::optional<ArrayRef<int64_t>> marks = leaf.getStreams();
  if (!marks)
    return std::nullopt;
  const snitch::StreamLimits limits;
  auto kernel = leaf->getParentOfType<KernelOp>();
  unsigned leafDepth = leaf.getDepth();
  std::optional<unsigned> start;
  if (marks->size() != leaf.getInputs().size() + 1)
    return streamViolation(leaf, 0,
                           "the leaf has " +
                               Twine(leaf.getInputs().size() + 1) +
                               " operands but " + Twine(marks->size()) +
                               " stream marks");
  BufferOp output = kernel.lookupArray(leaf.getArray());
  for (unsigned position = 0; position < marks->size(); ++position) {
    std::optional<unsigned> depth = leaf.getStreamDepth(position);
    if (!depth)
      continue;
    std::optional<std::pair<StringRef, AffineMap>> access =
        getAccess(leaf, position);
    if (!access)
      return streamViolation(leaf, position,
                             "only an array access can be a stream");
    BufferOp buffer = kernel.lookupArray(access->first);
    if (!buffer.getElementType().isF64())
      return streamViolation(
          leaf, position,
          "an SSR element is 64 bits: only f64 arrays stream (f32 would need "
          "packed SIMD)");
    if (buffer.getLocation() == BufferLocation::reg)
      return streamViolation(leaf, position,
                             "'" + buffer.getName() +
                                 "' is a reg buffer: registers need no stream");
    if (start && *start != *depth)
      return streamViolation(
          leaf, position,
          "the operands of one leaf stream from one depth (one streaming "
          "region), here " +
              Twine(*start) + " and " + Twine(*depth));
    start = depth;
    if (*depth >= leafDepth)
      return streamViolation(leaf, position,
                             "a stream starts at a scope around its leaf: "
                             "depth " +
                                 Twine(*depth) + " is not above the leaf's " +
                                 Twine(leafDepth));
    if (position == 0 && leaf.getReduce() != ReduceKind::none)
      return streamViolation(leaf, position,
                             "a reduction reads its output: keep it in a reg "
                             "buffer instead of a write stream");
    if (position > 0 && buffer == output)
      return streamViolation(leaf, position,
                             "the leaf writes '" + buffer.getName() +
                                 "', which a read stream would prefetch");
  }
  if (!start)
    return std::nullopt;
  if (leaf.getStreamDepth(0))
    for (Attribute input : leaf.getInputs())
      if (auto access = dyn_cast<AccessAttr>(input))
        if (kernel.lookupArray(access.getArray().getValue()) == output)
          return streamViolation(leaf, 0,
                                 "the leaf reads '" + output.getName() +
                                     "', which its write stream drains late");
  unsigned position = leaf.getStreamDepth(0) ? 0 : 1;
  while (!leaf.getStreamDepth(position))
    ++position;
  unsigned levels = 0;
  for (unsigned d = *start; d < leafDepth; ++d) {
    auto scope = cast<ScopeOp>(getAncestorAtDepth(leaf, d));
    Mode mode = scope.getMode();
    if (mode != Mode::seq && mode != Mode::unroll && mode != Mode::frep)
      return streamViolation(leaf, position,
                             "the scope at depth " + Twine(d) + " is " +
                                 describeMode(mode) +
                                 "; a stream walks plain, :u and :f scopes");
    if (!llvm::hasSingleElement(scope.getBlock()))
      return streamViolation(leaf, position,
                             "the scopes from depth " + Twine(*start) +
                                 " to the leaf must form a perfect chain, "
                                 "but the scope at depth " +
                                 Twine(d) + " holds more than one node");
    if (scope.getSize() > limits.maxIterations)
      return streamViolation(leaf, position,
                             "the scope at depth " + Twine(d) + " runs " +
                                 Twine(scope.getSize()) +
                                 " iterations; a stream level runs at most " +
                                 Twine(limits.maxIterations));
    levels += scope.getSize() > 1;
  }
  if (levels > static_cast<unsigned>(limits.loopLevels))
    return streamViolation(leaf, position,
                           "the stream would walk " + Twine(levels) +
                               " levels; a data mover has " +
                               Twine(limits.loopLevels));
  return std::nullopt;
}

std::optional<InvariantViolation> perfdojo::findFrepViolation(ScopeOp scope) {
  const snitch::FrepLimits limits;
  auto kernel = scope->getParentOfType<KernelOp>();
  unsigned depth = scope.getDepth();
  auto violation = [&](Operation *at, const Twine &reason) {
    InvariantViolation v{InvariantRule::Frep, scope, "the :f scope",
                         reason.str()};
    if (at != scope.getOperation())
      v.notes.push_back({at->getLoc(), "here"});
    return v;
  };
  // Instructions of the unrolled body: each leaf times the `:u` scopes
  // between it and the `:f` scope.
  int64_t instructions = 0;
  for (LeafOp leaf : collectLeaves(scope)) {
    int64_t copies = 1;
    for (Operation *p = leaf->getParentOp(); p != scope.getOperation();
         p = p->getParentOp())
      copies *= cast<ScopeOp>(p).getSize();
    instructions += copies * getFrepInstructionCount(leaf);
    if (!isSnitchFpInstruction(leaf.getKind()))
      return violation(leaf, "`" + getStatementText(leaf) +
                                 "` is no FP instruction the sequencer can "
                                 "repeat");
    Type type = kernel.lookupArray(leaf.getArray()).getElementType();
    for (unsigned position = 0; position <= leaf.getInputs().size();
         ++position) {
      if (position > 0 &&
          isa<IndexValueAttr>(leaf.getInputs()[position - 1]))
        return violation(leaf, "`" + getStatementText(leaf) +
                                   "` uses an index value, which needs the "
                                   "integer core");
      std::optional<std::pair<StringRef, AffineMap>> access =
          getAccess(leaf, position);
      if (!access)
        continue;
      BufferOp buffer = kernel.lookupArray(access->first);
      if (buffer.getElementType() != type)
        return violation(leaf, "`" + getStatementText(leaf) +
                                   "` converts '" + buffer.getName() +
                                   "' to the output's type");
      if (buffer.getLocation() == BufferLocation::reg)
        continue;
      std::optional<unsigned> stream = leaf.getStreamDepth(position);
      if (!stream || *stream > depth)
        return violation(
            leaf, "`" + getStatementText(leaf) + "` " +
                      (position == 0 ? "writes" : "reads") + " '" +
                      buffer.getName() +
                      "' from memory; in an FREP body every array is a stream "
                      "started around the scope or a reg buffer");
    }
  }
  if (instructions > limits.maxBodyInstructions)
    return violation(scope, "its body unrolls to " + Twine(instructions) +
                                " FP instructions; the sequencer holds " +
                                Twine(limits.maxBodyInstructions));
  return std::nullopt;
}
