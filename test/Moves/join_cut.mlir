// join_cut a@d (lib/Moves/CutScope.cpp): the scope a@d (size k) and its next
// sibling, whose body is the first body with {d} := {d}+k, become one scope.
// The inverse is cut_scope a@d k; the second and third RUN lines of each
// case apply the move and its inverse and require the input back.
// RUN: rm -rf %t && split-file %s %t

//--- peeled.mlir
// RUN: perfdojo-opt %t/peeled.mlir --dojo-apply="join_cut s#0@0" | FileCheck %t/peeled.mlir
// RUN: perfdojo-opt %t/peeled.mlir > %t/peeled.orig
// RUN: perfdojo-opt %t/peeled.mlir --dojo-apply="join_cut s#0@0; cut_scope s#0@0 12" | diff %t/peeled.orig -

// A peeled row reduction joins back; the sizes need not match, and the
// selectors of the inverse count the leaves that are left.
// CHECK-LABEL: dojo.kernel @peeled
// CHECK:         dojo.scope 16 {
// CHECK-NEXT:      dojo.leaf s[{0}] = 0
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf s[{0}] += x[{0}, {1}]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    dojo.leaf y[0] = s[15]
dojo.kernel @peeled {
  dojo.buffer x f32 [16, 8] heap in
  dojo.buffer s f32 [16] heap out
  dojo.buffer y f32 [1] heap out
  dojo.scope 12 {
    dojo.leaf s[{0}] = 0.0
    dojo.scope 8 {
      dojo.leaf s[{0}] += x[{0}, {1}]
    }
  }
  dojo.scope 4 {
    dojo.leaf s[{0}+12] = 0.0
    dojo.scope 8 {
      dojo.leaf s[{0}+12] += x[{0}+12, {1}]
    }
  }
  dojo.leaf y[0] = s[15]
}
