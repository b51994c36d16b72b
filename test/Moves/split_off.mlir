// split_off a@d (lib/Moves/JoinScopes.cpp): the scope a@d is cut after its
// child on the path to leaf a; the later children move to a new scope of the
// same size right after it. The inverse is join_scopes on the first part;
// each case applies the move and then the move and its inverse, which must
// give the input back.
// RUN: rm -rf %t && split-file %s %t

//--- gap.mlir
// RUN: perfdojo-opt %t/gap.mlir --dojo-apply="split_off b@0" | FileCheck %t/gap.mlir
// RUN: perfdojo-opt %t/gap.mlir > %t/gap.orig
// RUN: perfdojo-opt %t/gap.mlir --dojo-apply="split_off b@0; join_scopes a@0" | diff %t/gap.orig -

// The gap sits after b: a and b stay, c moves to the new scope.
// CHECK-LABEL: dojo.kernel @gap
// CHECK:         dojo.scope 4 {
// CHECK-NEXT:      dojo.leaf a[{0}] = x[{0}]
// CHECK-NEXT:      dojo.leaf b[{0}] = a[{0}] * 2
// CHECK-NEXT:    }
// CHECK-NEXT:    dojo.scope 4 {
// CHECK-NEXT:      dojo.leaf c[{0}] = b[{0}] + a[{0}]
// CHECK-NEXT:    }
dojo.kernel @gap {
  dojo.buffer x f32 [4] heap in
  dojo.buffer a f32 [4] heap out
  dojo.buffer b f32 [4] heap out
  dojo.buffer c f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf a[{0}] = x[{0}]
    dojo.leaf b[{0}] = a[{0}] * 2.0
    dojo.leaf c[{0}] = b[{0}] + a[{0}]
  }
}

//--- softmax_row.mlir
// RUN: perfdojo-opt %t/softmax_row.mlir --dojo-apply="split_off m#1@0" | FileCheck %t/softmax_row.mlir
// RUN: perfdojo-opt %t/softmax_row.mlir > %t/softmax_row.orig
// RUN: perfdojo-opt %t/softmax_row.mlir --dojo-apply="split_off m#1@0; join_scopes m#0@0" | diff %t/softmax_row.orig -

// The row maximum is finished before the second part reads it; the gap is
// named through the max= leaf (m#1), the child that ends the first part.
// CHECK-LABEL: dojo.kernel @softmax_row
// CHECK:         dojo.scope 9 {
// CHECK-NEXT:      dojo.leaf m[{0}] = -inf
// CHECK-NEXT:      dojo.scope 16 {
// CHECK-NEXT:        dojo.leaf m[{0}] max= x[{0}, {1}]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    dojo.scope 9 {
// CHECK-NEXT:      dojo.scope 16 {
// CHECK-NEXT:        dojo.leaf y[{0}, {1}] = x[{0}, {1}] - m[{0}]
dojo.kernel @softmax_row {
  dojo.buffer x f32 [9, 16] heap in
  dojo.buffer m f32 [9] heap
  dojo.buffer y f32 [9, 16] heap out
  dojo.scope 9 {
    dojo.leaf m[{0}] = -inf
    dojo.scope 16 {
      dojo.leaf m[{0}] max= x[{0}, {1}]
    }
    dojo.scope 16 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] - m[{0}]
    }
  }
}

//--- init.mlir
// RUN: perfdojo-opt %t/init.mlir --dojo-apply="split_off c#0@1" | FileCheck %t/init.mlir
// RUN: perfdojo-opt %t/init.mlir > %t/init.orig
// RUN: perfdojo-opt %t/init.mlir --dojo-apply="split_off c#0@1; join_scopes c#0@1" | diff %t/init.orig -

// Matmul: the initialization of c[i, j] separates from its reduction inside
// the i scope.
// CHECK-LABEL: dojo.kernel @init
// CHECK:         dojo.scope 9 {
// CHECK-NEXT:      dojo.scope 12 {
// CHECK-NEXT:        dojo.leaf c[{0}, {1}] = 0
// CHECK-NEXT:      }
// CHECK-NEXT:      dojo.scope 12 {
// CHECK-NEXT:        dojo.scope 16 {
// CHECK-NEXT:          dojo.leaf c[{0}, {1}] += a[{0}, {2}] * b[{2}, {1}]
dojo.kernel @init {
  dojo.buffer a f32 [9, 16] heap in
  dojo.buffer b f32 [16, 12] heap in
  dojo.buffer c f32 [9, 12] heap out
  dojo.scope 9 {
    dojo.scope 12 {
      dojo.leaf c[{0}, {1}] = 0
      dojo.scope 16 {
        dojo.leaf c[{0}, {1}] += a[{0}, {2}] * b[{2}, {1}]
      }
    }
  }
}
