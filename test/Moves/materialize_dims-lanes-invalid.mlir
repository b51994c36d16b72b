// materialize_dims keeps the lane strides of `:v` leaves (ReuseDims.cpp):
// giving a `:N` dimension its storage back multiplies the strides of the
// dimensions before it.
// RUN: perfdojo-opt %s --dojo-apply="materialize_dims t.1" -verify-diagnostics

// Materializing the second dimension multiplies the stride of the lane
// dimension by 4.
// expected-error @+1 {{'materialize_dims t.1': the new layout of 't' would break a vector leaf: the output 't' moves by 4 element(s) per lane; vector stores need stride 1 (clear the mode first)}}
dojo.kernel @negative_lanes {
  dojo.buffer x f32 [4, 16] heap in
  dojo.buffer t f32 [16, 4:N] stack
  dojo.buffer y f32 [4, 16] heap out
  dojo.scope 4 {
    dojo.scope 16:v {
      // expected-note @+1 {{the vector leaf}}
      dojo.leaf t[{1}, {0}] = x[{0}, {1}]
    }
    dojo.scope 16:v {
      dojo.leaf y[{0}, {1}] = t[{1}, {0}]
    }
  }
}
