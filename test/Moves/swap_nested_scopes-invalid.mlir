// One case per rejection reason of swap_nested_scopes
// (lib/Moves/SwapNestedScopes.cpp).
// RUN: perfdojo-opt %s -split-input-file --dojo-apply="swap_nested_scopes y@0" -verify-diagnostics

// The scope has a leaf and a scope as children: no perfect pair.
// expected-error @+1 {{'swap_nested_scopes y@0': needs a scope whose only child is a scope}}
dojo.kernel @negative_not_perfect {
  dojo.buffer y f32 [4, 8] heap out
  dojo.buffer z f32 [4] heap out
  // expected-note @+1 {{this node}}
  dojo.scope 4 {
    dojo.leaf z[{0}] = 0
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = 1.0
    }
  }
}

// -----

// expected-error @+1 {{'swap_nested_scopes y@0': both scopes must be plain; clear the mode first}}
dojo.kernel @negative_mode {
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    // expected-note @+1 {{scope with a mode}}
    dojo.scope 8:u {
      dojo.leaf y[{0}, {1}] = 1.0
    }
  }
}

// -----

// Instance (i, j) writes y[i+1, j], which instance (i+1, j-1) reads: that
// pair has direction (<, >) and would run in the other order.
// expected-error @+1 {{'swap_nested_scopes y@0': interchange would reorder dependent instances: write of 'y' in `y[{0}+1, {1}] = y[{0}, {1}+1]` conflicts with the read of 'y' in `y[{0}+1, {1}] = y[{0}, {1}+1]`}}
dojo.kernel @negative_dependence {
  dojo.buffer y f32 [5, 9] heap inout
  dojo.scope 4 {
    dojo.scope 8 {
      // (The longer note comes first: "this leaf" would also match it.)
      // expected-note @+2 {{depends on this leaf}}
      // expected-note @+1 {{this leaf}}
      dojo.leaf y[{0}+1, {1}] = y[{0}, {1}+1]
    }
  }
}
