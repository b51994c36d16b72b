// RUN: perfdojo-opt %s -split-input-file -verify-diagnostics
//
// S10 and S11 per element (docs/ir.md, Analysis/Initialization.h): one case
// per condition, then correct kernels with shared storage, `:N` dimensions
// and padding that must stay accepted.

// A scratch element read before any leaf writes it: t[7] is never written.
dojo.kernel @negative_scratch_element {
  dojo.buffer x f32 [8] heap in
  // expected-note @below {{'t' is declared here}}
  dojo.buffer t f32 [8] heap
  dojo.buffer y f32 [8] heap out
  dojo.scope 7 {
    // expected-note @below {{writes 't' here}}
    dojo.leaf t[{0}] = x[{0}]
  }
  dojo.scope 8 {
    // expected-error @below {{'dojo.leaf' op reads t[7] at {0}=7, which no earlier leaf writes (scratch buffers start undefined)}}
    dojo.leaf y[{0}] = t[{0}] * 2.0
  }
}

// -----

// Written, but later in the same iteration: t[{0}+1] is written by the next
// iteration only.
dojo.kernel @negative_read_ahead {
  dojo.buffer x f32 [8] heap in
  // expected-note @below {{'t' is declared here}}
  dojo.buffer t f32 [9] heap
  dojo.buffer y f32 [8] heap out
  // expected-note @below {{writes 't' here}}
  dojo.leaf t[0] = 0.0
  dojo.scope 8 {
    // expected-error @below {{'dojo.leaf' op reads t[1] at {0}=0, which no earlier leaf writes (scratch buffers start undefined)}}
    dojo.leaf y[{0}] = t[{0}+1] + 1.0
    // expected-note @below {{writes 't' here}}
    dojo.leaf t[{0}+1] = x[{0}]
  }
}

// -----

// The read half of a reduction on an output element nothing initialized:
// only y[0] is set before the reduction.
dojo.kernel @negative_reduce_uninitialized {
  dojo.buffer x f32 [4, 6] heap in
  // expected-note @below {{'y' is declared here}}
  dojo.buffer y f32 [4] heap out
  // expected-note @below {{writes 'y' here}}
  dojo.leaf y[0] = 0.0
  dojo.scope 4 {
    dojo.scope 6 {
      // expected-error @below {{'dojo.leaf' op reduces into y[1] at {0}=1, {1}=0, which no earlier leaf writes (outputs start undefined)}}
      // expected-note @below {{writes 'y' here}}
      dojo.leaf y[{0}] += x[{0}, {1}]
    }
  }
}

// -----

// An output element no leaf writes: the even elements only.
dojo.kernel @negative_partial_output {
  dojo.buffer x f32 [4] heap in
  // expected-error @below {{'dojo.buffer' op output 'y' is never written at y[1] (outputs start undefined)}}
  dojo.buffer y f32 [8] heap out
  dojo.scope 4 {
    // expected-note @below {{writes 'y' here}}
    dojo.leaf y[{0}*2] = x[{0}]
  }
}

// -----

// A peeled prefix sum: y[0] first, then each y[{0}+1] from y[{0}]; every
// read is written before, by the first leaf or an earlier iteration.
dojo.kernel @scan {
  dojo.buffer x f32 [8] heap in
  dojo.buffer y f32 [8] heap out
  dojo.leaf y[0] = x[0]
  dojo.scope 7 {
    dojo.leaf y[{0}+1] = y[{0}] + x[{0}+1]
  }
}

// -----

// Shared storage: t0 and t1 are one buffer, so writing t0 defines what t1
// reads; two scopes together cover t (a cut), and the output is written
// by two leaves.
dojo.kernel @shared_storage {
  dojo.buffer x f32 [8] heap in
  dojo.buffer t f32 [8] stack -> t0, t1
  dojo.buffer y f32 [8] heap out
  dojo.scope 5 {
    dojo.leaf t0[{0}] = x[{0}]
  }
  dojo.scope 3 {
    dojo.leaf t0[{0}+5] = x[{0}+5]
  }
  dojo.scope 2 {
    dojo.scope 4 {
      dojo.leaf y[{0}*4+{1}] = t1[{0}*4+{1}] * 2.0
    }
  }
}

// -----

// A `:N` dimension (one slot per row) and a padded buffer whose padding a
// padded scope reads into padding: accepted.
dojo.kernel @reused_and_padded {
  dojo.buffer x f32 [4, 6] heap in
  dojo.buffer s f32 [4:N] stack
  dojo.buffer t f32 [6+2] stack
  dojo.buffer u f32 [6+2] stack
  dojo.buffer y f32 [4, 6] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0.0
    dojo.scope 6 {
      dojo.leaf s[{0}] += x[{0}, {1}]
    }
    dojo.scope 6 {
      dojo.leaf t[{1}] = x[{0}, {1}] - s[{0}]
    }
    dojo.scope 8 {
      dojo.leaf u[{1}] = exp(t[{1}])
    }
    dojo.scope 6 {
      dojo.leaf y[{0}, {1}] = u[{1}]
    }
  }
}
