// One case per rejection reason of add_scope (lib/Moves/AddScope.cpp).
// Errors sit on the kernel, notes on the leaves and scopes involved.
// RUN: rm -rf %t && split-file %s %t
// RUN: perfdojo-opt %t/cases.mlir -split-input-file --dojo-apply="add_scope y@1 4" -verify-diagnostics
// RUN: perfdojo-opt %t/size.mlir --dojo-apply="add_scope y@1 0" -verify-diagnostics

//--- size.mlir
// expected-error @+1 {{'add_scope y@1 0': scope size 0 must be at least 1}}
dojo.kernel @negative_size {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- cases.mlir
// expected-error @+1 {{'add_scope y@1 4': the node is inside a vector scope, which must stay innermost}}
dojo.kernel @negative_vector {
  dojo.buffer x f32 [16] heap in
  dojo.buffer y f32 [16] heap out
  // expected-note @+1 {{the vector scope}}
  dojo.scope 16:v {
    dojo.leaf y[{0}] = x[{0}]
  }
}

// -----

// Running an accumulation twice adds twice.
// expected-error @+1 {{'add_scope y@1 4': the wrapped node contains a reduction, which is not idempotent: `y[{0}] += x[{0}, {1}]`}}
dojo.kernel @negative_reduction {
  dojo.buffer x f32 [2, 8] heap in
  dojo.buffer y f32 [2] heap inout
  dojo.scope 2 {
    dojo.scope 8 {
      // expected-note @+1 {{the reduction}}
      dojo.leaf y[{0}] += x[{0}, {1}]
    }
  }
}

// -----

// The second run would read the t[{0}] of the first run's second leaf, not
// the value from before the node.
// expected-error @+1 {{'add_scope y@1 4': the wrapped node is not idempotent: it reads an element before writing it again: write of 't' in `t[{0}] = x[{0}, {1}]` conflicts with the read of 't' in `y[{0}, {1}] = t[{0}]`}}
dojo.kernel @negative_read_before_write {
  dojo.buffer x f32 [2, 8] heap in
  dojo.buffer t f32 [2] heap inout
  dojo.buffer y f32 [2, 8] heap out
  dojo.scope 2 {
    dojo.scope 8 {
      // expected-note @+1 {{the read that precedes it}}
      dojo.leaf y[{0}, {1}] = t[{0}]
      // expected-note @+1 {{the write}}
      dojo.leaf t[{0}] = x[{0}, {1}]
    }
  }
}
