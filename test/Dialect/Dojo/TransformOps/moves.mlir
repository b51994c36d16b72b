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

// -----

// Staging: the row scope works on a stack copy of x; unstage restores it.

// CHECK-LABEL: dojo.kernel @staged
// CHECK:         dojo.buffer x_s f32 [4, 8] stack
// CHECK:         dojo.leaf x_s[{0}, {1}] = x[{0}, {1}]
// CHECK:         dojo.leaf y[{0}, {1}] = exp(x_s[{0}, {1}])
// CHECK-LABEL: dojo.kernel @unstaged
// CHECK-NOT:     x_s
// CHECK:         dojo.leaf y[{0}, {1}] = exp(x[{0}, {1}])
dojo.kernel @staged {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = exp(x[{0}, {1}])
    }
  }
}
dojo.kernel @unstaged {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = exp(x[{0}, {1}])
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.dojo.get_kernels named "staged" in %root : (!transform.any_op) -> !transform.any_op
    transform.dojo.stage_region "x,y@0" params [1] in %k : !transform.any_op
    %u = transform.dojo.get_kernels named "unstaged" in %root : (!transform.any_op) -> !transform.any_op
    transform.dojo.stage_region "x,y@0" params [1] in %u : !transform.any_op
    transform.dojo.unstage "x_s" in %u : !transform.any_op
    transform.yield
  }
}
