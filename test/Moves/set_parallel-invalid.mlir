// RUN: perfdojo-opt %s -split-input-file --dojo-apply="set_parallel y@1" -verify-diagnostics

// expected-error @below {{'set_parallel y@1': a :p (parallel) scope cannot be nested in a :u (unrolled) scope}}
dojo.kernel @negative_inside_unroll {
  dojo.buffer y f32 [4, 8] heap out
  // expected-note @below {{the enclosing scope}}
  dojo.scope 4:u {
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = 0
    }
  }
}

// -----

// expected-error @below {{'set_parallel y@1': a :p (parallel) scope cannot be nested in a :p (parallel) scope}}
dojo.kernel @negative_inside_parallel {
  dojo.buffer y f32 [4, 8] heap out
  // expected-note @below {{the enclosing scope}}
  dojo.scope 4:p {
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = 0
    }
  }
}

// -----

// expected-error @below {{'set_parallel y@1': a :p (parallel) scope cannot enclose a :p (parallel) scope}}
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

// -----

// Every iteration of the inner scope accumulates into the same y[{0}]:
// reductions race when iterations run concurrently.
// expected-error @below {{'set_parallel y@1': the scope would race: two of its iterations conflict: reduction of 'y' in `y[{0}] += x[{0}, {1}]` conflicts with the reduction of 'y' in `y[{0}] += x[{0}, {1}]`}}
dojo.kernel @negative_race {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer y f32 [4] heap inout
  dojo.scope 4 {
    dojo.scope 8 {
      // expected-note @below {{conflicts with this leaf}}
      // expected-note @below {{this leaf}}
      dojo.leaf y[{0}] += x[{0}, {1}]
    }
  }
}
