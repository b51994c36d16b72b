// One case per rejection reason of remove_scope (lib/Moves/AddScope.cpp).
// Errors sit on the kernel, notes on the leaves and scopes involved.
// RUN: perfdojo-opt %s -split-input-file --dojo-apply="remove_scope y@0" -verify-diagnostics

// expected-error @+1 {{'remove_scope y@0': y@0 is a leaf; remove_scope needs a scope}}
dojo.kernel @negative_leaf {
  dojo.buffer y f32 [1] heap out
  // expected-note @+1 {{the leaf}}
  dojo.leaf y[0] = 1.0
}

// -----

// expected-error @+1 {{'remove_scope y@0': the scope has a mode; remove_scope needs a plain scope (clear the mode first)}}
dojo.kernel @negative_mode {
  dojo.buffer y f32 [1] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 4:u {
    dojo.leaf y[0] = 1.0
  }
}

// -----

// expected-error @+1 {{'remove_scope y@0': the scope has 2 children; remove_scope needs exactly one (split_off first)}}
dojo.kernel @negative_children {
  dojo.buffer y f32 [1] heap out
  dojo.buffer z f32 [1] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 4 {
    dojo.leaf y[0] = 1.0
    dojo.leaf z[0] = 2.0
  }
}

// -----

// expected-error @+1 {{'remove_scope y@0': the body uses {0}, the scope's variable: `y[{0}] = 1`}}
dojo.kernel @negative_uses_variable {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-note @+1 {{the leaf}}
    dojo.leaf y[{0}] = 1.0
  }
}

// -----

// expected-error @+1 {{'remove_scope y@0': the scope's body contains a reduction, which is not idempotent: `y[0] += n[0]`}}
dojo.kernel @negative_reduction {
  dojo.buffer n f32 [1] heap in
  dojo.buffer y f32 [1] heap inout
  dojo.scope 4 {
    // expected-note @+1 {{the reduction}}
    dojo.leaf y[0] += n[0]
  }
}

// -----

// Four runs of y[0] = y[0] * 2 multiply by 16, one run by 2.
// expected-error @+1 {{'remove_scope y@0': the scope's body is not idempotent: it reads an element before writing it again: write of 'y' in `y[0] = y[0] * 2` conflicts with the read of 'y' in `y[0] = y[0] * 2`}}
dojo.kernel @negative_read_before_write {
  dojo.buffer y f32 [1] heap inout
  dojo.scope 4 {
    // expected-note @+2 {{the write}}
    // expected-note @+1 {{the read that precedes it}}
    dojo.leaf y[0] = y[0] * 2.0
  }
}
