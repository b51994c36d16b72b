// add_scope a@d s (lib/Moves/AddScope.cpp): the node a@d is wrapped in a new
// plain scope of size s at depth d, and {k} becomes {k+1} for k >= d inside
// it. The inverse is remove_scope a@d; the second and third RUN lines of
// each case apply the move and its inverse and require the input back.
// RUN: rm -rf %t && split-file %s %t

//--- wrap_leaf.mlir
// RUN: perfdojo-opt %t/wrap_leaf.mlir --dojo-apply="add_scope m#0@1 16" | FileCheck %t/wrap_leaf.mlir
// RUN: perfdojo-opt %t/wrap_leaf.mlir > %t/wrap_leaf.orig
// RUN: perfdojo-opt %t/wrap_leaf.mlir --dojo-apply="add_scope m#0@1 16; remove_scope m#0@1" | diff %t/wrap_leaf.orig -

// The init of a max-reduction gets a scope of the reduction's size, ready
// to be fused with it.
// CHECK-LABEL: dojo.kernel @wrap_leaf
// CHECK:         dojo.scope 4 {
// CHECK-NEXT:      dojo.scope 16 {
// CHECK-NEXT:        dojo.leaf m[{0}] = -inf
// CHECK-NEXT:      }
// CHECK-NEXT:      dojo.scope 16 {
// CHECK-NEXT:        dojo.leaf m[{0}] max= x[{0}, {1}]
// CHECK-NEXT:      }
// CHECK-NEXT:      dojo.leaf y[{0}] = m[{0}]
// CHECK-NEXT:    }
dojo.kernel @wrap_leaf {
  dojo.buffer x f32 [4, 16] heap in
  dojo.buffer m f32 [4] heap
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf m[{0}] = -inf
    dojo.scope 16 {
      dojo.leaf m[{0}] max= x[{0}, {1}]
    }
    dojo.leaf y[{0}] = m[{0}]
  }
}

//--- wrap_scope.mlir
// RUN: perfdojo-opt %t/wrap_scope.mlir --dojo-apply="add_scope t@1 3" | FileCheck %t/wrap_scope.mlir
// RUN: perfdojo-opt %t/wrap_scope.mlir > %t/wrap_scope.orig
// RUN: perfdojo-opt %t/wrap_scope.mlir --dojo-apply="add_scope t@1 3; remove_scope t@1" | diff %t/wrap_scope.orig -

// Depths from the wrapped scope down shift by one, index values included;
// a read after the write of the same element in one execution is fine.
// CHECK-LABEL: dojo.kernel @wrap_scope
// CHECK:         dojo.scope 4 {
// CHECK-NEXT:      dojo.scope 3 {
// CHECK-NEXT:        dojo.scope 8 {
// CHECK-NEXT:          dojo.scope 2 {
// CHECK-NEXT:            dojo.leaf t[{0}, {2}, {3}] = x[{0}, {2}, {3}] * ({2}*2+{3})
// CHECK-NEXT:            dojo.leaf y[{0}, {2}, {3}] = t[{0}, {2}, {3}] + 1
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      dojo.scope 3 {
// CHECK-NEXT:        dojo.leaf z[{0}, {1}] = x[{0}, {1}, 0]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
dojo.kernel @wrap_scope {
  dojo.buffer x f32 [4, 8, 2] heap in
  dojo.buffer t f32 [4, 8, 2] stack
  dojo.buffer y f32 [4, 8, 2] heap out
  dojo.buffer z f32 [4, 3] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.scope 2 {
        dojo.leaf t[{0}, {1}, {2}] = x[{0}, {1}, {2}] * ({1}*2+{2})
        dojo.leaf y[{0}, {1}, {2}] = t[{0}, {1}, {2}] + 1.0
      }
    }
    dojo.scope 3 {
      dojo.leaf z[{0}, {1}] = x[{0}, {1}, 0]
    }
  }
}

//--- top_level.mlir
// RUN: perfdojo-opt %t/top_level.mlir --dojo-apply="add_scope c@0 8" | FileCheck %t/top_level.mlir
// RUN: perfdojo-opt %t/top_level.mlir > %t/top_level.orig
// RUN: perfdojo-opt %t/top_level.mlir --dojo-apply="add_scope c@0 8; remove_scope c@0" | diff %t/top_level.orig -

// A leaf at the kernel's top level is wrapped at depth 0.
// CHECK-LABEL: dojo.kernel @top_level
// CHECK:         dojo.scope 8 {
// CHECK-NEXT:      dojo.leaf c[0] = n[0] * 2
// CHECK-NEXT:    }
// CHECK-NEXT:    dojo.scope 8 {
// CHECK-NEXT:      dojo.leaf y[{0}] = x[{0}] + c[0]
// CHECK-NEXT:    }
dojo.kernel @top_level {
  dojo.buffer x f32 [8] heap in
  dojo.buffer n f32 [1] heap in
  dojo.buffer c f32 [1] stack
  dojo.buffer y f32 [8] heap out
  dojo.leaf c[0] = n[0] * 2.0
  dojo.scope 8 {
    dojo.leaf y[{0}] = x[{0}] + c[0]
  }
}
