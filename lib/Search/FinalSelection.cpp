//===- FinalSelection.cpp - the result a search reports -------------------===//

#include "perfdojo/Search/FinalSelection.h"

using namespace perfdojo;

SearchResult perfdojo::chooseResult(const SearchRecord *best,
                                    const SearchRecord *baseline,
                                    std::vector<FinalTime> finals) {
  SearchResult result;
  result.best = best;
  result.baseline = baseline;
  result.bestSeconds = best ? best->evaluation.seconds : 0;
  result.baselineSeconds = baseline ? baseline->evaluation.seconds : 0;
  const FinalTime *fastest = nullptr;
  for (const FinalTime &f : finals) {
    if (!f.evaluation.ok())
      continue;
    if (f.record == baseline)
      result.baselineSeconds = f.evaluation.seconds;
    if (!fastest || f.evaluation.seconds < fastest->evaluation.seconds)
      fastest = &f;
  }
  if (fastest) {
    result.best = fastest->record;
    result.bestSeconds = fastest->evaluation.seconds;
  }
  result.finals = std::move(finals);
  return result;
}

SearchResult perfdojo::selectResult(SearchContext &search, unsigned candidates,
                                    unsigned repetitions) {
  std::vector<FinalTime> finals;
  if (search.getBest() && candidates > 0)
    finals = search.selectFinal(candidates, repetitions);
  return chooseResult(search.getBest(), search.getBaseline(),
                      std::move(finals));
}
