//===- Statistics.h - the median and minimum of timings ---------*- C++ -*-===//
//
// How PerfDojo summarizes repeated timings, for every engine: the median
// (the mean of the two middle values of an even count) and the minimum.
// The C++ standard library only, so the GPU runtime's standalone launcher
// uses it too.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SUPPORT_STATISTICS_H
#define PERFDOJO_SUPPORT_STATISTICS_H

#include <algorithm>
#include <vector>

namespace perfdojo {

struct MedianAndMin {
  double median = 0;
  double min = 0;
};

/// The median and minimum of `values` (both 0 when there are none).
inline MedianAndMin getMedianAndMin(std::vector<double> values) {
  MedianAndMin result;
  if (values.empty())
    return result;
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  result.median =
      n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
  result.min = values.front();
  return result;
}

} // namespace perfdojo

#endif // PERFDOJO_SUPPORT_STATISTICS_H
