//===- Move.cpp - move requests, the catalogue, check-then-apply ---------===//

#include "MoveKinds.h"

#include "perfdojo/Analysis/Initialization.h"
#include "perfdojo/Analysis/Privatization.h"
#include "perfdojo/Dialect/Dojo/IR/TextSyntax.h"
#include "perfdojo/Moves/Selector.h"

#include "mlir/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/ADT/StringExtras.h"

#include <array>
#include <utility>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

std::string MoveRequest::str() const {
  std::string text = name + " " + location;
  for (int64_t p : params)
    text += " " + std::to_string(p);
  return text;
}

llvm::Expected<MoveRequest> perfdojo::parseMoveRequest(StringRef text) {
  SmallVector<StringRef> words;
  text.split(words, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (words.size() < 2)
    return llvm::createStringError("expected '<move> <location> [params]' but "
                                   "found '%s'",
                                   text.trim().str().c_str());
  MoveRequest request;
  request.name = words[0].str();
  request.location = words[1].str();
  for (StringRef word : llvm::drop_begin(words, 2)) {
    int64_t value;
    if (word.getAsInteger(10, value)) {
      // Digits that do not fit are a number out of range, not a non-number.
      StringRef digits = word;
      digits.consume_front("-");
      if (!digits.empty() && llvm::all_of(digits, llvm::isDigit))
        return llvm::createStringError(
            "move parameter '%s' is beyond the 64-bit integer range",
            word.str().c_str());
      return llvm::createStringError("move parameter '%s' is not an integer",
                                     word.str().c_str());
    }
    request.params.push_back(value);
  }
  return request;
}

llvm::Expected<SmallVector<MoveRequest>> perfdojo::parseMoveScript(StringRef text) {
  SmallVector<MoveRequest> script;
  SmallVector<StringRef> parts;
  text.split(parts, ';');
  for (StringRef part : parts) {
    part = part.trim();
    if (part.empty())
      continue;
    llvm::Expected<MoveRequest> request = parseMoveRequest(part);
    if (!request)
      return request.takeError();
    script.push_back(std::move(*request));
  }
  return script;
}

LogicalResult perfdojo::applyMoves(dojo::KernelOp kernel,
                                   ArrayRef<MoveRequest> moves,
                                   const MoveOptions &options) {
  MoveState state(kernel, options);
  for (const MoveRequest &move : moves)
    if (failed(applyMove(state, move, kernel.getLoc())))
      return failure();
  return success();
}

std::string perfdojo::joinScriptLines(StringRef contents) {
  std::string text;
  SmallVector<StringRef> lines;
  contents.split(lines, '\n');
  for (StringRef line : lines) {
    line = stripScriptComment(line).trim();
    if (!line.empty())
      text += line.str() + ";";
  }
  return text;
}

llvm::Expected<SmallVector<MoveRequest>>
perfdojo::readMoveScriptFile(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError("cannot read '" + path +
                                   "': " + buffer.getError().message());
  auto script = parseMoveScript(joinScriptLines((*buffer)->getBuffer()));
  if (!script)
    return llvm::createStringError(path + ": " +
                                   llvm::toString(script.takeError()));
  return std::move(*script);
}

/// `move.check`, then post-verification: a move that restructures the tree
/// must keep every `:N` mark valid (moves.md 0.4 (c)), no move may leave a
/// `reg` buffer unaddressable (verifyRegisterBuffers), and no move may make
/// a `:p`, `:v` or GPU scope race (verifyConcurrentScopes, with the GPU `:b`
/// phase rule of Analysis/Concurrency.h) or give the phases of a GPU kernel
/// different block shapes (verifyBlockShapes). The other moves only
/// reorder and re-index instances, so they keep the physical data flow, but
/// the syntactic `:N` check is not invariant under them (e.g. an interchange
/// can deepen the reuse scope). The rewrite runs on a detached copy, so the
/// kernel is never touched.
static DiagnosedSilenceableFailure checkAndPostVerify(const Move &move,
                                                      MoveState &state,
                                                      const MoveRequest &request,
                                                      Location errorLoc) {
  DiagnosedSilenceableFailure result = move.check(state, request, errorLoc);
  if (!result.succeeded())
    return result;
  KernelOp kernel = state.getKernel();
  bool reusedDims =
      move.restructuresTree() &&
      llvm::any_of(kernel.getBuffers(), [](BufferOp buffer) {
        return llvm::is_contained(buffer.getReused(), true);
      });
  // Every concurrent mode is re-checked after every move (a location, a `:N`
  // mark or a restructuring can unprivatize a buffer or alias elements).
  bool concurrentModes = llvm::any_of(
      collectScopes(kernel),
      [](ScopeOp scope) { return isConcurrentMode(scope.getMode()); });
  // Every register buffer must stay addressable (design B8, V11): clearing
  // a `:u` or restructuring can make an index vary at run time.
  bool registers = llvm::any_of(kernel.getBuffers(), [](BufferOp buffer) {
    return buffer.getLocation() == BufferLocation::reg;
  });
  // Stream marks and `:f` scopes keep their rules (SnitchRules.h): a
  // restructuring can break a stream's chain or put a load in an FREP body.
  bool snitch = kernel
                    .walk([](Operation *op) {
                      auto leaf = dyn_cast<LeafOp>(op);
                      auto scope = dyn_cast<ScopeOp>(op);
                      return (leaf && leaf.getStreams()) ||
                                     (scope && scope.getMode() == Mode::frep)
                                 ? WalkResult::interrupt()
                                 : WalkResult::advance();
                    })
                    .wasInterrupted();
  if (!reusedDims && !concurrentModes && !registers && !snitch)
    return result;
  OwningOpRef<KernelOp> copy = kernel.clone();
  MoveState copyState(*copy, state.getOptions());
  (void)move.rewrite(copyState, request);
  if (reusedDims) {
    DiagnosedSilenceableFailure reused =
        moves::verifyReusedDims(*copy, request, errorLoc);
    if (!reused.succeeded())
      return reused;
  }
  if (registers) {
    DiagnosedSilenceableFailure addressable =
        moves::verifyRegisterBuffers(*copy, request, errorLoc);
    if (!addressable.succeeded())
      return addressable;
  }
  if (snitch) {
    DiagnosedSilenceableFailure marks =
        moves::verifySnitchMarks(*copy, request, errorLoc);
    if (!marks.succeeded())
      return marks;
  }
  if (!concurrentModes)
    return DiagnosedSilenceableFailure::success();
  DiagnosedSilenceableFailure shapes =
      moves::verifyBlockShapes(*copy, request, errorLoc);
  if (!shapes.succeeded())
    return shapes;
  return moves::verifyConcurrentScopes(*copy, request, errorLoc,
                                       state.getOptions().reassociate);
}

DiagnosedSilenceableFailure Move::check(MoveState &state,
                                        const MoveRequest &request,
                                        Location errorLoc) const {
  DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
  if (!moves::expectParams(request, numParams, errorLoc, diag))
    return diag;
  return checkRequest(state, request, errorLoc);
}

void Move::enumerate(MoveState &state,
                     SmallVectorImpl<MoveRequest> &legal) const {
  SmallVector<MoveRequest> all;
  candidates(state, all);
  Location loc = state.getKernel().getLoc();
  for (MoveRequest &request : all) {
    DiagnosedSilenceableFailure result =
        checkAndPostVerify(*this, state, request, loc);
    if (result.succeeded())
      legal.push_back(std::move(request));
    else
      (void)result.silence();
  }
}

#include "perfdojo/Moves/MoveKinds.cpp.inc"

/// getMove<Kind>() for every MoveKind, in order.
template <size_t... Index>
static std::array<const Move *, sizeof...(Index)>
collectMoves(std::index_sequence<Index...>) {
  return {moves::getMove<static_cast<MoveKind>(Index)>()...};
}

ArrayRef<const Move *> perfdojo::getAllMoves() {
  static const auto moves = collectMoves(
      std::make_index_sequence<getMaxEnumValForMoveKind() + 1>());
  return moves;
}

const Move &perfdojo::getMove(MoveKind kind) {
  return *getAllMoves()[static_cast<size_t>(kind)];
}

const Move *perfdojo::lookupMove(StringRef name) {
  std::optional<MoveKind> kind = symbolizeMoveKind(name);
  return kind ? &getMove(*kind) : nullptr;
}

SmallVector<MoveRequest> perfdojo::enumerateLegalMoves(MoveState &state) {
  SmallVector<MoveRequest> legal;
  for (const Move *move : getAllMoves())
    move->enumerate(state, legal);
  return legal;
}

DiagnosedSilenceableFailure perfdojo::checkMove(MoveState &state,
                                                const MoveRequest &request,
                                                Location errorLoc) {
  const Move *move = lookupMove(request.name);
  if (!move) {
    std::string known;
    for (const Move *m : getAllMoves())
      known += (known.empty() ? "" : ", ") + m->getName().str();
    return emitSilenceableFailure(errorLoc, "unknown move '" + request.name +
                                                "'; known moves: " + known);
  }
  return checkAndPostVerify(*move, state, request, errorLoc);
}

FailureOr<MoveRequest> perfdojo::applyMove(MoveState &state,
                                           const MoveRequest &request,
                                           Location errorLoc,
                                           DiagnosedSilenceableFailure *out) {
  DiagnosedSilenceableFailure result = checkMove(state, request, errorLoc);
  if (!result.succeeded()) {
    if (out)
      *out = std::move(result);
    else
      (void)result.checkAndReport();
    return failure();
  }
  const Move *move = lookupMove(request.name);
  MoveRequest inverse = move->rewrite(state, request);
  state.invalidate();
  // Every move must leave a valid kernel; if the verifier disagrees, that is
  // a bug in the move's check: undo and say so, with the reason when the
  // result reads data it never wrote (a dependence the check missed).
  if (failed(verify(state.getKernel()))) {
    std::optional<InitializationViolation> uninitialized =
        findInitializationViolation(state.getKernel());
    DiagnosedSilenceableFailure undo = checkMove(state, inverse, errorLoc);
    if (undo.succeeded())
      lookupMove(inverse.name)->rewrite(state, inverse);
    else
      (void)undo.silence();
    state.invalidate();
    DiagnosedSilenceableFailure bug = emitSilenceableFailure(
        errorLoc,
        "internal error: '" + request.str() +
            "' passed its legality check but broke the kernel" +
            (uninitialized ? ": the result " + uninitialized->message : "") +
            " (please report)");
    if (out)
      *out = std::move(bug);
    else
      (void)bug.checkAndReport();
    return failure();
  }
  return inverse;
}

namespace perfdojo::moves {

DiagnosedSilenceableFailure fail(const MoveRequest &request, Location errorLoc,
                                 const Twine &message) {
  return emitSilenceableFailure(errorLoc, "'" + request.str() + "': " + message);
}

Operation *resolveNodeOrFail(MoveState &state, const MoveRequest &request,
                             Location errorLoc,
                             DiagnosedSilenceableFailure &diag) {
  llvm::Expected<Operation *> node = resolveNode(state.getKernel(), request.location);
  if (node)
    return *node;
  diag = fail(request, errorLoc, llvm::toString(node.takeError()));
  return nullptr;
}

ScopeOp resolvePlainScope(MoveState &state, const MoveRequest &request,
                          Location errorLoc,
                          DiagnosedSilenceableFailure &diag) {
  Operation *node = resolveNodeOrFail(state, request, errorLoc, diag);
  if (!node)
    return {};
  auto scope = dyn_cast<ScopeOp>(node);
  if (!scope) {
    diag = fail(request, errorLoc, request.location + " is a leaf; " +
                                       request.name + " needs a scope");
    diag.attachNote(node->getLoc()) << "the leaf";
    return {};
  }
  if (scope.getMode() != Mode::seq) {
    diag = fail(request, errorLoc,
                "the scope has a mode; " + request.name +
                    " needs a plain scope (clear the mode first)");
    diag.attachNote(scope.getLoc()) << "the scope";
    return {};
  }
  return scope;
}

DiagnosedSilenceableFailure failWithNote(const MoveRequest &request,
                                         Location errorLoc,
                                         const Twine &message, Operation *at,
                                         const Twine &note) {
  DiagnosedSilenceableFailure diag = fail(request, errorLoc, message);
  diag.attachNote(at->getLoc()) << note;
  return diag;
}

bool checkNestingBound(const MoveRequest &request, Location errorLoc,
                       uint64_t resultDepth, Operation *at,
                       DiagnosedSilenceableFailure &diag) {
  if (resultDepth == 0)
    return true;
  std::optional<std::string> tooDeep = findScopeDepthViolation(resultDepth - 1);
  if (!tooDeep)
    return true;
  diag = failWithNote(request, errorLoc,
                      "the result would break the IR's nesting bound: " +
                          *tooDeep,
                      at, "this node would be nested deeper");
  return false;
}

ScopeOp resolveScopeRequest(MoveState &state, const MoveRequest &request,
                            const Twine &leafMessage, Location errorLoc,
                            DiagnosedSilenceableFailure &diag) {
  Operation *node = resolveNodeOrFail(state, request, errorLoc, diag);
  if (!node)
    return {};
  auto scope = dyn_cast<ScopeOp>(node);
  if (!scope)
    diag = failWithNote(request, errorLoc, leafMessage, node, "the leaf");
  return scope;
}

DiagnosedSilenceableFailure NodeMove::checkRequest(MoveState &state,
                                                   const MoveRequest &request,
                                                   Location errorLoc) const {
  DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
  Operation *node = resolveNodeOrFail(state, request, errorLoc, diag);
  if (!node)
    return diag;
  return checkNode(state, request, errorLoc, node);
}

DiagnosedSilenceableFailure
PlainScopeMove::checkRequest(MoveState &state, const MoveRequest &request,
                             Location errorLoc) const {
  DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
  ScopeOp scope = resolvePlainScope(state, request, errorLoc, diag);
  if (!scope)
    return diag;
  return checkScope(state, request, errorLoc, scope);
}

ScopeOp getRequestScope(MoveState &state, const MoveRequest &request) {
  return cast<ScopeOp>(*resolveNode(state.getKernel(), request.location));
}

bool expectParams(const MoveRequest &request, unsigned count,
                  Location errorLoc, DiagnosedSilenceableFailure &diag) {
  if (request.params.size() == count)
    return true;
  diag = fail(request, errorLoc,
              "expected " + Twine(count) + " parameter(s) but found " +
                  Twine(request.params.size()));
  return false;
}

ScopeOp findConcurrentAncestor(Operation *node) {
  for (auto scope = node->getParentOfType<ScopeOp>(); scope;
       scope = scope->getParentOfType<ScopeOp>())
    if (scope.getMode() != Mode::seq && scope.getMode() != Mode::unroll)
      return scope;
  return {};
}

/// The scopes enclosing `op`, outermost first.
static SmallVector<Operation *, 8> getScopePath(Operation *op) {
  SmallVector<Operation *, 8> path;
  for (Operation *p = op->getParentOp(); isa<ScopeOp>(p); p = p->getParentOp())
    path.push_back(p);
  std::reverse(path.begin(), path.end());
  return path;
}

bool mayConflictEarlier(DependenceAnalysis &deps, LeafOp x,
                        const PhysicalAccess &a, LeafOp y,
                        const PhysicalAccess &b, DependenceOptions options) {
  const LeafAccesses &xs = deps.getLeafAccesses(x);
  const LeafAccesses &ys = deps.getLeafAccesses(y);
  unsigned common = getCommonScopeCount(x, y);
  // The instances first differ at depth k < common, x's being smaller ...
  for (unsigned k = 0; k < common; ++k) {
    SmallVector<DepthRelation, 8> relations(k, DepthRelation::Equal);
    relations.push_back(DepthRelation::Less);
    if (deps.mayConflict(xs, a, ys, b, relations, options))
      return true;
  }
  // ... or agree on every common depth, and x's leaf comes first among the
  // children of their deepest common scope.
  if (x == y)
    return false;
  SmallVector<Operation *, 8> pathX = getScopePath(x), pathY = getScopePath(y);
  Operation *nodeX = common < pathX.size() ? pathX[common] : x.getOperation();
  Operation *nodeY = common < pathY.size() ? pathY[common] : y.getOperation();
  if (!nodeX->isBeforeInBlock(nodeY))
    return false;
  SmallVector<DepthRelation, 8> same(common, DepthRelation::Equal);
  return deps.mayConflict(xs, a, ys, b, same, options);
}

} // namespace perfdojo::moves
