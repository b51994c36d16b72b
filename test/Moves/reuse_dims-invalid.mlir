// One case per rejection reason of reuse_dims (lib/Moves/ReuseDims.cpp);
// NM1-NM4 are the conditions of the `:N` invariant (docs/moves.md).
// RUN: perfdojo-opt %s -split-input-file --dojo-apply="reuse_dims t.0" -verify-diagnostics

// expected-error @+1 {{'reuse_dims t.0': 't' is a kernel argument; its storage belongs to the caller (NM1)}}
dojo.kernel @negative_argument {
  dojo.buffer x f32 [4] heap in
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = x[{0}]
  }
}

// -----

// expected-error @+1 {{'reuse_dims t.0': dimension 0 of 't' is already non-materialized}}
dojo.kernel @negative_already {
  dojo.buffer x f32 [4] heap in
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4:N] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = x[{0}]
    dojo.leaf y[{0}] = t[{0}]
  }
}

// -----

// A heap buffer is shared by the iterations of a `:p` scope: one slot
// would race (a stack buffer is private per iteration, see
// privatization.mlir).
// expected-error @+1 {{'reuse_dims t.0': the result would make the :p scope race: two of its iterations conflict: write of 't' in `t[{0}] = x[{0}]` conflicts with the write of 't' in `t[{0}] = x[{0}]`}}
dojo.kernel @negative_mode {
  dojo.buffer x f32 [4] heap in
  dojo.buffer t f32 [4] heap
  dojo.buffer y f32 [4] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 4:p {
    // expected-note @+2 {{conflicts with this leaf}}
    // expected-note @+1 {{this leaf}}
    dojo.leaf t[{0}] = x[{0}]
    dojo.leaf y[{0}] = t[{0}]
  }
}

// -----

// expected-error @+1 {{'reuse_dims t.0': dimension 0 is indexed by different constants, which would share one slot}}
dojo.kernel @negative_constants {
  dojo.buffer x f32 [4] heap in
  dojo.buffer t f32 [2] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[0] = x[{0}]
    // expected-note @+1 {{this access}}
    dojo.leaf t[1] = x[{0}] * 2.0
    dojo.leaf y[{0}] = t[0] + t[1]
  }
}

// -----

// The deepest variable of a dim-0 index is {1}, but the first leaf sits at
// depth 0, outside every reuse scope.
// expected-error @+1 {{'reuse_dims t.0': an access sits outside the reuse scope at depth 1 (NM2)}}
dojo.kernel @negative_outside_reuse_scope {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer t f32 [8] stack
  dojo.buffer y f32 [4, 8] heap out
  // expected-note @+1 {{this leaf}}
  dojo.leaf t[0] = 0
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf t[{1}] = x[{0}, {1}]
      dojo.leaf y[{0}, {1}] = t[{1}]
    }
  }
}

// -----

// t[{0}] and t[{0}+1] are different slots that would become one.
// expected-error @+1 {{'reuse_dims t.0': two accesses in one reuse scope index dimension 0 differently, so they would share a slot (NM3)}}
dojo.kernel @negative_different_index {
  dojo.buffer x f32 [4] heap in
  dojo.buffer t f32 [5] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-note @+1 {{this access}}
    dojo.leaf t[{0}] = x[{0}]
    // expected-note @+1 {{and this one}}
    dojo.leaf t[{0}+1] = x[{0}]
    dojo.leaf y[{0}] = t[{0}+1]
  }
}

// -----

// Producer and consumer in separate nests (Figure 6 before fusion).
// expected-error @+1 {{'reuse_dims t.0': a read of 't' is not covered by an earlier write in the same iteration of its reuse scope at depth 0, so it would see another slot's value (NM4)}}
dojo.kernel @negative_not_covered {
  dojo.buffer x f32 [16, 8] heap in
  dojo.buffer t f32 [16, 8] stack
  dojo.buffer y f32 [16, 8] heap out
  dojo.scope 16 {
    dojo.scope 8 {
      dojo.leaf t[{0}, {1}] = exp(x[{0}, {1}])
    }
  }
  dojo.scope 16 {
    dojo.scope 8 {
      // expected-note @+1 {{the read}}
      dojo.leaf y[{0}, {1}] = t[{0}, {1}] * 2.0
    }
  }
}
