//===- DojoToSnitch.cpp - dojo kernels to snitch functions ----------------===//
//
// Lowers each `dojo.kernel` to a `snitch.function` for one Snitch core
// (RV32IMAFD): plain scalar code, every buffer in TCDM or in FP registers.
// Register allocation happens here, because the snitch dialect names
// physical registers.
//
//  1. Calling convention: the argument buffers (in declaration order) arrive
//     as pointers in a0-a7, whatever their location (the caller owns their
//     storage); internal `reg` buffers live in FP registers (2), the other
//     internal buffers in the function's stack frame; `s` and `fs` registers
//     the code uses are saved and restored.
//  2. Register buffers: before the first top-level node, every storage
//     element of every internal `reg` buffer gets an FP register of its own
//     for the whole kernel. The register addressing rule (KernelInvariants.h)
//     indexes them by constants and `:u` variables only, which are
//     compile-time values here (4), so every access names its register: a
//     read is that register, a write or reduction computes into it.
//  3. Every top-level node of the tree is lowered on its own. Before it,
//     each constant gets an FP register and each memory access of each of
//     its leaves a pointer register; the accesses to one buffer that move
//     alike along every loop share one (across leaves: every loop steps
//     its pointers back after it), set to the first one's address at
//     iteration zero.
//  4. A `:u` scope is unrolled: its body is emitted `size` times with the
//     scope's variable a compile-time value. A scope of size 1 is its body,
//     the variable 0. A memory access adds the part of its address that is
//     known at compile time as the immediate offset of its load or store
//     (through a scratch register when it exceeds 12 bits), so unrolled
//     depths need no pointer increments and no counter.
//  5. Any other scope is a count-down loop: `li c, n`, the body, the pointer
//     increments of the accesses that depend on its variable, `addi c, c,
//     -1`, `bnez c`, then the increments undone (so an enclosing scope's
//     increment starts from its own base). Its variable is `n - c`, for
//     index values.
//  6. A leaf loads its memory operands into FP temporaries (a reg element
//     or a constant is used in its own register), computes in its output's
//     type (f32 or f64) and stores or reduces into the output; `+= a * b` is
//     one `fmadd`, into the output's register when it is a reg element or
//     promoted (7).
//  7. Scalar promotion: a loop of (5) keeps a memory output element whose
//     address does not change over the loop in an FP register, loaded
//     before the loop and stored after it, when nothing else in the loop
//     can see the memory copy (promoteInvariantOutputs has the
//     conditions). The leaf then uses the register like a reg element: a
//     dot product's accumulator costs no load and store per iteration. The
//     outermost loop that qualifies promotes it; an `:u` scope inside the
//     loop promotes one register per element its iterations name.
// Modes the Snitch target lacks (TargetDescription::getSnitch) are refused.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Conversion/Passes.h"
#include "perfdojo/Analysis/SnitchRules.h"
#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/IR/IndexExpr.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"
#include "perfdojo/Dialect/Dojo/IR/ModeRules.h"
#include "perfdojo/Dialect/Dojo/IR/PhysicalLayout.h"
#include "perfdojo/Dialect/Dojo/IR/TargetDescription.h"
#include "perfdojo/Dialect/Snitch/IR/Snitch.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>

#define DEBUG_TYPE "convert-dojo-to-snitch"

namespace perfdojo {
#define GEN_PASS_DEF_CONVERTDOJOTOSNITCHPASS
#include "perfdojo/Conversion/Passes.h.inc"
} // namespace perfdojo

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

namespace {

/// Integer registers the lowering itself uses for large immediates and
/// index values; never allocated.
constexpr llvm::StringLiteral kScratch = "t6";
constexpr llvm::StringLiteral kScratch2 = "t5";
/// Registers the allocator hands out, caller-saved ones first: the
/// temporaries, the argument registers the kernel's pointers leave free
/// (added per kernel), then the saved registers. ft0-ft2 are left to SSR
/// streams.
constexpr llvm::StringLiteral kTemporaryPool[] = {"t0", "t1", "t2", "t3",
                                                  "t4"};
constexpr llvm::StringLiteral kSavedPool[] = {"s0", "s1", "s2",  "s3",
                                              "s4", "s5", "s6",  "s7",
                                              "s8", "s9", "s10", "s11"};
constexpr llvm::StringLiteral kFpPool[] = {
    "ft3", "ft4", "ft5", "ft6", "ft7", "ft8", "ft9", "ft10", "ft11",
    "fa0", "fa1", "fa2", "fa3", "fa4", "fa5", "fa6", "fa7",  "fs0",
    "fs1", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8",  "fs9",
    "fs10", "fs11"};
constexpr unsigned kArgumentRegisters = 8;
/// The most FP temporaries one leaf takes at once (lowerLeaf: two loaded
/// operands, a memory accumulator and the value). Scalar promotion leaves
/// this many FP registers free, so that it never makes a leaf run out.
constexpr unsigned kLeafTemporaries = 4;

/// Whether `value` fits an I-type immediate.
bool isImm12(int64_t value) { return value >= -2048 && value <= 2047; }

/// One pointer register, shared by the accesses of a leaf to `buffer` that
/// move alike along every loop. It holds the address `elementOffset`
/// elements from the buffer's base: the coefficients of the loop depths
/// (zero at unrolled depths, whose part of an address is an immediate) and
/// the constant of the first of those accesses.
struct Pointer {
  BufferOp buffer;
  LinearForm elementOffset;
  int64_t elementBytes = 0;
  std::string reg;
  /// For a streamed access, the depth its stream starts at: the pointer is
  /// the stream's base and moves only with the loops outside the stream.
  std::optional<unsigned> streamFrom;
};

/// One access of a leaf, its output or an input: `elementOffset` elements
/// (an affine form over the leaf's scope depths) from the base of `buffer`.
/// A memory access goes through `pointer`; an access to a register buffer
/// has none. Constants and index values have no buffer.
struct Access {
  BufferOp buffer;
  LinearForm elementOffset;
  Pointer *pointer = nullptr;
  /// The depth its SSR stream starts at, for a streamed operand.
  std::optional<unsigned> stream;
};

/// One open scope while its body is emitted: a count-down loop (`counter`
/// is its register) or a compile-time `value` (an iteration of an unrolled
/// scope, or 0 in a scope of size 1).
struct OpenScope {
  int64_t size;
  std::string counter;
  int64_t value = 0;
  /// A `:f` scope: the sequencer repeats its body; its variable has no
  /// value in the code (the FREP body rule keeps it out of every address).
  bool repeated = false;
  bool isLoop() const { return !counter.empty(); }
};

/// f32 or f64: the instruction suffixes of a type.
struct FpFormat {
  bool isDouble;
  llvm::StringRef suffix() const { return isDouble ? ".d" : ".s"; }
  llvm::StringRef load() const { return isDouble ? "fld" : "flw"; }
  llvm::StringRef store() const { return isDouble ? "fsd" : "fsw"; }
  /// The conversion into this format from the other one.
  llvm::StringRef convert() const { return isDouble ? "fcvt.d.s" : "fcvt.s.d"; }
};

/// A memory element kept in an FP register for the duration of a loop
/// (scalar promotion): `elements` from `pointer` (its address as
/// emitElementAddress takes it), loaded into `reg` before the loop and
/// stored back after it.
struct PromotedElement {
  const Pointer *pointer;
  int64_t elements;
  std::string reg;
  FpFormat format;
};

std::optional<FpFormat> getFpFormat(Type type) {
  if (type.isF64())
    return FpFormat{true};
  if (type.isF32())
    return FpFormat{false};
  return std::nullopt;
}

/// The constants of exp(x) in `format` (emitExp): x is clamped to
/// [lo, hi] so that 2^n stays a normal number, n = round(x log2(e)),
/// r = x - n ln2 (ln2 split in a high part exact in n * ln2Hi and a low
/// part, Cody and Waite), and e^r a Taylor polynomial of the degree that
/// keeps its error below the format's rounding on |r| <= ln2 / 2
/// (12 for f64: 0.347^13 / 13! = 2e-16; 7 for f32: 5e-9).
struct ExpConstants {
  double lo, hi, log2e, ln2Hi, ln2Lo;
  llvm::SmallVector<double, 13> taylor; ///< 1/k!, k = 0 .. degree
  llvm::SmallVector<double, 20> all() const {
    llvm::SmallVector<double, 20> values = {lo, hi, log2e, ln2Hi, ln2Lo};
    values.append(taylor.begin(), taylor.end());
    return values;
  }
};

ExpConstants getExpConstants(FpFormat format) {
  ExpConstants c;
  c.log2e = 1.4426950408889634;
  unsigned degree;
  if (format.isDouble) {
    c.lo = -708.0;
    c.hi = 709.0;
    c.ln2Hi = 6.93147180369123816490e-01;
    c.ln2Lo = 1.90821492927058770002e-10;
    degree = 12;
  } else {
    c.lo = -87.0;
    c.hi = 88.0;
    c.ln2Hi = 0.693145751953125;
    c.ln2Lo = 1.428606765330187045e-06;
    degree = 7;
  }
  double term = 1;
  for (unsigned k = 0; k <= degree; ++k) {
    c.taylor.push_back(term);
    term /= k + 1;
  }
  return c;
}

/// Whether a scope's variable is a compile-time value in the emitted code:
/// its body is emitted once per iteration. Every other scope is a loop.
bool isUnrolled(ScopeOp scope) {
  return scope.getSize() == 1 || scope.getMode() == Mode::unroll;
}

/// Whether `buffer` lives in FP registers: an internal `reg` buffer. An
/// argument buffer is the caller's memory whatever its location.
bool livesInRegisters(BufferOp buffer) {
  return !buffer.isArgument() && buffer.getLocation() == BufferLocation::reg;
}

/// Per depth of the scopes enclosing `leaf`, outermost first, whether that
/// scope runs as a loop (see isUnrolled).
llvm::SmallVector<bool, 8> getLoopDepths(LeafOp leaf) {
  llvm::SmallVector<bool, 8> loops;
  for (auto scope = dyn_cast_or_null<ScopeOp>(leaf->getParentOp()); scope;
       scope = dyn_cast_or_null<ScopeOp>(scope->getParentOp()))
    loops.push_back(!isUnrolled(scope));
  std::reverse(loops.begin(), loops.end());
  return loops;
}

/// The element offset of an access with index `map` into `buffer`
/// (PhysicalLayout.h).
LinearForm getElementOffset(BufferOp buffer, AffineMap map) {
  return perfdojo::getElementOffset(buffer, getIndexForms(map));
}

/// Whether two element offsets have the same coefficients (constants aside).
bool hasSameCoefficients(const LinearForm &a, const LinearForm &b) {
  size_t n = std::max(a.coeffs.size(), b.coeffs.size());
  for (unsigned k = 0; k < n; ++k)
    if (a.coeff(k) != b.coeff(k))
      return false;
  return true;
}

/// Registers in allocation order, each free or in use.
class RegisterPool {
public:
  void add(llvm::StringRef name) {
    names.push_back(name.str());
    inUse.push_back(false);
  }
  std::optional<std::string> allocate();
  /// False if `reg` is not one of the pool's.
  bool release(llvm::StringRef reg);
  unsigned countFree() const { return llvm::count(inUse, false); }
  unsigned size() const { return names.size(); }

private:
  llvm::SmallVector<std::string> names;
  llvm::SmallVector<bool> inUse;
};

class KernelLowering {
public:
  KernelLowering(KernelOp kernel, snitch::FunctionOp function)
      : kernel(kernel), function(function),
        builder(OpBuilder::atBlockEnd(&function.getBody().front())),
        target(TargetDescription::getSnitch()) {}

  LogicalResult lower();

private:
  // Emission.
  void emit(llvm::StringRef mnemonic, llvm::ArrayRef<std::string> operands) {
    snitch::InsnOp::create(builder, kernel.getLoc(), mnemonic,
                           builder.getStrArrayAttr(llvm::to_vector_of<StringRef>(
                               operands)));
  }
  /// dst = src + value, through the scratch register when value is large.
  void emitAddImmediate(llvm::StringRef dst, llvm::StringRef src,
                        int64_t value);
  std::string newLabel() {
    std::string name = "L" + std::to_string(labelCount++);
    snitch::LabelOp::create(builder, kernel.getLoc(), name);
    return name;
  }

  // Registers.
  FailureOr<std::string> allocateInteger(Operation *where);
  FailureOr<std::string> allocateFp(Operation *where);
  void release(llvm::StringRef reg);

  // The tree.
  LogicalResult layOutFrame();
  LogicalResult allocateRegisterBuffers();
  LogicalResult checkNode(Operation *node);
  LogicalResult lowerTopLevelNode(Operation *node);
  LogicalResult lowerNode(Operation *node);
  /// Whether nothing of the current top-level node is emitted after the
  /// node `node` (a child of the innermost open scope, or the top-level node
  /// itself): its pointers die after it.
  bool isLastEmitted(Operation *node);
  LogicalResult lowerScope(ScopeOp scope);
  /// The scope without its streaming region.
  LogicalResult lowerScopeBody(ScopeOp scope);
  /// A `:f` scope: `snitch.frep` around its body.
  LogicalResult lowerFrepScope(ScopeOp scope);
  /// When the streams of the one leaf below `scope` start at its depth:
  /// a `snitch.streaming_region` for them (the builder then inserts into
  /// its body); else a null op.
  FailureOr<snitch::StreamingRegionOp> openStreamingRegion(ScopeOp scope);
  LogicalResult lowerLeaf(LeafOp leaf);
  /// The memory operand `imm(reg)` of a memory access at the current
  /// iteration; a large offset is first added into the scratch register.
  std::string emitAddress(const Access &access);
  /// The memory operand of the element `elements` from `pointer`.
  std::string emitElementAddress(const Pointer &pointer, int64_t elements);
  /// The part of a memory access's address the pointer does not hold, in
  /// elements: its constant relative to the pointer's and the values of the
  /// open unrolled scopes.
  int64_t getCompileTimeElements(const Access &access) const;
  /// Scalar promotion (7) at the loop `scope`, about to open at depth
  /// scopes.size(): the output elements of its leaves that stay in FP
  /// registers for the whole loop, loaded here.
  llvm::SmallVector<PromotedElement> promoteInvariantOutputs(ScopeOp scope);
  /// The elements, relative to its pointer, that the output of `leaf`
  /// names during one run of the loop `scope` at the current iteration of
  /// the open scopes, when they are invariant over that loop (none of the
  /// loops from `scope` down depends on it) and at most `limit`.
  std::optional<llvm::SmallVector<int64_t>>
  getInvariantElements(LeafOp leaf, ScopeOp scope, size_t limit) const;
  /// The register of the element of a register buffer that `access` names
  /// at the current iteration.
  FailureOr<std::string> getRegisterElement(LeafOp leaf, const Access &access);
  /// Input `index` of `leaf` as a value of `format` in an FP register: a
  /// constant's, or a reg element's of that format, is its own register; a
  /// memory value, an index value or a conversion goes into `into` when it
  /// is given, else into a new temporary (appended to `temporaries`).
  FailureOr<std::string>
  loadOperand(LeafOp leaf, unsigned index, FpFormat format,
              llvm::StringRef into,
              llvm::SmallVectorImpl<std::string> &temporaries);
  FailureOr<std::string> loadConstant(Operation *where, double value,
                                      FpFormat format);
  /// The register of a constant loaded before the top-level node.
  std::string getConstant(double value, FpFormat format) const;
  /// out = exp(x) in `format`, with two FP temporaries of `leaf` (out may be
  /// x); the constants are loaded (getExpConstants).
  LogicalResult emitExp(LeafOp leaf, llvm::StringRef x, llvm::StringRef out,
                        FpFormat format,
                        llvm::SmallVectorImpl<std::string> &temporaries);
  void emitIndexValue(const LinearForm &form, llvm::StringRef dst);
  void emitPrologueAndEpilogue();

  KernelOp kernel;
  snitch::FunctionOp function;
  OpBuilder builder;
  TargetDescription target;
  unsigned labelCount = 0;

  RegisterPool integers, fps;
  llvm::StringSet<> savedIntegers, savedFps;

  /// Base register of each argument buffer; frame offset of each internal
  /// buffer in memory; the FP registers of each register buffer, one per
  /// storage element.
  llvm::DenseMap<Operation *, std::string> argumentRegisters;
  llvm::DenseMap<Operation *, int64_t> frameOffsets;
  llvm::DenseMap<Operation *, llvm::SmallVector<std::string, 8>>
      registerBuffers;
  int64_t constantSlot = 0, frameBytes = 0;

  /// Per leaf of the current top-level node: its accesses, the output's
  /// then one per input, and the pointers they use.
  std::deque<Pointer> pointers;
  llvm::DenseMap<Operation *, llvm::SmallVector<Access, 4>> leafAccesses;
  /// FP registers holding the constants of the current top-level node.
  std::map<std::pair<uint64_t, bool>, std::string> constants;
  /// The scopes enclosing the node being emitted, by depth.
  llvm::SmallVector<OpenScope, 8> scopes;
  /// In the open streaming region: the stream register of each streamed
  /// (leaf, operand position), and the base registers it allocated.
  std::map<std::pair<Operation *, unsigned>, std::string> streamRegisters;
  llvm::SmallVector<std::string, 3> streamBases;
  /// The register of each element promoted by an open loop, by its pointer
  /// and its element offset from it.
  std::map<std::pair<const Pointer *, int64_t>, std::string> promotedRegisters;
  llvm::DenseSet<const Pointer *> promotedPointers;
};

void KernelLowering::emitAddImmediate(llvm::StringRef dst, llvm::StringRef src,
                                      int64_t value) {
  if (isImm12(value)) {
    if (value != 0 || dst != src)
      emit("addi", {dst.str(), src.str(), std::to_string(value)});
    return;
  }
  emit("li", {kScratch.str(), std::to_string(value)});
  emit("add", {dst.str(), src.str(), kScratch.str()});
}

/// The first free register of `pool`, marked used.
std::optional<std::string> RegisterPool::allocate() {
  for (auto [i, used] : llvm::enumerate(inUse))
    if (!used) {
      inUse[i] = true;
      return names[i];
    }
  return std::nullopt;
}

bool RegisterPool::release(llvm::StringRef reg) {
  for (auto [i, name] : llvm::enumerate(names))
    if (name == reg) {
      inUse[i] = false;
      return true;
    }
  return false;
}

FailureOr<std::string> KernelLowering::allocateInteger(Operation *where) {
  std::optional<std::string> reg = integers.allocate();
  if (!reg)
    return where->emitError()
           << "the Snitch lowering runs out of integer registers here (loop "
              "counters and one pointer per buffer and loop stride of each "
              "leaf in this top-level scope); split the scope into smaller "
              "ones";
  if (llvm::StringRef(*reg).starts_with("s"))
    savedIntegers.insert(*reg);
  return *reg;
}

FailureOr<std::string> KernelLowering::allocateFp(Operation *where) {
  std::optional<std::string> reg = fps.allocate();
  if (!reg)
    return where->emitError()
           << "the Snitch lowering runs out of FP registers here (the reg "
              "buffers' elements, one per constant of this top-level scope "
              "and the leaf's operands)";
  if (llvm::StringRef(*reg).starts_with("fs"))
    savedFps.insert(*reg);
  return *reg;
}

void KernelLowering::release(llvm::StringRef reg) {
  if (!integers.release(reg))
    fps.release(reg);
}

LogicalResult KernelLowering::layOutFrame() {
  unsigned arguments = 0;
  // The constant slot first, so its `sw`/`fld` offsets fit 12 bits
  // whatever the internal buffers take; the buffers after it.
  constantSlot = 0;
  int64_t offset = 8;
  for (BufferOp buffer : kernel.getBuffers()) {
    if (!getFpFormat(buffer.getElementType()))
      return buffer.emitError()
             << "the Snitch lowering runs f32 and f64 kernels; buffer '"
             << buffer.getName() << "' holds "
             << buffer.getElementType();
    if (!target.hasLocation(buffer.getLocation()))
      return buffer.emitError()
             << "buffer '" << buffer.getName() << "' is in "
             << stringifyBufferLocation(buffer.getLocation())
             << ", which a Snitch core does not have";
    if (buffer.isArgument()) {
      if (arguments == kArgumentRegisters)
        return buffer.emitError()
               << "the Snitch lowering passes at most " << kArgumentRegisters
               << " argument buffers (in a0-a7)";
      argumentRegisters[buffer] = "a" + std::to_string(arguments++);
      continue;
    }
    if (livesInRegisters(buffer))
      continue;
    frameOffsets[buffer] = offset;
    offset += llvm::alignTo(getStorageElements(buffer) * getElementBytes(buffer),
                            8);
  }
  frameBytes = offset;
  for (llvm::StringLiteral reg : kTemporaryPool)
    integers.add(reg);
  for (unsigned a = arguments; a < kArgumentRegisters; ++a)
    integers.add("a" + std::to_string(a));
  for (llvm::StringLiteral reg : kSavedPool)
    integers.add(reg);
  for (llvm::StringLiteral reg : kFpPool)
    fps.add(reg);
  return success();
}

LogicalResult KernelLowering::allocateRegisterBuffers() {
  // Never freed: a register buffer may be written by one top-level node and
  // read by a later one.
  int64_t held = 0;
  for (BufferOp buffer : kernel.getBuffers()) {
    if (!livesInRegisters(buffer))
      continue;
    int64_t elements = getStorageElements(buffer);
    unsigned free = fps.countFree();
    if (elements > free)
      return buffer.emitError()
             << "the Snitch lowering needs " << elements
             << " FP registers for reg buffer '" << buffer.getName() << "', "
             << free << " are free (" << fps.size()
             << " are allocatable, ft0-ft2 being kept for SSR streams; "
                "earlier reg buffers hold "
             << held << ")";
    auto &registers = registerBuffers[buffer];
    for (int64_t i = 0; i < elements; ++i) {
      FailureOr<std::string> reg = allocateFp(buffer);
      if (failed(reg))
        return failure();
      registers.push_back(*reg);
    }
    held += elements;
  }
  return success();
}

LogicalResult KernelLowering::checkNode(Operation *node) {
  WalkResult result = node->walk([&](Operation *op) {
    if (auto scope = dyn_cast<ScopeOp>(op)) {
      if (!target.supports(scope.getMode())) {
        scope.emitError() << "a " << describeMode(scope.getMode())
                          << " scope has no Snitch lowering";
        return WalkResult::interrupt();
      }
    } else if (auto leaf = dyn_cast<LeafOp>(op)) {
      if (!hasSnitchLowering(leaf.getKind())) {
        leaf.emitError() << "'" << stringifyOpKind(leaf.getKind())
                         << "' has no Snitch lowering yet (the lowering "
                            "emits FP instructions, and polynomials for exp "
                            "and sigmoid only)";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult KernelLowering::lower() {
  if (failed(layOutFrame()) || failed(allocateRegisterBuffers()))
    return failure();
  for (Operation &node : kernel.getBlock()) {
    if (isa<BufferOp>(node))
      continue;
    if (failed(checkNode(&node)) || failed(lowerTopLevelNode(&node)))
      return failure();
  }
  emitPrologueAndEpilogue();
  return success();
}

FailureOr<std::string> KernelLowering::loadConstant(Operation *where,
                                                    double value,
                                                    FpFormat format) {
  uint64_t bits = format.isDouble
                      ? llvm::bit_cast<uint64_t>(value)
                      : llvm::bit_cast<uint32_t>(static_cast<float>(value));
  auto key = std::make_pair(bits, format.isDouble);
  auto found = constants.find(key);
  if (found != constants.end())
    return found->second;
  FailureOr<std::string> reg = allocateFp(where);
  if (failed(reg))
    return failure();
  constants[key] = *reg;
  bool integral = value == std::trunc(value) && std::abs(value) < 2048.0 &&
                  !(value == 0 && std::signbit(value));
  if (integral) {
    // fcvt from an integer is exact for these.
    llvm::StringRef source = value == 0 ? "zero" : kScratch;
    if (value != 0)
      emit("li", {kScratch.str(), std::to_string(static_cast<int64_t>(value))});
    emit(format.isDouble ? "fcvt.d.w" : "fcvt.s.w", {*reg, source.str()});
  } else if (!format.isDouble) {
    emit("li", {kScratch.str(), std::to_string(static_cast<int32_t>(bits))});
    emit("fmv.w.x", {*reg, kScratch.str()});
  } else {
    // RV32 moves no 64-bit integer into an FP register: through the frame.
    std::string slot = std::to_string(constantSlot);
    std::string slotHigh = std::to_string(constantSlot + 4);
    emit("li", {kScratch.str(), std::to_string(static_cast<int32_t>(bits))});
    emit("sw", {kScratch.str(), slot + "(sp)"});
    emit("li",
         {kScratch.str(), std::to_string(static_cast<int32_t>(bits >> 32))});
    emit("sw", {kScratch.str(), slotHigh + "(sp)"});
    emit("fld", {*reg, slot + "(sp)"});
  }
  return *reg;
}

std::string KernelLowering::getConstant(double value, FpFormat format) const {
  uint64_t bits = format.isDouble
                      ? llvm::bit_cast<uint64_t>(value)
                      : llvm::bit_cast<uint32_t>(static_cast<float>(value));
  return constants.at({bits, format.isDouble});
}

LogicalResult
KernelLowering::emitExp(LeafOp leaf, llvm::StringRef x, llvm::StringRef out,
                        FpFormat format,
                        llvm::SmallVectorImpl<std::string> &temporaries) {
  // 1. n = round(clamp(x) log2(e)), in the scratch register; 2. r = x - n
  // ln2 in two steps; 3. e^r by Horner; 4. 2^n from its bits (exponent n +
  // bias, built in the frame's constant slot for f64), times e^r.
  ExpConstants c = getExpConstants(format);
  auto op = [&](llvm::StringRef name) { return (name + format.suffix()).str(); };
  auto k = [&](double value) { return getConstant(value, format); };
  FailureOr<std::string> r = allocateFp(leaf), p = allocateFp(leaf);
  if (failed(r) || failed(p))
    return failure();
  temporaries.push_back(*r);
  temporaries.push_back(*p);
  std::string n = kScratch.str();
  emit(op("fmax"), {*r, x.str(), k(c.lo)});
  emit(op("fmin"), {*r, *r, k(c.hi)});
  emit(op("fmul"), {*p, *r, k(c.log2e)});
  emit(format.isDouble ? "fcvt.w.d" : "fcvt.w.s", {n, *p});
  emit(format.isDouble ? "fcvt.d.w" : "fcvt.s.w", {*p, n});
  emit(op("fnmsub"), {*r, *p, k(c.ln2Hi), *r});
  emit(op("fnmsub"), {*r, *p, k(c.ln2Lo), *r});
  unsigned degree = c.taylor.size() - 1;
  emit(op("fmadd"), {*p, k(c.taylor[degree]), *r, k(c.taylor[degree - 1])});
  for (unsigned i = degree - 1; i-- > 0;)
    emit(op("fmadd"), {*p, *p, *r, k(c.taylor[i])});
  if (format.isDouble) {
    emit("addi", {n, n, "1023"});
    emit("slli", {n, n, "20"});
    std::string slot = std::to_string(constantSlot);
    emit("sw", {"zero", slot + "(sp)"});
    emit("sw", {n, std::to_string(constantSlot + 4) + "(sp)"});
    emit("fld", {*r, slot + "(sp)"});
  } else {
    emit("addi", {n, n, "127"});
    emit("slli", {n, n, "23"});
    emit("fmv.w.x", {*r, n});
  }
  emit(op("fmul"), {out.str(), *p, *r});
  return success();
}

LogicalResult KernelLowering::lowerTopLevelNode(Operation *node) {
  // Accesses, and a pointer per buffer and loop stride of each leaf.
  pointers.clear();
  leafAccesses.clear();
  for (LeafOp leaf : collectLeaves(node)) {
    llvm::SmallVector<bool, 8> loops = getLoopDepths(leaf);
    auto &accesses = leafAccesses[leaf];
    auto addAccess = [&](llvm::StringRef array, AffineMap map) {
      BufferOp buffer = kernel.lookupArray(array);
      Access access{buffer, getElementOffset(buffer, map), nullptr,
                    leaf.getStreamDepth(accesses.size())};
      if (livesInRegisters(buffer)) {
        accesses.push_back(access);
        return;
      }
      // The pointer follows the loops; the unrolled depths and constants
      // are immediates.
      LinearForm moving;
      moving.constant = access.elementOffset.constant;
      moving.coeffs.assign(loops.size(), 0);
      for (unsigned k = 0; k < loops.size(); ++k)
        if (loops[k])
          moving.coeffs[k] = access.elementOffset.coeff(k);
      // Leaves share a pointer that moves alike: every loop steps it back
      // after its last iteration, so it is at the same base whenever
      // another leaf's loop starts. A stream's base pointer moves
      // differently (not inside its stream): it is its own.
      for (Pointer &existing : pointers)
        if (!access.stream && !existing.streamFrom &&
            existing.buffer == buffer &&
            hasSameCoefficients(existing.elementOffset, moving)) {
          access.pointer = &existing;
          accesses.push_back(access);
          return;
        }
      pointers.push_back(Pointer{buffer, moving, getElementBytes(buffer),
                                 std::string(), access.stream});
      access.pointer = &pointers.back();
      accesses.push_back(access);
    };
    addAccess(leaf.getArray(), leaf.getIndices());
    for (Attribute input : leaf.getInputs()) {
      if (auto access = dyn_cast<AccessAttr>(input))
        addAccess(access.getArray().getValue(), access.getIndices());
      else
        accesses.push_back(Access());
    }
  }
  for (Pointer &pointer : pointers) {
    FailureOr<std::string> reg = allocateInteger(node);
    if (failed(reg))
      return failure();
    pointer.reg = *reg;
    int64_t byteOffset = pointer.elementOffset.constant * pointer.elementBytes;
    auto argument = argumentRegisters.find(pointer.buffer);
    if (argument != argumentRegisters.end())
      emitAddImmediate(pointer.reg, argument->second, byteOffset);
    else
      emitAddImmediate(pointer.reg, "sp",
                       frameOffsets[pointer.buffer] + byteOffset);
  }
  // Constants, in the type of the leaf that uses them.
  constants.clear();
  for (LeafOp leaf : collectLeaves(node)) {
    FpFormat format =
        *getFpFormat(kernel.lookupArray(leaf.getArray()).getElementType());
    for (Attribute input : leaf.getInputs())
      if (auto value = dyn_cast<FloatAttr>(input))
        if (failed(loadConstant(leaf, value.getValueAsDouble(), format)))
          return failure();
    if (leaf.getKind() == OpKind::relu &&
        failed(loadConstant(leaf, 0.0, format)))
      return failure();
    if ((leaf.getKind() == OpKind::rsqrt ||
         leaf.getKind() == OpKind::sigmoid) &&
        failed(loadConstant(leaf, 1.0, format)))
      return failure();
    if (leaf.getKind() == OpKind::exp || leaf.getKind() == OpKind::sigmoid)
      for (double constant : getExpConstants(format).all())
        if (failed(loadConstant(leaf, constant, format)))
          return failure();
  }
  if (failed(lowerNode(node)))
    return failure();
  for (Pointer &pointer : pointers)
    release(pointer.reg);
  for (auto &entry : constants)
    release(entry.second);
  return success();
}

bool KernelLowering::isLastEmitted(Operation *node) {
  // Last in every enclosing scope, each of them unrolled and in its last
  // iteration (a loop runs its body again).
  for (unsigned depth = scopes.size(); depth > 0; --depth) {
    const OpenScope &scope = scopes[depth - 1];
    if (scope.isLoop() || scope.value != scope.size - 1 ||
        node->getNextNode())
      return false;
    node = node->getParentOp();
  }
  return true;
}

LogicalResult KernelLowering::lowerNode(Operation *node) {
  if (auto scope = dyn_cast<ScopeOp>(node))
    return lowerScope(scope);
  return lowerLeaf(cast<LeafOp>(node));
}

LogicalResult KernelLowering::lowerScope(ScopeOp scope) {
  // A streaming region starts here when the one leaf below streams from
  // this depth (the stream rule makes its path a perfect chain).
  FailureOr<snitch::StreamingRegionOp> region = openStreamingRegion(scope);
  if (failed(region))
    return failure();
  LogicalResult result = lowerScopeBody(scope);
  if (*region) {
    builder.setInsertionPointAfter(*region);
    streamRegisters.clear();
    release(region->getScratch());
    for (const std::string &reg : streamBases)
      release(reg);
    streamBases.clear();
  }
  return result;
}

FailureOr<snitch::StreamingRegionOp>
KernelLowering::openStreamingRegion(ScopeOp scope) {
  unsigned depth = scopes.size();
  SmallVector<LeafOp> leaves = collectLeaves(scope);
  if (leaves.size() != 1)
    return snitch::StreamingRegionOp();
  LeafOp leaf = leaves.front();
  const auto &accesses = leafAccesses[leaf];
  // Inputs first, then the output: data movers in that order.
  SmallVector<unsigned, 3> positions;
  for (unsigned position = 1; position < accesses.size(); ++position)
    if (accesses[position].stream == depth)
      positions.push_back(position);
  if (accesses.front().stream == depth)
    positions.push_back(0);
  if (positions.empty())
    return snitch::StreamingRegionOp();
  SmallVector<Attribute, 3> streams;
  for (auto [dm, position] : llvm::enumerate(positions)) {
    const Access &access = accesses[position];
    // The base: the pointer plus what the unrolled scopes outside the
    // stream and the access's constant add.
    const Pointer &pointer = *access.pointer;
    int64_t elements =
        access.elementOffset.constant - pointer.elementOffset.constant;
    for (auto [k, open] : llvm::enumerate(scopes))
      if (!open.isLoop())
        elements += access.elementOffset.coeff(k) * open.value;
    std::string base = pointer.reg;
    if (elements != 0) {
      FailureOr<std::string> reg = allocateInteger(leaf);
      if (failed(reg))
        return failure();
      streamBases.push_back(*reg);
      emitAddImmediate(*reg, pointer.reg, elements * pointer.elementBytes);
      base = *reg;
    }
    StreamPattern pattern = getStreamPattern(leaf, position, depth);
    if (pattern.bounds.empty()) {
      // Every scope of the region has size 1: one element.
      pattern.bounds.push_back(1);
      pattern.strides.push_back(pointer.elementBytes);
    }
    std::string reg = "ft" + std::to_string(dm);
    streamRegisters[{leaf.getOperation(), position}] = reg;
    streams.push_back(snitch::StreamAttr::get(
        builder.getContext(),
        position == 0 ? snitch::StreamDirection::write
                      : snitch::StreamDirection::read,
        reg, base, pattern.bounds, pattern.strides, /*repeat=*/1));
  }
  FailureOr<std::string> scratch = allocateInteger(leaf);
  if (failed(scratch))
    return failure();
  auto region = snitch::StreamingRegionOp::create(
      builder, scope.getLoc(), builder.getArrayAttr(streams), *scratch);
  region.getBody().emplaceBlock();
  builder.setInsertionPointToEnd(&region.getBody().front());
  return region;
}

LogicalResult KernelLowering::lowerFrepScope(ScopeOp scope) {
  // The FREP body rule (SnitchRules.h) leaves nothing for the integer core
  // in the body: no memory access, no index value.
  FailureOr<std::string> counter = allocateInteger(scope);
  if (failed(counter))
    return failure();
  auto frep = snitch::FrepOp::create(builder, scope.getLoc(),
                                     scope.getSize(), *counter, 0, 0);
  frep.getBody().emplaceBlock();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&frep.getBody().front());
  scopes.push_back(
      OpenScope{static_cast<int64_t>(scope.getSize()), std::string(), 0, true});
  for (Operation &child : scope.getBlock())
    if (failed(lowerNode(&child)))
      return failure();
  scopes.pop_back();
  release(*counter);
  return success();
}

LogicalResult KernelLowering::lowerScopeBody(ScopeOp scope) {
  int64_t size = scope.getSize();
  unsigned depth = scopes.size();
  if (scope.getMode() == Mode::frep && size > 1)
    return lowerFrepScope(scope);
  if (isUnrolled(scope)) {
    for (int64_t value = 0; value < size; ++value) {
      scopes.push_back(OpenScope{size, std::string(), value});
      for (Operation &child : scope.getBlock())
        if (failed(lowerNode(&child)))
          return failure();
      scopes.pop_back();
    }
    return success();
  }
  FailureOr<std::string> counter = allocateInteger(scope);
  if (failed(counter))
    return failure();
  llvm::SmallVector<PromotedElement> promoted = promoteInvariantOutputs(scope);
  scopes.push_back(OpenScope{size, *counter});
  emit("li", {*counter, std::to_string(size)});
  std::string loop = newLabel();
  for (Operation &child : scope.getBlock())
    if (failed(lowerNode(&child)))
      return failure();
  // The pointers of the leaves inside that move with this scope's variable.
  llvm::SetVector<Pointer *> moving;
  for (LeafOp leaf : collectLeaves(scope))
    for (const Access &access : leafAccesses[leaf])
      if (access.pointer && access.pointer->elementOffset.coeff(depth) != 0 &&
          !(access.pointer->streamFrom && *access.pointer->streamFrom <= depth))
        moving.insert(access.pointer);
  for (Pointer *pointer : moving)
    emitAddImmediate(pointer->reg, pointer->reg,
                     pointer->elementOffset.coeff(depth) *
                         pointer->elementBytes);
  emit("addi", {*counter, *counter, "-1"});
  emit("bnez", {*counter, loop});
  release(*counter);
  scopes.pop_back();
  // The promoted elements go back to memory; their pointers did not move.
  for (const PromotedElement &element : promoted) {
    emit(element.format.store(),
         {element.reg, emitElementAddress(*element.pointer, element.elements)});
    promotedRegisters.erase({element.pointer, element.elements});
    promotedPointers.erase(element.pointer);
    release(element.reg);
  }
  // Undo this scope's advance, except where the pointers die next.
  if (!isLastEmitted(scope))
    for (Pointer *pointer : moving)
      emitAddImmediate(pointer->reg, pointer->reg,
                       -pointer->elementOffset.coeff(depth) *
                           pointer->elementBytes * size);
  return success();
}

std::optional<llvm::SmallVector<int64_t>>
KernelLowering::getInvariantElements(LeafOp leaf, ScopeOp scope,
                                     size_t limit) const {
  const Access &output = leafAccesses.find(leaf)->second.front();
  // The scopes from `scope` down to the leaf, by depth.
  llvm::SmallVector<ScopeOp, 8> path;
  for (auto inner = cast<ScopeOp>(leaf->getParentOp());;
       inner = cast<ScopeOp>(inner->getParentOp())) {
    path.push_back(inner);
    if (inner == scope)
      break;
  }
  std::reverse(path.begin(), path.end());
  // At iteration zero of every scope from `scope` down; each unrolled one
  // multiplies the set by its values, a loop (or `:f` scope) that moves the
  // address disqualifies it.
  llvm::SmallVector<int64_t> elements = {getCompileTimeElements(output)};
  for (auto [i, inner] : llvm::enumerate(path)) {
    int64_t coeff = output.elementOffset.coeff(scopes.size() + i);
    if (coeff == 0)
      continue;
    if (!isUnrolled(inner))
      return std::nullopt;
    llvm::SmallVector<int64_t> next;
    for (int64_t element : elements)
      for (int64_t value = 0, e = inner.getSize(); value < e; ++value)
        if (!llvm::is_contained(next, element + coeff * value)) {
          if (next.size() == limit)
            return std::nullopt;
          next.push_back(element + coeff * value);
        }
    elements = std::move(next);
  }
  llvm::sort(elements);
  return elements;
}

llvm::SmallVector<PromotedElement>
KernelLowering::promoteInvariantOutputs(ScopeOp scope) {
  // An output element of a leaf in the loop is promoted when (all of them
  // conservative, so that the register can never go stale or be missed):
  //  - it is memory: not a reg element (a register already) and not a
  //    write stream (a stream register, never read);
  //  - its address does not change over the loop: no loop or `:f` scope
  //    from this one down moves it. Unrolled scopes may: each element their
  //    iterations name gets its own register. The enclosing scopes are at
  //    their current iteration for the whole loop;
  //  - it is the only access in the loop's subtree to its buffer (any array
  //    stored in it, read or written, the same leaf's inputs included), so
  //    no other instruction in the loop reads or writes the memory copy;
  //  - no enclosing loop promoted it already (the outermost loop that
  //    qualifies saves the most);
  //  - its registers leave kLeafTemporaries FP registers free; otherwise
  //    it stays in memory.
  // Its pointer then moves with none of the loops from this one down (its
  // coefficients there are zero), so the loop adds no increment for it,
  // and the store after the loop uses the address of the load before.
  llvm::SmallVector<LeafOp> leaves = collectLeaves(scope);
  llvm::DenseMap<Operation *, unsigned> uses;
  for (LeafOp leaf : leaves)
    for (const Access &access : leafAccesses[leaf])
      if (access.buffer)
        ++uses[access.buffer];
  llvm::SmallVector<PromotedElement> promoted;
  for (LeafOp leaf : leaves) {
    const Access &output = leafAccesses[leaf].front();
    if (!output.pointer || output.stream || uses[output.buffer] != 1 ||
        promotedPointers.contains(output.pointer))
      continue;
    unsigned free = fps.countFree();
    if (free <= kLeafTemporaries)
      break;
    std::optional<llvm::SmallVector<int64_t>> elements =
        getInvariantElements(leaf, scope, free - kLeafTemporaries);
    if (!elements)
      continue;
    BufferOp buffer = output.buffer;
    FpFormat format = *getFpFormat(buffer.getElementType());
    promotedPointers.insert(output.pointer);
    for (int64_t element : *elements) {
      // Cannot fail: the registers were counted above.
      std::string reg = *allocateFp(leaf);
      emit(format.load(), {reg, emitElementAddress(*output.pointer, element)});
      promotedRegisters[{output.pointer, element}] = reg;
      promoted.push_back(PromotedElement{output.pointer, element, reg, format});
    }
  }
  return promoted;
}

void KernelLowering::emitIndexValue(const LinearForm &form,
                                    llvm::StringRef dst) {
  // {k} = size_k - counter_k in a loop, its value where it is unrolled.
  int64_t constant = form.constant;
  for (auto [k, scope] : llvm::enumerate(scopes))
    constant += form.coeff(k) * (scope.isLoop() ? scope.size : scope.value);
  emit("li", {dst.str(), std::to_string(constant)});
  for (auto [k, scope] : llvm::enumerate(scopes)) {
    int64_t coeff = form.coeff(k);
    if (coeff == 0 || !scope.isLoop())
      continue;
    if (coeff == 1) {
      emit("sub", {dst.str(), dst.str(), scope.counter});
      continue;
    }
    emit("li", {kScratch2.str(), std::to_string(coeff)});
    emit("mul", {kScratch2.str(), kScratch2.str(), scope.counter});
    emit("sub", {dst.str(), dst.str(), kScratch2.str()});
  }
}

int64_t KernelLowering::getCompileTimeElements(const Access &access) const {
  // The pointer holds the loops' part of the address; the unrolled
  // variables' and the constant's (relative to the pointer's) remain.
  int64_t elements =
      access.elementOffset.constant - access.pointer->elementOffset.constant;
  for (auto [k, scope] : llvm::enumerate(scopes))
    if (!scope.isLoop())
      elements += access.elementOffset.coeff(k) * scope.value;
  return elements;
}

std::string KernelLowering::emitAddress(const Access &access) {
  return emitElementAddress(*access.pointer, getCompileTimeElements(access));
}

std::string KernelLowering::emitElementAddress(const Pointer &pointer,
                                               int64_t elements) {
  int64_t bytes = elements * pointer.elementBytes;
  if (isImm12(bytes))
    return std::to_string(bytes) + "(" + pointer.reg + ")";
  emit("li", {kScratch.str(), std::to_string(bytes)});
  emit("add", {kScratch.str(), kScratch.str(), pointer.reg});
  return "0(" + kScratch.str() + ")";
}

FailureOr<std::string>
KernelLowering::getRegisterElement(LeafOp leaf, const Access &access) {
  // The register addressing rule leaves only unrolled variables here; a
  // loop's would mean the verifier let the kernel through.
  BufferOp buffer = access.buffer;
  int64_t element = access.elementOffset.constant;
  for (auto [k, scope] : llvm::enumerate(scopes)) {
    int64_t coeff = access.elementOffset.coeff(k);
    if (coeff == 0)
      continue;
    if (scope.isLoop())
      return leaf.emitError()
             << "the Snitch lowering cannot address reg buffer '"
             << buffer.getName() << "' here: its element depends on {"
             << k << "}, the variable of a loop (the register addressing "
                "rule allows constants and :u variables only)";
    element += coeff * scope.value;
  }
  const auto &registers = registerBuffers[buffer];
  if (element < 0 || element >= static_cast<int64_t>(registers.size()))
    return leaf.emitError() << "element " << element << " of reg buffer '"
                            << buffer.getName()
                            << "' is outside its storage of "
                            << registers.size() << " elements";
  return registers[element];
}

FailureOr<std::string> KernelLowering::loadOperand(
    LeafOp leaf, unsigned index, FpFormat format, llvm::StringRef into,
    llvm::SmallVectorImpl<std::string> &temporaries) {
  Attribute input = leaf.getInputs()[index];
  if (auto value = dyn_cast<FloatAttr>(input))
    return loadConstant(leaf, value.getValueAsDouble(), format);
  // Entry 0 is the output's access, entry i + 1 input i's.
  const Access &access = leafAccesses[leaf][index + 1];
  if (access.stream)
    return streamRegisters.at({leaf.getOperation(), index + 1});
  std::string element;
  FpFormat own = format;
  if (BufferOp buffer = access.buffer) {
    own = *getFpFormat(buffer.getElementType());
    if (!access.pointer) {
      FailureOr<std::string> reg = getRegisterElement(leaf, access);
      if (failed(reg))
        return failure();
      if (own.isDouble == format.isDouble)
        return reg;
      element = *reg;
    }
  }
  std::string reg = into.str();
  if (reg.empty()) {
    FailureOr<std::string> temporary = allocateFp(leaf);
    if (failed(temporary))
      return failure();
    reg = *temporary;
    temporaries.push_back(reg);
  }
  if (!access.buffer) {
    // An index value.
    auto indexValue = cast<IndexValueAttr>(input);
    emitIndexValue(getIndexForms(indexValue.getExpr()).front(), kScratch);
    emit(format.isDouble ? "fcvt.d.w" : "fcvt.s.w", {reg, kScratch.str()});
    return reg;
  }
  if (!element.empty()) {
    // A register element of the other format: converted, never in place.
    emit(format.convert(), {reg, element});
    return reg;
  }
  emit(own.load(), {reg, emitAddress(access)});
  if (own.isDouble != format.isDouble)
    emit(format.convert(), {reg, reg});
  return reg;
}

LogicalResult KernelLowering::lowerLeaf(LeafOp leaf) {
  FpFormat format =
      *getFpFormat(kernel.lookupArray(leaf.getArray()).getElementType());
  llvm::StringRef sfx = format.suffix();
  auto op = [&](llvm::StringRef name) { return (name + sfx).str(); };
  const Access &output = leafAccesses[leaf].front();
  // The output's register when it is an element of a register buffer or
  // promoted by a loop: the leaf computes into it, with no load and no
  // store.
  std::string outputReg;
  // A write stream's register takes the value like a register element; it
  // is never read (the stream rule keeps reductions off write streams).
  bool outputStreams = output.stream.has_value();
  if (outputStreams) {
    outputReg = streamRegisters.at({leaf.getOperation(), 0});
  } else if (!output.pointer) {
    FailureOr<std::string> reg = getRegisterElement(leaf, output);
    if (failed(reg))
      return failure();
    outputReg = *reg;
  } else {
    // A promoted element is a register for the whole loop that promoted it.
    auto promoted = promotedRegisters.find(
        {output.pointer, getCompileTimeElements(output)});
    if (promoted != promotedRegisters.end())
      outputReg = promoted->second;
  }
  llvm::SmallVector<std::string, 3> temporaries;
  auto done = [&]() {
    for (const std::string &reg : temporaries)
      release(reg);
    return success();
  };
  if (!outputReg.empty() && leaf.getKind() == OpKind::copy &&
      leaf.getReduce() == ReduceKind::none) {
    // A copy into a register loads (or converts) straight into it; a load
    // into a stream register would bypass the stream.
    FailureOr<std::string> value = loadOperand(
        leaf, 0, format, outputStreams ? "" : outputReg, temporaries);
    if (failed(value))
      return failure();
    if (*value != outputReg)
      emit(op("fsgnj"), {outputReg, *value, *value});
    return done();
  }
  llvm::SmallVector<std::string, 2> operands;
  for (unsigned i = 0, e = leaf.getInputs().size(); i < e; ++i) {
    FailureOr<std::string> reg =
        loadOperand(leaf, i, format, /*into=*/"", temporaries);
    if (failed(reg))
      return failure();
    operands.push_back(*reg);
  }
  // The accumulator of a reduction: the output's register, or its memory
  // element loaded into a temporary.
  std::string accumulator;
  if (leaf.getReduce() != ReduceKind::none) {
    if (!outputReg.empty()) {
      accumulator = outputReg;
    } else {
      FailureOr<std::string> reg = allocateFp(leaf);
      if (failed(reg))
        return failure();
      accumulator = *reg;
      temporaries.push_back(accumulator);
      emit(format.load(), {accumulator, emitAddress(output)});
    }
  }
  auto storeAccumulator = [&]() {
    if (outputReg.empty())
      emit(format.store(), {accumulator, emitAddress(output)});
  };
  if (leaf.getReduce() == ReduceKind::add && leaf.getKind() == OpKind::mul) {
    emit(op("fmadd"), {accumulator, operands[0], operands[1], accumulator});
    storeAccumulator();
    return done();
  }
  // The leaf's value: a copy's operand; straight in the output's register
  // when nothing is combined with it; else a temporary.
  std::string value;
  if (leaf.getKind() == OpKind::copy) {
    value = operands[0];
  } else if (leaf.getReduce() == ReduceKind::none && !outputReg.empty()) {
    value = outputReg;
  } else {
    FailureOr<std::string> reg = allocateFp(leaf);
    if (failed(reg))
      return failure();
    value = *reg;
    temporaries.push_back(value);
  }
  // Each case reads its operands before it writes `value`, which may be
  // one of them (`t[0] = t[0] * x`).
  switch (leaf.getKind()) {
  case OpKind::copy:
    break;
  case OpKind::add:
    emit(op("fadd"), {value, operands[0], operands[1]});
    break;
  case OpKind::sub:
    emit(op("fsub"), {value, operands[0], operands[1]});
    break;
  case OpKind::mul:
    emit(op("fmul"), {value, operands[0], operands[1]});
    break;
  case OpKind::div:
    emit(op("fdiv"), {value, operands[0], operands[1]});
    break;
  case OpKind::max:
    emit(op("fmax"), {value, operands[0], operands[1]});
    break;
  case OpKind::min:
    emit(op("fmin"), {value, operands[0], operands[1]});
    break;
  case OpKind::neg:
    emit(op("fsgnjn"), {value, operands[0], operands[0]});
    break;
  case OpKind::abs:
    emit(op("fsgnjx"), {value, operands[0], operands[0]});
    break;
  case OpKind::sqrt:
    emit(op("fsqrt"), {value, operands[0]});
    break;
  case OpKind::rsqrt: {
    // The root in a temporary when `value` is a write stream's register,
    // which cannot be read back.
    std::string root = value;
    if (outputStreams) {
      FailureOr<std::string> reg = allocateFp(leaf);
      if (failed(reg))
        return failure();
      root = *reg;
      temporaries.push_back(root);
    }
    emit(op("fsqrt"), {root, operands[0]});
    emit(op("fdiv"), {value, constants.at({format.isDouble
                                               ? llvm::bit_cast<uint64_t>(1.0)
                                               : llvm::bit_cast<uint32_t>(1.0f),
                                           format.isDouble}),
                      root});
    break;
  }
  case OpKind::relu:
    emit(op("fmax"), {value, operands[0],
                      constants.at({0, format.isDouble})});
    break;
  case OpKind::exp:
    // emitExp writes `value` once, last: a write stream's register is fine.
    if (failed(emitExp(leaf, operands[0], value, format, temporaries)))
      return failure();
    break;
  case OpKind::sigmoid: {
    // 1 / (1 + exp(-x)), the interpreter's formula; `value` is written
    // once, last.
    FailureOr<std::string> e = allocateFp(leaf);
    if (failed(e))
      return failure();
    temporaries.push_back(*e);
    emit(op("fsgnjn"), {*e, operands[0], operands[0]});
    if (failed(emitExp(leaf, *e, *e, format, temporaries)))
      return failure();
    std::string one = getConstant(1.0, format);
    emit(op("fadd"), {*e, *e, one});
    emit(op("fdiv"), {value, one, *e});
    break;
  }
  default:
    return leaf.emitError() << "'" << stringifyOpKind(leaf.getKind())
                            << "' has no Snitch lowering";
  }
  switch (leaf.getReduce()) {
  case ReduceKind::none:
    if (outputReg.empty()) {
      // A read stream's register is only an operand of FP computations
      // (storing it would be a memory access of the stream register): a
      // streamed copy goes through a temporary.
      bool streamed = llvm::any_of(streamRegisters, [&](const auto &entry) {
        return entry.second == value;
      });
      if (streamed) {
        FailureOr<std::string> reg = allocateFp(leaf);
        if (failed(reg))
          return failure();
        temporaries.push_back(*reg);
        emit(op("fsgnj"), {*reg, value, value});
        value = *reg;
      }
      emit(format.store(), {value, emitAddress(output)});
    }
    return done();
  case ReduceKind::add:
    emit(op("fadd"), {accumulator, accumulator, value});
    break;
  case ReduceKind::mul:
    emit(op("fmul"), {accumulator, accumulator, value});
    break;
  case ReduceKind::max:
    emit(op("fmax"), {accumulator, accumulator, value});
    break;
  case ReduceKind::min:
    emit(op("fmin"), {accumulator, accumulator, value});
    break;
  }
  storeAccumulator();
  return done();
}

void KernelLowering::emitPrologueAndEpilogue() {
  // Saved registers above the buffers and the constant slot.
  int64_t offset = frameBytes;
  llvm::SmallVector<std::pair<std::string, int64_t>> saves;
  for (llvm::StringLiteral reg : kSavedPool)
    if (savedIntegers.contains(reg)) {
      saves.push_back({reg.str(), offset});
      offset += 4;
    }
  offset = llvm::alignTo(offset, 8);
  for (llvm::StringLiteral reg : kFpPool)
    if (savedFps.contains(reg)) {
      saves.push_back({reg.str(), offset});
      offset += 8;
    }
  int64_t frame = llvm::alignTo(offset, 16);
  auto save = [&](bool restore) {
    for (auto &[reg, slot] : saves) {
      bool fp = llvm::StringRef(reg).starts_with("f");
      llvm::StringRef mnemonic =
          fp ? (restore ? "fld" : "fsd") : (restore ? "lw" : "sw");
      if (isImm12(slot)) {
        emit(mnemonic, {reg, std::to_string(slot) + "(sp)"});
      } else {
        emitAddImmediate(kScratch, "sp", slot);
        emit(mnemonic, {reg, "0(" + kScratch.str() + ")"});
      }
    }
  };
  Block &body = function.getBody().front();
  builder.setInsertionPointToEnd(&body);
  save(/*restore=*/true);
  emitAddImmediate("sp", "sp", frame);
  builder.setInsertionPointToStart(&body);
  emitAddImmediate("sp", "sp", -frame);
  save(/*restore=*/false);
}

struct ConvertDojoToSnitchPass
    : perfdojo::impl::ConvertDojoToSnitchPassBase<ConvertDojoToSnitchPass> {
  void runOnOperation() override {
    SmallVector<KernelOp> kernels(getOperation().getOps<KernelOp>());
    for (KernelOp kernel : kernels) {
      OpBuilder builder(kernel);
      auto function =
          snitch::FunctionOp::create(builder, kernel.getLoc(),
                                     kernel.getSymName());
      if (failed(KernelLowering(kernel, function).lower())) {
        function.erase();
        return signalPassFailure();
      }
      kernel.erase();
    }
  }
};

} // namespace
