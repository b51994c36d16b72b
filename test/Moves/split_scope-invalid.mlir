// One case per rejection reason of split_scope (lib/Moves/SplitScope.cpp).
// Errors sit on the kernel, notes on the scope or leaf.
// RUN: perfdojo-opt %s -split-input-file --dojo-apply="split_scope y@0 3" -verify-diagnostics

// expected-error @+1 {{'split_scope y@0 3': y@0 is a leaf; split_scope needs a scope}}
dojo.kernel @negative_leaf {
  dojo.buffer y f32 [1] heap out
  // expected-note @+1 {{the leaf}}
  dojo.leaf y[0] = 1.0
}

// -----

// expected-error @+1 {{'split_scope y@0 3': the scope has a mode; split_scope needs a plain scope (clear the mode first)}}
dojo.kernel @negative_mode {
  dojo.buffer y f32 [6] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 6:u {
    dojo.leaf y[{0}] = 1.0
  }
}

// -----

// expected-error @+1 {{'split_scope y@0 3': split factor 3 must lie strictly between 1 and the scope size 3}}
dojo.kernel @negative_factor_range {
  dojo.buffer y f32 [3] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 3 {
    dojo.leaf y[{0}] = 1.0
  }
}

// -----

// expected-error @+1 {{'split_scope y@0 3': split factor 3 does not divide scope size 10}}
dojo.kernel @negative_not_divisor {
  dojo.buffer y f32 [10] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 10 {
    dojo.leaf y[{0}] = 1.0
  }
}
