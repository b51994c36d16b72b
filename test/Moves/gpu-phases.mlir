// The GPU `:b` phase rule (docs/moves.md section 10, Analysis/Concurrency.h):
// shared-memory tiling as a load phase and a compute phase, both `:b`,
// inside a sequential scope of the kernel. Threads of different phases are
// ordered by the barrier between them, so the compute phase may read what
// other threads loaded; each phase on its own is race-free in every
// iteration of the sequential scope.
// RUN: rm -rf %t && split-file %s %t
// RUN: perfdojo-opt %t/tiled.mlir --dojo-apply="set_gpu_grid y#0@0; set_gpu_block y#0@1; set_gpu_block t@2; set_gpu_block y#1@2" | FileCheck %s
// RUN: perfdojo-opt %t/tiled.mlir --dojo-apply="set_gpu_grid y#0@0; set_gpu_block y#0@1; set_gpu_block t@2; set_gpu_block y#1@2" -o %t/tiled.moved.mlir
// RUN: perfdojo-run --engine=interp %t/tiled.mlir | grep '^output' > %t/tiled.sum
// RUN: perfdojo-run --engine=interp %t/tiled.moved.mlir | grep '^output' > %t/tiled.moved.sum
// RUN: diff %t/tiled.sum %t/tiled.moved.sum
// The inverses restore the input.
// RUN: perfdojo-opt %t/tiled.mlir > %t/tiled.orig
// RUN: perfdojo-opt %t/tiled.mlir --dojo-apply="set_gpu_grid y#0@0; set_gpu_block y#0@1; set_gpu_block t@2; set_gpu_block y#1@2; clear_mode y#1@2; clear_mode t@2; clear_mode y#0@1; clear_mode y#0@0" > %t/tiled.rt
// RUN: diff %t/tiled.orig %t/tiled.rt
//
// Two-dimensional blocks are mapped one `:b` scope at a time: a phase whose
// inner `:b` is not set yet agrees with a complete one (its shape [2] is a
// prefix of [2, 4]).
// RUN: perfdojo-opt %t/shape2d.mlir --dojo-apply="set_gpu_grid t@0; set_gpu_block t@1; set_gpu_block t@2; set_gpu_block y@1; set_gpu_block y@2" | FileCheck %s --check-prefix=SHAPE2D

// CHECK-LABEL: dojo.kernel @tiled
// CHECK:      dojo.scope 4:g {
// CHECK-NEXT:   dojo.scope 8:b {
// CHECK-NEXT:     dojo.leaf y[{0}, {1}] = 0
// CHECK:        dojo.scope 2 {
// CHECK-NEXT:     dojo.scope 8:b {
// CHECK-NEXT:       dojo.leaf t[{2}] = x[{0}, {1}, {2}]
// CHECK:          dojo.scope 8:b {
// CHECK-NEXT:       dojo.leaf y[{0}, {2}] += t[-{2}+7]

// SHAPE2D-LABEL: dojo.kernel @shape2d
// SHAPE2D:      dojo.scope 4:g {
// SHAPE2D-NEXT:   dojo.scope 2:b {
// SHAPE2D-NEXT:     dojo.scope 4:b {
// SHAPE2D-NEXT:       dojo.leaf t[{1}, {2}] = x[{0}, {1}, {2}]
// SHAPE2D:        dojo.scope 2:b {
// SHAPE2D-NEXT:     dojo.scope 4:b {
// SHAPE2D-NEXT:       dojo.leaf y[{0}, {1}, {2}] = t[-{1}+1, -{2}+3]

//--- tiled.mlir
dojo.kernel @tiled {
  dojo.buffer x f32 [4, 2, 8] heap in
  dojo.buffer t f32 [8] gpu_shared
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = 0
    }
    dojo.scope 2 {
      dojo.scope 8 {
        dojo.leaf t[{2}] = x[{0}, {1}, {2}]
      }
      dojo.scope 8 {
        dojo.leaf y[{0}, {2}] += t[-{2}+7]
      }
    }
  }
}
//--- shape2d.mlir
dojo.kernel @shape2d {
  dojo.buffer x f32 [4, 2, 4] heap in
  dojo.buffer t f32 [2, 4] gpu_shared
  dojo.buffer y f32 [4, 2, 4] heap out
  dojo.scope 4 {
    dojo.scope 2 {
      dojo.scope 4 {
        dojo.leaf t[{1}, {2}] = x[{0}, {1}, {2}]
      }
    }
    dojo.scope 2 {
      dojo.scope 4 {
        dojo.leaf y[{0}, {1}, {2}] = t[-{1}+1, -{2}+3]
      }
    }
  }
}
