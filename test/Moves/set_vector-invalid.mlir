// RUN: perfdojo-opt %s -split-input-file --dojo-apply="set_vector y@1" -verify-diagnostics

// expected-error @below {{'set_vector y@1': a :v (vector) scope must hold exactly one leaf and nothing else}}
dojo.kernel @negative_two_leaves {
  dojo.buffer y f32 [4, 16] heap out
  dojo.buffer z f32 [4, 16] heap out
  dojo.scope 4 {
    // expected-note @below {{the scope}}
    dojo.scope 16 {
      dojo.leaf y[{0}, {1}] = 0
      dojo.leaf z[{0}, {1}] = 1
    }
  }
}

// -----

// expected-error @below {{'set_vector y@1': vector scope size 12 is neither the vector width (16 f32 lanes in 64 bytes) nor a power of two of at least 2 below it}}
dojo.kernel @negative_width {
  dojo.buffer y f32 [4, 12] heap out
  dojo.scope 4 {
    // expected-note @below {{the scope}}
    dojo.scope 12 {
      dojo.leaf y[{0}, {1}] = 0
    }
  }
}

// -----

// A wider vector than the register: refused.
// expected-error @below {{'set_vector y@1': vector scope size 32 is neither the vector width (16 f32 lanes in 64 bytes) nor a power of two of at least 2 below it}}
dojo.kernel @negative_wider_than_register {
  dojo.buffer y f32 [4, 32] heap out
  dojo.scope 4 {
    // expected-note @below {{the scope}}
    dojo.scope 32 {
      dojo.leaf y[{0}, {1}] = 0
    }
  }
}

// -----

// One lane is not a vector.
// expected-error @below {{'set_vector y@1': vector scope size 1 is neither the vector width (16 f32 lanes in 64 bytes) nor a power of two of at least 2 below it}}
dojo.kernel @negative_one_lane {
  dojo.buffer y f32 [4, 1] heap out
  dojo.scope 4 {
    // expected-note @below {{the scope}}
    dojo.scope 1 {
      dojo.leaf y[{0}, {1}] = 0
    }
  }
}

// -----

// expected-error @below {{'set_vector y@1': the output 'y' moves by 16 element(s) per lane; vector stores need stride 1}}
dojo.kernel @negative_output_stride {
  dojo.buffer y f32 [16, 16] heap out
  dojo.scope 16 {
    dojo.scope 16 {
      // expected-note @below {{the vector leaf}}
      dojo.leaf y[{1}, {0}] = 0
    }
  }
}

// -----

// Lane i+1 reads the element lane i writes, but every lane reads before any
// lane writes. (The other way round, y[{0}, {1}] = y[{0}, {1}+1], keeps the
// sequential result: test/Runtime/lanes.dojo.)
// expected-error @below {{'set_vector y@1': the scope would race: a lane would read what an earlier lane writes, but lanes read before they write: write of 'y' in `y[{0}, {1}+1] = y[{0}, {1}]` conflicts with the read of 'y' in `y[{0}, {1}+1] = y[{0}, {1}]`}}
dojo.kernel @negative_lane_conflict {
  dojo.buffer y f32 [2, 17] heap inout
  dojo.scope 2 {
    dojo.scope 16 {
      // expected-note @below {{conflicts with this leaf}}
      // expected-note @below {{this leaf}}
      dojo.leaf y[{0}, {1}+1] = y[{0}, {1}]
    }
  }
}
