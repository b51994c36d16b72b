// One case per rejection reason of unpad_dim (lib/Moves/PadDim.cpp). Errors
// sit on the kernel, notes on the buffer or leaf. Each case is its own file
// so that it carries its own request.
// RUN: rm -rf %t && split-file %s %t

//--- negative_amount.mlir
// RUN: perfdojo-opt %t/negative_amount.mlir --dojo-apply="unpad_dim t.0 3" -verify-diagnostics

// expected-error @+1 {{'unpad_dim t.0 3': unpad amount 3 must lie between 1 and the padding 2 of dimension 0 of 't'}}
dojo.kernel @negative_amount {
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4+2] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] = t[{0}]
  }
}

//--- negative_reused.mlir
// RUN: perfdojo-opt %t/negative_reused.mlir --dojo-apply="unpad_dim t.0 2" -verify-diagnostics

// expected-error @+1 {{'unpad_dim t.0 2': dimension 0 of 't' is non-materialized (:N); materialize it before changing its padding}}
dojo.kernel @negative_reused {
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4+2:N] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] = t[{0}]
  }
}

//--- negative_padding_used.mlir
// RUN: perfdojo-opt %t/negative_padding_used.mlir --dojo-apply="unpad_dim t.0 2" -verify-diagnostics

// Both leaves reach index 4, the first padding element; the first access
// in execution order is named.
// expected-error @+1 {{'unpad_dim t.0 2': index {0} on dimension 0 of 't' reaches 4, in the padding that would be removed (allocated extent 4 after the move)}}
dojo.kernel @negative_padding_used {
  dojo.buffer t f32 [4+2] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 5 {
    // expected-note @+1 {{this access}}
    dojo.leaf t[{0}] = 1.0
  }
  dojo.scope 4 {
    dojo.leaf y[{0}] = t[{0}+1]
  }
}
