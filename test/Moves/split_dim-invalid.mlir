// One case per rejection reason of split_dim (lib/Moves/SplitDim.cpp).
// Errors sit on the kernel, notes on the buffer or leaf.
// RUN: perfdojo-opt %s -split-input-file --dojo-apply="split_dim t.0 4" -verify-diagnostics

// expected-error @+1 {{'split_dim t.0 4': 't' is a kernel argument; its layout belongs to the caller}}
dojo.kernel @negative_argument {
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [8] heap out
  dojo.scope 8 {
    dojo.leaf t[{0}] = 1.0
  }
}

// -----

// expected-error @+1 {{'split_dim t.0 4': split factor 4 does not divide extent 6 of dimension 0 of 't'}}
dojo.kernel @negative_not_divisor {
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [6] stack
  dojo.buffer y f32 [6] heap out
  dojo.scope 6 {
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] = t[{0}]
  }
}

// -----

// expected-error @+1 {{'split_dim t.0 4': dimension 0 of 't' is padded; unpad it before splitting}}
dojo.kernel @negative_padded {
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [8+1] stack
  dojo.buffer y f32 [8] heap out
  dojo.scope 8 {
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] = t[{0}]
  }
}

// -----

// {0} runs over [0, 7]: no affine e1 gives {0} = 4*e1+e2 with e2 in [0, 4)
// (split the scope first).
// expected-error @+1 {{'split_dim t.0 4': index {0} on dimension 0 of 't' does not split as 4*e1+e2 with e2 in [0, 4): e2 would range over [0, 7]}}
dojo.kernel @negative_index {
  dojo.buffer t f32 [8] stack
  dojo.buffer y f32 [8] heap out
  dojo.scope 8 {
    // expected-note @+1 {{this access}}
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] = t[{0}]
  }
}
