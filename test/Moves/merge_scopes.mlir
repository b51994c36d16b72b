// merge_scopes a@d (lib/Moves/SplitScope.cpp): a perfect pair p x q becomes
// one scope of size p*q; {d}*q+{d+1} collapses to {d} and deeper depths
// shift up by one. Each case applies the move, then the move and its inverse
// (split_scope a@d q), which must give the input back.
// RUN: rm -rf %t && split-file %s %t

//--- collapse.mlir
// RUN: perfdojo-opt %t/collapse.mlir --dojo-apply="merge_scopes y@0" | FileCheck %t/collapse.mlir
// RUN: perfdojo-opt %t/collapse.mlir > %t/collapse.orig
// RUN: perfdojo-opt %t/collapse.mlir --dojo-apply="merge_scopes y@0; split_scope y@0 16" | diff %t/collapse.orig -

// CHECK-LABEL: dojo.kernel @collapse
// CHECK:         dojo.scope 128 {
// CHECK-NEXT:      dojo.leaf y[{0}] = a[{0}] + b[{0}]
dojo.kernel @collapse {
  dojo.buffer a f32 [128] heap in
  dojo.buffer b f32 [128] heap in
  dojo.buffer y f32 [128] heap out
  dojo.scope 8 {
    dojo.scope 16 {
      dojo.leaf y[{0}*16+{1}] = a[{0}*16+{1}] + b[{0}*16+{1}]
    }
  }
}

//--- deeper.mlir
// RUN: perfdojo-opt %t/deeper.mlir --dojo-apply="merge_scopes y@1" | FileCheck %t/deeper.mlir
// RUN: perfdojo-opt %t/deeper.mlir > %t/deeper.orig
// RUN: perfdojo-opt %t/deeper.mlir --dojo-apply="merge_scopes y@1; split_scope y@1 3" | diff %t/deeper.orig -

// A pair at depth 1 whose inner scope has several children: {3} becomes
// {2}; a multiple of {1}*3+{2} (the index value) collapses too, and a form
// that uses neither variable (c[0]) is unchanged.
// CHECK-LABEL: dojo.kernel @deeper
// CHECK:         dojo.scope 2 {
// CHECK-NEXT:      dojo.scope 12 {
// CHECK-NEXT:        dojo.scope 8 {
// CHECK-NEXT:          dojo.leaf y[{0}, {1}, {2}] = x[{0}, {1}, {2}] * ({1}*16+{2}*2)
// CHECK-NEXT:        }
// CHECK-NEXT:        dojo.leaf c[0] = 1
dojo.kernel @deeper {
  dojo.buffer x f32 [2, 12, 8] heap in
  dojo.buffer y f32 [2, 12, 8] heap out
  dojo.buffer c f32 [1] heap out
  dojo.scope 2 {
    dojo.scope 4 {
      dojo.scope 3 {
        dojo.scope 8 {
          dojo.leaf y[{0}, {1}*3+{2}, {3}] = x[{0}, {1}*3+{2}, {3}] * ({1}*48+{2}*16+{3}*2)
        }
        dojo.leaf c[0] = 1.0
      }
    }
  }
}
