// One case per rejection reason of join_scopes (lib/Moves/JoinScopes.cpp).
// RUN: perfdojo-opt %s -split-input-file --dojo-apply="join_scopes y@0" -verify-diagnostics

// expected-error @+1 {{'join_scopes y@0': join_scopes needs a scope, not a leaf}}
dojo.kernel @negative_leaf {
  dojo.buffer y f32 [1] heap out
  dojo.buffer z f32 [4] heap out
  // expected-note @+1 {{the leaf}}
  dojo.leaf y[0] = 1.0
  dojo.scope 4 {
    dojo.leaf z[{0}] = 2.0
  }
}

// -----

// expected-error @+1 {{'join_scopes y@0': the next sibling is not a scope}}
dojo.kernel @negative_next_not_scope {
  dojo.buffer y f32 [4] heap out
  dojo.buffer z f32 [1] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
  dojo.leaf z[0] = 2.0
}

// -----

// expected-error @+1 {{'join_scopes y@0': sizes differ: 4 and 3}}
dojo.kernel @negative_sizes {
  dojo.buffer y f32 [4] heap out
  dojo.buffer z f32 [3] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
  // expected-note @+1 {{the next scope}}
  dojo.scope 3 {
    dojo.leaf z[{0}] = 2.0
  }
}

// -----

// expected-error @+1 {{'join_scopes y@0': both scopes must be plain; clear the mode first}}
dojo.kernel @negative_mode {
  dojo.buffer y f32 [4] heap out
  dojo.buffer z f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
  // expected-note @+1 {{scope with a mode}}
  dojo.scope 4:u {
    dojo.leaf z[{0}] = 2.0
  }
}

// -----

// Iteration i of the second part reads y[3-i], which iteration 3-i of the
// first part writes: after fusion that write would come too late for i < 2.
// expected-error @+1 {{'join_scopes y@0': a later iteration of the first part conflicts with an earlier iteration of the second: write of 'y' in `y[{0}] = x[{0}]` conflicts with the read of 'y' in `z[{0}] = y[-{0}+3]`}}
dojo.kernel @negative_dependence {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [4] heap out
  dojo.buffer z f32 [4] heap out
  dojo.scope 4 {
    // expected-note @+1 {{first part}}
    dojo.leaf y[{0}] = x[{0}]
  }
  dojo.scope 4 {
    // expected-note @+1 {{second part}}
    dojo.leaf z[{0}] = y[-{0}+3]
  }
}
