//===- ArrayCopy.cpp - the array-copy moves' shared logic -----------------===//
//
// What promote/unpromote (Promote.cpp) and stage_region/unstage
// (StageRegion.cpp) share: the accesses to one array, the copy buffer and
// its copies next to a node, the legality checks both state (no other array
// of the buffer in the node, no concurrent scope around it), and the
// inverse's shape (ArrayCopyInverse: match the copy-in/copy-out around a
// node, complete, validate, erase).
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

ArrayUse perfdojo::moves::getArrayUse(Operation *root, StringRef array) {
  ArrayUse use;
  auto record = [&](LeafOp leaf, AffineMap map) {
    if (!use.index) {
      use.index = map;
      use.first = leaf;
    } else if (use.uniform && !isSameIndexList(map, use.index)) {
      use.uniform = false;
      use.differing = leaf;
      use.differingIndex = map;
    }
  };
  root->walk<WalkOrder::PreOrder>([&](LeafOp leaf) {
    bool leafReads = false, leafWrites = false;
    for (Attribute input : leaf.getInputs())
      if (auto access = dyn_cast<AccessAttr>(input))
        if (access.getArray().getValue() == array) {
          leafReads = true;
          record(leaf, access.getIndices());
        }
    if (leaf.getArray() == array) {
      leafWrites = true;
      leafReads |= leaf.getReduce() != ReduceKind::none;
      record(leaf, leaf.getIndices());
    }
    if (!leafReads && !leafWrites)
      return;
    if (!use.reads && !use.writes)
      use.firstReads = leafReads;
    use.reads |= leafReads;
    use.writes |= leafWrites;
  });
  return use;
}

LeafOp perfdojo::moves::findOtherAccess(Operation *root, BufferOp buffer,
                                        StringRef array) {
  SmallVector<StringRef> names = buffer.getArrayNames();
  auto other = [&](StringRef name) {
    return name != array && llvm::is_contained(names, name);
  };
  LeafOp found;
  root->walk<WalkOrder::PreOrder>([&](LeafOp leaf) {
    bool hit = other(leaf.getArray());
    for (Attribute input : leaf.getInputs())
      if (auto access = dyn_cast<AccessAttr>(input))
        hit |= other(access.getArray().getValue());
    if (!hit)
      return WalkResult::advance();
    found = leaf;
    return WalkResult::interrupt();
  });
  return found;
}

void perfdojo::moves::renameArray(Operation *root, StringRef from,
                                  StringRef to) {
  MLIRContext *ctx = root->getContext();
  StringAttr toAttr = StringAttr::get(ctx, to);
  root->walk([&](LeafOp leaf) {
    if (leaf.getArray() == from)
      leaf.setArrayAttr(toAttr);
    SmallVector<Attribute, 2> inputs(leaf.getInputs().getValue());
    bool changed = false;
    for (Attribute &input : inputs)
      if (auto access = dyn_cast<AccessAttr>(input))
        if (access.getArray().getValue() == from) {
          input = AccessAttr::get(ctx, toAttr, access.getIndices());
          changed = true;
        }
    if (changed)
      leaf.setInputsAttr(ArrayAttr::get(ctx, inputs));
  });
}

std::optional<StringRef> perfdojo::moves::getCopySource(LeafOp leaf) {
  // A streamed copy is none the copy moves make: undoing them would drop
  // its stream marks.
  if (!leaf || leaf.getStreams() || leaf.getKind() != OpKind::copy ||
      leaf.getReduce() != ReduceKind::none || leaf.getInputs().size() != 1)
    return std::nullopt;
  auto access = dyn_cast<AccessAttr>(leaf.getInputs()[0]);
  if (!access || !isSameIndexList(access.getIndices(), leaf.getIndices()))
    return std::nullopt;
  // A conversion (docs/ir.md, "Conversions") changes values: no copy.
  auto kernel = leaf->getParentOfType<KernelOp>();
  if (kernel.lookupArray(leaf.getArray()).getElementType() !=
      kernel.lookupArray(access.getArray().getValue()).getElementType())
    return std::nullopt;
  return access.getArray().getValue();
}

void perfdojo::moves::addCopyBufferCandidates(
    MoveState &state, StringRef move, SmallVectorImpl<MoveRequest> &out) {
  for (BufferOp buffer : state.getKernel().getBuffers())
    if (!buffer.isArgument() && buffer.getArrays().empty())
      out.push_back({move.str(), buffer.getName().str(), {}});
}

BufferOp perfdojo::moves::resolveCopyBufferRequest(
    MoveState &state, const MoveRequest &request, StringRef creator,
    Location errorLoc, DiagnosedSilenceableFailure &diag) {
  StringRef t = request.location;
  BufferOp buffer = state.getKernel().lookupArray(t);
  if (!buffer) {
    diag = fail(request, errorLoc, "no array named '" + t + "'");
    return {};
  }
  if (buffer.isArgument() || buffer.getName() != t ||
      !buffer.getArrays().empty()) {
    diag = failWithNote(request, errorLoc,
                        "'" + t +
                            "' is not an internal array stored alone in a "
                            "buffer of its own name, as " +
                            creator + " creates",
                        buffer, "declared here");
    return {};
  }
  return buffer;
}

std::optional<std::pair<StringRef, StringRef>>
perfdojo::moves::splitArrayAndNode(const MoveRequest &request,
                                   Location errorLoc,
                                   DiagnosedSilenceableFailure &diag) {
  auto [array, node] = StringRef(request.location).split(',');
  if (array.empty() || node.empty()) {
    diag = fail(request, errorLoc,
                "expected 'a,N' (an array, then a node selector) but found '" +
                    request.location + "'");
    return std::nullopt;
  }
  return std::make_pair(array, node);
}

std::optional<ArrayAndNode>
perfdojo::moves::resolveArrayAndNode(MoveState &state,
                                     const MoveRequest &request,
                                     Location errorLoc,
                                     DiagnosedSilenceableFailure &diag) {
  auto parts = splitArrayAndNode(request, errorLoc, diag);
  if (!parts)
    return std::nullopt;
  auto [array, selector] = *parts;
  BufferOp buffer = state.getKernel().lookupArray(array);
  if (!buffer) {
    diag = fail(request, errorLoc, "no array named '" + array + "'");
    return std::nullopt;
  }
  llvm::Expected<Operation *> node = resolveNode(state.getKernel(), selector);
  if (!node) {
    diag = fail(request, errorLoc, llvm::toString(node.takeError()));
    return std::nullopt;
  }
  return ArrayAndNode{array, buffer, *node};
}

ArrayAndNode perfdojo::moves::getArrayAndNode(MoveState &state,
                                              const MoveRequest &request) {
  KernelOp kernel = state.getKernel();
  auto [array, selector] = StringRef(request.location).split(',');
  return ArrayAndNode{array, kernel.lookupArray(array),
                      *resolveNode(kernel, selector)};
}


void perfdojo::moves::forEachCopyCandidate(
    KernelOp kernel, function_ref<void(ScopeOp, StringRef)> fn) {
  for (ScopeOp scope : collectScopes(kernel)) {
    if (findConcurrentAncestor(scope))
      continue;
    SmallVector<std::string> arrays;
    scope->walk<WalkOrder::PreOrder>([&](LeafOp leaf) {
      auto add = [&](StringRef array) {
        if (!llvm::is_contained(arrays, array))
          arrays.push_back(array.str());
      };
      add(leaf.getArray());
      for (Attribute input : leaf.getInputs())
        if (auto access = dyn_cast<AccessAttr>(input))
          add(access.getArray().getValue());
    });
    for (const std::string &array : arrays)
      fn(scope, array);
  }
}

bool perfdojo::moves::checkNoOtherArrayAccess(
    const MoveRequest &request, Location errorLoc, Operation *node,
    BufferOp buffer, StringRef array, StringRef copy, StringRef rule,
    DiagnosedSilenceableFailure &diag) {
  LeafOp other = findOtherAccess(node, buffer, array);
  if (!other)
    return true;
  diag = failWithNote(request, errorLoc,
                      "the node also accesses another array of the buffer "
                      "of '" +
                          array + "', which would not see the " + copy +
                          " (" + rule + ")",
                      other, "the other access");
  return false;
}

bool perfdojo::moves::checkNoConcurrentAncestor(
    const MoveRequest &request, Location errorLoc, Operation *node,
    StringRef rule, DiagnosedSilenceableFailure &diag) {
  ScopeOp outer = findConcurrentAncestor(node);
  if (!outer)
    return true;
  diag = failWithNote(request, errorLoc,
                      "an enclosing scope has a parallel, vector or GPU mode; "
                      "clear it first (" +
                          rule + ")",
                      outer, "the scope with a mode");
  return false;
}

void perfdojo::moves::createArrayCopy(
    BufferOp buffer, Operation *node, StringRef array, StringRef name,
    BufferLocation location, bool copyIn, bool copyOut,
    function_ref<void(OpBuilder &, StringRef, StringRef)> buildCopy) {
  MLIRContext *ctx = buffer.getContext();
  OpBuilder builder(ctx);
  builder.setInsertionPointAfter(buffer);
  BufferOp::create(
      builder, buffer.getLoc(), builder.getStringAttr(name),
      TypeAttr::get(buffer.getElementType()), buffer.getShapeAttr(),
      buffer.getPaddingAttr(),
      builder.getDenseBoolArrayAttr(SmallVector<bool>(buffer.getRank(), false)),
      BufferLocationAttr::get(ctx, location),
      RoleAttr::get(ctx, Role::internal), builder.getStrArrayAttr({}));
  if (copyIn) {
    builder.setInsertionPoint(node);
    buildCopy(builder, name, array);
  }
  if (copyOut) {
    builder.setInsertionPointAfter(node);
    buildCopy(builder, array, name);
  }
  renameArray(node, array, name);
}

void perfdojo::moves::addStagingCandidates(StringRef move, StringRef location,
                                           BufferOp buffer, int64_t elements,
                                           const MoveOptions &options,
                                           SmallVectorImpl<MoveRequest> &out) {
  auto add = [&](BufferLocation loc) {
    out.push_back({move.str(), location.str(), {static_cast<int64_t>(loc)}});
  };
  add(findCapacityViolation(buffer, BufferLocation::stack, elements, options)
          ? BufferLocation::heap
          : BufferLocation::stack);
  if (!findCapacityViolation(buffer, BufferLocation::reg, elements, options))
    add(BufferLocation::reg);
}

DiagnosedSilenceableFailure
perfdojo::moves::checkStagedRegisters(const Move &move, MoveState &state,
                                      const MoveRequest &request,
                                      Location errorLoc) {
  OwningOpRef<KernelOp> copy = state.getKernel().clone();
  MoveState copyState(*copy, state.getOptions());
  MoveRequest inverse = move.rewrite(copyState, request);
  return checkRegisterAddressing(*copy, lookupBuffer(*copy, inverse.location),
                                 request, errorLoc);
}

// ArrayCopyMove: promote and stage_region.

DiagnosedSilenceableFailure
ArrayCopyMove::checkRequest(MoveState &state, const MoveRequest &request,
                            Location errorLoc) const {
  DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
  std::optional<ArrayAndNode> target =
      resolveArrayAndNode(state, request, errorLoc, diag);
  if (!target)
    return diag;
  // The copy has the array's extents and padding, every dimension
  // materialized: from a buffer with `:N` dimensions that can exceed a
  // 64-bit layout.
  BufferOp buffer = target->buffer;
  if (!checkNewLayout(request, errorLoc, buffer,
                      (target->array + "'s copy").str(), buffer.getShape(),
                      buffer.getPadding(),
                      SmallVector<bool>(buffer.getRank(), false), diag))
    return diag;
  return checkArrayAndNode(state, request, errorLoc, *target);
}

MoveRequest ArrayCopyMove::rewrite(MoveState &state,
                                   const MoveRequest &request) const {
  return rewriteArrayAndNode(state, request, getArrayAndNode(state, request));
}

// ArrayCopyInverse: unpromote and unstage.

void ArrayCopyInverse::candidates(MoveState &state,
                                  SmallVectorImpl<MoveRequest> &out) const {
  addCopyBufferCandidates(state, getName(), out);
}

DiagnosedSilenceableFailure
ArrayCopyInverse::checkRequest(MoveState &state, const MoveRequest &request,
                               Location errorLoc) const {
  DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
  BufferOp copyBuffer = resolveCopyBufferRequest(
      state, request, getText().creator, errorLoc, diag);
  if (!copyBuffer)
    return diag;
  StringRef t = request.location;
  SmallVector<CopyPattern, 2> patterns = match(state.getKernel(), copyBuffer);
  if (patterns.empty())
    return fail(request, errorLoc,
                "the accesses to '" + t + "' are not " + getText().pattern);
  // A kernel can read as two such patterns (a copy can itself be the node
  // of another): the first that validates is the one to undo.
  return validateFirst(ArrayRef<CopyPattern>(patterns),
                       [&](const CopyPattern &pattern) {
                         return validate(state, request, errorLoc, pattern);
                       });
}

MoveRequest ArrayCopyInverse::rewrite(MoveState &state,
                                      const MoveRequest &request) const {
  KernelOp kernel = state.getKernel();
  StringRef t = request.location;
  BufferOp copyBuffer = kernel.lookupArray(t);
  // check() accepted one of the readings.
  SmallVector<CopyPattern, 2> patterns = match(kernel, copyBuffer);
  CopyPattern pattern = *findValidPattern(
      ArrayRef<CopyPattern>(patterns), [&](const CopyPattern &candidate) {
        return validate(state, request, kernel.getLoc(), candidate);
      });
  SmallVector<int64_t, 2> params = getInverseParams(copyBuffer);
  if (pattern.inRoot)
    pattern.inRoot->erase();
  if (pattern.outRoot)
    pattern.outRoot->erase();
  renameArray(pattern.node, t, pattern.array);
  copyBuffer.erase();
  return {getText().creator.str(),
          pattern.array + "," + getNodeSelector(pattern.node),
          std::move(params)};
}

DiagnosedSilenceableFailure
ArrayCopyInverse::validate(MoveState &state, const MoveRequest &request,
                           Location errorLoc,
                           const CopyPattern &pattern) const {
  const ArrayCopyText &text = getText();
  KernelOp kernel = state.getKernel();
  StringRef t = request.location;
  BufferOp copyBuffer = kernel.lookupArray(t);
  BufferOp buffer = kernel.lookupArray(pattern.array);
  if (!buffer)
    return fail(request, errorLoc,
                "the copies name '" + pattern.array +
                    "', which is not an array");
  if (LeafOp other = findOtherAccess(pattern.node, buffer, ""))
    return failWithNote(request, errorLoc,
                        "the node accesses " + text.directAccess + "'" +
                            pattern.array + "' directly besides the " +
                            text.copy,
                        other, "the access");
  // The declaration the creator would make in the restored kernel.
  bool sameDecl =
      copyBuffer.getElementType() == buffer.getElementType() &&
      copyBuffer.getShape() == buffer.getShape() &&
      !llvm::is_contained(copyBuffer.getReused(), true) &&
      matchesLayout(state, copyBuffer, buffer) &&
      copyBuffer->getPrevNode() == buffer.getOperation() &&
      getFreshBufferName(kernel, (pattern.array + text.suffix).str(),
                         copyBuffer) == t;
  if (!sameDecl)
    return failWithNote(request, errorLoc,
                        "'" + t + "' is not declared as " + text.creator +
                            " would declare it (its " + text.declared +
                            " as a copy of '" + pattern.array + "', " +
                            text.declaredAlso + "right after '" +
                            buffer.getName() + "'); restore its " +
                            text.restore + " first",
                        copyBuffer, "declared here");
  return checkRestored(state, request, errorLoc, pattern, buffer);
}

LeafOp ArrayCopyInverse::matchCopy(Operation *root, BufferOp copyBuffer,
                                   StringRef to, StringRef from) const {
  LeafOp leaf = getCopyLeaf(root, copyBuffer);
  if (!leaf || leaf.getArray() != to || getCopySource(leaf) != from)
    return {};
  return leaf;
}

std::optional<CopyPattern>
ArrayCopyInverse::complete(CopyPattern pattern, ArrayRef<LeafOp> users,
                           BufferOp copyBuffer) const {
  if (!pattern.node || !isa<ScopeOp, LeafOp>(pattern.node))
    return std::nullopt;
  unsigned inside = 0;
  for (LeafOp user : users)
    if (pattern.node == user.getOperation() ||
        pattern.node->isProperAncestor(user))
      ++inside;
  if (inside + bool(pattern.copyIn) + bool(pattern.copyOut) != users.size())
    return std::nullopt;
  if (!matchesUse(pattern, copyBuffer))
    return std::nullopt;
  return pattern;
}

SmallVector<CopyPattern, 2>
ArrayCopyInverse::match(KernelOp kernel, BufferOp copyBuffer) const {
  StringRef t = copyBuffer.getName();
  SmallVector<LeafOp> users;
  kernel.walk<WalkOrder::PreOrder>([&](LeafOp leaf) {
    if (getArrayUse(leaf, t).index)
      users.push_back(leaf);
  });
  SmallVector<CopyPattern, 2> patterns;
  if (users.empty())
    return patterns;
  LeafOp first = users.front(), last = users.back();
  if (std::optional<StringRef> source = getCopySource(first);
      source && *source != t && first.getArray() == t) {
    CopyPattern pattern;
    pattern.array = source->str();
    pattern.inRoot = getCopyRoot(first, copyBuffer);
    pattern.copyIn = matchCopy(pattern.inRoot, copyBuffer, t, pattern.array);
    if (pattern.copyIn) {
      pattern.node = pattern.inRoot->getNextNode();
      pattern.outRoot = pattern.node ? pattern.node->getNextNode() : nullptr;
      pattern.copyOut =
          matchCopy(pattern.outRoot, copyBuffer, pattern.array, t);
      if (!pattern.copyOut)
        pattern.outRoot = nullptr;
      if (auto done = complete(pattern, users, copyBuffer))
        patterns.push_back(*done);
    }
  }
  if (last.getArray() != t && getCopySource(last) == t) {
    CopyPattern pattern;
    pattern.array = last.getArray().str();
    pattern.outRoot = getCopyRoot(last, copyBuffer);
    pattern.copyOut = matchCopy(pattern.outRoot, copyBuffer, pattern.array, t);
    if (pattern.copyOut) {
      pattern.node = pattern.outRoot->getPrevNode();
      pattern.inRoot = pattern.node ? pattern.node->getPrevNode() : nullptr;
      pattern.copyIn = matchCopy(pattern.inRoot, copyBuffer, t, pattern.array);
      if (!pattern.copyIn)
        pattern.inRoot = nullptr;
      if (auto done = complete(pattern, users, copyBuffer))
        patterns.push_back(*done);
    }
  }
  return patterns;
}
