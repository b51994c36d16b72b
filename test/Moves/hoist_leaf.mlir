// hoist_leaf a (lib/Moves/HoistLeaf.cpp): a leaf that is the first or the
// last child of its scope and does not use the scope's variable moves out,
// before or after the scope. Its forms do not change. The inverse is
// sink_leaf a 0 (first side) or sink_leaf a 1 (last side); the second and
// third RUN lines of each case apply the move and its inverse and require
// the input back.
// RUN: rm -rf %t && split-file %s %t

//--- first_side.mlir
// RUN: perfdojo-opt %t/first_side.mlir --dojo-apply="hoist_leaf r" | FileCheck %t/first_side.mlir
// RUN: perfdojo-opt %t/first_side.mlir > %t/first_side.orig
// RUN: perfdojo-opt %t/first_side.mlir --dojo-apply="hoist_leaf r; sink_leaf r 0" | diff %t/first_side.orig -

// A reciprocal computed in every iteration of the inner scope runs once per
// row; the inner scope may read what it writes.
// CHECK-LABEL: dojo.kernel @first_side
// CHECK:         dojo.scope 4 {
// CHECK-NEXT:      dojo.leaf r[{0}] = 1 / n[{0}]
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf y[{0}, {1}] = x[{0}, {1}] * r[{0}]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
dojo.kernel @first_side {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer n f32 [4] heap in
  dojo.buffer r f32 [4] stack
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf r[{0}] = 1.0 / n[{0}]
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] * r[{0}]
    }
  }
}

//--- last_side.mlir
// RUN: perfdojo-opt %t/last_side.mlir --dojo-apply="hoist_leaf z" | FileCheck %t/last_side.mlir
// RUN: perfdojo-opt %t/last_side.mlir > %t/last_side.orig
// RUN: perfdojo-opt %t/last_side.mlir --dojo-apply="hoist_leaf z; sink_leaf z 1" | diff %t/last_side.orig -

// The last child moves after the scope.
// CHECK-LABEL: dojo.kernel @last_side
// CHECK:         dojo.scope 4 {
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf y[{0}, {1}] = x[{0}, {1}] * 2
// CHECK-NEXT:      }
// CHECK-NEXT:      dojo.leaf z[{0}] = n[{0}] + 1
// CHECK-NEXT:    }
dojo.kernel @last_side {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer n f32 [4] heap in
  dojo.buffer y f32 [4, 8] heap out
  dojo.buffer z f32 [4] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] * 2.0
      dojo.leaf z[{0}] = n[{0}] + 1.0
    }
  }
}

//--- top_level.mlir
// RUN: perfdojo-opt %t/top_level.mlir --dojo-apply="hoist_leaf c" | FileCheck %t/top_level.mlir
// RUN: perfdojo-opt %t/top_level.mlir > %t/top_level.orig
// RUN: perfdojo-opt %t/top_level.mlir --dojo-apply="hoist_leaf c; sink_leaf c 0" | diff %t/top_level.orig -

// From a scope at depth 0 the leaf moves to the kernel's top level.
// CHECK-LABEL: dojo.kernel @top_level
// CHECK:         dojo.leaf c[0] = n[0] * 2
// CHECK-NEXT:    dojo.scope 8 {
// CHECK-NEXT:      dojo.leaf y[{0}] = x[{0}] + c[0]
// CHECK-NEXT:    }
dojo.kernel @top_level {
  dojo.buffer x f32 [8] heap in
  dojo.buffer n f32 [1] heap in
  dojo.buffer c f32 [1] stack
  dojo.buffer y f32 [8] heap out
  dojo.scope 8 {
    dojo.leaf c[0] = n[0] * 2.0
    dojo.leaf y[{0}] = x[{0}] + c[0]
  }
}

//--- numbered.mlir
// RUN: perfdojo-opt %t/numbered.mlir --dojo-apply="hoist_leaf t#1" | FileCheck %t/numbered.mlir
// RUN: perfdojo-opt %t/numbered.mlir > %t/numbered.orig
// RUN: perfdojo-opt %t/numbered.mlir --dojo-apply="hoist_leaf t#1; sink_leaf t#1 0" | diff %t/numbered.orig -

// Two leaves write t; the second one is named t#1, before and after the
// move (hoisting never changes the execution order of leaves).
// CHECK-LABEL: dojo.kernel @numbered
// CHECK:         dojo.scope 4 {
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf t[{0}] = n[{0}] * 2
// CHECK-NEXT:        dojo.leaf y[{0}, {1}] = x[{0}, {1}] + t[{0}]
// CHECK-NEXT:      }
// CHECK-NEXT:      dojo.leaf t[{0}] = n[{0}] * 3
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf z[{0}, {1}] = x[{0}, {1}] + t[{0}]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
dojo.kernel @numbered {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer n f32 [4] heap in
  dojo.buffer t f32 [4] stack
  dojo.buffer y f32 [4, 8] heap out
  dojo.buffer z f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf t[{0}] = n[{0}] * 2.0
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] + t[{0}]
    }
    dojo.scope 8 {
      dojo.leaf t[{0}] = n[{0}] * 3.0
      dojo.leaf z[{0}, {1}] = x[{0}, {1}] + t[{0}]
    }
  }
}
