// One case per rejection reason of join_cut (lib/Moves/CutScope.cpp).
// Errors sit on the kernel, notes on the scopes and leaves involved.
// RUN: perfdojo-opt %s -split-input-file --dojo-apply="join_cut y#0@0" -verify-diagnostics

// expected-error @+1 {{'join_cut y#0@0': y#0@0 is a leaf; join_cut needs a scope}}
dojo.kernel @negative_leaf {
  dojo.buffer y f32 [2] heap out
  // expected-note @+1 {{the leaf}}
  dojo.leaf y[0] = 1.0
  dojo.leaf y[1] = 1.0
}

// -----

// expected-error @+1 {{'join_cut y#0@0': the scope has a mode; join_cut needs a plain scope (clear the mode first)}}
dojo.kernel @negative_mode {
  dojo.buffer y f32 [8] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 4:u {
    dojo.leaf y[{0}] = 1.0
  }
  dojo.scope 4 {
    dojo.leaf y[{0}+4] = 1.0
  }
}

// -----

// expected-error @+1 {{'join_cut y#0@0': the next sibling is not a scope}}
dojo.kernel @negative_next_not_scope {
  dojo.buffer y f32 [5] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
  dojo.leaf y[4] = 1.0
}

// -----

// expected-error @+1 {{'join_cut y#0@0': the next scope has a mode; join_cut needs plain scopes (clear the mode first)}}
dojo.kernel @negative_next_mode {
  dojo.buffer y f32 [8] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
  // expected-note @+1 {{the next scope}}
  dojo.scope 4:u {
    dojo.leaf y[{0}+4] = 1.0
  }
}

// -----

// The second scope starts at 5, not at 4: joining would skip element 4.
// expected-error @+1 {{'join_cut y#0@0': the next scope's body is not this body with {0} shifted by 4}}
dojo.kernel @negative_body_differs {
  dojo.buffer x f32 [9] heap in
  dojo.buffer y f32 [9] heap out
  dojo.scope 4 {
    // expected-note @+1 {{first difference, in this scope}}
    dojo.leaf y[{0}] = x[{0}]
  }
  dojo.scope 4 {
    // expected-note @+1 {{first difference, in the next scope}}
    dojo.leaf y[{0}+5] = x[{0}+5]
  }
  dojo.leaf y[4] = x[4]
}

// -----

// The second body lacks the first body's second leaf.
// expected-error @+1 {{'join_cut y#0@0': the next scope's body is not this body with {0} shifted by 4}}
dojo.kernel @negative_missing_child {
  dojo.buffer y f32 [8] heap out
  dojo.buffer z f32 [1] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
    // expected-note @+1 {{first difference, in this scope}}
    dojo.leaf z[0] = 2.0
  }
  dojo.scope 4 {
    dojo.leaf y[{0}+4] = 1.0
  }
}
