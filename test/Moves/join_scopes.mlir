// join_scopes a@d (lib/Moves/JoinScopes.cpp): the scope a@d and its next
// sibling, a scope of the same size, fuse; the second body runs after the
// first in every iteration. The inverse is split_off named by the first leaf
// of the first part's last child; each case applies the move and then the
// move and its inverse, which must give the input back.
// RUN: rm -rf %t && split-file %s %t

//--- producer_consumer.mlir
// RUN: perfdojo-opt %t/producer_consumer.mlir --dojo-apply="join_scopes t@0" | FileCheck %t/producer_consumer.mlir
// RUN: perfdojo-opt %t/producer_consumer.mlir > %t/producer_consumer.orig
// RUN: perfdojo-opt %t/producer_consumer.mlir --dojo-apply="join_scopes t@0; split_off t@0" | diff %t/producer_consumer.orig -

// The consumer reads row i of t, which the producer wrote in the same
// iteration: no backward dependence.
// CHECK-LABEL: dojo.kernel @producer_consumer
// CHECK:         dojo.scope 16 {
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf t[{0}, {1}] = exp(x[{0}, {1}])
// CHECK-NEXT:      }
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf y[{0}, {1}] = t[{0}, {1}] * 2
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NOT:     dojo.scope
dojo.kernel @producer_consumer {
  dojo.buffer x f32 [16, 8] heap in
  dojo.buffer t f32 [16, 8] stack
  dojo.buffer y f32 [16, 8] heap out
  dojo.scope 16 {
    dojo.scope 8 {
      dojo.leaf t[{0}, {1}] = exp(x[{0}, {1}])
    }
  }
  dojo.scope 16 {
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = t[{0}, {1}] * 2.0
    }
  }
}

//--- inverse_names_last_child.mlir
// RUN: perfdojo-opt %t/inverse_names_last_child.mlir --dojo-apply="join_scopes m#0@0" | FileCheck %t/inverse_names_last_child.mlir
// RUN: perfdojo-opt %t/inverse_names_last_child.mlir > %t/inverse_names_last_child.orig
// RUN: perfdojo-opt %t/inverse_names_last_child.mlir --dojo-apply="join_scopes m#0@0; split_off m#1@0" | diff %t/inverse_names_last_child.orig -

// The first part has two children; the gap of the inverse sits after the
// second, whose first leaf is m#1 (the max= update).
// CHECK-LABEL: dojo.kernel @inverse_names_last_child
// CHECK:         dojo.scope 4 {
// CHECK-NEXT:      dojo.leaf m[{0}] = -inf
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf m[{0}] max= x[{0}, {1}]
// CHECK-NEXT:      }
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf y[{0}, {1}] = x[{0}, {1}] - m[{0}]
// CHECK-NEXT:      }
// CHECK-NEXT:      dojo.leaf m[{0}] = m[{0}] * 2
// CHECK-NEXT:    }
dojo.kernel @inverse_names_last_child {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer m f32 [4] heap out
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.leaf m[{0}] = -inf
    dojo.scope 8 {
      dojo.leaf m[{0}] max= x[{0}, {1}]
    }
  }
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] - m[{0}]
    }
    dojo.leaf m[{0}] = m[{0}] * 2.0
  }
}

//--- inner.mlir
// RUN: perfdojo-opt %t/inner.mlir --dojo-apply="join_scopes a@1" | FileCheck %t/inner.mlir
// RUN: perfdojo-opt %t/inner.mlir > %t/inner.orig
// RUN: perfdojo-opt %t/inner.mlir --dojo-apply="join_scopes a@1; split_off a@1" | diff %t/inner.orig -

// Two sibling scopes at depth 1 fuse inside their parent.
// CHECK-LABEL: dojo.kernel @inner
// CHECK:         dojo.scope 2 {
// CHECK-NEXT:      dojo.scope 4 {
// CHECK-NEXT:        dojo.leaf a[{0}, {1}] = x[{0}, {1}]
// CHECK-NEXT:        dojo.leaf b[{0}, {1}] = a[{0}, {1}] + 1
// CHECK-NEXT:      }
// CHECK-NEXT:    }
dojo.kernel @inner {
  dojo.buffer x f32 [2, 4] heap in
  dojo.buffer a f32 [2, 4] heap out
  dojo.buffer b f32 [2, 4] heap out
  dojo.scope 2 {
    dojo.scope 4 {
      dojo.leaf a[{0}, {1}] = x[{0}, {1}]
    }
    dojo.scope 4 {
      dojo.leaf b[{0}, {1}] = a[{0}, {1}] + 1.0
    }
  }
}
