// RUN: perfdojo-opt %s -split-input-file --dojo-apply="clear_mode y@1" -verify-diagnostics

// expected-error @below {{'clear_mode y@1': the node is not a scope with a mode}}
dojo.kernel @negative_plain {
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    // expected-note @below {{this node}}
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = 0
    }
  }
}

// -----

// The block scope inside needs this grid scope.
// expected-error @below {{'clear_mode y@1': the scope encloses a :b scope that needs it; clear that one first}}
dojo.kernel @negative_block_needs_grid {
  dojo.buffer y f32 [4, 4, 8] heap out
  dojo.scope 4 {
    dojo.scope 4:g {
      // expected-note @below {{this scope}}
      dojo.scope 8:b {
        dojo.leaf y[{0}, {1}, {2}] = 0
      }
    }
  }
}

// -----

// A lane-invariant store is a valid `:v` (the last lane wins), but not one
// set_vector makes: clearing it could not be undone.
// expected-error @below {{'clear_mode y@1': the move could not be undone: the output 'y' moves by 0 element(s) per lane; vector stores need stride 1}}
dojo.kernel @negative_vector_shape {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.scope 16:v {
      // expected-note @below {{the vector leaf}}
      dojo.leaf y[{0}] = 2.0
    }
  }
}
