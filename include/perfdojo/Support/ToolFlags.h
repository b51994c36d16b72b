//===- ToolFlags.h - command-line helpers shared by the tools --*- C++ -*-===//
//
// Small pieces of the tools' command-line interface: flag spelling and the
// way times are printed.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SUPPORT_TOOLFLAGS_H
#define PERFDOJO_SUPPORT_TOOLFLAGS_H

#include "perfdojo/Support/CacheState.h"
#include "perfdojo/Support/PageBacking.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace perfdojo {

/// argv with `--from[=V]` / `-from[=V]` spelled `--to[=V]`. The tools offer
/// `--threads`, a name a library linked into them already registers with
/// llvm::cl, so they register it under another name and rename it here
/// before parsing. `storage` owns the rewritten strings.
inline std::vector<char *> renameFlag(int argc, char **argv,
                                      llvm::StringRef from, llvm::StringRef to,
                                      std::vector<std::string> &storage) {
  std::vector<char *> result;
  storage.reserve(argc);
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    llvm::StringRef name = arg.ltrim('-');
    bool dashed = i > 0 && arg.starts_with("-") && arg.size() - name.size() <= 2;
    if (dashed && (name == from || name.starts_with((from + "=").str()))) {
      storage.push_back("--" + to.str() + name.drop_front(from.size()).str());
      result.push_back(storage.back().data());
      continue;
    }
    result.push_back(argv[i]);
  }
  return result;
}

/// Parses a tool's command line: `--help` lists `category` only, and
/// `--threads` reaches the option registered as `threadsName`.
inline void parseToolCommandLine(int argc, char **argv,
                                 llvm::cl::OptionCategory &category,
                                 llvm::StringRef threadsName,
                                 llvm::StringRef overview) {
  llvm::cl::HideUnrelatedOptions(category);
  std::vector<std::string> renamed;
  std::vector<char *> arguments =
      renameFlag(argc, argv, "threads", threadsName, renamed);
  llvm::cl::ParseCommandLineOptions(arguments.size(), arguments.data(),
                                    overview);
}

/// The `--cache-state` flag of every tool that times (perfdojo-run,
/// perfdojo-run-torch, perfdojo-search): its values and its help.
inline auto getCacheStateValues() {
  return llvm::cl::values(
      clEnumValN(CacheState::Cold, "cold",
                 "every repetition on argument copies the last-level cache "
                 "no longer holds (default)"),
      clEnumValN(CacheState::Warm, "warm",
                 "every repetition on the same arguments, as a loop calling "
                 "the kernel finds them"));
}
constexpr const char *kCacheFlagHelp =
    "The cache the timed repetitions start from";

/// The `--pages` flag of every tool that times (perfdojo-run,
/// perfdojo-search, perfdojo-tune): its values and its help.
inline auto getPageBackingValues() {
  return llvm::cl::values(
      clEnumValN(PageBacking::Huge, "huge",
                 "large buffers on transparent huge pages (default)"),
      clEnumValN(PageBacking::Small, "small",
                 "every buffer on 4 KiB pages, as malloc'd memory and "
                 "PyTorch's tensors are"));
}
constexpr const char *kPagesFlagHelp =
    "The pages the timed kernel's buffers live on";

/// `12.345 ms` at or above a millisecond, `3.210 us` below.
inline std::string formatSeconds(double seconds) {
  return seconds >= 1e-3 ? llvm::formatv("{0:f3} ms", seconds * 1e3).str()
                         : llvm::formatv("{0:f3} us", seconds * 1e6).str();
}

/// A report's `time:` line without its end, as perfdojo-run and
/// perfdojo-run-torch print it: the median and the minimum of `repetitions`
/// timed calls, then what they ran on: " rotating N input copies", " on one
/// warm copy of the inputs", or nothing (a cold cache the data alone does
/// not fit).
inline void printTimeLine(llvm::raw_ostream &os, double medianSeconds,
                          double minSeconds, unsigned repetitions,
                          unsigned copies, CacheState cache) {
  os << "time: median " << formatSeconds(medianSeconds) << ", min "
     << formatSeconds(minSeconds) << " over " << repetitions << " run(s)";
  if (cache == CacheState::Warm)
    os << " on one warm copy of the inputs";
  else if (copies > 1)
    os << " rotating " << copies << " input copies";
}

} // namespace perfdojo

#endif // PERFDOJO_SUPPORT_TOOLFLAGS_H
