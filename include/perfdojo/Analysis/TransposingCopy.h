//===- TransposingCopy.h - copies transposed through registers --*- C++ -*-===//
//
// A `:v` copy whose lanes write consecutive elements and read across its
// source's rows (a relayout that transposes) gathers each vector lane by
// lane. Inside a chain of `:u` scopes whose variables read one run of
// consecutive source elements, the CPU lowering instead loads each lane's
// run as vectors, transposes squares of them in registers and stores one
// vector per row (docs/codegen.md, "Transposing copies"). This header is
// the one statement of that shape: the lowering emits squares where it
// holds, the heuristic pass builds the chains that make it hold.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_ANALYSIS_TRANSPOSINGCOPY_H
#define PERFDOJO_ANALYSIS_TRANSPOSINGCOPY_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/IR/TargetDescription.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace perfdojo {

/// The copy leaf of a `:v` scope whose lanes transpose: `dst[...] = src[...]`
/// between two buffers of one element type (not bool), the output moving by
/// one element per lane and the source by neither zero nor one (in the
/// physical layout), with squares of `square` lanes on the target
/// (TargetDescription::getTransposeLanes) dividing the lanes.
struct TransposingLanes {
  dojo::ScopeOp lanes;
  dojo::LeafOp leaf;
  dojo::AccessAttr source;
  dojo::BufferOp from, to;
  int64_t square = 0;

  /// Source elements the read moves when the variable of `depth` (a scope
  /// around the lanes) grows by one, in the physical layout.
  int64_t getSourceStride(unsigned depth) const;
};
std::optional<TransposingLanes>
matchTransposingLanes(dojo::ScopeOp lanes, const TargetDescription &target);

/// A transposing copy: a chain of `:u` scopes `rows` (each the only child
/// of the one above) around transposing lanes, whose unrolled variables read
/// one run of consecutive source elements (row-major over them), a whole
/// number of squares long.
struct TransposingCopy {
  llvm::SmallVector<dojo::ScopeOp> rows;
  TransposingLanes lanes;
  /// The consecutive source elements each lane reads.
  int64_t run = 1;
};
/// The transposing copy whose outermost row is `unroll`, or nullopt.
std::optional<TransposingCopy>
matchTransposingCopy(dojo::ScopeOp unroll, const TargetDescription &target);

} // namespace perfdojo

#endif // PERFDOJO_ANALYSIS_TRANSPOSINGCOPY_H
