//===- TunedRecords.h - recorded search results by kernel hash ---*- C++ -*-===//
//
// What `dojo-apply-tuned` replays: the best move sequences that searches
// recorded (`perfdojo-search --out DIR` writes DIR/report.json, `--cache
// DIR` also DIR/<key>-<strategy>.report.json) and move
// scripts attached to a kernel by hand (`HASH.moves`), indexed by the hash
// of the kernel's canonical `.dojo` text (hashKernelText, the key the
// evaluator files evaluations under).
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SEARCH_TUNEDRECORDS_H
#define PERFDOJO_SEARCH_TUNEDRECORDS_H

#include "perfdojo/Moves/Move.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace perfdojo {

/// One recorded program of a kernel.
struct TunedProgram {
  llvm::SmallVector<MoveRequest> moves;
  /// The file it came from, for messages.
  std::string source;
  /// Threads the search timed at (0 for an attached script, or a GPU or
  /// Snitch search).
  unsigned threads = 0;
  /// The search's best time in seconds (0 when unknown).
  double bestSeconds = 0;
  /// An attached `HASH.moves` script rather than a search report.
  bool attached = false;
};

class TunedRecords {
public:
  /// Reads every `HASH.moves` directly in `directory` and every
  /// `report.json` and `*.report.json` below it. A malformed file is an
  /// error naming it.
  static llvm::Expected<TunedRecords> load(llvm::StringRef directory);

  /// The program recorded for the kernel whose canonical text hashes to
  /// `hash`: an attached script first, else the search at `threads`
  /// threads (any when 0) with the fastest best time. Null when there is
  /// none.
  const TunedProgram *lookup(llvm::StringRef hash, unsigned threads = 0) const;

  /// Kernels with at least one record.
  size_t size() const { return programs.size(); }

private:
  llvm::Error addReport(llvm::StringRef path);
  llvm::Error addScript(llvm::StringRef path, llvm::StringRef hash);

  llvm::StringMap<llvm::SmallVector<TunedProgram, 1>> programs;
};

} // namespace perfdojo

#endif // PERFDOJO_SEARCH_TUNEDRECORDS_H
