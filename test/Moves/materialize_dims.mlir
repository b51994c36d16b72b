// materialize_dims b.k (lib/Moves/ReuseDims.cpp): a `:N` dimension gets its
// storage back. Always legal while the `:N` invariant holds, which every
// move keeps (post-verification); the inverse is reuse_dims b.k.
// RUN: perfdojo-opt %s --dojo-apply="materialize_dims t.0" | FileCheck %s
// RUN: perfdojo-opt %s > %t.orig
// RUN: perfdojo-opt %s --dojo-apply="materialize_dims t.0; reuse_dims t.0" | diff %t.orig -
// RUN: perfdojo-opt %s --dojo-apply="materialize_dims t.1; reuse_dims t.1" | diff %t.orig -

// Only the named dimension changes; accesses keep their indices.
// CHECK-LABEL: dojo.kernel @fused
// CHECK:         dojo.buffer t f32 [16, 8:N] stack
// CHECK:         dojo.leaf t[{0}, {1}] = exp(x[{0}, {1}])
// CHECK:         dojo.leaf y[{0}, {1}] = t[{0}, {1}] * 2
dojo.kernel @fused {
  dojo.buffer x f32 [16, 8] heap in
  dojo.buffer t f32 [16:N, 8:N] stack
  dojo.buffer y f32 [16, 8] heap out
  dojo.scope 16 {
    dojo.scope 8 {
      dojo.leaf t[{0}, {1}] = exp(x[{0}, {1}])
      dojo.leaf y[{0}, {1}] = t[{0}, {1}] * 2.0
    }
  }
}
