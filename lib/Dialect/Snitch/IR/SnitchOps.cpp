//===- SnitchOps.cpp - snitch operations and their verifiers --------------===//
//
// Every hardware limit is read from SnitchCore (Target/Snitch/SnitchCore.h)
// and every fact about an instruction (its operands, whether the FP
// sequencer may repeat it) from the instruction table
// (Target/Snitch/Instructions.h), which the executable model also runs by.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Dialect/Snitch/IR/Snitch.h"
#include "perfdojo/Dialect/Snitch/IR/InstructionFacts.h"
#include "perfdojo/Dialect/Snitch/IR/StreamConfiguration.h"
#include "perfdojo/Target/Snitch/SnitchCore.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::snitch;

#define GET_OP_CLASSES
#include "perfdojo/Dialect/Snitch/IR/SnitchOps.cpp.inc"

static const SnitchCore &getCore() {
  static const SnitchCore core = SnitchCore::getDefault();
  return core;
}

/// Fails with an error on `op` unless `reg` names an integer register.
static LogicalResult verifyIntegerRegister(Operation *op, llvm::StringRef what,
                                           llvm::StringRef reg) {
  if (isIntegerRegisterName(reg))
    return success();
  return op->emitOpError() << what << " '" << reg
                           << "' is not an integer register";
}

//===----------------------------------------------------------------------===//
// snitch.function
//===----------------------------------------------------------------------===//

void FunctionOp::build(OpBuilder &builder, OperationState &state,
                       llvm::StringRef name) {
  state.addAttribute(getSymNameAttrName(state.name),
                     builder.getStringAttr(name));
  state.addRegion()->emplaceBlock();
}

LogicalResult FunctionOp::verifyRegions() {
  // Labels are unique in the function and every label operand names one.
  llvm::StringSet<> labels;
  WalkResult result = walk([&](LabelOp label) {
    if (isIntegerRegisterName(label.getName()) ||
        isFloatRegisterName(label.getName())) {
      label.emitOpError() << "label '" << label.getName()
                          << "' is a register name";
      return WalkResult::interrupt();
    }
    if (!labels.insert(label.getName()).second) {
      label.emitOpError() << "label '" << label.getName()
                          << "' is defined twice in this function";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  result = walk([&](InsnOp insn) {
    for (llvm::StringRef target : getLabelOperands(insn)) {
      if (labels.contains(target))
        continue;
      insn.emitOpError() << "branches to '" << target
                         << "', which is no label of this function";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// snitch.streaming_region
//===----------------------------------------------------------------------===//

LogicalResult StreamingRegionOp::verify() {
  const StreamLimits &limits = getCore().streams;
  if (failed(verifyIntegerRegister(*this, "scratch register", getScratch())))
    return failure();
  if (getScratch() == "zero" || getScratch() == "x0")
    return emitOpError("the scratch register cannot be 'zero'");
  int64_t count = getStreams().size();
  if (count == 0)
    return emitOpError("configures no stream");
  if (count > limits.dataMovers)
    return emitOpError() << "configures " << count << " streams, but the core "
                         << "has " << limits.dataMovers << " data movers";
  llvm::SmallVector<bool> used(limits.dataMovers, false);
  for (StreamAttr stream : getStreams().getAsRange<StreamAttr>()) {
    std::optional<int64_t> dm = getDataMover(stream.getReg(),
                                             limits.dataMovers);
    if (!dm)
      return emitOpError() << "stream register '" << stream.getReg()
                           << "' is none of ft0-ft" << limits.dataMovers - 1;
    if (used[*dm])
      return emitOpError() << "configures two streams on '" << stream.getReg()
                           << "'";
    used[*dm] = true;
    if (failed(verifyIntegerRegister(*this, "stream base", stream.getBase())))
      return failure();
    if (stream.getBase() == getScratch())
      return emitOpError() << "the scratch register '" << getScratch()
                           << "' holds the base of the stream on '"
                           << stream.getReg() << "'";
    int64_t rank = stream.getBounds().size();
    if (rank == 0 || rank > limits.loopLevels)
      return emitOpError() << "stream on '" << stream.getReg() << "' has "
                           << rank << " levels; a data mover has 1 to "
                           << limits.loopLevels;
    if (static_cast<int64_t>(stream.getStrides().size()) != rank)
      return emitOpError() << "stream on '" << stream.getReg() << "' has "
                           << rank << " bounds but "
                           << stream.getStrides().size() << " strides";
    for (int64_t bound : stream.getBounds())
      if (bound < 1 || bound > limits.maxIterations)
        return emitOpError()
               << "stream on '" << stream.getReg() << "' has a level of "
               << bound << " iterations; a level runs 1 to "
               << limits.maxIterations;
    for (int64_t stride : stream.getStrides())
      if (stride % limits.elementBytes != 0)
        return emitOpError()
               << "stream on '" << stream.getReg() << "' has stride " << stride
               << ", not a multiple of the " << limits.elementBytes
               << "-byte stream element";
    if (stream.getRepeat() < 1 || stream.getRepeat() > limits.maxRepeat)
      return emitOpError() << "stream on '" << stream.getReg()
                           << "' repeats each element " << stream.getRepeat()
                           << " times; the repeat register allows 1 to "
                           << limits.maxRepeat;
    if (stream.getRepeat() != 1 &&
        stream.getDirection() == StreamDirection::write)
      return emitOpError() << "write stream on '" << stream.getReg()
                           << "' has a repeat; only read streams repeat";
  }
  return success();
}

LogicalResult StreamingRegionOp::verifyRegions() {
  const int64_t movers = getCore().streams.dataMovers;
  llvm::SmallVector<std::optional<StreamDirection>> directions(movers);
  for (StreamAttr stream : getStreams().getAsRange<StreamAttr>())
    directions[*getDataMover(stream.getReg(), movers)] =
        stream.getDirection();
  WalkResult result = getBody().walk([&](Operation *op) {
    if (isa<StreamingRegionOp>(op)) {
      op->emitOpError("is nested in another streaming region");
      return WalkResult::interrupt();
    }
    if (isa<ScfgwiOp, ScfgriOp, SsrEnableOp, SsrDisableOp>(op)) {
      op->emitOpError("reconfigures the streams inside a streaming region");
      return WalkResult::interrupt();
    }
    auto insn = dyn_cast<InsnOp>(op);
    if (!insn)
      return WalkResult::advance();
    RegisterUses uses = getRegisterUses(insn);
    auto check = [&](llvm::StringRef reg, bool written) {
      std::optional<int64_t> dm = getDataMover(reg, movers);
      if (!dm)
        return true;
      InFlightDiagnostic diag = insn.emitOpError();
      if (!directions[*dm]) {
        diag << "uses '" << reg
             << "', whose data mover has no stream in this region";
        return false;
      }
      if (uses.isMemoryAccess) {
        diag << "moves '" << reg
             << "' to or from memory; a stream register is only read or "
                "written by FP computations";
        return false;
      }
      if (written && *directions[*dm] == StreamDirection::read) {
        diag << "writes '" << reg << "', which is a read stream";
        return false;
      }
      if (!written && *directions[*dm] == StreamDirection::write) {
        diag << "reads '" << reg << "', which is a write stream";
        return false;
      }
      diag.abandon();
      return true;
    };
    for (llvm::StringRef reg : uses.floatReads)
      if (!check(reg, /*written=*/false))
        return WalkResult::interrupt();
    for (llvm::StringRef reg : uses.floatWrites)
      if (!check(reg, /*written=*/true))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// snitch.frep and snitch.frep_o
//===----------------------------------------------------------------------===//

/// The limits `snitch.frep` and `snitch.frep_o` share: repetitions (when
/// known), stagger fields, and a body of repeatable instructions.
static LogicalResult verifyFrepBody(Operation *op,
                                    std::optional<int64_t> repetitions,
                                    int64_t staggerCount, int64_t staggerMask,
                                    llvm::ArrayRef<Operation *> body) {
  const FrepLimits &limits = getCore().frep;
  if (repetitions && *repetitions > limits.maxRepetitions)
    return op->emitOpError() << "repeats its body " << *repetitions
                             << " times; the sequencer repeats at most "
                             << limits.maxRepetitions;
  if (staggerCount < 0 || staggerCount > limits.maxStaggerCount)
    return op->emitOpError() << "has stagger count " << staggerCount
                             << "; the sequencer allows 0 to "
                             << limits.maxStaggerCount;
  if (staggerMask < 0 || staggerMask > limits.maxStaggerMask)
    return op->emitOpError() << "has stagger mask " << staggerMask
                             << "; the sequencer allows 0 to "
                             << limits.maxStaggerMask;
  int64_t size = body.size();
  if (size == 0)
    return op->emitOpError("has an empty body");
  if (size > limits.maxBodyInstructions)
    return op->emitOpError()
           << "has a body of " << size << " instructions; the sequencer "
           << "holds at most " << limits.maxBodyInstructions;
  for (Operation *inner : body) {
    auto insn = dyn_cast<InsnOp>(inner);
    if (!insn) {
      InFlightDiagnostic diag = op->emitOpError()
                                << "body holds '" << inner->getName()
                                << "'; only FP instructions repeat";
      diag.attachNote(inner->getLoc()) << "here";
      return failure();
    }
    if (std::optional<std::string> why = findFrepObstacle(insn)) {
      InFlightDiagnostic diag = op->emitOpError()
                                << "cannot repeat '" << insn.getMnemonic()
                                << "': " << *why;
      diag.attachNote(insn.getLoc()) << "here";
      return failure();
    }
  }
  return success();
}

LogicalResult FrepOp::verify() {
  if (failed(verifyIntegerRegister(*this, "counter", getCounter())))
    return failure();
  if (getCounter() == "zero" || getCounter() == "x0")
    return emitOpError("the counter register cannot be 'zero'");
  SmallVector<Operation *> body = llvm::map_to_vector(
      getBody().front(), [](Operation &op) { return &op; });
  return verifyFrepBody(*this, getRepetitions(), getStaggerCount(),
                        getStaggerMask(), body);
}

LogicalResult FrepOOp::verify() {
  if (failed(verifyIntegerRegister(*this, "repetition register", getMaxRep())))
    return failure();
  SmallVector<Operation *> body;
  Operation *next = getOperation()->getNextNode();
  for (int64_t i = 0; i < static_cast<int64_t>(getBody()) && next;
       ++i, next = next->getNextNode())
    body.push_back(next);
  if (static_cast<int64_t>(body.size()) < static_cast<int64_t>(getBody()))
    return emitOpError() << "repeats " << getBody() << " instructions, but "
                         << body.size() << " follow it";
  return verifyFrepBody(*this, std::nullopt, getStaggerCount(),
                        getStaggerMask(), body);
}

//===----------------------------------------------------------------------===//
// ISA-level ops
//===----------------------------------------------------------------------===//

LogicalResult InsnOp::verify() {
  if (std::optional<std::string> why = findOperandError(*this))
    return emitOpError() << *why;
  return success();
}

/// A mover of the core or the broadcast mover.
static LogicalResult verifyDataMover(Operation *op, int64_t dm) {
  const StreamLimits &limits = getCore().streams;
  if ((dm >= 0 && dm < limits.dataMovers) || dm == limits.broadcastMover)
    return success();
  return op->emitOpError() << "names data mover " << dm << "; the core has 0-"
                           << limits.dataMovers - 1 << " and broadcast "
                           << limits.broadcastMover;
}

LogicalResult ScfgwiOp::verify() {
  if (failed(verifyIntegerRegister(*this, "value", getValue())))
    return failure();
  return verifyDataMover(*this, getDm());
}

LogicalResult ScfgriOp::verify() {
  if (failed(verifyIntegerRegister(*this, "result", getResult())))
    return failure();
  if (static_cast<int64_t>(getDm()) == getCore().streams.broadcastMover)
    return emitOpError("cannot read from the broadcast mover");
  return verifyDataMover(*this, getDm());
}
