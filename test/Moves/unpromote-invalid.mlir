// One case per rejection reason of unpromote (lib/Moves/Promote.cpp); the
// conditions of promote on the restored kernel are those of
// promote-invalid.mlir. Each case is its own file so that it carries its own
// request.
// RUN: rm -rf %t && split-file %s %t

//--- negative_not_alone.mlir
// RUN: perfdojo-opt %t/negative_not_alone.mlir --dojo-apply="unpromote t" -verify-diagnostics

// expected-error @+1 {{'unpromote t': 't' is not an internal array stored alone in a buffer of its own name, as promote creates}}
dojo.kernel @negative_not_alone {
  // expected-note @+1 {{declared here}}
  dojo.buffer T f32 [4] stack -> t
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] = t[{0}]
  }
}

//--- negative_pattern.mlir
// RUN: perfdojo-opt %t/negative_pattern.mlir --dojo-apply="unpromote t" -verify-diagnostics

// expected-error @+1 {{'unpromote t': the accesses to 't' are not a copy-in right before a node, uses inside it through one index list, and a copy-out right after it}}
dojo.kernel @negative_pattern {
  dojo.buffer x f32 [4] heap in
  dojo.buffer t f32 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = exp(x[{0}])
    dojo.leaf y[{0}] = t[{0}] * 2.0
  }
}

//--- negative_direct_access.mlir
// RUN: perfdojo-opt %t/negative_direct_access.mlir --dojo-apply="unpromote t_r" -verify-diagnostics

// expected-error @+1 {{'unpromote t_r': the node accesses 't' directly besides the private copy}}
dojo.kernel @negative_direct_access {
  dojo.buffer x f32 [6, 4] heap in
  dojo.buffer t f32 [6] stack
  dojo.buffer t_r f32 [6] stack
  dojo.buffer y f32 [6] heap out
  dojo.scope 6 {
    dojo.leaf t[{0}] = 0.0
    dojo.leaf t_r[{0}] = t[{0}]
    dojo.scope 4 {
      dojo.leaf t_r[{0}] += x[{0}, {1}]
      // expected-note @+1 {{the access}}
      dojo.leaf y[{0}] = t[{0}]
    }
    dojo.leaf t[{0}] = t_r[{0}]
  }
}

//--- negative_declaration.mlir
// RUN: perfdojo-opt %t/negative_declaration.mlir --dojo-apply="unpromote t_r" -verify-diagnostics

// t_r is in registers, where promote does not put it.
// expected-error @+1 {{'unpromote t_r': 't_r' is not declared as promote would declare it (its name, extents, padding and location as a copy of 't', no :N, right after 't'); restore its layout and location first}}
dojo.kernel @negative_declaration {
  dojo.buffer x f32 [6, 4] heap in
  dojo.buffer t f32 [6] stack
  // expected-note @+1 {{declared here}}
  dojo.buffer t_r f32 [6:N] reg
  dojo.buffer y f32 [6] heap out
  dojo.scope 6 {
    dojo.leaf t[{0}] = 0.0
    dojo.leaf t_r[{0}] = t[{0}]
    dojo.scope 4 {
      dojo.leaf t_r[{0}] += x[{0}, {1}]
    }
    dojo.leaf t[{0}] = t_r[{0}]
    dojo.leaf y[{0}] = t[{0}] * 2.0
  }
}
