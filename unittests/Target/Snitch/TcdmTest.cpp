//===- TcdmTest.cpp - the Snitch data memory ------------------------------===//

#include "perfdojo/Target/Snitch/Tcdm.h"
#include "perfdojo/Target/Snitch/SnitchCore.h"

#include "gtest/gtest.h"

using namespace perfdojo::snitch;

namespace {

std::string message(llvm::Error err) { return llvm::toString(std::move(err)); }

TEST(SnitchTcdm, SizeAndBaseComeFromTheCore) {
  SnitchCore core = SnitchCore::getDefault();
  core.memory.tcdmBase = 0x20000000u;
  core.memory.tcdmBytes = 256;
  Tcdm tcdm(core);
  EXPECT_EQ(tcdm.getBase(), 0x20000000u);
  EXPECT_EQ(tcdm.getSizeInBytes(), 256u);
  EXPECT_TRUE(tcdm.contains(0x200000f8u, 8));
  EXPECT_FALSE(tcdm.contains(0x200000f9u, 8));
  EXPECT_FALSE(tcdm.contains(0x1ffffff8u, 8));
}

TEST(SnitchTcdm, LittleEndianRoundTrips) {
  SnitchCore core = SnitchCore::getDefault();
  Tcdm tcdm(core);
  uint32_t base = tcdm.getBase();
  ASSERT_FALSE(bool(tcdm.write<uint32_t>(base, 0x11223344u)));
  EXPECT_EQ(*tcdm.read<uint8_t>(base), 0x44u);
  EXPECT_EQ(*tcdm.read<uint8_t>(base + 3), 0x11u);
  EXPECT_EQ(*tcdm.read<uint16_t>(base + 2), 0x1122u);
  ASSERT_FALSE(bool(tcdm.write<uint64_t>(base + 8, 0x0102030405060708ull)));
  EXPECT_EQ(*tcdm.read<uint32_t>(base + 8), 0x05060708u);
  ASSERT_FALSE(bool(tcdm.write<double>(base + 16, -2.5)));
  EXPECT_EQ(*tcdm.read<double>(base + 16), -2.5);
  ASSERT_FALSE(bool(tcdm.write<float>(base + 24, 1.25f)));
  EXPECT_EQ(*tcdm.read<float>(base + 24), 1.25f);
  EXPECT_EQ(*tcdm.read<uint32_t>(base + 24), 0x3fa00000u);
}

TEST(SnitchTcdm, ArraysCopyInAndOut) {
  SnitchCore core = SnitchCore::getDefault();
  Tcdm tcdm(core);
  std::vector<double> values = {1.0, 2.0, 3.5};
  ASSERT_FALSE(bool(tcdm.copyInArray<double>(tcdm.getBase() + 64, values)));
  auto back = tcdm.copyOutArray<double>(tcdm.getBase() + 64, 3);
  ASSERT_TRUE(bool(back));
  EXPECT_EQ(*back, values);
  uint8_t raw[3] = {9, 8, 7};
  ASSERT_FALSE(bool(tcdm.copyIn(tcdm.getBase() + 1, raw)));
  uint8_t out[3] = {};
  ASSERT_FALSE(bool(tcdm.copyOut(tcdm.getBase() + 1, out)));
  EXPECT_EQ(out[2], 7);
}

TEST(SnitchTcdm, BadAccessesNameTheAddress) {
  SnitchCore core = SnitchCore::getDefault();
  Tcdm tcdm(core);
  uint32_t end = tcdm.getBase() + tcdm.getSizeInBytes();
  auto outside = tcdm.read<uint64_t>(end);
  ASSERT_FALSE(bool(outside));
  EXPECT_NE(message(outside.takeError()).find("0x10020000"), std::string::npos);
  auto straddling = tcdm.read<uint32_t>(0x0ffffffeu);
  EXPECT_FALSE(bool(straddling));
  llvm::consumeError(straddling.takeError());
  std::string misaligned = message(tcdm.write<double>(tcdm.getBase() + 4, 1.0));
  EXPECT_NE(misaligned.find("misaligned 8-byte"), std::string::npos);
  EXPECT_NE(misaligned.find("0x10000004"), std::string::npos);
  uint8_t raw[16] = {};
  EXPECT_FALSE(message(tcdm.copyIn(end - 8, raw)).empty());
  auto array = tcdm.copyOutArray<double>(end - 8, 2);
  EXPECT_FALSE(bool(array));
  llvm::consumeError(array.takeError());
}

} // namespace
