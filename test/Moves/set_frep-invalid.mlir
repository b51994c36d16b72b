// RUN: perfdojo-opt %s -split-input-file --dojo-apply="set_frep t#1@0" -verify-diagnostics
//
// One case per reason set_frep refuses (the FREP body rule,
// Analysis/SnitchRules.h, and the mode rules).

// expected-error @below {{'set_frep t#1@0': `t[0] += x[{0}] * y[{0}]` reads 'x' from memory; in an FREP body every array is a stream started around the scope or a reg buffer}}
dojo.kernel @negative_memory {
  dojo.buffer x f64 [8] heap in
  dojo.buffer y f64 [8] heap in
  dojo.buffer t f64 [1] reg
  dojo.buffer s f64 [1] heap out
  dojo.leaf t[0] = 0
  dojo.scope 8 {
    // expected-note @below {{here}}
    dojo.leaf t[0] += x[{0}] * y[{0}]
  }
  dojo.leaf s[0] = t[0]
}

// -----

// expected-error @below {{'set_frep t#1@0': `t[0] += {0}` uses an index value, which needs the integer core}}
dojo.kernel @negative_index {
  dojo.buffer t f64 [1] reg
  dojo.buffer s f64 [1] heap out
  dojo.leaf t[0] = 0
  dojo.scope 8 {
    // expected-note @below {{here}}
    dojo.leaf t[0] += {0}
  }
  dojo.leaf s[0] = t[0]
}

// -----

// expected-error @below {{'set_frep t#1@0': `t[0] += exp(x[{0}]:s0)` is no FP instruction the sequencer can repeat}}
dojo.kernel @negative_exp {
  dojo.buffer x f64 [8] heap in
  dojo.buffer t f64 [1] reg
  dojo.buffer s f64 [1] heap out
  dojo.leaf t[0] = 0
  dojo.scope 8 {
    // expected-note @below {{here}}
    dojo.leaf t[0] += exp(x[{0}]:s0)
  }
  dojo.leaf s[0] = t[0]
}

// -----

// expected-error @below {{'set_frep t#1@0': its body unrolls to 18 FP instructions; the sequencer holds 16}}
dojo.kernel @negative_long_body {
  dojo.buffer x f64 [8, 9] heap in
  dojo.buffer t f64 [9] reg
  dojo.buffer s f64 [9] heap out
  dojo.scope 9:u {
    dojo.leaf t[{0}] = 0
  }
  dojo.scope 8 {
    dojo.scope 9:u {
      dojo.leaf t[{1}] += x[{0}, {1}]:s0 + 1.0
    }
  }
  dojo.scope 9:u {
    dojo.leaf s[{0}] = t[{0}]
  }
}

// -----

// expected-error @below {{'set_frep t#1@0': a :f (FREP) scope cannot enclose a plain scope}}
dojo.kernel @negative_nested_loop {
  dojo.buffer x f64 [8, 2] heap in
  dojo.buffer t f64 [1] reg
  dojo.buffer s f64 [1] heap out
  dojo.leaf t[0] = 0
  dojo.scope 8 {
    // expected-note @below {{the enclosed scope}}
    dojo.scope 2 {
      dojo.leaf t[0] += x[{0}, {1}]:s0
    }
  }
  dojo.leaf s[0] = t[0]
}
