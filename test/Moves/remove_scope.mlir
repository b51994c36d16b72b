// remove_scope a@d (lib/Moves/AddScope.cpp): a plain scope with one child
// that does not use its variable is replaced by that child, and {k} becomes
// {k-1} for k > d. The inverse is add_scope on the child with the removed
// size; the second and third RUN lines of each case apply the move and its
// inverse and require the input back.
// RUN: rm -rf %t && split-file %s %t

//--- unit_scope.mlir
// RUN: perfdojo-opt %t/unit_scope.mlir --dojo-apply="remove_scope y@1" | FileCheck %t/unit_scope.mlir
// RUN: perfdojo-opt %t/unit_scope.mlir > %t/unit_scope.orig
// RUN: perfdojo-opt %t/unit_scope.mlir --dojo-apply="remove_scope y@1; add_scope y@1 1" | diff %t/unit_scope.orig -

// A size-1 scope between two others disappears; {2} becomes {1}.
// CHECK-LABEL: dojo.kernel @unit_scope
// CHECK:         dojo.scope 4 {
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf y[{0}, {1}] = x[{0}, {1}] * ({1}+1)
// CHECK-NEXT:      }
// CHECK-NEXT:    }
dojo.kernel @unit_scope {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 1 {
      dojo.scope 8 {
        dojo.leaf y[{0}, {2}] = x[{0}, {2}] * ({2}+1)
      }
    }
  }
}

//--- recompute.mlir
// RUN: perfdojo-opt %t/recompute.mlir --dojo-apply="remove_scope t@0" | FileCheck %t/recompute.mlir
// RUN: perfdojo-opt %t/recompute.mlir > %t/recompute.orig
// RUN: perfdojo-opt %t/recompute.mlir --dojo-apply="remove_scope t@0; add_scope t@0 16" | diff %t/recompute.orig -

// A row computed 16 times over is computed once.
// CHECK-LABEL: dojo.kernel @recompute
// CHECK:         dojo.scope 6 {
// CHECK-NEXT:      dojo.leaf t[{0}] = exp(x[{0}])
// CHECK-NEXT:      dojo.leaf y[{0}] = t[{0}] * 2
// CHECK-NEXT:    }
// CHECK-NEXT:    dojo.scope 16 {
dojo.kernel @recompute {
  dojo.buffer x f32 [6] heap in
  dojo.buffer t f32 [6] stack
  dojo.buffer y f32 [6] heap out
  dojo.buffer z f32 [16] heap out
  dojo.scope 16 {
    dojo.scope 6 {
      dojo.leaf t[{1}] = exp(x[{1}])
      dojo.leaf y[{1}] = t[{1}] * 2.0
    }
  }
  dojo.scope 16 {
    dojo.leaf z[{0}] = 1.0
  }
}
