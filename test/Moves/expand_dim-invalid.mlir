// One case per rejection reason of expand_dim (lib/Moves/ExpandDim.cpp).
// Errors sit on the kernel, notes on the buffers, leaves and scopes involved.
// RUN: rm -rf %t && split-file %s %t
// RUN: perfdojo-opt %t/cases.mlir -split-input-file --dojo-apply="expand_dim t.0 4 0" -verify-diagnostics
// RUN: perfdojo-opt %t/location.mlir --dojo-apply="expand_dim t 4 0" -verify-diagnostics
// RUN: perfdojo-opt %t/position.mlir --dojo-apply="expand_dim t.2 4 0" -verify-diagnostics
// RUN: perfdojo-opt %t/extent.mlir --dojo-apply="expand_dim t.0 0 0" -verify-diagnostics
// RUN: perfdojo-opt %t/below.mlir --dojo-apply="expand_dim t.0 8 1" -verify-diagnostics
// RUN: perfdojo-opt %t/lanes.mlir --dojo-apply="expand_dim t.1 4 0" -verify-diagnostics

//--- lanes.mlir
// A new last dimension multiplies the stride of the lane dimension by 4.
// expected-error @+1 {{'expand_dim t.1 4 0': the new layout of 't' would break a vector leaf: the output 't' moves by 4 element(s) per lane; vector stores need stride 1 (clear the mode first)}}
dojo.kernel @negative_lanes {
  dojo.buffer x f32 [4, 16] heap in
  dojo.buffer t f32 [16] stack
  dojo.buffer y f32 [4, 16] heap out
  dojo.scope 4 {
    dojo.scope 16:v {
      // expected-note @+1 {{the vector leaf}}
      dojo.leaf t[{1}] = x[{0}, {1}]
    }
    dojo.scope 16:v {
      dojo.leaf y[{0}, {1}] = t[{1}]
    }
  }
}

//--- location.mlir
// expected-error @+1 {{'expand_dim t 4 0': expected a buffer position like 't.0' but found 't'}}
dojo.kernel @negative_location {
  dojo.buffer x f32 [4] heap in
  dojo.buffer t f32 [] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[] = x[{0}]
    dojo.leaf y[{0}] = t[]
  }
}

//--- position.mlir
// expected-error @+1 {{'expand_dim t.2 4 0': position 2 is past the end of 't', which has rank 1}}
dojo.kernel @negative_position {
  dojo.buffer x f32 [4] heap in
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = x[{0}]
    dojo.leaf y[{0}] = t[{0}]
  }
}

//--- extent.mlir
// expected-error @+1 {{'expand_dim t.0 0 0': the extent 0 must be positive and the depth 0 non-negative}}
dojo.kernel @negative_extent {
  dojo.buffer x f32 [4] heap in
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[] = x[{0}]
    dojo.leaf y[{0}] = t[]
  }
}

//--- below.mlir
// The write of t sits at depth 1, so it has no variable {1}.
// expected-error @+1 {{'expand_dim t.0 8 1': an access to 't' is not below depth 1, so it has no variable {1}}}
dojo.kernel @negative_not_below {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer t f32 [] stack
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    // expected-note @+1 {{the access}}
    dojo.leaf t[] = x[{0}, 0]
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = t[] + x[{0}, {1}]
    }
  }
}

//--- cases.mlir
// expected-error @+1 {{'expand_dim t.0 4 0': 't' is a kernel argument; its layout belongs to the caller}}
dojo.kernel @negative_argument {
  dojo.buffer x f32 [4] heap in
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = x[{0}]
  }
}

// -----

// expected-error @+1 {{'expand_dim t.0 4 0': no leaf accesses 't'}}
dojo.kernel @negative_unused {
  dojo.buffer x f32 [4] heap in
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = x[{0}]
  }
}

// -----

// {0} in the second nest is another scope's variable.
// expected-error @+1 {{'expand_dim t.0 4 0': the accesses to 't' lie in different scopes at depth 0, so {0} would name different scopes}}
dojo.kernel @negative_different_scopes {
  dojo.buffer x f32 [4] heap in
  dojo.buffer t f32 [] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-note @+1 {{this access}}
    dojo.leaf t[] = x[{0}]
  }
  dojo.scope 4 {
    // expected-note @+1 {{and this one}}
    dojo.leaf y[{0}] = t[]
  }
}

// -----

// expected-error @+1 {{'expand_dim t.0 4 0': the new extent 4 differs from the size 6 of the scope at depth 0}}
dojo.kernel @negative_size {
  dojo.buffer x f32 [6] heap in
  dojo.buffer t f32 [] stack
  dojo.buffer y f32 [6] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 6 {
    dojo.leaf t[] = x[{0}]
    dojo.leaf y[{0}] = t[]
  }
}

// -----

// expected-error @+1 {{'expand_dim t.0 4 0': the copies would exceed the capacity of reg: 't' would allocate 128 elements, over the register budget of 64 elements}}
dojo.kernel @negative_capacity {
  dojo.buffer x f32 [4, 32] heap in
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [32] reg
  dojo.buffer y f32 [4, 32] heap out
  dojo.scope 4 {
    dojo.scope 32:u {
      dojo.leaf t[{1}] = x[{0}, {1}]
      dojo.leaf y[{0}, {1}] = t[{1}]
    }
  }
}

// -----

// Every row reads element 0, which only the first row writes: with one copy
// per row the other rows would read an unwritten copy.
// expected-error @+1 {{'expand_dim t.0 4 0': every iteration of the scope at depth 0 can have its own copy of 't' only where one shared copy would be a legal `:N` dimension: a read of 't' is not covered by an earlier write in the same iteration of its reuse scope at depth 0, so it would see another slot's value (NM4)}}
dojo.kernel @negative_crossing_value {
  dojo.buffer x f32 [4] heap in
  dojo.buffer t f32 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = x[{0}]
    // expected-note @+1 {{the read}}
    dojo.leaf y[{0}] = t[0]
  }
}

