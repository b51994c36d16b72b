// split_dim b.k f and merge_dims b.k (lib/Moves/SplitDim.cpp): dimension k
// of an internal buffer becomes [n/f, f] and every index e on it becomes
// [e1, e2] with e = f*e1+e2 and e2 in [0, f); merge_dims undoes it
// (q*e1+e2). Each is the other's inverse. Each case is its own file; the
// round-trip RUN lines apply a move and its inverse and require the input
// back.
// RUN: rm -rf %t && split-file %s %t

//--- tiled.mlir
// RUN: perfdojo-opt %t/tiled.mlir --dojo-apply="split_dim t.1 4" | FileCheck %t/tiled.mlir
// RUN: perfdojo-opt %t/tiled.mlir > %t/tiled.orig
// RUN: perfdojo-opt %t/tiled.mlir --dojo-apply="split_dim t.1 4; merge_dims t.1" | diff %t/tiled.orig -
//
// The interpreter computes the same output from the blocked storage:
// RUN: perfdojo-translate --export-dojo %t/tiled.mlir > %t/tiled.dojo
// RUN: perfdojo-opt %t/tiled.mlir --dojo-apply="split_dim t.1 4" | perfdojo-translate --export-dojo > %t/tiled.moved.dojo
// RUN: perfdojo-run --engine=interp %t/tiled.dojo > %t/tiled.out
// RUN: perfdojo-run --engine=interp %t/tiled.moved.dojo >> %t/tiled.out
// RUN: FileCheck %t/tiled.mlir --check-prefix=INTERP < %t/tiled.out

// After split_scope, {1}*4+{2} splits into [{1}, {2}]; a reversed inner
// index {1}*4-{2}+3 into [{1}, -{2}+3] (e2 ranges over [0, 3]); the
// constant 5 into [1, 1].
// CHECK-LABEL: dojo.kernel @tiled
// CHECK:         dojo.buffer t f32 [8, 4, 4] stack
// CHECK:         dojo.leaf t[{0}, {1}, {2}] = exp(x[{0}, {1}*4+{2}])
// CHECK:         dojo.leaf y[{0}, {1}*4+{2}] = t[{0}, {1}, -{2}+3] + t[{0}, 1, 1]

// INTERP: output y f32 [8, 16]: sum [[SUM:[-+.0-9e]+]], l2 [[L2:[-+.0-9e]+]]
// INTERP: output y f32 [8, 16]: sum [[SUM]], l2 [[L2]]
dojo.kernel @tiled {
  dojo.buffer x f32 [8, 16] heap in
  dojo.buffer t f32 [8, 16] stack
  dojo.buffer y f32 [8, 16] heap out
  dojo.scope 8 {
    dojo.scope 4 {
      dojo.scope 4 {
        dojo.leaf t[{0}, {1}*4+{2}] = exp(x[{0}, {1}*4+{2}])
      }
    }
  }
  dojo.scope 8 {
    dojo.scope 4 {
      dojo.scope 4 {
        dojo.leaf y[{0}, {1}*4+{2}] = t[{0}, {1}*4-{2}+3] + t[{0}, 5]
      }
    }
  }
}

//--- merge.mlir
// RUN: perfdojo-opt %t/merge.mlir --dojo-apply="merge_dims t.1" | FileCheck %t/merge.mlir
// RUN: perfdojo-opt %t/merge.mlir > %t/merge.orig
// RUN: perfdojo-opt %t/merge.mlir --dojo-apply="merge_dims t.1; split_dim t.1 4" | diff %t/merge.orig -
// RUN: perfdojo-run --engine=interp %t/merge.mlir > %t/merge.out
// RUN: perfdojo-opt %t/merge.mlir --dojo-apply="merge_dims t.1" | perfdojo-translate --export-dojo > %t/merge.moved.dojo
// RUN: perfdojo-run --engine=interp %t/merge.moved.dojo >> %t/merge.out
// RUN: FileCheck %t/merge.mlir --check-prefix=INTERP < %t/merge.out

// [e1, e2] on dimensions 1 and 2 (extents 3, 4) becomes e1*4+e2; the
// constant pair [2, 1] becomes 9.
// CHECK-LABEL: dojo.kernel @merge
// CHECK:         dojo.buffer t f32 [2, 12] stack
// CHECK:         dojo.leaf t[{0}, {1}*4+{2}] = x[{0}, {1}, {2}] * 3
// CHECK:         dojo.leaf y[{0}, {1}, {2}] = t[{0}, {1}*4+{2}] - t[{0}, 9]

// INTERP: output y f32 [2, 3, 4]: sum [[SUM:[-+.0-9e]+]], l2 [[L2:[-+.0-9e]+]]
// INTERP: output y f32 [2, 3, 4]: sum [[SUM]], l2 [[L2]]
dojo.kernel @merge {
  dojo.buffer x f32 [2, 3, 4] heap in
  dojo.buffer t f32 [2, 3, 4] stack
  dojo.buffer y f32 [2, 3, 4] heap out
  dojo.scope 2 {
    dojo.scope 3 {
      dojo.scope 4 {
        dojo.leaf t[{0}, {1}, {2}] = x[{0}, {1}, {2}] * 3
      }
    }
    dojo.scope 3 {
      dojo.scope 4 {
        dojo.leaf y[{0}, {1}, {2}] = t[{0}, {1}, {2}] - t[{0}, 2, 1]
      }
    }
  }
}

//--- reused.mlir
// RUN: perfdojo-opt %t/reused.mlir --dojo-apply="merge_dims t.0" | FileCheck %t/reused.mlir
// RUN: perfdojo-opt %t/reused.mlir > %t/reused.orig
// RUN: perfdojo-opt %t/reused.mlir --dojo-apply="merge_dims t.0; split_dim t.0 4" | diff %t/reused.orig -

// Two `:N` dimensions merge into one `:N` dimension (still one slot), and a
// `:N` dimension splits into two.
// CHECK-LABEL: dojo.kernel @reused
// CHECK:         dojo.buffer t f32 [8:N] stack
// CHECK:         dojo.leaf t[{0}*4+{1}] = exp(x[{0}, {1}])
// CHECK-NEXT:    dojo.leaf y[{0}, {1}] = t[{0}*4+{1}] * 2
dojo.kernel @reused {
  dojo.buffer x f32 [2, 4] heap in
  dojo.buffer t f32 [2:N, 4:N] stack
  dojo.buffer y f32 [2, 4] heap out
  dojo.scope 2 {
    dojo.scope 4 {
      dojo.leaf t[{0}, {1}] = exp(x[{0}, {1}])
      dojo.leaf y[{0}, {1}] = t[{0}, {1}] * 2
    }
  }
}
