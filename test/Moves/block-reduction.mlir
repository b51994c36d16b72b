// A block reduction (Analysis/Concurrency.h isBlockReduction): a `:b`
// scope whose phase is one reduction leaf whose output misses the scope's
// variable. Its threads reduce into one element, combined as a tree (warp
// shuffles on a GPU), which only reorders the reduction: legal under the
// default reduction policy. Modes are loops in the interpreter, so the
// results are those of the unmapped kernel; clearing the modes restores it.
// RUN: rm -rf %t && split-file %s %t
// RUN: perfdojo-opt %t/rows.mlir --dojo-apply="set_gpu_grid y#0@0; set_gpu_block y#1@1" | FileCheck %s
// RUN: perfdojo-opt %t/rows.mlir --dojo-apply="set_gpu_grid y#0@0; set_gpu_block y#1@1" -o %t/rows.moved.mlir
// RUN: perfdojo-run --engine=interp %t/rows.mlir | grep '^output' > %t/rows.sum
// RUN: perfdojo-run --engine=interp %t/rows.moved.mlir | grep '^output' > %t/rows.moved.sum
// RUN: diff %t/rows.sum %t/rows.moved.sum
// RUN: perfdojo-opt %t/rows.mlir > %t/rows.orig
// RUN: perfdojo-opt %t/rows.moved.mlir --dojo-apply="clear_mode y#1@1; clear_mode y#0@0" > %t/rows.rt
// RUN: diff %t/rows.orig %t/rows.rt
//
// Partials combined by the block: two dimensions of threads, the reduction
// over the inner one (each row of the block its own output).
// RUN: perfdojo-opt %t/partials.mlir --dojo-apply="set_gpu_grid p#0@0; set_gpu_block p#0@1; set_gpu_block p#0@2; set_gpu_block y#0@1; set_gpu_block y#1@1; set_gpu_block y#1@2" | FileCheck %s --check-prefix=PARTIALS

// CHECK-LABEL: dojo.kernel @rows
// CHECK:      dojo.scope 8:g {
// CHECK-NEXT:   dojo.leaf y[{0}] = 0
// CHECK-NEXT:   dojo.scope 64:b {
// CHECK-NEXT:     dojo.leaf y[{0}] += x[{0}, {1}]

// PARTIALS-LABEL: dojo.kernel @partials
// PARTIALS:      dojo.scope 4:g {
// PARTIALS-NEXT:   dojo.scope 2:b {
// PARTIALS-NEXT:     dojo.scope 32:b {
// PARTIALS-NEXT:       dojo.leaf p[{1}, {2}] = x[{0}, {1}, {2}, 0]
// PARTIALS:        dojo.scope 2:b {
// PARTIALS-NEXT:     dojo.leaf y[{0}, {1}] = -inf
// PARTIALS:        dojo.scope 2:b {
// PARTIALS-NEXT:     dojo.scope 32:b {
// PARTIALS-NEXT:       dojo.leaf y[{0}, {1}] max= p[{1}, {2}]

//--- rows.mlir
dojo.kernel @rows {
  dojo.buffer x f32 [8, 64] heap in
  dojo.buffer y f32 [8] heap out
  dojo.scope 8 {
    dojo.leaf y[{0}] = 0
    dojo.scope 64 {
      dojo.leaf y[{0}] += x[{0}, {1}]
    }
  }
}

//--- partials.mlir
dojo.kernel @partials {
  dojo.buffer x f32 [4, 2, 32, 4] heap in
  dojo.buffer p f32 [2, 32] gpu_shared
  dojo.buffer y f32 [4, 2] heap out
  dojo.scope 4 {
    dojo.scope 2 {
      dojo.scope 32 {
        dojo.leaf p[{1}, {2}] = x[{0}, {1}, {2}, 0]
        dojo.scope 3 {
          dojo.leaf p[{1}, {2}] max= x[{0}, {1}, {2}, {3}+1]
        }
      }
    }
    dojo.scope 2 {
      dojo.leaf y[{0}, {1}] = -inf
    }
    dojo.scope 2 {
      dojo.scope 32 {
        dojo.leaf y[{0}, {1}] max= p[{1}, {2}]
      }
    }
  }
}
