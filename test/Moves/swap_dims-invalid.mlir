// One case per rejection reason of swap_dims (lib/Moves/SwapDims.cpp).
// Errors sit on the kernel, notes on the buffer or leaf.
// RUN: perfdojo-opt %s -split-input-file --dojo-apply="swap_dims t.0" -verify-diagnostics

// expected-error @+1 {{'swap_dims t.0': 't' is a kernel argument; its layout belongs to the caller}}
dojo.kernel @negative_argument {
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4, 8] heap in
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = t[{0}, {1}]
    }
  }
}

// -----

// expected-error @+1 {{'swap_dims t.0': dimension 0 is the last dimension of 't'; swap_dims swaps dimensions k and k+1}}
dojo.kernel @negative_last_dim {
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] = t[{0}]
  }
}

// -----

// The output of the `:v` leaf would move by 4 elements per lane.
// expected-error @+1 {{'swap_dims t.0': the new layout of 't' would break a vector leaf: the output 't' moves by 4 element(s) per lane; vector stores need stride 1 (clear the mode first)}}
dojo.kernel @negative_vector_lanes {
  dojo.buffer x f32 [4, 16] heap in
  dojo.buffer t f32 [4, 16] stack
  dojo.buffer y f32 [4, 16] heap out
  dojo.scope 4 {
    dojo.scope 16:v {
      // expected-note @+1 {{the vector leaf}}
      dojo.leaf t[{0}, {1}] = exp(x[{0}, {1}])
    }
  }
  dojo.scope 4 {
    dojo.scope 16 {
      dojo.leaf y[{0}, {1}] = t[{0}, {1}]
    }
  }
}

// -----

// A `:v` leaf whose output moves by 5 elements per lane is valid IR (K5)
// but not the lane shape set_vector offers. Swapping would give it that
// shape, and the inverse swap, which would take it away, would be refused:
// a layout move keeps whether a vector leaf meets the lane policy.
// expected-error @+1 {{'swap_dims t.0': the new layout of 't' would give a vector leaf the lane shape set_vector offers where it has another (the output 't' moves by 5 element(s) per lane; vector stores need stride 1), which the move's inverse could not undo}}
dojo.kernel @negative_vector_lanes_gained {
  dojo.buffer x f32 [16, 5] heap in
  dojo.buffer t f32 [16, 5] heap
  dojo.buffer y f32 [16] heap out
  dojo.scope 16:v {
    // expected-note @+1 {{the vector leaf}}
    dojo.leaf t[{0}, 2] = x[{0}, 2]
  }
  dojo.scope 16 {
    dojo.leaf y[{0}] = t[{0}, 2]
  }
}
