// RUN: perfdojo-opt %s -split-input-file -verify-diagnostics
//
// Stream marks and `:f` scopes are rules of the IR (KernelInvariants.h,
// SnitchRules.h): hand-written kernels that break them are rejected.

dojo.kernel @negative_stream_reduction {
  dojo.buffer x f64 [4] heap in
  dojo.buffer y f64 [1] heap out
  dojo.leaf y[0] = 0
  dojo.scope 4 {
    // expected-error @below {{violates SSR streams (the stream of the output of `y[0]:s0 += x[{0}]`): a reduction reads its output: keep it in a reg buffer instead of a write stream}}
    dojo.leaf y[0]:s0 += x[{0}]
  }
}

// -----

dojo.kernel @negative_frep_memory {
  dojo.buffer x f64 [4] heap in
  dojo.buffer y f64 [4] heap out
  // expected-error @below {{violates FREP body (the :f scope): `y[{0}] = x[{0}]` writes 'y' from memory; in an FREP body every array is a stream started around the scope or a reg buffer}}
  dojo.scope 4:f {
    // expected-note @below {{here}}
    dojo.leaf y[{0}] = x[{0}]
  }
}

// -----

dojo.kernel @negative_frep_encloses_loop {
  dojo.buffer x f64 [4, 4] heap in
  dojo.buffer y f64 [4, 4] heap out
  // expected-note @below {{the enclosing scope}}
  dojo.scope 4:f {
    // expected-error @below {{a plain scope cannot be nested in a :f (FREP) scope}}
    dojo.scope 4 {
      dojo.leaf y[{0}, {1}]:s0 = x[{0}, {1}]:s0
    }
  }
}

// -----

dojo.kernel @negative_stream_syntax {
  dojo.buffer x f64 [4] heap in
  dojo.buffer y f64 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{expected a stream mark ':s<depth>' after ':'}}
    dojo.leaf y[{0}] = x[{0}]:t0
  }
}
