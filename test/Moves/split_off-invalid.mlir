// One case per rejection reason of split_off (lib/Moves/JoinScopes.cpp).
// RUN: perfdojo-opt %s -split-input-file --dojo-apply="split_off y@0" -verify-diagnostics

// y is a top-level leaf, so y@0 names the leaf, not a gap inside a scope.
// expected-error @+1 {{'split_off y@0': y@0 is a leaf; split_off names a gap inside a scope as a@d with d smaller than the depth of leaf a}}
dojo.kernel @negative_leaf {
  dojo.buffer y f32 [1] heap out
  // expected-note @+1 {{the leaf}}
  dojo.leaf y[0] = 1.0
}

// -----

// expected-error @+1 {{'split_off y@0': nothing follows the gap: the named child is the last one}}
dojo.kernel @negative_nothing_follows {
  dojo.buffer y f32 [4] heap out
  dojo.buffer z f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf z[{0}] = 1.0
    // expected-note @+1 {{the last child}}
    dojo.leaf y[{0}] = 2.0
  }
}

// -----

// expected-error @+1 {{'split_off y@0': the scope must be plain; clear the mode first}}
dojo.kernel @negative_mode {
  dojo.buffer y f32 [4] heap out
  dojo.buffer z f32 [4] heap out
  // expected-note @+1 {{scope with a mode}}
  dojo.scope 4:u {
    dojo.leaf y[{0}] = 1.0
    dojo.leaf z[{0}] = 2.0
  }
}

// -----

// Iteration i reads y[3-i]; after fission every y would be written before
// any read, while the kernel reads y[3-i] before iteration 3-i writes it for
// i < 2.
// expected-error @+1 {{'split_off y@0': a later iteration of the first part conflicts with an earlier iteration of the second: write of 'y' in `y[{0}] = x[{0}]` conflicts with the read of 'y' in `z[{0}] = y[-{0}+3]`}}
dojo.kernel @negative_dependence {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [4] heap inout
  dojo.buffer z f32 [4] heap out
  dojo.scope 4 {
    // expected-note @+1 {{first part}}
    dojo.leaf y[{0}] = x[{0}]
    // expected-note @+1 {{second part}}
    dojo.leaf z[{0}] = y[-{0}+3]
  }
}
