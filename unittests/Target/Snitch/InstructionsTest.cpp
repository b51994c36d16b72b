//===- InstructionsTest.cpp - the Snitch instruction table ----------------===//

#include "perfdojo/Target/Snitch/Instructions.h"
#include "perfdojo/Target/Snitch/SnitchCore.h"

#include "llvm/ADT/StringSet.h"
#include "gtest/gtest.h"

using namespace perfdojo::snitch;

namespace {

TEST(SnitchInstructions, TableIsIndexedByOpcode) {
  llvm::StringSet<> names;
  for (auto [index, info] : llvm::enumerate(getAllInstructions())) {
    EXPECT_EQ(static_cast<size_t>(info.opcode), index) << info.mnemonic.str();
    EXPECT_EQ(&getInstructionInfo(info.opcode), &info);
    EXPECT_EQ(lookupInstruction(info.mnemonic), &info);
    EXPECT_TRUE(names.insert(info.mnemonic).second) << info.mnemonic.str();
  }
  EXPECT_EQ(getAllInstructions().back().opcode, Opcode::FabsD);
}

TEST(SnitchInstructions, UnknownMnemonicsAreNull) {
  EXPECT_EQ(lookupInstruction("vfadd.s"), nullptr);
  EXPECT_EQ(lookupInstruction("FMADD.D"), nullptr); // exact, lower case
  EXPECT_EQ(lookupInstruction(""), nullptr);
}

TEST(SnitchInstructions, FrepBodiesHoldFpComputeOnly) {
  for (const char *ok : {"fmadd.d", "fadd.s", "fmul.d", "fsgnj.d", "fmv.d",
                         "fmin.d", "fcvt.d.s", "fcvt.s.d", "fsqrt.d"})
    EXPECT_TRUE(lookupInstruction(ok)->isFrepRepeatable()) << ok;
  // Direct path, memory, integer, configuration.
  for (const char *bad :
       {"feq.d",    "flt.s",    "fle.d", "fclass.d", "fmv.x.w", "fmv.w.x",
        "fcvt.d.w", "fcvt.w.d", "fld",   "fsd",      "flw",     "fsw",
        "csrsi",    "csrci",    "add",   "addi",     "lw",      "frep.o",
        "frep.i",   "scfgwi",   "li",    "j"})
    EXPECT_FALSE(lookupInstruction(bad)->isFrepRepeatable()) << bad;
}

TEST(SnitchInstructions, DirectPathAndSubsystem) {
  EXPECT_TRUE(lookupInstruction("fmv.x.w")->directPath);
  EXPECT_TRUE(lookupInstruction("fcvt.d.w")->directPath);
  EXPECT_TRUE(lookupInstruction("csrci")->directPath);
  EXPECT_FALSE(lookupInstruction("fmadd.d")->directPath);
  EXPECT_TRUE(lookupInstruction("fld")->fpSubsystem);
  EXPECT_TRUE(lookupInstruction("fld")->mayLoad());
  EXPECT_TRUE(lookupInstruction("fsd")->mayStore());
  EXPECT_FALSE(lookupInstruction("mul")->fpSubsystem);
  EXPECT_FALSE(lookupInstruction("scfgwi")->fpSubsystem);
  const InstructionInfo *fmv = lookupInstruction("fmv.d");
  EXPECT_TRUE(fmv->pseudo);
  EXPECT_EQ(fmv->unit, UnitClass::FpNonComp);
}

TEST(SnitchInstructions, OperandSlots) {
  const InstructionInfo *fmadd = lookupInstruction("fmadd.d");
  ASSERT_EQ(fmadd->operands.size(), 4u);
  EXPECT_TRUE(fmadd->isFpRegisterSlot(RegisterSlot::Rs3));
  const InstructionInfo *fsd = lookupInstruction("fsd");
  // fsd writes its data register first; it fills rs2, the base fills rs1.
  EXPECT_TRUE(fsd->isFpRegisterSlot(RegisterSlot::Rs2));
  EXPECT_TRUE(fsd->hasRegisterSlot(RegisterSlot::Rs1));
  EXPECT_FALSE(fsd->isFpRegisterSlot(RegisterSlot::Rs1));
  EXPECT_FALSE(fsd->hasRegisterSlot(RegisterSlot::Rd));
  const InstructionInfo *feq = lookupInstruction("feq.d");
  EXPECT_TRUE(feq->hasRegisterSlot(RegisterSlot::Rd));
  EXPECT_FALSE(feq->isFpRegisterSlot(RegisterSlot::Rd));
}

TEST(SnitchInstructions, LatenciesComeFromTheCore) {
  Latencies latency;
  latency.fpFma64 = 11;
  latency.fpNonComp = 7;
  latency.integerMul = 5;
  EXPECT_EQ(getResultLatency(lookupInstruction("fmadd.d")->unit, latency), 11);
  EXPECT_EQ(getResultLatency(lookupInstruction("fmv.d")->unit, latency), 7);
  EXPECT_EQ(getResultLatency(lookupInstruction("mulhu")->unit, latency), 5);
  EXPECT_EQ(getResultLatency(lookupInstruction("fld")->unit, latency),
            latency.fpLoad);
  EXPECT_EQ(getResultLatency(lookupInstruction("fadd.s")->unit, latency),
            latency.fpFma32);
}

} // namespace
