// One case per rejection reason of pad_dim (lib/Moves/PadDim.cpp). Errors
// sit on the kernel, notes on the buffer or leaf. Each case is its own file
// so that it carries its own request.
// RUN: rm -rf %t && split-file %s %t

//--- negative_argument.mlir
// RUN: perfdojo-opt %t/negative_argument.mlir --dojo-apply="pad_dim y.0 4" -verify-diagnostics

// expected-error @+1 {{'pad_dim y.0 4': 'y' is a kernel argument; its layout belongs to the caller}}
dojo.kernel @negative_argument {
  // expected-note @+1 {{declared here}}
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- negative_amount.mlir
// RUN: perfdojo-opt %t/negative_amount.mlir --dojo-apply="pad_dim t.0 0" -verify-diagnostics

// expected-error @+1 {{'pad_dim t.0 0': padding amount 0 must be positive}}
dojo.kernel @negative_amount {
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] = t[{0}]
  }
}

//--- negative_reused.mlir
// RUN: perfdojo-opt %t/negative_reused.mlir --dojo-apply="pad_dim t.0 4" -verify-diagnostics

// expected-error @+1 {{'pad_dim t.0 4': dimension 0 of 't' is non-materialized (:N); padding it would allocate nothing}}
dojo.kernel @negative_reused {
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4:N] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] = t[{0}]
  }
}

//--- negative_capacity.mlir
// RUN: perfdojo-opt %t/negative_capacity.mlir --dojo-apply="pad_dim t.1 1" -verify-diagnostics

// A register buffer of 8 x 8 elements fills the budget of 64; padding the
// rows would need 72. (Unrolled scopes: only constants may index a
// register.)
// expected-error @+1 {{'pad_dim t.1 1': padding would exceed the capacity of reg: 't' would allocate 72 elements, over the register budget of 64 elements}}
dojo.kernel @negative_capacity {
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [8, 8] reg
  dojo.buffer y f32 [8, 8] heap out
  dojo.scope 8:u {
    dojo.scope 8:u {
      dojo.leaf t[{0}, {1}] = 1.0
      dojo.leaf y[{0}, {1}] = t[{0}, {1}]
    }
  }
}

//--- negative_vector_lanes.mlir
// RUN: perfdojo-opt %t/negative_vector_lanes.mlir --dojo-apply="pad_dim t.1 1" -verify-diagnostics

// The `:v` leaf writes a column of t: one element per lane while rows have
// one element, two once they are padded.
// expected-error @+1 {{'pad_dim t.1 1': the new layout of 't' would break a vector leaf: the output 't' moves by 2 element(s) per lane; vector stores need stride 1 (clear the mode first)}}
dojo.kernel @negative_vector_lanes {
  dojo.buffer t f32 [16, 1] stack
  dojo.buffer y f32 [16] heap out
  dojo.scope 16:v {
    // expected-note @+1 {{the vector leaf}}
    dojo.leaf t[{0}, 0] = 1.0
  }
  dojo.scope 16 {
    dojo.leaf y[{0}] = t[{0}, 0] * 2
  }
}
