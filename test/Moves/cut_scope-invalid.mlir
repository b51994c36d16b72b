// One case per rejection reason of cut_scope (lib/Moves/CutScope.cpp).
// Errors sit on the kernel, notes on the scope or leaf.
// RUN: perfdojo-opt %s -split-input-file --dojo-apply="cut_scope y@0 4" -verify-diagnostics

// expected-error @+1 {{'cut_scope y@0 4': y@0 is a leaf; cut_scope needs a scope}}
dojo.kernel @negative_leaf {
  dojo.buffer y f32 [1] heap out
  // expected-note @+1 {{the leaf}}
  dojo.leaf y[0] = 1.0
}

// -----

// expected-error @+1 {{'cut_scope y@0 4': the scope has a mode; cut_scope needs a plain scope (clear the mode first)}}
dojo.kernel @negative_mode {
  dojo.buffer y f32 [6] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 6:p {
    dojo.leaf y[{0}] = 1.0
  }
}

// -----

// expected-error @+1 {{'cut_scope y@0 4': cut point 4 must lie strictly between 0 and the scope size 4}}
dojo.kernel @negative_cut_range {
  dojo.buffer y f32 [4] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
}
