// swap_dims b.k (lib/Moves/SwapDims.cpp): dimensions k and k+1 of an
// internal buffer trade places, with their extents, padding and `:N` flags,
// and every access to an array of the buffer swaps its indices k and k+1.
// The move is its own inverse. Each case is its own file; the second and
// third RUN lines of a case apply the move twice and require the input back.
// RUN: rm -rf %t && split-file %s %t

//--- travel.mlir
// RUN: perfdojo-opt %t/travel.mlir --dojo-apply="swap_dims t.0" | FileCheck %t/travel.mlir
// RUN: perfdojo-opt %t/travel.mlir > %t/travel.orig
// RUN: perfdojo-opt %t/travel.mlir --dojo-apply="swap_dims t.0; swap_dims t.0" | diff %t/travel.orig -
//
// The interpreter computes the same output from the transposed storage:
// RUN: perfdojo-translate --export-dojo %t/travel.mlir > %t/travel.dojo
// RUN: perfdojo-opt %t/travel.mlir --dojo-apply="swap_dims t.0" | perfdojo-translate --export-dojo > %t/travel.moved.dojo
// RUN: perfdojo-run --engine=interp %t/travel.dojo > %t/travel.out
// RUN: perfdojo-run --engine=interp %t/travel.moved.dojo >> %t/travel.out
// RUN: FileCheck %t/travel.mlir --check-prefix=INTERP < %t/travel.out

// The padding travels with dimension 1; index values are not accesses and
// stay.
// CHECK-LABEL: dojo.kernel @travel
// CHECK:         dojo.buffer t f32 [8+2, 4] stack
// CHECK:         dojo.leaf t[{1}, {0}] = exp(x[{0}, {1}])
// CHECK:         dojo.leaf y[{0}, {1}] = t[{0}, {1}] + {0}

// INTERP: output y f32 [8, 4]: sum [[SUM:[-+.0-9e]+]], l2 [[L2:[-+.0-9e]+]]
// INTERP: output y f32 [8, 4]: sum [[SUM]], l2 [[L2]]
dojo.kernel @travel {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer t f32 [4, 8+2] stack
  dojo.buffer y f32 [8, 4] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf t[{0}, {1}] = exp(x[{0}, {1}])
    }
  }
  dojo.scope 8 {
    dojo.scope 4 {
      dojo.leaf y[{0}, {1}] = t[{1}, {0}] + ({0})
    }
  }
}

//--- shared.mlir
// RUN: perfdojo-opt %t/shared.mlir --dojo-apply="swap_dims t.0" | FileCheck %t/shared.mlir
// RUN: perfdojo-opt %t/shared.mlir --dojo-apply="swap_dims t.1" | FileCheck %t/shared.mlir --check-prefix=INNER
// RUN: perfdojo-opt %t/shared.mlir > %t/shared.orig
// RUN: perfdojo-opt %t/shared.mlir --dojo-apply="swap_dims t.0; swap_dims t.0" | diff %t/shared.orig -
// RUN: perfdojo-opt %t/shared.mlir --dojo-apply="swap_dims t.1; swap_dims t.1" | diff %t/shared.orig -

// Every array of the buffer is rewritten; the `:N` flag moves with its
// dimension.
// CHECK-LABEL: dojo.kernel @shared
// CHECK:         dojo.buffer t f32 [8, 6:N, 2] stack -> a, b
// CHECK:         dojo.leaf a[{1}, {0}, 0] = x[{0}, {1}] * 2
// CHECK-NEXT:    dojo.leaf b[{1}, {0}, 1] = a[{1}, {0}, 0] + 1
// CHECK-NEXT:    dojo.leaf y[{0}, {1}] = b[{1}, {0}, 1]

// INNER-LABEL: dojo.kernel @shared
// INNER:         dojo.buffer t f32 [6:N, 2, 8] stack -> a, b
// INNER:         dojo.leaf a[{0}, 0, {1}] = x[{0}, {1}] * 2
// INNER-NEXT:    dojo.leaf b[{0}, 1, {1}] = a[{0}, 0, {1}] + 1
// INNER-NEXT:    dojo.leaf y[{0}, {1}] = b[{0}, 1, {1}]
dojo.kernel @shared {
  dojo.buffer x f32 [6, 8] heap in
  dojo.buffer t f32 [6:N, 8, 2] stack -> a, b
  dojo.buffer y f32 [6, 8] heap out
  dojo.scope 6 {
    dojo.scope 8 {
      dojo.leaf a[{0}, {1}, 0] = x[{0}, {1}] * 2
      dojo.leaf b[{0}, {1}, 1] = a[{0}, {1}, 0] + 1
      dojo.leaf y[{0}, {1}] = b[{0}, {1}, 1]
    }
  }
}
