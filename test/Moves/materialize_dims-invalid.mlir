// One case per rejection reason of materialize_dims
// (lib/Moves/ReuseDims.cpp).
// RUN: perfdojo-opt %s -split-input-file --dojo-apply="materialize_dims t.0" -verify-diagnostics

// expected-error @+1 {{'materialize_dims t.0': dimension 0 of 't' is already materialized}}
dojo.kernel @negative_materialized {
  dojo.buffer x f32 [4] heap in
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = x[{0}]
    dojo.leaf y[{0}] = t[{0}]
  }
}

// -----

// A register buffer with one 16-element row live at a time; giving every
// row of 8 its own storage needs 128 elements, over the budget of 64. (The
// 16 scope is unrolled: only constants may index a register.)
// expected-error @+1 {{'materialize_dims t.0': materializing would exceed the capacity of reg: 't' would allocate 128 elements, over the register budget of 64 elements}}
dojo.kernel @negative_register_budget {
  dojo.buffer x f32 [8, 16] heap in
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [8:N, 16] reg
  dojo.buffer y f32 [8, 16] heap out
  dojo.scope 8 {
    dojo.scope 16:u {
      dojo.leaf t[{0}, {1}] = x[{0}, {1}]
      dojo.leaf y[{0}, {1}] = t[{0}, {1}]
    }
  }
}
