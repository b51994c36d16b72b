// One case per rejection reason of materialize_dims
// (lib/Moves/ReuseDims.cpp).
// RUN: perfdojo-opt %s -split-input-file --dojo-apply="materialize_dims t.0" -verify-diagnostics

// expected-error @+1 {{'materialize_dims t.0': dimension 0 of 't' is already materialized}}
dojo.kernel @negative_materialized {
  dojo.buffer x f32 [4] heap in
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = x[{0}]
    dojo.leaf y[{0}] = t[{0}]
  }
}
