//===- InitAll.h - everything PerfDojo registers ----------------*- C++ -*-===//
//
// What a driver registers to know PerfDojo: `perfdojo-opt`, the plugin that
// Debian's stock `mlir-opt` loads (docs/embedding.md), and any compiler that
// embeds the dialect call these, so no list of dialects or passes is written
// twice.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_REGISTRATION_INITALL_H
#define PERFDOJO_REGISTRATION_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace perfdojo {

/// The dojo and snitch dialects, the transform dialect extension of the
/// moves, and what the GPU lowering needs (the gpu, nvvm and rocdl
/// dialects, their LLVM conversion interfaces and translations).
void registerAllDialects(mlir::DialectRegistry &registry);

/// Every PerfDojo pass and pipeline: the move passes (`dojo-apply`, ...),
/// the optimizing passes (`dojo-heuristic`, ...), the conversions
/// (`convert-dojo-to-scf`, `convert-linalg-to-dojo`, ...), the Snitch passes
/// and the `dojo-to-llvm` and `dojo-to-gpu` pipelines. Upstream passes are
/// not included: a driver registers those itself.
void registerAllPasses();

} // namespace perfdojo

#endif // PERFDOJO_REGISTRATION_INITALL_H
