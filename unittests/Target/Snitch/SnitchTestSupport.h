//===- SnitchTestSupport.h - running assembly snippets in tests -*- C++ -*-===//
//
// Parse-and-run helpers shared by the Snitch model tests: a kernel's entry
// label is `k` unless a test says otherwise.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_UNITTESTS_TARGET_SNITCH_SNITCHTESTSUPPORT_H
#define PERFDOJO_UNITTESTS_TARGET_SNITCH_SNITCHTESTSUPPORT_H

#include "perfdojo/Target/Snitch/Assembly.h"
#include "perfdojo/Target/Snitch/Model.h"
#include "perfdojo/Target/Snitch/SnitchCore.h"
#include "perfdojo/Target/Snitch/Tcdm.h"

#include "llvm/ADT/bit.h"
#include "gtest/gtest.h"

#include <string>

namespace perfdojo::snitch::testing {

/// Runs `text` from `entry`; a parse or run error fails the test.
inline RunResult runOk(llvm::StringRef text, llvm::ArrayRef<uint32_t> args,
                       Tcdm &tcdm, const SnitchCore &core,
                       llvm::StringRef entry = "k") {
  llvm::Expected<Program> program = parseAssembly(text);
  if (!program) {
    ADD_FAILURE() << "parse error: " << llvm::toString(program.takeError());
    return {};
  }
  llvm::Expected<RunResult> result =
      runProgram(*program, entry, args, tcdm, core);
  if (!result) {
    ADD_FAILURE() << "run error: " << llvm::toString(result.takeError());
    return {};
  }
  return *result;
}

/// The message of the error running `text` fails with ("" and a test
/// failure if it parses and runs).
inline std::string runError(llvm::StringRef text, llvm::ArrayRef<uint32_t> args,
                            Tcdm &tcdm, const SnitchCore &core,
                            ModelOptions options = {}) {
  llvm::Expected<Program> program = parseAssembly(text);
  if (!program)
    return llvm::toString(program.takeError());
  llvm::Expected<RunResult> result =
      runProgram(*program, "k", args, tcdm, core, options);
  if (result) {
    ADD_FAILURE() << "expected an error, the run succeeded";
    return "";
  }
  return llvm::toString(result.takeError());
}

/// The message of the error parsing `text` ("" and a failure if it parses).
inline std::string parseError(llvm::StringRef text) {
  llvm::Expected<Program> program = parseAssembly(text);
  if (program) {
    ADD_FAILURE() << "expected a parse error";
    return "";
  }
  return llvm::toString(program.takeError());
}

inline double asDouble(uint64_t image) { return llvm::bit_cast<double>(image); }
inline uint64_t bitsOf(double value) { return llvm::bit_cast<uint64_t>(value); }

} // namespace perfdojo::snitch::testing

#endif // PERFDOJO_UNITTESTS_TARGET_SNITCH_SNITCHTESTSUPPORT_H
