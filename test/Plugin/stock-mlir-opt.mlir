// Debian's own mlir-opt with the PerfDojo plugin: it parses and prints dojo
// kernels, runs the move passes, the optimizing passes and the lowering
// pipeline, and interprets transform scripts of moves. Passes from a pass
// plugin are reached through --pass-pipeline (the stock driver has no
// command-line flags for them).
//
// RUN: %stock_mlir_opt --load-dialect-plugin=%dojo_plugin %s | FileCheck %s --check-prefix=ROUNDTRIP
// ROUNDTRIP: dojo.kernel @softmax {
// ROUNDTRIP: dojo.buffer m f32 [9] heap
// ROUNDTRIP: dojo.leaf m[{0}] max= x[{0}, {1}]
//
// RUN: %stock_mlir_opt --load-dialect-plugin=%dojo_plugin --load-pass-plugin=%dojo_plugin %s \
// RUN:   --pass-pipeline='builtin.module(dojo.kernel(dojo-apply{moves="join_scopes m#0@0"}))' | FileCheck %s --check-prefix=MOVE
// MOVE: dojo.scope 9 {
// MOVE-NEXT: dojo.leaf m[{0}] = -inf
// MOVE: dojo.leaf y[{0}, {1}] = x[{0}, {1}] - m[{0}]
//
// The pipeline of docs/embedding.md, down to the LLVM dialect.
// RUN: %stock_mlir_opt --load-dialect-plugin=%dojo_plugin --load-pass-plugin=%dojo_plugin %s \
// RUN:   --pass-pipeline='builtin.module(dojo-heuristic{target=cpu})' | FileCheck %s --check-prefix=HEURISTIC
// HEURISTIC: dojo.buffer m f32 [9:N] reg
// HEURISTIC: dojo.scope 9:p {
// HEURISTIC: dojo.scope 16:v {
// RUN: %stock_mlir_opt --load-dialect-plugin=%dojo_plugin --load-pass-plugin=%dojo_plugin %s \
// RUN:   --pass-pipeline='builtin.module(dojo-heuristic{target=host}, dojo-to-llvm)' | FileCheck %s --check-prefix=LLVM
// LLVM: llvm.func @softmax(
// LLVM-NOT: dojo.


dojo.kernel @softmax {
  dojo.buffer x f32 [9, 16] heap in
  dojo.buffer m f32 [9] heap
  dojo.buffer s f32 [9] heap
  dojo.buffer y f32 [9, 16] heap out
  dojo.scope 9 {
    dojo.leaf m[{0}] = -inf
    dojo.scope 16 {
      dojo.leaf m[{0}] max= x[{0}, {1}]
    }
  }
  dojo.scope 9 {
    dojo.scope 16 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] - m[{0}]
      dojo.leaf y[{0}, {1}] = exp(y[{0}, {1}])
    }
  }
  dojo.scope 9 {
    dojo.leaf s[{0}] = 0
    dojo.scope 16 {
      dojo.leaf s[{0}] += y[{0}, {1}]
    }
  }
  dojo.scope 9 {
    dojo.scope 16 {
      dojo.leaf y[{0}, {1}] = y[{0}, {1}] / s[{0}]
    }
  }
}
