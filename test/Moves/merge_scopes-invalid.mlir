// One case per rejection reason of merge_scopes (lib/Moves/SplitScope.cpp).
// RUN: perfdojo-opt %s -split-input-file --dojo-apply="merge_scopes y@0" -verify-diagnostics

// expected-error @+1 {{'merge_scopes y@0': y@0 is a leaf; merge_scopes needs a scope}}
dojo.kernel @negative_leaf {
  dojo.buffer y f32 [1] heap out
  // expected-note @+1 {{the leaf}}
  dojo.leaf y[0] = 1.0
}

// -----

// expected-error @+1 {{'merge_scopes y@0': the scope has a mode; merge_scopes needs a plain scope (clear the mode first)}}
dojo.kernel @negative_mode {
  dojo.buffer y f32 [32] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 4:u {
    dojo.scope 8 {
      dojo.leaf y[{0}*8+{1}] = 1.0
    }
  }
}

// -----

// The outer scope has two children, so there is no perfect pair.
// expected-error @+1 {{'merge_scopes y@0': the scope's only child must be a scope to merge with}}
dojo.kernel @negative_not_perfect {
  dojo.buffer y f32 [32] heap out
  dojo.buffer z f32 [4] heap out
  // expected-note @+1 {{the outer scope}}
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf y[{0}*8+{1}] = 1.0
    }
    dojo.leaf z[{0}] = 2.0
  }
}

// -----

// expected-error @+1 {{'merge_scopes y@0': the inner scope has a mode; merge_scopes needs plain scopes (clear the mode first)}}
dojo.kernel @negative_inner_mode {
  dojo.buffer y f32 [32] heap out
  dojo.scope 4 {
    // expected-note @+1 {{the inner scope}}
    dojo.scope 8:u {
      dojo.leaf y[{0}*8+{1}] = 1.0
    }
  }
}

// -----

// y[{0}, {1}] keeps the two variables apart: the merged variable would have
// to be split again with div/mod.
// expected-error @+1 {{'merge_scopes y@0': index {0} does not use {0} and {1} only through {0}*8+{1}, so the merged scope would need div/mod}}
dojo.kernel @negative_index {
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    // expected-note @+1 {{the inner scope}}
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = 1.0
    }
  }
}
