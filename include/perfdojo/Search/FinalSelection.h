//===- FinalSelection.h - the result a search reports -----------*- C++ -*-===//
//
// A search ranks candidates on a few repetitions taken over minutes of
// changing machine load, so its fastest record tends to be a lucky one.
// The result is decided after the strategy: the original and the fastest
// distinct programs are timed again back to back
// (SearchContext::selectFinal), and the fastest by those times wins; the
// original's time is its new time too.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SEARCH_FINALSELECTION_H
#define PERFDOJO_SEARCH_FINALSELECTION_H

#include "perfdojo/Search/Strategy.h"

namespace perfdojo {

struct SearchResult {
  /// The winning record and the original's; null when none is valid.
  const SearchRecord *best = nullptr, *baseline = nullptr;
  /// Their times: from the final selection where it timed them, else the
  /// search's.
  double bestSeconds = 0, baselineSeconds = 0;
  /// The final selection's programs (SearchContext::selectFinal's order),
  /// empty when there was none.
  std::vector<FinalTime> finals;
};

/// The result of a search whose fastest record is `best` and whose original
/// is `baseline`, given the final selection's new times `finals` (failed
/// re-runs are ignored; without a valid one the search's times stand).
SearchResult chooseResult(const SearchRecord *best,
                          const SearchRecord *baseline,
                          std::vector<FinalTime> finals);

/// Runs the final selection of `candidates` programs with `repetitions`
/// runs each (none when `candidates` is 0 or no program is valid) and
/// chooses the result.
SearchResult selectResult(SearchContext &search, unsigned candidates,
                          unsigned repetitions);

} // namespace perfdojo

#endif // PERFDOJO_SEARCH_FINALSELECTION_H
