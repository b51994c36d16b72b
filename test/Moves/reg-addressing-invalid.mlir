// Post-verification of the `reg` addressability rule (design B8, V11;
// findUnaddressableAccess in lib/Moves/SetLocation.cpp): after every move, a
// register buffer is still indexed only by constants, `:u` variables and
// the `:v` lane. The rewrite is tried on a copy; the kernel is untouched.
// RUN: rm -rf %t && split-file %s %t

//--- negative_clear_unroll.mlir
// Clearing the `:u` mode would index the accumulator tile at run time.
// RUN: perfdojo-opt %t/negative_clear_unroll.mlir --dojo-apply="clear_mode t@1" -verify-diagnostics

// expected-error @+1 {{'clear_mode t@1': the result would break a register buffer: 't' cannot be addressed in registers: dimension 1 of `t[{0}, {1}] = 1` uses {1}, the variable of a plain scope (only constants, :u variables and the :v lane may index a register); move it to the stack first (set_location t 1)}}
dojo.kernel @negative_clear_unroll {
  dojo.buffer t f32 [4:N, 8] reg
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 8:u {
      // expected-note @+1 {{the access}}
      dojo.leaf t[{0}, {1}] = 1.0
      dojo.leaf y[{0}, {1}] = t[{0}, {1}]
    }
  }
}

//--- negative_materialize.mlir
// Materializing the row dimension would index it by the plain row scope.
// RUN: perfdojo-opt %t/negative_materialize.mlir --dojo-apply="materialize_dims t.0" -verify-diagnostics

// expected-error @+1 {{'materialize_dims t.0': the result would break a register buffer: 't' cannot be addressed in registers: dimension 0 of `t[{0}, {1}] = 1` uses {0}, the variable of a plain scope (only constants, :u variables and the :v lane may index a register); move it to the stack first (set_location t 1)}}
dojo.kernel @negative_materialize {
  dojo.buffer t f32 [4:N, 8] reg
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 8:u {
      // expected-note @+1 {{the access}}
      dojo.leaf t[{0}, {1}] = 1.0
      dojo.leaf y[{0}, {1}] = t[{0}, {1}]
    }
  }
}
