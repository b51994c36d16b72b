// sink_leaf a side (lib/Moves/HoistLeaf.cpp): side 0 moves the leaf into its
// next sibling scope as the first child, side 1 into its previous sibling
// scope as the last child. Its forms do not change. The inverse is
// hoist_leaf a; the second and third RUN lines of each case apply the move
// and its inverse and require the input back.
// RUN: rm -rf %t && split-file %s %t

//--- into_next.mlir
// RUN: perfdojo-opt %t/into_next.mlir --dojo-apply="sink_leaf s 0" | FileCheck %t/into_next.mlir
// RUN: perfdojo-opt %t/into_next.mlir > %t/into_next.orig
// RUN: perfdojo-opt %t/into_next.mlir --dojo-apply="sink_leaf s 0; hoist_leaf s" | diff %t/into_next.orig -

// A scale is recomputed in every iteration of the scope that reads it.
// CHECK-LABEL: dojo.kernel @into_next
// CHECK:         dojo.scope 4 {
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf s[{0}] = rsqrt(v[{0}])
// CHECK-NEXT:        dojo.leaf y[{0}, {1}] = x[{0}, {1}] * s[{0}]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
dojo.kernel @into_next {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer v f32 [4] heap in
  dojo.buffer s f32 [4] stack
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = rsqrt(v[{0}])
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] * s[{0}]
    }
  }
}

//--- into_previous.mlir
// RUN: perfdojo-opt %t/into_previous.mlir --dojo-apply="sink_leaf z 1" | FileCheck %t/into_previous.mlir
// RUN: perfdojo-opt %t/into_previous.mlir > %t/into_previous.orig
// RUN: perfdojo-opt %t/into_previous.mlir --dojo-apply="sink_leaf z 1; hoist_leaf z" | diff %t/into_previous.orig -

// A leaf after a scope becomes its last child; the scope at depth 0 moves
// it from the kernel's top level to depth 1.
// CHECK-LABEL: dojo.kernel @into_previous
// CHECK:         dojo.scope 8 {
// CHECK-NEXT:      dojo.leaf y[{0}] = x[{0}] * 2
// CHECK-NEXT:      dojo.leaf z[0] = n[0]
// CHECK-NEXT:    }
dojo.kernel @into_previous {
  dojo.buffer x f32 [8] heap in
  dojo.buffer n f32 [1] heap in
  dojo.buffer y f32 [8] heap out
  dojo.buffer z f32 [1] heap out
  dojo.scope 8 {
    dojo.leaf y[{0}] = x[{0}] * 2.0
  }
  dojo.leaf z[0] = n[0]
}

//--- reads_allowed_first.mlir
// RUN: perfdojo-opt %t/reads_allowed_first.mlir --dojo-apply="sink_leaf m#0 0" | FileCheck %t/reads_allowed_first.mlir
// RUN: perfdojo-opt %t/reads_allowed_first.mlir > %t/reads_allowed_first.orig
// RUN: perfdojo-opt %t/reads_allowed_first.mlir --dojo-apply="sink_leaf m#0 0; hoist_leaf m#0" | diff %t/reads_allowed_first.orig -

// As the first child the leaf may be read by the scope (each iteration
// reads the value it wrote just before), only not overwritten.
// CHECK-LABEL: dojo.kernel @reads_allowed_first
// CHECK:         dojo.scope 4 {
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf m[{0}] = n[{0}] * 0.5
// CHECK-NEXT:        dojo.leaf y[{0}, {1}] = x[{0}, {1}] - m[{0}]
// CHECK-NEXT:      }
// CHECK-NEXT:      dojo.leaf m[{0}] = n[{0}]
// CHECK-NEXT:    }
dojo.kernel @reads_allowed_first {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer n f32 [4] heap in
  dojo.buffer m f32 [4] heap out
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.leaf m[{0}] = n[{0}] * 0.5
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] - m[{0}]
    }
    dojo.leaf m[{0}] = n[{0}]
  }
}
