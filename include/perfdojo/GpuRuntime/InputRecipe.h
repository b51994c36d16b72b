//===- InputRecipe.h - regenerating a bundle's inputs ------------*- C++ -*-===//
//
// A bundle for a GPU machine may carry, instead of its input files, the
// recipe of the seeded input generator (Support/InputValues.h): the seed
// and the arrays whose values must be positive. The launcher regenerates
// the same bytes there, so a kernel at a large shape travels as a few
// kilobytes. Text, one statement per line, versioned by its first line:
//
//   perfdojo-input-recipe 1
//   seed 1
//   positive w
//
// Every `positive NAME` names an argument buffer of the plan it is used
// with; names of other buffers are refused.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_GPURUNTIME_INPUTRECIPE_H
#define PERFDOJO_GPURUNTIME_INPUTRECIPE_H

#include "perfdojo/GpuRuntime/LaunchPlan.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace perfdojo::gpu {

struct InputRecipe {
  uint64_t seed = 1;
  std::set<std::string> positive;

  /// The canonical text.
  std::string print() const;
  /// Reads `text`; on failure, false and `error` names the line.
  static bool parse(const std::string &text, InputRecipe &recipe,
                    std::string &error);
};

/// The bytes fillInputs would give the argument buffers of `plan`: one
/// entry per argument buffer in plan order, exactly its bytes for `in` and
/// `inout` buffers, empty for `out` buffers (runPlan's `arguments`). False
/// with `error` for an element type the generator does not know or a
/// positive name that is no input buffer of the plan.
bool generateInputs(const LaunchPlan &plan, const InputRecipe &recipe,
                    std::vector<std::vector<char>> &arguments,
                    std::string &error);

} // namespace perfdojo::gpu

#endif // PERFDOJO_GPURUNTIME_INPUTRECIPE_H
