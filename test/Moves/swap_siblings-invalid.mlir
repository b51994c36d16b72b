// One case per rejection reason of swap_siblings
// (lib/Moves/SwapSiblings.cpp).
// RUN: perfdojo-opt %s -split-input-file --dojo-apply="swap_siblings y@1" -verify-diagnostics

// expected-error @+1 {{'swap_siblings y@1': the node has no next sibling}}
dojo.kernel @negative_last {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [4] heap out
  dojo.buffer z f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf z[{0}] = x[{0}]
    // expected-note @+1 {{the node}}
    dojo.leaf y[{0}] = x[{0}]
  }
}

// -----

// z reads the element y writes in the same iteration (flow dependence).
// expected-error @+1 {{'swap_siblings y@1': the siblings depend on each other: write of 'y' in `y[{0}] = x[{0}]` conflicts with the read of 'y' in `z[{0}] = y[{0}] * 2`}}
dojo.kernel @negative_dependence {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [4] heap out
  dojo.buffer z f32 [4] heap out
  dojo.scope 4 {
    // expected-note @+1 {{this leaf}}
    dojo.leaf y[{0}] = x[{0}]
    // expected-note @+1 {{conflicts with this leaf}}
    dojo.leaf z[{0}] = y[{0}] * 2.0
  }
}
