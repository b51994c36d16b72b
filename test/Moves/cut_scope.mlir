// cut_scope a@d k (lib/Moves/CutScope.cpp): a scope of size s becomes two
// consecutive scopes of sizes k and s-k; the second has {d} := {d}+k. The
// inverse is join_cut on the first scope; after the cut every leaf exists
// twice, so the inverse names it a#0. The second and third RUN lines of each
// case apply the move and its inverse and require the input back.
// RUN: rm -rf %t && split-file %s %t

//--- remainder.mlir
// RUN: perfdojo-opt %t/remainder.mlir --dojo-apply="cut_scope y@0 8" | FileCheck %t/remainder.mlir
// RUN: perfdojo-opt %t/remainder.mlir > %t/remainder.orig
// RUN: perfdojo-opt %t/remainder.mlir --dojo-apply="cut_scope y@0 8; join_cut y#0@0" | diff %t/remainder.orig -

// A scope of 9 becomes a tile of 8 and a scalar remainder, ready for
// split_scope on the first part.
// CHECK-LABEL: dojo.kernel @remainder
// CHECK:         dojo.scope 8 {
// CHECK-NEXT:      dojo.leaf y[{0}] = x[{0}] * ({0}*2+1)
// CHECK-NEXT:    }
// CHECK-NEXT:    dojo.scope 1 {
// CHECK-NEXT:      dojo.leaf y[{0}+8] = x[{0}+8] * ({0}*2+17)
// CHECK-NEXT:    }
dojo.kernel @remainder {
  dojo.buffer x f32 [9] heap in
  dojo.buffer y f32 [9] heap out
  dojo.scope 9 {
    dojo.leaf y[{0}] = x[{0}] * ({0}*2+1)
  }
}

//--- inner.mlir
// RUN: perfdojo-opt %t/inner.mlir --dojo-apply="cut_scope t@1 8" | FileCheck %t/inner.mlir
// RUN: perfdojo-opt %t/inner.mlir > %t/inner.orig
// RUN: perfdojo-opt %t/inner.mlir --dojo-apply="cut_scope t@1 8; join_cut t#0@1" | diff %t/inner.orig -

// The whole body is copied, nested scopes included; only {1} moves. A
// negative coefficient moves the constant the other way; a leaf that does
// not use {1} is copied unchanged.
// CHECK-LABEL: dojo.kernel @inner
// CHECK:         dojo.scope 4 {
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf t[{0}, {1}] = x[{0}, -{1}+9]
// CHECK-NEXT:        dojo.scope 3 {
// CHECK-NEXT:          dojo.leaf y[{0}, {1}, {2}] = x[{0}, {1}] + {2}
// CHECK-NEXT:        }
// CHECK-NEXT:        dojo.leaf z[{0}] = x[{0}, 0]
// CHECK-NEXT:      }
// CHECK-NEXT:      dojo.scope 2 {
// CHECK-NEXT:        dojo.leaf t[{0}, {1}+8] = x[{0}, -{1}+1]
// CHECK-NEXT:        dojo.scope 3 {
// CHECK-NEXT:          dojo.leaf y[{0}, {1}+8, {2}] = x[{0}, {1}+8] + {2}
// CHECK-NEXT:        }
// CHECK-NEXT:        dojo.leaf z[{0}] = x[{0}, 0]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
dojo.kernel @inner {
  dojo.buffer x f32 [4, 10] heap in
  dojo.buffer t f32 [4, 10] heap out
  dojo.buffer y f32 [4, 10, 3] heap out
  dojo.buffer z f32 [4] heap out
  dojo.scope 4 {
    dojo.scope 10 {
      dojo.leaf t[{0}, {1}] = x[{0}, 9-{1}]
      dojo.scope 3 {
        dojo.leaf y[{0}, {1}, {2}] = x[{0}, {1}] + {2}
      }
      dojo.leaf z[{0}] = x[{0}, 0]
    }
  }
}
