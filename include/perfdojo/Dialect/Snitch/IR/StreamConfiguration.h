//===- StreamConfiguration.h - SSR patterns to configuration words -*- C++ -*-===//
//
// How a stream's pattern (absolute strides, outermost level first) becomes
// the words of its data mover (iterations - 1 and delta strides, innermost
// level 0), stated once for the lowering and its tests. The word numbers
// are the Xssr register map (Target/Snitch/SsrWords.h).
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_DIALECT_SNITCH_IR_STREAMCONFIGURATION_H
#define PERFDOJO_DIALECT_SNITCH_IR_STREAMCONFIGURATION_H

#include "perfdojo/Dialect/Snitch/IR/Snitch.h"
#include "perfdojo/Target/Snitch/SsrWords.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace perfdojo::snitch {

/// One `scfgwi`: a constant `value`, or the integer register `pointer`
/// when it is not empty, written to `word` of mover `dm`.
struct ConfigurationWrite {
  int64_t word;
  int64_t dm;
  int64_t value = 0;
  llvm::StringRef pointer;
};

/// The data mover of FP register `reg` (`ft<dm>`), if it names one of the
/// first `dataMovers` FP registers.
std::optional<int64_t> getDataMover(llvm::StringRef reg, int64_t dataMovers);

/// The hardware stride words of a pattern, innermost level first: level k
/// adds `strides[k] - sum_{j<k} strides[j] * (bounds[j] - 1)` (levels
/// renumbered innermost first), so the address is always
/// `base + sum_k i_k * strides[k]`.
std::vector<int64_t> getDeltaStrides(llvm::ArrayRef<int64_t> boundsOuterFirst,
                                     llvm::ArrayRef<int64_t> stridesOuterFirst);

/// The writes that configure and start `streams` (verified): their repeat,
/// bound and stride words, a word whose value every stream shares written
/// once to the broadcast mover, then each stream's pointer word.
std::vector<ConfigurationWrite>
planStreamConfiguration(llvm::ArrayRef<StreamAttr> streams);

} // namespace perfdojo::snitch

#endif // PERFDOJO_DIALECT_SNITCH_IR_STREAMCONFIGURATION_H
