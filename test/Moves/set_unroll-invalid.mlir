// RUN: perfdojo-opt %s -split-input-file --dojo-apply="set_unroll y@1" -verify-diagnostics

// expected-error @below {{'set_unroll y@1': modes are set on scopes, not leaves}}
dojo.kernel @negative_leaf {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-note @below {{the leaf}}
    dojo.leaf y[{0}] = 0
  }
}

// -----

// expected-error @below {{'set_unroll y@1': the scope already has mode :v; clear it first}}
dojo.kernel @negative_has_mode {
  dojo.buffer y f32 [4, 16] heap out
  dojo.scope 4 {
    // expected-note @below {{the scope}}
    dojo.scope 16:v {
      dojo.leaf y[{0}, {1}] = 0
    }
  }
}

// -----

// expected-error @below {{'set_unroll y@1': scope size 128 exceeds the unroll limit 64}}
dojo.kernel @negative_too_large {
  dojo.buffer y f32 [4, 128] heap out
  dojo.scope 4 {
    // expected-note @below {{the scope}}
    dojo.scope 128 {
      dojo.leaf y[{0}, {1}] = 0
    }
  }
}

// -----

// expected-error @below {{'set_unroll y@1': a :u (unrolled) scope cannot enclose a :p (parallel) scope}}
dojo.kernel @negative_encloses_parallel {
  dojo.buffer y f32 [4, 4, 8] heap out
  dojo.scope 4 {
    dojo.scope 4 {
      // expected-note @below {{the enclosed scope}}
      dojo.scope 8:p {
        dojo.leaf y[{0}, {1}, {2}] = 0
      }
    }
  }
}
