//===- StreamConfiguration.cpp - SSR patterns to configuration words -----===//

#include "perfdojo/Dialect/Snitch/IR/StreamConfiguration.h"
#include "perfdojo/Target/Snitch/Assembly.h"
#include "perfdojo/Target/Snitch/SnitchCore.h"

#include <map>

using namespace perfdojo;
using namespace perfdojo::snitch;

std::optional<int64_t> snitch::getDataMover(llvm::StringRef reg,
                                            int64_t dataMovers) {
  // Mover dm is bound to FP register f<dm> (ft<dm>).
  std::optional<unsigned> number = parseFpRegister(reg);
  if (!number || *number >= dataMovers)
    return std::nullopt;
  return *number;
}

std::vector<int64_t>
snitch::getDeltaStrides(llvm::ArrayRef<int64_t> boundsOuterFirst,
                        llvm::ArrayRef<int64_t> stridesOuterFirst) {
  size_t rank = boundsOuterFirst.size();
  std::vector<int64_t> deltas(rank);
  // Bytes the levels inside level k have advanced when level k steps.
  int64_t covered = 0;
  for (size_t k = 0; k < rank; ++k) {
    int64_t stride = stridesOuterFirst[rank - 1 - k];
    deltas[k] = stride - covered;
    covered += stride * (boundsOuterFirst[rank - 1 - k] - 1);
  }
  return deltas;
}

std::vector<ConfigurationWrite>
snitch::planStreamConfiguration(llvm::ArrayRef<StreamAttr> streams) {
  const SnitchCore core = SnitchCore::getDefault();
  // word -> (dm -> value), for every stream.
  std::map<int64_t, std::map<int64_t, int64_t>> values;
  for (StreamAttr stream : streams) {
    int64_t dm = *getDataMover(stream.getReg(), core.streams.dataMovers);
    values[kRepeatWord][dm] = stream.getRepeat() - 1;
    llvm::ArrayRef<int64_t> bounds = stream.getBounds();
    std::vector<int64_t> deltas = getDeltaStrides(bounds, stream.getStrides());
    for (size_t level = 0; level < bounds.size(); ++level) {
      values[kBoundsWord + level][dm] = bounds[bounds.size() - 1 - level] - 1;
      values[kStridesWord + level][dm] = deltas[level];
    }
  }
  std::vector<ConfigurationWrite> writes;
  for (const auto &[word, perMover] : values) {
    int64_t first = perMover.begin()->second;
    bool shared = streams.size() > 1 && perMover.size() == streams.size() &&
                  llvm::all_of(perMover, [first](const auto &entry) {
                    return entry.second == first;
                  });
    if (shared) {
      writes.push_back({word, core.streams.broadcastMover, first, {}});
      continue;
    }
    for (const auto &[dm, value] : perMover)
      writes.push_back({word, dm, value, {}});
  }
  for (StreamAttr stream : streams) {
    int64_t dm = *getDataMover(stream.getReg(), core.streams.dataMovers);
    int64_t first = stream.getDirection() == StreamDirection::read
                        ? kReadPointerWord
                        : kWritePointerWord;
    writes.push_back({first + static_cast<int64_t>(stream.getBounds().size()) - 1,
                      dm, 0, stream.getBase()});
  }
  return writes;
}
