// swap_siblings a@d (lib/Moves/SwapSiblings.cpp): the node a@d and its next
// sibling exchange places. The inverse is swap_siblings on the moved node,
// which now comes first.
// RUN: rm -rf %t && split-file %s %t

//--- leaves.mlir
// RUN: perfdojo-opt %t/leaves.mlir --dojo-apply="swap_siblings a@1" | FileCheck %t/leaves.mlir
// RUN: perfdojo-opt %t/leaves.mlir > %t/leaves.orig
// RUN: perfdojo-opt %t/leaves.mlir --dojo-apply="swap_siblings a@1; swap_siblings b@1" | diff %t/leaves.orig -

// Two independent leaves; the third stays where it is.
// CHECK-LABEL: dojo.kernel @leaves
// CHECK:         dojo.scope 4 {
// CHECK-NEXT:      dojo.leaf b[{0}] = x[{0}] * 2
// CHECK-NEXT:      dojo.leaf a[{0}] = x[{0}]
// CHECK-NEXT:      dojo.leaf c[{0}] = a[{0}] + b[{0}]
dojo.kernel @leaves {
  dojo.buffer x f32 [4] heap in
  dojo.buffer a f32 [4] heap out
  dojo.buffer b f32 [4] heap out
  dojo.buffer c f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf a[{0}] = x[{0}]
    dojo.leaf b[{0}] = x[{0}] * 2.0
    dojo.leaf c[{0}] = a[{0}] + b[{0}]
  }
}

//--- scopes.mlir
// RUN: perfdojo-opt %t/scopes.mlir --dojo-apply="swap_siblings a@0" | FileCheck %t/scopes.mlir
// RUN: perfdojo-opt %t/scopes.mlir > %t/scopes.orig
// RUN: perfdojo-opt %t/scopes.mlir --dojo-apply="swap_siblings a@0; swap_siblings b@0" | diff %t/scopes.orig -

// Two top-level nests of different shapes move as a whole.
// CHECK-LABEL: dojo.kernel @scopes
// CHECK:         dojo.scope 3 {
// CHECK-NEXT:      dojo.leaf b[{0}] = 0
// CHECK-NEXT:    }
// CHECK-NEXT:    dojo.scope 4 {
// CHECK-NEXT:      dojo.scope 2 {
// CHECK-NEXT:        dojo.leaf a[{0}, {1}] = x[{0}]
dojo.kernel @scopes {
  dojo.buffer x f32 [4] heap in
  dojo.buffer a f32 [4, 2] heap out
  dojo.buffer b f32 [3] heap out
  dojo.scope 4 {
    dojo.scope 2 {
      dojo.leaf a[{0}, {1}] = x[{0}]
    }
  }
  dojo.scope 3 {
    dojo.leaf b[{0}] = 0
  }
}

//--- carried.mlir
// RUN: perfdojo-opt %t/carried.mlir --dojo-apply="swap_siblings b#1@1" | FileCheck %t/carried.mlir
// RUN: perfdojo-opt %t/carried.mlir > %t/carried.orig
// RUN: perfdojo-opt %t/carried.mlir --dojo-apply="swap_siblings b#1@1; swap_siblings c@1" | diff %t/carried.orig -

// c reads b[i], which the previous iteration wrote: a dependence carried by
// the enclosing scope, which the swap keeps. In one iteration the two leaves
// touch different elements of b.
// CHECK-LABEL: dojo.kernel @carried
// CHECK:         dojo.leaf b[0] = x[0]
// CHECK-NEXT:    dojo.scope 8 {
// CHECK-NEXT:      dojo.leaf c[{0}] = b[{0}]
// CHECK-NEXT:      dojo.leaf b[{0}+1] = x[{0}+1] + b[{0}]
dojo.kernel @carried {
  dojo.buffer x f32 [9] heap in
  dojo.buffer b f32 [9] heap
  dojo.buffer c f32 [8] heap out
  dojo.leaf b[0] = x[0]
  dojo.scope 8 {
    dojo.leaf b[{0}+1] = x[{0}+1] + b[{0}]
    dojo.leaf c[{0}] = b[{0}]
  }
}

//--- reductions.mlir
// RUN: perfdojo-opt %t/reductions.mlir --dojo-apply="swap_siblings s#1@1" | FileCheck %t/reductions.mlir
// RUN: perfdojo-opt %t/reductions.mlir > %t/reductions.orig
// RUN: perfdojo-opt %t/reductions.mlir --dojo-apply="swap_siblings s#1@1; swap_siblings s#1@1" | diff %t/reductions.orig -

// Two += updates of the same element commute under the default
// reassociation policy.
// CHECK-LABEL: dojo.kernel @reductions
// CHECK:         dojo.scope 4 {
// CHECK-NEXT:      dojo.leaf s[{0}] = 0
// CHECK-NEXT:      dojo.leaf s[{0}] += b[{0}]
// CHECK-NEXT:      dojo.leaf s[{0}] += a[{0}]
dojo.kernel @reductions {
  dojo.buffer a f32 [4] heap in
  dojo.buffer b f32 [4] heap in
  dojo.buffer s f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0
    dojo.leaf s[{0}] += a[{0}]
    dojo.leaf s[{0}] += b[{0}]
  }
}
