// The transform dialect extension of the moves in Debian's stock mlir-opt,
// through the dialect plugin alone: a legal move applies, an illegal one is
// a located error with its reason.
//
// RUN: %stock_mlir_opt --load-dialect-plugin=%dojo_plugin %s --transform-interpreter -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: dojo.kernel @fuse
// CHECK: dojo.scope 8 {
// CHECK-NEXT: dojo.scope 16 {
// CHECK-NEXT: dojo.leaf t[{0}, {1}] = exp(x[{0}, {1}])
// CHECK-NEXT: dojo.leaf y[{0}, {1}] = t[{0}, {1}] * 2
dojo.kernel @fuse {
  dojo.buffer x f32 [8, 16] heap in
  dojo.buffer t f32 [8, 16] heap
  dojo.buffer y f32 [8, 16] heap out
  dojo.scope 8 {
    dojo.scope 16 {
      dojo.leaf t[{0}, {1}] = exp(x[{0}, {1}])
    }
  }
  dojo.scope 8 {
    dojo.scope 16 {
      dojo.leaf y[{0}, {1}] = t[{0}, {1}] * 2
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.dojo.get_kernels in %root : (!transform.any_op) -> !transform.any_op
    transform.dojo.join_scopes "t@0" in %k : !transform.any_op
    transform.dojo.join_scopes "t@1" in %k : !transform.any_op
    transform.yield
  }
}

// -----

dojo.kernel @negative_reuse_before_fusion {
  dojo.buffer x f32 [8, 16] heap in
  dojo.buffer t f32 [8, 16] heap
  dojo.buffer y f32 [8, 16] heap out
  dojo.scope 8 {
    dojo.scope 16 {
      dojo.leaf t[{0}, {1}] = exp(x[{0}, {1}])
    }
  }
  dojo.scope 8 {
    dojo.scope 16 {
      // expected-note @below {{the read}}
      dojo.leaf y[{0}, {1}] = t[{0}, {1}] * 2
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.dojo.get_kernels in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'reuse_dims t.0': a read of 't' is not covered by an earlier write in the same iteration of its reuse scope at depth 0, so it would see another slot's value (NM4)}}
    transform.dojo.reuse_dims "t.0" in %k : !transform.any_op
    transform.yield
  }
}
