// RUN: perfdojo-opt %s --transform-interpreter -split-input-file -verify-diagnostics

// An illegal move is a silenceable failure at the transform op, with a note
// on the payload; the kernel is left as it was.
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

// -----

dojo.kernel @negative_not_a_kernel {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 0
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{expected the handle to point to dojo.kernel ops, not 'builtin.module'}}
    transform.dojo.split_scope "y@0" params [2] in %root : !transform.any_op
    transform.yield
  }
}

// -----

dojo.kernel @negative_unknown_name {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 0
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{no dojo.kernel named 'softmax'}}
    %k = transform.dojo.get_kernels named "softmax" in %root : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
