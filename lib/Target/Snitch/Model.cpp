//===- Model.cpp - an executable model of one Snitch core -----------------===//
//
// The interpreter: executes the program in program order and, for every
// instruction, asks the TimingModel when it issues (rules T1-T6 in Model.h).
//
//  1. Integer instructions execute on the core (T1).
//  2. FP instructions are offloaded (T2, T4) and executed at once; their FP
//     issue cycle follows from their arrival, the scoreboard and their
//     stream elements (T5). Executing them eagerly is exact for results
//     because the only values that cross between the register files go
//     through direct-path instructions, which wait for all FP work anyway,
//     and FP stores and streams are not coherent with the core's own loads
//     before such a fence in hardware either (snitch-target.md §2.6).
//  3. frep offloads its body once and then executes every repetition with
//     the stagger offsets applied (T3).
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Target/Snitch/Model.h"

#include "FpSemantics.h"
#include "IntegerSemantics.h"
#include "Streams.h"
#include "Timing.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

using namespace perfdojo::snitch;
using llvm::Twine;
using O = Opcode;
using Offload = TimingModel::Offload;

namespace {
/// RISC-V facts the interpreter relies on.
constexpr uint32_t kInstructionBytes = 4;
constexpr unsigned kRaRegister = 1;
constexpr unsigned kSpRegister = 2;
constexpr unsigned kFirstArgumentRegister = 10; // a0
constexpr unsigned kArgumentRegisters = 8;      // a0..a7

/// The register slots an FREP stagger mask selects, by mask bit (§3.3).
constexpr RegisterSlot kStaggerSlots[] = {RegisterSlot::Rd, RegisterSlot::Rs1,
                                          RegisterSlot::Rs2, RegisterSlot::Rs3};

/// An instruction's register fields, immediate and branch target, decoded
/// once per static instruction (stagger rewrites a copy).
struct Fields {
  /// Register number per RegisterSlot, -1 when absent.
  std::array<int, 5> reg = {-1, -1, -1, -1, -1};
  int64_t imm = 0;
  size_t target = 0;

  int get(RegisterSlot slot) const { return reg[static_cast<size_t>(slot)]; }
  int &get(RegisterSlot slot) { return reg[static_cast<size_t>(slot)]; }
};

Fields decode(const Instruction &inst) {
  Fields fields;
  bool haveImmediate = false;
  for (auto [spec, op] : llvm::zip(inst.info->operands, inst.operands)) {
    if (spec.slot != RegisterSlot::None)
      fields.get(spec.slot) = static_cast<int>(op.reg);
    if ((op.kind == OperandKind::Immediate || op.kind == OperandKind::Memory) &&
        !haveImmediate) {
      fields.imm = op.imm;
      haveImmediate = true;
    }
    if (op.kind == OperandKind::Label)
      fields.target = op.target;
  }
  return fields;
}

/// The fields of repetition `offset` of a staggered FREP body instruction.
Fields stagger(Fields fields, int64_t mask, int64_t offset) {
  for (auto [bit, slot] : llvm::enumerate(kStaggerSlots))
    if (((mask >> bit) & 1) && fields.get(slot) >= 0)
      fields.get(slot) = static_cast<int>((fields.get(slot) + offset) % 32);
  return fields;
}

/// `0x` and lower-case hex digits, as assembly writes numbers.
std::string hex(uint64_t value) { return "0x" + llvm::utohexstr(value, true); }

bool isArithmetic(UnitClass unit) {
  return unit == UnitClass::FpFma64 || unit == UnitClass::FpFma32 ||
         unit == UnitClass::FpDivSqrt;
}

class Machine {
public:
  Machine(const Program &program, Tcdm &tcdm, const SnitchCore &core,
          ModelOptions options)
      : program(program), tcdm(tcdm), core(core), options(options),
        streams(core), timing(core),
        callerAddress(core.memory.textBase - kInstructionBytes) {
    for (const Instruction &inst : program.instructions)
      fields.push_back(decode(inst));
  }

  llvm::Expected<RunResult> run(size_t entry,
                                llvm::ArrayRef<uint32_t> integerArgs);

private:
  llvm::Error step();
  llvm::Error executeInteger(const Instruction &inst, const Fields &f);
  llvm::Error executeStreamConfig(const Instruction &inst, const Fields &f);
  llvm::Error executeCsr(const Instruction &inst, const Fields &f);
  llvm::Error executeFrep(const Instruction &inst, const Fields &f);
  /// Executes an FP-subsystem instruction the core offloaded at `arrival`;
  /// returns its FP issue cycle.
  llvm::Expected<int64_t> executeFp(const Instruction &inst, const Fields &f,
                                    int64_t arrival);
  llvm::Error writeFp(const Instruction &inst, unsigned reg, uint64_t image,
                      int64_t ready);
  /// Counts one dynamic instruction against the guard.
  llvm::Error count(const Instruction &inst);

  llvm::Error error(const Instruction &inst, const Twine &message) const {
    return llvm::make_error<llvm::StringError>(("line " + Twine(inst.line) +
                                                ": " + inst.getMnemonic() +
                                                ": " + message)
                                                   .str(),
                                               llvm::inconvertibleErrorCode());
  }
  llvm::Error wrap(const Instruction &inst, llvm::Error err) const {
    return error(inst, llvm::toString(std::move(err)));
  }

  uint32_t readX(int reg) const { return reg > 0 ? x[reg] : 0; }
  void writeX(int reg, uint32_t value) {
    if (reg > 0)
      x[reg] = value;
  }
  uint32_t addressOf(size_t index) const {
    return core.memory.textBase +
           static_cast<uint32_t>(index) * kInstructionBytes;
  }
  /// Integer registers an instruction reads (its integer rs1/rs2 fields).
  llvm::SmallVector<unsigned, 2> integerSources(const Instruction &inst,
                                                const Fields &f) const;

  const Program &program;
  Tcdm &tcdm;
  const SnitchCore &core;
  ModelOptions options;
  std::vector<Fields> fields;
  StreamUnit streams;
  TimingModel timing;
  const uint32_t callerAddress;

  std::array<uint32_t, 32> x{};
  std::array<uint64_t, 32> f{};
  bool ssrEnabled = false;
  size_t pc = 0;
  bool returned = false;
  int64_t returnCycle = 0;
  uint64_t dynamicInstructions = 0;
  RunResult result;
};
} // namespace

llvm::SmallVector<unsigned, 2> Machine::integerSources(const Instruction &inst,
                                                       const Fields &f) const {
  llvm::SmallVector<unsigned, 2> sources;
  for (RegisterSlot slot : {RegisterSlot::Rs1, RegisterSlot::Rs2})
    if (f.get(slot) > 0 && !inst.info->isFpRegisterSlot(slot))
      sources.push_back(static_cast<unsigned>(f.get(slot)));
  return sources;
}

llvm::Error Machine::count(const Instruction &inst) {
  if (++dynamicInstructions > options.maxInstructions)
    return error(inst, "exceeded the limit of " +
                           Twine(options.maxInstructions) +
                           " executed instructions");
  return llvm::Error::success();
}

llvm::Expected<RunResult> Machine::run(size_t entry,
                                       llvm::ArrayRef<uint32_t> integerArgs) {
  x[kRaRegister] = callerAddress;
  x[kSpRegister] =
      static_cast<uint32_t>(core.memory.tcdmBase + core.memory.tcdmBytes);
  for (auto [i, value] : llvm::enumerate(integerArgs))
    x[kFirstArgumentRegister + i] = value;
  pc = entry;
  while (!returned) {
    if (pc >= program.instructions.size()) {
      if (program.instructions.empty())
        return llvm::make_error<llvm::StringError>(
            "the program has no instructions", llvm::inconvertibleErrorCode());
      return error(program.instructions.back(),
                   "execution ran past the last instruction without "
                   "returning");
    }
    const Instruction &inst = program.instructions[pc];
    if (llvm::Error err = step())
      return std::move(err);
    int64_t cycle = std::max(timing.getCoreCycle(), timing.getFpDrainCycle());
    if (cycle > static_cast<int64_t>(options.maxCycles))
      return error(inst, "exceeded the limit of " + Twine(options.maxCycles) +
                             " cycles");
  }
  if (llvm::Error err = streams.checkAllComplete("return"))
    return error(program.instructions[pc], llvm::toString(std::move(err)));

  result.cycles = static_cast<uint64_t>(timing.finish(returnCycle));
  result.streamElements = streams.getElementCounts();
  result.integerRegisters = x;
  result.fpRegisters = f;
  return result;
}

llvm::Error Machine::step() {
  const Instruction &inst = program.instructions[pc];
  const Fields &fi = fields[pc];
  const InstructionInfo &info = *inst.info;
  if (llvm::Error err = count(inst))
    return err;
  if (info.unit == UnitClass::Frep)
    return executeFrep(inst, fi);
  if (info.unit == UnitClass::Csr)
    return executeCsr(inst, fi);
  if (info.unit == UnitClass::StreamConfig)
    return executeStreamConfig(inst, fi);
  if (!info.fpSubsystem)
    return executeInteger(inst, fi);

  // T2/T4: one integer slot to offload; queued or, on the direct path,
  // after the sequencer drained.
  ++result.fpInstructionsOffloaded;
  Offload kind = info.directPath ? Offload::DirectPath : Offload::Queued;
  int64_t offload = timing.issueOnCore(integerSources(inst, fi), kind);
  uint64_t entry = timing.getLastEntry();
  llvm::Expected<int64_t> issue = executeFp(inst, fi, offload);
  if (!issue)
    return issue.takeError();
  if (kind == Offload::Queued)
    timing.release(entry, *issue + 1);
  ++pc;
  return llvm::Error::success();
}

llvm::Error Machine::executeInteger(const Instruction &inst, const Fields &fi) {
  ++result.integerInstructionsIssued;
  Opcode op = inst.getOpcode();
  int rd = fi.get(RegisterSlot::Rd);
  uint32_t a = readX(fi.get(RegisterSlot::Rs1));
  uint32_t b = readX(fi.get(RegisterSlot::Rs2));
  uint32_t imm = static_cast<uint32_t>(fi.imm);

  // A jump to the caller's address is the kernel's return: it waits for the
  // FP subsystem like a fence (T6).
  bool isReturn = op == O::Jalr && ((a + imm) & ~1u) == callerAddress;
  int64_t cycle = timing.issueOnCore(
      integerSources(inst, fi), isReturn ? Offload::DirectPath : Offload::None);
  size_t next = pc + 1;
  bool taken = false;
  std::optional<uint32_t> value;

  auto load = [&](auto tag) -> llvm::Error {
    using T = decltype(tag);
    llvm::Expected<T> loaded = tcdm.read<T>(a + imm);
    if (!loaded)
      return wrap(inst, loaded.takeError());
    using Signed = std::make_signed_t<T>;
    bool isSigned = op == O::Lh || op == O::Lb;
    value = isSigned ? static_cast<uint32_t>(
                           static_cast<int32_t>(static_cast<Signed>(*loaded)))
                     : static_cast<uint32_t>(*loaded);
    return llvm::Error::success();
  };
  auto store = [&](auto stored) -> llvm::Error {
    if (llvm::Error err = tcdm.write(a + imm, stored))
      return wrap(inst, std::move(err));
    return llvm::Error::success();
  };
  auto branch = [&] {
    next = fi.target;
    taken = true;
  };

  switch (op) {
  case O::Auipc:
    value = intsem::computeArithmetic(op, addressOf(pc), 0, imm);
    break;
  case O::Lw:
    if (llvm::Error err = load(uint32_t()))
      return err;
    break;
  case O::Lh:
  case O::Lhu:
    if (llvm::Error err = load(uint16_t()))
      return err;
    break;
  case O::Lb:
  case O::Lbu:
    if (llvm::Error err = load(uint8_t()))
      return err;
    break;
  case O::Sw:
    if (llvm::Error err = store(b))
      return err;
    break;
  case O::Sh:
    if (llvm::Error err = store(static_cast<uint16_t>(b)))
      return err;
    break;
  case O::Sb:
    if (llvm::Error err = store(static_cast<uint8_t>(b)))
      return err;
    break;
  case O::Jal:
    value = addressOf(pc) + kInstructionBytes;
    branch();
    break;
  case O::Jalr: {
    uint32_t target = (a + imm) & ~1u;
    value = addressOf(pc) + kInstructionBytes;
    taken = true;
    if (isReturn) {
      // Stay on the return: later errors (streams left over) name it.
      returned = true;
      returnCycle = cycle;
      next = pc;
      break;
    }
    uint32_t offset = target - core.memory.textBase;
    if (target < core.memory.textBase || offset % kInstructionBytes != 0 ||
        offset / kInstructionBytes >= program.instructions.size())
      return error(inst, "jump to " + hex(target) +
                             ", which is not an instruction of the program");
    next = offset / kInstructionBytes;
    break;
  }
  default:
    if (std::optional<bool> isTaken = intsem::isBranchTaken(op, a, b)) {
      if (*isTaken)
        branch();
      break;
    }
    value = intsem::computeArithmetic(op, a, b, imm);
    if (!value)
      return error(inst, "not an integer instruction");
    break;
  }
  if (value) {
    writeX(rd, *value);
    if (rd > 0)
      timing.setIntegerReady(
          static_cast<unsigned>(rd),
          cycle + getResultLatency(inst.info->unit, core.latency));
  }
  if (taken)
    timing.takeBranch();
  pc = next;
  return llvm::Error::success();
}

llvm::Error Machine::executeStreamConfig(const Instruction &inst,
                                         const Fields &fi) {
  ++result.integerInstructionsIssued;
  int64_t cycle = timing.issueOnCore(integerSources(inst, fi), Offload::None);
  Opcode op = inst.getOpcode();
  // scfgw: rs1 holds the value, rs2 the address; the immediate forms carry
  // the address in the immediate.
  bool isRegisterForm = op == O::Scfgw || op == O::Scfgr;
  uint32_t address = isRegisterForm ? readX(fi.get(RegisterSlot::Rs2))
                                    : static_cast<uint32_t>(fi.imm);
  if (op == O::Scfgw || op == O::Scfgwi) {
    if (llvm::Error err = streams.writeConfig(
            address, readX(fi.get(RegisterSlot::Rs1)), cycle, inst.line))
      return wrap(inst, std::move(err));
  } else {
    llvm::Expected<uint32_t> value = streams.readConfig(address);
    if (!value)
      return wrap(inst, value.takeError());
    int rd = fi.get(RegisterSlot::Rd);
    writeX(rd, *value);
    if (rd > 0)
      timing.setIntegerReady(
          static_cast<unsigned>(rd),
          cycle + getResultLatency(inst.info->unit, core.latency));
  }
  ++pc;
  return llvm::Error::success();
}

llvm::Error Machine::executeCsr(const Instruction &inst, const Fields &fi) {
  ++result.integerInstructionsIssued;
  // T4: the SSR CSR rides the direct path, in order with FP work (§2.5).
  timing.issueOnCore({}, Offload::DirectPath);
  int64_t csr = inst.operands[0].imm, bits = inst.operands[1].imm;
  if (csr != core.streams.enableCsr)
    return error(inst, "CSR " + hex(csr) +
                           " is not modelled (only the SSR enable, " +
                           hex(core.streams.enableCsr) + ")");
  if (bits & ~int64_t(1))
    return error(inst,
                 "only bit 0 (enable) of CSR " + hex(csr) + " is modelled");
  if (bits & 1) {
    if (inst.getOpcode() == O::Csrci) {
      if (llvm::Error err = streams.checkAllComplete("SSR disable"))
        return wrap(inst, std::move(err));
      ssrEnabled = false;
    } else {
      ssrEnabled = true;
    }
  }
  (void)fi;
  ++pc;
  return llvm::Error::success();
}

llvm::Error Machine::executeFrep(const Instruction &inst, const Fields &fi) {
  ++result.integerInstructionsIssued;
  const FrepLimits &limits = core.frep;
  int rs1 = fi.get(RegisterSlot::Rs1);
  uint64_t repetitions = uint64_t(readX(rs1)) + 1;
  int64_t bodySize = inst.operands[1].imm;
  int64_t staggerCount = inst.operands[2].imm;
  int64_t staggerMask = inst.operands[3].imm;
  if (bodySize > limits.maxBodyInstructions)
    return error(inst, "body of " + Twine(bodySize) +
                           " instructions exceeds the " +
                           Twine(limits.maxBodyInstructions) +
                           "-entry sequencer buffer");
  if (repetitions > uint64_t(limits.maxRepetitions))
    return error(inst, Twine(repetitions) + " repetitions (" +
                           getIntegerRegisterName(rs1) + " + 1) exceed " +
                           Twine(limits.maxRepetitions));
  if (staggerCount > limits.maxStaggerCount ||
      staggerMask > limits.maxStaggerMask)
    return error(inst, "stagger count " + Twine(staggerCount) + " / mask " +
                           Twine(staggerMask) + " exceed " +
                           Twine(limits.maxStaggerCount) + " / " +
                           Twine(limits.maxStaggerMask));
  size_t first = pc + 1;
  if (first + bodySize > program.instructions.size())
    return error(inst, "body of " + Twine(bodySize) +
                           " instructions runs past the end of the program");
  for (int64_t i = 0; i < bodySize; ++i) {
    const Instruction &body = program.instructions[first + i];
    if (!body.info->isFrepRepeatable())
      return error(inst, "'" + body.getMnemonic() + "' on line " +
                             Twine(body.line) +
                             " cannot be repeated: an FREP body holds FP "
                             "compute instructions only (no direct-path "
                             "instruction, no load or store)");
  }

  // T3: one slot for frep, one per body instruction, then the sequencer
  // replays the buffered body.
  timing.issueOnCore({static_cast<unsigned>(std::max(rs1, 0))}, Offload::None);
  llvm::SmallVector<int64_t, 16> arrival, lastIssue;
  llvm::SmallVector<uint64_t, 16> entries;
  for (int64_t i = 0; i < bodySize; ++i) {
    arrival.push_back(timing.issueOnCore({}, Offload::Queued));
    entries.push_back(timing.getLastEntry());
    lastIssue.push_back(0);
    ++result.fpInstructionsOffloaded;
  }
  auto repeatOnce = [&](int64_t i, uint64_t r) -> llvm::Error {
    const Instruction &body = program.instructions[first + i];
    if (llvm::Error err = count(body))
      return err;
    int64_t offset = static_cast<int64_t>(r % uint64_t(staggerCount + 1));
    llvm::Expected<int64_t> issue = executeFp(
        body, stagger(fields[first + i], staggerMask, offset), arrival[i]);
    if (!issue)
      return issue.takeError();
    lastIssue[i] = *issue;
    return llvm::Error::success();
  };
  bool isOuter = inst.getOpcode() == O::FrepO;
  // frep.o: for r { for i }; frep.i: for i { for r } (§3.1).
  for (uint64_t outer = 0; outer < (isOuter ? repetitions : uint64_t(bodySize));
       ++outer)
    for (uint64_t inner = 0;
         inner < (isOuter ? uint64_t(bodySize) : repetitions); ++inner)
      if (llvm::Error err =
              isOuter ? repeatOnce(inner, outer) : repeatOnce(outer, inner))
        return err;
  for (int64_t i = 0; i < bodySize; ++i)
    timing.release(entries[i], lastIssue[i] + 1);
  result.frepRepetitions += repetitions;
  pc = first + bodySize;
  return llvm::Error::success();
}

llvm::Expected<int64_t> Machine::executeFp(const Instruction &inst,
                                           const Fields &fi, int64_t arrival) {
  const InstructionInfo &info = *inst.info;
  Opcode op = info.opcode;

  // Source operands: registers through the scoreboard, stream registers
  // (while SSR is enabled) as one pop per distinct register (§2.6).
  std::array<uint64_t, 3> source{};
  llvm::SmallVector<unsigned, 3> scoreboard;
  llvm::SmallVector<int64_t, 3> streamReady;
  llvm::SmallVector<std::pair<unsigned, uint64_t>, 3> popped;
  const RegisterSlot sourceSlots[] = {RegisterSlot::Rs1, RegisterSlot::Rs2,
                                      RegisterSlot::Rs3};
  for (auto [i, slot] : llvm::enumerate(sourceSlots)) {
    if (!info.isFpRegisterSlot(slot))
      continue;
    unsigned reg = static_cast<unsigned>(fi.get(slot));
    std::optional<unsigned> dm =
        ssrEnabled ? streams.getMoverOfRegister(reg) : std::nullopt;
    if (!dm) {
      source[i] = f[reg];
      scoreboard.push_back(reg);
      continue;
    }
    auto seen = llvm::find_if(popped, [&](auto &p) { return p.first == reg; });
    if (seen != popped.end()) {
      source[i] = seen->second;
      continue;
    }
    llvm::Expected<StreamUnit::Element> element = streams.pop(*dm, tcdm);
    if (!element)
      return error(inst, "stream register " + getFpRegisterName(reg) + ": " +
                             llvm::toString(element.takeError()));
    // An f32 instruction uses the low half of the 64-bit element.
    uint64_t value =
        fpsem::readsSingle(op)
            ? fpsem::boxSingle(static_cast<uint32_t>(element->value))
            : element->value;
    popped.push_back({reg, value});
    streamReady.push_back(element->readyCycle);
    source[i] = value;
  }

  int64_t issue = timing.issueOnFpu(arrival, scoreboard, streamReady);
  int64_t ready = issue + getResultLatency(info.unit, core.latency);
  if (info.isMemoryAccess())
    ++result.fpLoadStoresIssued;
  else
    ++result.fpInstructionsIssued;
  if (isArithmetic(info.unit))
    ++result.fpArithmeticOps;

  int rd = fi.get(RegisterSlot::Rd);
  bool integerResult = rd >= 0 && !info.isFpRegisterSlot(RegisterSlot::Rd);
  bool integerSource = info.hasRegisterSlot(RegisterSlot::Rs1) &&
                       !info.isFpRegisterSlot(RegisterSlot::Rs1);
  uint32_t address =
      readX(fi.get(RegisterSlot::Rs1)) + static_cast<uint32_t>(fi.imm);
  switch (op) {
  case O::Flw:
  case O::Fld: {
    uint64_t image;
    if (op == O::Fld) {
      llvm::Expected<uint64_t> loaded = tcdm.read<uint64_t>(address);
      if (!loaded)
        return wrap(inst, loaded.takeError());
      image = *loaded;
    } else {
      llvm::Expected<uint32_t> loaded = tcdm.read<uint32_t>(address);
      if (!loaded)
        return wrap(inst, loaded.takeError());
      image = fpsem::boxSingle(*loaded);
    }
    // FP loads write the register file, never a stream (§2.6).
    f[rd] = image;
    timing.setFpReady(static_cast<unsigned>(rd), ready);
    return issue;
  }
  case O::Fsw:
  case O::Fsd: {
    llvm::Error err =
        op == O::Fsd
            ? tcdm.write<uint64_t>(address, source[1])
            : tcdm.write<uint32_t>(address, static_cast<uint32_t>(source[1]));
    if (err)
      return wrap(inst, std::move(err));
    timing.noteCompletion(issue + 1);
    return issue;
  }
  default:
    if (integerResult) {
      writeX(rd, fpsem::computeFpToInteger(op, source[0], source[1]));
      if (rd > 0)
        timing.setIntegerReady(static_cast<unsigned>(rd), ready);
      return issue;
    }
    uint64_t image =
        integerSource
            ? fpsem::computeIntegerToFp(op, readX(fi.get(RegisterSlot::Rs1)))
            : fpsem::computeFpToFp(op, source[0], source[1], source[2]);
    if (llvm::Error writeErr =
            writeFp(inst, static_cast<unsigned>(rd), image, ready))
      return std::move(writeErr);
    return issue;
  }
}

llvm::Error Machine::writeFp(const Instruction &inst, unsigned reg,
                             uint64_t image, int64_t ready) {
  std::optional<unsigned> dm =
      ssrEnabled ? streams.getMoverOfRegister(reg) : std::nullopt;
  if (!dm) {
    f[reg] = image;
    timing.setFpReady(reg, ready);
    return llvm::Error::success();
  }
  if (llvm::Error err = streams.push(*dm, image, tcdm))
    return error(inst, "stream register " + getFpRegisterName(reg) + ": " +
                           llvm::toString(std::move(err)));
  timing.noteCompletion(ready);
  return llvm::Error::success();
}

/// Checks what the interpreter relies on in a Program built by hand rather
/// than by parseAssembly: base instructions with well-formed operands.
static llvm::Error verifyProgram(const Program &program) {
  auto fail = [](unsigned line, const Twine &message) {
    return llvm::make_error<llvm::StringError>(
        ("line " + Twine(line) + ": " + message).str(),
        llvm::inconvertibleErrorCode());
  };
  for (const Instruction &inst : program.instructions) {
    if (!inst.info)
      return fail(inst.line, "instruction without a table entry");
    if (inst.info->pseudo)
      return fail(inst.line, "pseudo-instruction '" + inst.getMnemonic() +
                                 "' was not expanded");
    if (inst.operands.size() != inst.info->operands.size())
      return fail(inst.line, "'" + inst.getMnemonic() + "' takes " +
                                 Twine(inst.info->operands.size()) +
                                 " operands, has " +
                                 Twine(inst.operands.size()));
    for (auto [spec, op] : llvm::zip(inst.info->operands, inst.operands)) {
      if (op.kind != spec.kind || op.reg >= 32 ||
          (op.kind == OperandKind::Label &&
           op.target > program.instructions.size()))
        return fail(inst.line,
                    "malformed operand of '" + inst.getMnemonic() + "'");
    }
    if (inst.info->unit == UnitClass::Frep && inst.operands[1].imm < 1)
      return fail(inst.line, "an FREP body holds at least one instruction");
  }
  return llvm::Error::success();
}

llvm::Expected<RunResult>
perfdojo::snitch::runProgram(const Program &program, llvm::StringRef entryLabel,
                             llvm::ArrayRef<uint32_t> integerArgs, Tcdm &tcdm,
                             const SnitchCore &core, ModelOptions options) {
  auto fail = [](const Twine &message) {
    return llvm::make_error<llvm::StringError>(message.str(),
                                               llvm::inconvertibleErrorCode());
  };
  std::optional<size_t> entry = program.lookupLabel(entryLabel);
  if (!entry)
    return fail("no label '" + entryLabel + "' to start at");
  if (integerArgs.size() > kArgumentRegisters)
    return fail(Twine(integerArgs.size()) + " integer arguments, at most " +
                Twine(kArgumentRegisters) + " (a0-a7)");
  if (tcdm.getBase() != core.memory.tcdmBase ||
      tcdm.getSizeInBytes() != core.memory.tcdmBytes)
    return fail("the TCDM does not match the core's memory map");
  if (core.frep.maxBodyInstructions < 1)
    return fail("the core's FREP sequencer buffer holds no instruction");
  if (llvm::Error err = verifyProgram(program))
    return std::move(err);
  Machine machine(program, tcdm, core, options);
  return machine.run(*entry, integerArgs);
}
