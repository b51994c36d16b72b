// RUN: perfdojo-opt %s -split-input-file --dojo-apply="set_ssr y@1 1 0" -verify-diagnostics
//
// One case per reason set_ssr refuses (the stream rule,
// Analysis/SnitchRules.h, and the request itself).

// expected-error @below {{'set_ssr y@1 1 0': streams are set on leaf operands; this is a scope}}
dojo.kernel @negative_scope {
  dojo.buffer x f64 [4, 4] heap in
  dojo.buffer y f64 [4, 4] heap out
  dojo.scope 4 {
    // expected-note @below {{the scope}}
    dojo.scope 4 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}]
    }
  }
}

// -----

// expected-error @below {{'set_ssr y@1 1 0': operand 1 is no array access: only accesses stream}}
dojo.kernel @negative_constant {
  dojo.buffer y f64 [4] heap out
  dojo.scope 4 {
    // expected-note @below {{the leaf}}
    dojo.leaf y[{0}] = 2.0
  }
}

// -----

// expected-error @below {{'set_ssr y@1 1 0': an SSR element is 64 bits: only f64 arrays stream (f32 would need packed SIMD)}}
dojo.kernel @negative_f32 {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-note @below {{the leaf}}
    dojo.leaf y[{0}] = x[{0}]
  }
}

// -----

// expected-error @below {{'set_ssr y@1 1 0': 't' is a reg buffer: registers need no stream}}
dojo.kernel @negative_reg {
  dojo.buffer x f64 [4] heap in
  dojo.buffer t f64 [4] reg
  dojo.buffer y f64 [4] heap out
  dojo.scope 4:u {
    dojo.leaf t[{0}] = x[{0}]
  }
  dojo.scope 4:u {
    // expected-note @below {{the leaf}}
    dojo.leaf y[{0}] = t[{0}]
  }
}

// -----

// expected-error @below {{'set_ssr y@1 1 0': operand 1 streams already; clear_ssr it first}}
dojo.kernel @negative_streamed {
  dojo.buffer x f64 [4] heap in
  dojo.buffer y f64 [4] heap out
  dojo.scope 4 {
    // expected-note @below {{the leaf}}
    dojo.leaf y[{0}] = x[{0}]:s0
  }
}

// -----

// expected-error @below {{'set_ssr y@1 1 0': the leaf writes 'y', which a read stream would prefetch}}
dojo.kernel @negative_prefetch {
  dojo.buffer y f64 [8] heap inout
  dojo.scope 4 {
    // expected-note @below {{the leaf}}
    dojo.leaf y[{0}] = y[{0}+4]
  }
}

// -----

// expected-error @below {{'set_ssr y@1 1 0': the scopes from depth 0 to the leaf must form a perfect chain, but the scope at depth 0 holds more than one node}}
dojo.kernel @negative_chain {
  dojo.buffer x f64 [4] heap in
  dojo.buffer y f64 [4] heap out
  dojo.buffer z f64 [4] heap out
  dojo.scope 4 {
    // expected-note @below {{the leaf}}
    dojo.leaf y[{0}] = x[{0}]
    dojo.leaf z[{0}] = x[{0}]
  }
}

// -----

// expected-error @below {{'set_ssr y@1 1 0': the scope at depth 0 is :p (parallel); a stream walks plain, :u and :f scopes}}
dojo.kernel @negative_parallel {
  dojo.buffer x f64 [4] heap in
  dojo.buffer y f64 [4] heap out
  dojo.scope 4:p {
    // expected-note @below {{the leaf}}
    dojo.leaf y[{0}] = x[{0}]
  }
}
