//===- DojoVerifier.cpp - structural invariants of scope trees -----------===//
//
// Op-local checks live in each op's verify(); the kernel's region verifier
// checks what needs the whole tree. The invariants are listed in docs/ir.md:
//
//   1. buffers come first, names and arrays are unique and well formed;
//   2. every index is an affine form of enclosing depths only;
//   3. every access names a declared array with the right rank, and stays
//      in bounds for every point of its iteration box (exact);
//   4. operands have the output's element type;
//   5. inputs are never written;
//   6. scope modes nest legally and a `:v` scope holds one leaf
//      (ModeRules.h, checked per scope);
//   7. every element of an output is written, and every element read from
//      an output or scratch array was written before (exact, per element:
//      Analysis/Initialization.h);
//   8. the kernel invariants hold: `:N` dimensions, register addressing,
//      vector lanes, one block shape per GPU launch, race freedom of every
//      concurrent scope (Analysis/KernelInvariants.h).
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Analysis/Initialization.h"
#include "perfdojo/Analysis/KernelInvariants.h"
#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Dialect/Dojo/IR/ModeRules.h"
#include "perfdojo/Dialect/Dojo/IR/PhysicalLayout.h"
#include "perfdojo/Dialect/Dojo/IR/TargetDescription.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"
#include "perfdojo/Dialect/Dojo/IR/TextSyntax.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <cmath>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

static bool isValidName(StringRef name) {
  if (name.empty() || !(llvm::isAlpha(name[0]) || name[0] == '_'))
    return false;
  if (name == "inf" || name == "nan")
    return false;
  return llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

//===----------------------------------------------------------------------===//
// BufferOp
//===----------------------------------------------------------------------===//

LogicalResult BufferOp::verify() {
  if (!isValidName(getName()))
    return emitOpError("buffer name '")
           << getName() << "' is not an identifier ([A-Za-z_][A-Za-z0-9_]*, "
           << "not 'inf' or 'nan')";
  if (!isSupportedElementType(getElementType()))
    return emitOpError("element type ")
           << getElementType() << " is not supported; expected "
           << getSupportedElementTypeList();
  int64_t rank = getRank();
  if ((int64_t)getPadding().size() != rank || (int64_t)getReused().size() != rank)
    return emitOpError("padding and reuse flags must have one entry per "
                       "dimension (")
           << rank << ")";
  for (int64_t d = 0; d < rank; ++d) {
    if (getShape()[d] < 1)
      return emitOpError("dimension ")
             << d << " has size " << getShape()[d] << "; sizes must be >= 1";
    if (getPadding()[d] < 0)
      return emitOpError("dimension ")
             << d << " has negative padding " << getPadding()[d];
    if (isArgument() && getReused()[d])
      return emitOpError("dimension ")
             << d << " of argument buffer '" << getName()
             << "' cannot be non-materialized (:N): the caller owns its "
                "storage";
    if (isArgument() && getPadding()[d])
      return emitOpError("dimension ")
             << d << " of argument buffer '" << getName()
             << "' cannot be padded: the caller owns its layout";
  }
  // Every byte must be addressable, and the storage must fit its location
  // within the IR's bounds (TargetDescription::getDefault()).
  if (std::optional<std::string> overflow =
          findLayoutOverflow(getName(), getElementBytes(*this), getShape(),
                             getPadding(), getReused()))
    return emitOpError(*overflow);
  int64_t elements = getStorageElements(*this);
  if (std::optional<std::string> over =
          TargetDescription::getDefault().findCapacityViolation(
              *this, getLocation(), elements))
    return emitOpError("does not fit its location: ") << *over;
  // Non-temporal stores stream results past the caches: to the caller's
  // memory, so only for what the kernel writes out, on the heap.
  if (getNontemporal() && !mayBeNontemporal())
    return emitOpError("buffer '")
           << getName()
           << "' cannot be nontemporal: only an 'out' or 'inout' buffer on "
              "the heap is written past the caches";
  if (isArgument() && !getArrays().empty())
    return emitOpError("argument buffer '")
           << getName() << "' cannot hold shared arrays ('->')";
  for (Attribute a : getArrays())
    if (!isValidName(cast<StringAttr>(a).getValue()))
      return emitOpError("array name '")
             << cast<StringAttr>(a).getValue() << "' is not an identifier";
  return success();
}

//===----------------------------------------------------------------------===//
// ScopeOp
//===----------------------------------------------------------------------===//

LogicalResult ScopeOp::verify() {
  // The nesting bound comes first, and costs O(kMaxScopeDepth) however deep
  // the tree: every other check here walks the enclosing scopes. The error
  // is emitted at the location alone, without the op: printing the op would
  // print the whole (too deep) subtree under it.
  if (std::optional<std::string> tooDeep = findScopeDepthViolation(
          countEnclosingScopes(*this, kMaxScopeDepth)))
    return mlir::emitError(getLoc())
           << "'" << getOperationName() << "' op " << *tooDeep;
  if (getSize() < 1)
    return emitOpError("scope size must be at least 1, got ") << getSize();
  if (getBody().empty() || getBlock().empty())
    return emitOpError("scope has no children");
  // Upper bounds of the IR (unrolled code size, threads per block); the
  // exact sizes of `:v` and `:w` are the target's, checked by the moves and
  // the lowerings for that target.
  if (getMode() == Mode::unroll || getMode() == Mode::gpu_block)
    if (std::optional<std::string> problem =
            TargetDescription::getDefault().findModeSizeViolation(
                getMode(), getSize(), Type()))
      return emitOpError(*problem);
  if (std::optional<ModeRuleViolation> violation =
          findEnclosingModeViolation(*this, getMode())) {
    InFlightDiagnostic diag = emitOpError(violation->message);
    if (violation->other)
      diag.attachNote(violation->other->getLoc()) << violation->note;
    return diag;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// LeafOp
//===----------------------------------------------------------------------===//

/// Checks that every result of `map` is a linear form over depths < `depth`.
static LogicalResult verifyIndexMap(LeafOp leaf, AffineMap map, unsigned depth,
                                    const Twine &what) {
  for (auto [i, e] : llvm::enumerate(map.getResults())) {
    if (!getLinearForm(e))
      return leaf.emitOpError("index ")
             << i << " of " << what
             << " is not a sum of constants and constant multiples of {k}";
    unsigned used = getDepthsUsed(e);
    if (used > depth)
      return leaf.emitOpError("index ")
             << i << " of " << what << " uses {" << used - 1
             << "} but the leaf is nested in " << depth << " scope(s)";
  }
  return success();
}

LogicalResult LeafOp::verify() {
  unsigned depth = getDepth();
  if (failed(verifyIndexMap(*this, getIndices(), depth,
                            "output '" + getArray() + "'")))
    return failure();
  unsigned arity = getArity(getKind());
  if (getInputs().size() != arity)
    return emitOpError("operation '")
           << stringifyOpKind(getKind()) << "' takes " << arity
           << " operand(s) but the leaf has " << getInputs().size();
  for (auto [j, input] : llvm::enumerate(getInputs())) {
    if (auto access = dyn_cast<AccessAttr>(input)) {
      if (failed(verifyIndexMap(*this, access.getIndices(), depth,
                                "operand '" + access.getArray().getValue() +
                                    "'")))
        return failure();
    } else if (auto index = dyn_cast<IndexValueAttr>(input)) {
      if (index.getExpr().getNumResults() != 1)
        return emitOpError("index value operand ")
               << j << " must have exactly one expression";
      if (failed(verifyIndexMap(*this, index.getExpr(), depth,
                                "index value operand " + Twine(j))))
        return failure();
    } else if (auto constant = dyn_cast<FloatAttr>(input)) {
      if (constant.getValue().isNaN())
        return emitOpError("constant operand ") << j << " is NaN";
    } else {
      return emitOpError("operand ")
             << j << " must be an access, a constant or an index value";
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

namespace {
/// Walks the tree in execution order with the sizes of the enclosing scopes
/// and checks the kernel-wide invariants of every leaf.
class KernelChecker {
public:
  explicit KernelChecker(KernelOp kernel) : kernel(kernel) {}

  LogicalResult run() {
    if (failed(collectBuffers()))
      return failure();
    for (Operation &op : kernel.getBlock())
      if (!isa<BufferOp>(op) && failed(visit(&op)))
        return failure();
    return success();
  }

private:
  LogicalResult collectBuffers() {
    bool seenTree = false;
    for (Operation &op : kernel.getBlock()) {
      auto buffer = dyn_cast<BufferOp>(op);
      if (!buffer) {
        seenTree = true;
        continue;
      }
      if (seenTree)
        return buffer.emitOpError(
            "buffer declarations must precede the tree");
      if (!bufferNames.insert(buffer.getName()).second)
        return buffer.emitOpError("buffer '")
               << buffer.getName() << "' is declared twice";
      for (StringRef array : buffer.getArrayNames()) {
        auto [it, inserted] = arrays.try_emplace(array, buffer);
        if (!inserted)
          return buffer.emitOpError("array '")
                 << array << "' is already stored in buffer '"
                 << it->second.getName() << "'";
      }
    }
    return success();
  }

  LogicalResult visit(Operation *op) {
    if (auto scope = dyn_cast<ScopeOp>(op)) {
      sizes.push_back(scope.getSize());
      for (Operation &child : scope.getBlock())
        if (failed(visit(&child)))
          return failure();
      sizes.pop_back();
      return success();
    }
    if (auto leaf = dyn_cast<LeafOp>(op))
      return visitLeaf(leaf);
    return op->emitOpError("is not allowed in a kernel tree; expected "
                           "dojo.scope or dojo.leaf");
  }

  /// Checks `array[map]` against its declaration; returns the buffer.
  FailureOr<BufferOp> checkAccess(LeafOp leaf, StringRef array, AffineMap map,
                                  StringRef what) {
    auto it = arrays.find(array);
    if (it == arrays.end())
      return leaf.emitOpError() << what << " '" << array
                                << "' is not a declared array";
    BufferOp buffer = it->second;
    if ((int64_t)map.getNumResults() != buffer.getRank()) {
      InFlightDiagnostic diag = leaf.emitOpError()
                                << what << " '" << array << "' has "
                                << map.getNumResults() << " index(es) but '"
                                << buffer.getName() << "' has rank "
                                << buffer.getRank();
      diag.attachNote(buffer.getLoc()) << "declared here";
      return diag;
    }
    for (auto [d, e] : llvm::enumerate(map.getResults())) {
      std::optional<std::pair<int64_t, int64_t>> range =
          getLinearForm(e)->range(sizes);
      if (!range)
        return leaf.emitOpError()
               << what << " '" << array << "' index " << d
               << " overflows 64-bit integers over the iteration box";
      auto [lo, hi] = *range;
      int64_t extent = buffer.isArgument() ? buffer.getShape()[d]
                                           : buffer.getAllocatedExtent(d);
      if (lo >= 0 && hi < extent)
        continue;
      std::string text;
      llvm::raw_string_ostream os(text);
      printIndexExpr(os, e);
      InFlightDiagnostic diag =
          leaf.emitOpError() << what << " '" << array << "' index " << d
                             << " (" << text << ") ranges over [" << lo << ", "
                             << hi << "] but dimension " << d << " of '"
                             << buffer.getName() << "' has extent " << extent;
      diag.attachNote(buffer.getLoc()) << "declared here";
      return diag;
    }
    return buffer;
  }

  LogicalResult visitLeaf(LeafOp leaf) {
    FailureOr<BufferOp> out =
        checkAccess(leaf, leaf.getArray(), leaf.getIndices(), "output");
    if (failed(out))
      return failure();
    Type type = out->getElementType();
    // The statement must have a value in its type (docs/ir.md, "Numbers";
    // the rules are ElementTypes.h's).
    if (std::optional<std::string> why =
            findOperationTypeViolation(leaf.getKind(), leaf.getReduce(), type))
      return leaf.emitOpError(*why) << ", but the statement computes in '"
                                    << getElementTypeName(type) << "'";
    // Comparisons compare their array operands' type, select's condition
    // is bool (docs/ir.md, "Comparisons and selects").
    Type compared = getComparedType(leaf, [&](StringRef array) -> Type {
      // An unknown array is reported below, at its access.
      BufferOp buffer = arrays.lookup(array);
      return buffer ? buffer.getElementType()
                    : Float64Type::get(leaf.getContext());
    });
    if (compared)
      if (std::optional<std::string> why =
              findComparisonTypeViolation(leaf.getKind(), compared))
        return leaf.emitOpError(*why);
    for (auto [j, input] : llvm::enumerate(leaf.getInputs())) {
      Type operandType = getOperandType(leaf.getKind(), j, type, compared);
      if (auto constant = dyn_cast<FloatAttr>(input)) {
        if (std::optional<std::string> why = findConstantViolation(
                constant.getValueAsDouble(), operandType, leaf.getKind(), j))
          return leaf.emitOpError(*why);
        continue;
      }
      // An index value is computed in 64-bit integers over the whole box.
      if (auto index = dyn_cast<IndexValueAttr>(input)) {
        if (std::optional<std::string> why =
                findIndexValueViolation(operandType))
          return leaf.emitOpError("index value operand ") << j << " " << *why;
        if (!getLinearForm(index.getExpr().getResult(0))->range(sizes))
          return leaf.emitOpError("index value operand ")
                 << j << " overflows 64-bit integers over the iteration box";
        continue;
      }
      auto access = dyn_cast<AccessAttr>(input);
      if (!access)
        continue;
      StringRef array = access.getArray().getValue();
      FailureOr<BufferOp> in =
          checkAccess(leaf, array, access.getIndices(), "operand");
      if (failed(in))
        return failure();
      // A plain copy converts (docs/ir.md, "Conversions"); any other
      // operand has the type its statement computes it in.
      if (in->getElementType() != operandType &&
          !isConversionStatement(leaf.getKind(), leaf.getReduce())) {
        InFlightDiagnostic diag = leaf.emitOpError("operand '")
                                  << array << "' has element type '"
                                  << getElementTypeName(in->getElementType());
        if (compared)
          return diag << "' but the comparison compares '"
                      << getElementTypeName(compared)
                      << "' (both operands have one type)";
        if (leaf.getKind() == OpKind::select && j == 0)
          return diag << "' but select's condition is a bool";
        return diag << "' but the statement computes in '"
                    << getElementTypeName(type)
                    << "' (only a plain copy `y = x` converts between types)";
      }
    }
    if (out->getRole() == Role::in) {
      InFlightDiagnostic diag = leaf.emitOpError("writes input '")
                                << leaf.getArray() << "'";
      diag.attachNote(out->getLoc()) << "declared 'in' here";
      return diag;
    }
    return success();
  }

  KernelOp kernel;
  llvm::StringSet<> bufferNames;
  llvm::StringMap<BufferOp> arrays;
  SmallVector<int64_t, 8> sizes;
};
} // namespace

LogicalResult KernelOp::verifyRegions() {
  if (failed(KernelChecker(*this).run()))
    return failure();
  if (std::optional<InitializationViolation> uninitialized =
          findInitializationViolation(*this)) {
    InFlightDiagnostic diag =
        uninitialized->at->emitOpError(uninitialized->message);
    uninitialized->attachNotes(diag);
    return diag;
  }
  std::optional<InvariantViolation> violation =
      findKernelInvariantViolation(*this);
  if (!violation)
    return success();
  InFlightDiagnostic diag = violation->at->emitOpError("violates ")
                            << getInvariantRuleName(violation->rule) << " ("
                            << violation->subject << "): "
                            << violation->reason;
  violation->attachNotes(diag);
  return diag;
}
