// One case per rejection reason of collapse_dim (lib/Moves/ExpandDim.cpp).
// Errors sit on the kernel, notes on the buffers, leaves and scopes involved.
// RUN: perfdojo-opt %s -split-input-file --dojo-apply="collapse_dim t.0" -verify-diagnostics

// expected-error @+1 {{'collapse_dim t.0': 't' is a kernel argument; its layout belongs to the caller}}
dojo.kernel @negative_argument {
  dojo.buffer x f32 [4] heap in
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = x[{0}]
  }
}

// -----

// expected-error @+1 {{'collapse_dim t.0': dimension 0 of 't' is non-materialized; materialize it first}}
dojo.kernel @negative_reused {
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

// expected-error @+1 {{'collapse_dim t.0': dimension 0 of 't' is padded; unpad it first}}
dojo.kernel @negative_padded {
  dojo.buffer x f32 [4] heap in
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4+4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = x[{0}]
    dojo.leaf y[{0}] = t[{0}]
  }
}

// -----

// expected-error @+1 {{'collapse_dim t.0': no leaf accesses 't'}}
dojo.kernel @negative_unused {
  dojo.buffer x f32 [4] heap in
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = x[{0}]
  }
}

// -----

// expected-error @+1 {{'collapse_dim t.0': dimension 0 of 't' is not indexed by one scope variable alone in every access}}
dojo.kernel @negative_index {
  dojo.buffer x f32 [4] heap in
  dojo.buffer t f32 [5] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = x[{0}]
    // expected-note @+1 {{this access}}
    dojo.leaf t[{0}+1] = x[{0}]
    dojo.leaf y[{0}] = t[{0}+1]
  }
}

// -----

// expected-error @+1 {{'collapse_dim t.0': the accesses to 't' lie in different scopes at depth 0, so {0} would name different scopes}}
dojo.kernel @negative_different_scopes {
  dojo.buffer x f32 [4] heap in
  dojo.buffer t f32 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-note @+1 {{this access}}
    dojo.leaf t[{0}] = x[{0}]
  }
  dojo.scope 4 {
    // expected-note @+1 {{and this one}}
    dojo.leaf y[{0}] = t[{0}]
  }
}

// -----

// expected-error @+1 {{'collapse_dim t.0': the extent 8 of dimension 0 differs from the size 4 of the scope whose variable indexes it}}
dojo.kernel @negative_size {
  dojo.buffer x f32 [4] heap in
  dojo.buffer t f32 [8] stack
  dojo.buffer y f32 [4] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 4 {
    dojo.leaf t[{0}] = x[{0}]
    dojo.leaf y[{0}] = t[{0}]
  }
}

// -----

// Every column reads column 0 of its row, written by an earlier iteration of
// the inner scope. One shared row would in fact do, but the coverage check
// of the `:N` invariant (NM4) is syntactic: it only accepts a covering write
// in the same iteration of every scope the writer and the reader share, so
// the collapse is refused (conservatively).
// expected-error @+1 {{'collapse_dim t.0': the iterations of the scope at depth 0 can share one copy of 't' only where the dimension could be `:N`: a read of 't' is not covered by an earlier write in the same iteration of its reuse scope at depth 0, so it would see another slot's value (NM4)}}
dojo.kernel @negative_shared_value {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer t f32 [4, 8] stack
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf t[{0}, {1}] = x[{0}, {1}]
      // expected-note @+1 {{the read}}
      dojo.leaf y[{0}, {1}] = t[{0}, 0] + x[{0}, {1}]
    }
  }
}

// -----

// One shared heap copy would race across the `:p` iterations.
// expected-error @+1 {{'collapse_dim t.0': the result would make the :p scope race: two of its iterations conflict: write of 't' in `t[] = x[{0}]` conflicts with the write of 't' in `t[] = x[{0}]`}}
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
