// One case per rejection reason of merge_dims (lib/Moves/SplitDim.cpp).
// Errors sit on the kernel, notes on the buffer or leaf.
// RUN: perfdojo-opt %s -split-input-file --dojo-apply="merge_dims t.0" -verify-diagnostics

// expected-error @+1 {{'merge_dims t.0': 't' is a kernel argument; its layout belongs to the caller}}
dojo.kernel @negative_argument {
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [2, 4] heap out
  dojo.scope 2 {
    dojo.scope 4 {
      dojo.leaf t[{0}, {1}] = 1.0
    }
  }
}

// -----

// expected-error @+1 {{'merge_dims t.0': dimension 0 is the last dimension of 't'; merge_dims merges dimensions k and k+1}}
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

// expected-error @+1 {{'merge_dims t.0': dimensions 0 and 1 of 't' differ in materialization; merge_dims needs both materialized or both :N}}
dojo.kernel @negative_mixed_reuse {
  dojo.buffer x f32 [2, 4] heap in
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [2:N, 4] stack
  dojo.buffer y f32 [2, 4] heap out
  dojo.scope 2 {
    dojo.scope 4 {
      dojo.leaf t[{0}, {1}] = x[{0}, {1}]
      dojo.leaf y[{0}, {1}] = t[{0}, {1}]
    }
  }
}

// -----

// expected-error @+1 {{'merge_dims t.0': dimension 1 of 't' is padded; unpad it before merging}}
dojo.kernel @negative_padded {
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [2, 4+4] stack
  dojo.buffer y f32 [2, 4] heap out
  dojo.scope 2 {
    dojo.scope 4 {
      dojo.leaf t[{0}, {1}] = 1.0
      dojo.leaf y[{0}, {1}] = t[{0}, {1}]
    }
  }
}

// -----

// The diagonal t[{0}, {0}] would become t[{0}*5], which split_dim t.0 4
// cannot take apart again.
// expected-error @+1 {{'merge_dims t.0': indices [{0}, {0}] on dimensions 0 and 1 of 't' would not split back after merging: both indices use {0}}}
dojo.kernel @negative_shared_variable {
  dojo.buffer t f32 [4, 4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-note @+1 {{this access}}
    dojo.leaf t[{0}, {0}] = 1.0
    dojo.leaf y[{0}] = t[{0}, {0}]
  }
}

// -----

// {0} only takes the value 0, so 2*{0} stays in bounds of extent 2; merged,
// {1}*2+{0}*2 would split back into [{1}+{0}, 0].
// expected-error @+1 {{'merge_dims t.0': indices [{1}, {0}*2] on dimensions 0 and 1 of 't' would not split back after merging: the coefficient 2 of {0} in the second is a multiple of its extent 2}}
dojo.kernel @negative_multiple_of_extent {
  dojo.buffer t f32 [4, 2] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 1 {
    dojo.scope 4 {
      // expected-note @+1 {{this access}}
      dojo.leaf t[{1}, {0}*2] = 1.0
      dojo.leaf y[{1}] = t[{1}, {0}*2]
    }
  }
}

// -----

// Merging dimensions 0 and 1 (extents 2, 4) turns the write into
// t[{1}*4+{2}, {0}] with {2} < 2: no longer a dense box, so the `:N` check on
// dimension 2 (t.1 of the result) cannot prove that it covers the read.
// Every `:N` mark is re-verified on the result.
// expected-error @+1 {{'merge_dims t.0': the result would break the non-materialized dimension t.2 (t.1 of the result): a read of 't' is not covered by an earlier write in the same iteration of its reuse scope at depth 0, so it would see another slot's value (NM4); materialize it first (materialize_dims t.2)}}
dojo.kernel @negative_breaks_reuse {
  dojo.buffer x f32 [4, 2, 2] heap in
  dojo.buffer t f32 [2, 4, 4:N] stack
  dojo.buffer y f32 [4, 2, 2] heap out
  dojo.scope 4 {
    dojo.scope 2 {
      dojo.scope 2 {
        dojo.leaf t[{1}, {2}, {0}] = x[{0}, {1}, {2}]
      }
    }
    dojo.scope 2 {
      dojo.scope 2 {
        // expected-note @+1 {{the read}}
        dojo.leaf y[{0}, {1}, {2}] = t[{1}, {2}, {0}]
      }
    }
  }
}
