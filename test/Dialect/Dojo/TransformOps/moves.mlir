// RUN: perfdojo-opt %s --transform-interpreter -split-input-file | FileCheck %s

// The paper's Figure 6 as a transform script: fuse the producer and the
// consumer of `t`, then stop materializing its row dimension.

// CHECK-LABEL: dojo.kernel @fig6
// CHECK:   dojo.buffer t f32 [8:N, 16] heap
// CHECK:   dojo.scope 8 {
// CHECK-NEXT:     dojo.scope 4 {
// CHECK-NEXT:       dojo.scope 4 {
// CHECK-NEXT:         dojo.leaf t[{0}, {1}*4+{2}] = exp(x[{0}, {1}*4+{2}])
// CHECK:     dojo.scope 16 {
// CHECK-NEXT:       dojo.leaf y[{0}, {1}] = t[{0}, {1}] * 2
dojo.kernel @fig6 {
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
    transform.dojo.reuse_dims "t.0" in %k : !transform.any_op
    transform.dojo.split_scope "t@1" params [4] in %k : !transform.any_op
    transform.yield
  }
}

// -----

// Modes: split the row by the vector width, vectorize, parallelize rows.

// CHECK-LABEL: dojo.kernel @relu
// CHECK: dojo.scope 64:p {
// CHECK-NEXT:   dojo.scope 4 {
// CHECK-NEXT:     dojo.scope 16:v {
// CHECK-NEXT:       dojo.leaf y[{0}, {1}*16+{2}] = relu(x[{0}, {1}*16+{2}])
dojo.kernel @relu {
  dojo.buffer x f32 [64, 64] heap in
  dojo.buffer y f32 [64, 64] heap out
  dojo.scope 64 {
    dojo.scope 64 {
      dojo.leaf y[{0}, {1}] = relu(x[{0}, {1}])
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.dojo.get_kernels named "relu" in %root : (!transform.any_op) -> !transform.any_op
    transform.dojo.split_scope "y@1" params [16] in %k : !transform.any_op
    transform.dojo.set_vector "y@2" in %k : !transform.any_op
    transform.dojo.set_parallel "y@0" in %k : !transform.any_op
    transform.yield
  }
}
