// One case per rejection reason of sink_leaf (lib/Moves/HoistLeaf.cpp).
// Errors sit on the kernel, notes on the leaves and scopes involved.
// RUN: rm -rf %t && split-file %s %t
// RUN: perfdojo-opt %t/cases.mlir -split-input-file --dojo-apply="sink_leaf y 0" -verify-diagnostics
// RUN: perfdojo-opt %t/last.mlir -split-input-file --dojo-apply="sink_leaf y 1" -verify-diagnostics
// RUN: perfdojo-opt %t/side.mlir --dojo-apply="sink_leaf y 2" -verify-diagnostics
// RUN: perfdojo-opt %t/scope.mlir --dojo-apply="sink_leaf y@0 0" -verify-diagnostics

//--- side.mlir
// expected-error @+1 {{'sink_leaf y 2': side must be 0 (first child of the next scope) or 1 (last child of the previous scope), got 2}}
dojo.kernel @negative_side {
  dojo.buffer y f32 [1] heap out
  dojo.leaf y[0] = 1.0
}

//--- scope.mlir
// expected-error @+1 {{'sink_leaf y@0 0': y@0 is a scope; sink_leaf needs a leaf}}
dojo.kernel @negative_scope {
  dojo.buffer y f32 [4] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- cases.mlir
// expected-error @+1 {{'sink_leaf y 0': the leaf's next sibling is not a scope}}
dojo.kernel @negative_no_next_scope {
  dojo.buffer y f32 [1] heap out
  dojo.buffer z f32 [1] heap out
  // expected-note @+1 {{the leaf}}
  dojo.leaf y[0] = 1.0
  dojo.leaf z[0] = 2.0
}

// -----

// expected-error @+1 {{'sink_leaf y 0': the scope has a mode; sink_leaf needs a plain scope (clear the mode first)}}
dojo.kernel @negative_mode {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [1] heap out
  dojo.buffer z f32 [4] heap out
  dojo.leaf y[0] = 1.0
  // expected-note @+1 {{the scope}}
  dojo.scope 4:p {
    dojo.leaf z[{0}] = x[{0}]
  }
}

// -----

// expected-error @+1 {{'sink_leaf y 0': the leaf is a reduction, which is not idempotent: `y[0] += n[0]`}}
dojo.kernel @negative_reduction {
  dojo.buffer x f32 [4] heap in
  dojo.buffer n f32 [1] heap in
  dojo.buffer y f32 [1] heap inout
  dojo.buffer z f32 [4] heap out
  // expected-note @+1 {{the leaf}}
  dojo.leaf y[0] += n[0]
  dojo.scope 4 {
    dojo.leaf z[{0}] = x[{0}]
  }
}

// -----

// expected-error @+1 {{'sink_leaf y 0': the leaf reads the element it writes ('y'), so running it again changes the result: `y[0] = exp(y[0])`}}
dojo.kernel @negative_reads_output {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [1] heap inout
  dojo.buffer z f32 [4] heap out
  // expected-note @+1 {{the leaf}}
  dojo.leaf y[0] = exp(y[0])
  dojo.scope 4 {
    dojo.leaf z[{0}] = x[{0}]
  }
}

// -----

// The scope accumulates into the element the leaf reads: each iteration
// would copy a different value.
// expected-error @+1 {{'sink_leaf y 0': a leaf of the scope writes an element the leaf accesses: reduction of 'n' in `n[0] += x[{0}]` conflicts with the read of 'n' in `y[0] = n[0]`}}
dojo.kernel @negative_written_in_scope {
  dojo.buffer x f32 [4] heap in
  dojo.buffer n f32 [1] heap inout
  dojo.buffer y f32 [1] heap out
  // expected-note @+1 {{the moved leaf}}
  dojo.leaf y[0] = n[0]
  dojo.scope 4 {
    // expected-note @+1 {{this leaf of the scope}}
    dojo.leaf n[0] += x[{0}]
  }
}

//--- last.mlir
// expected-error @+1 {{'sink_leaf y 1': the leaf's previous sibling is not a scope}}
dojo.kernel @negative_no_previous_scope {
  dojo.buffer y f32 [1] heap out
  dojo.buffer z f32 [1] heap out
  dojo.leaf z[0] = 2.0
  // expected-note @+1 {{the leaf}}
  dojo.leaf y[0] = 1.0
}

// -----

// As the last child the leaf would feed y[0] to the next iteration's read.
// expected-error @+1 {{'sink_leaf y 1': a leaf of the scope reads the element the leaf writes, so iterations after the first would see a different value: read of 'y' in `z[{0}] = x[{0}] + y[0]` conflicts with the write of 'y' in `y[0] = n[0]`}}
dojo.kernel @negative_read_in_scope {
  dojo.buffer x f32 [4] heap in
  dojo.buffer n f32 [1] heap in
  dojo.buffer y f32 [1] heap inout
  dojo.buffer z f32 [4] heap out
  dojo.scope 4 {
    // expected-note @+1 {{this leaf of the scope}}
    dojo.leaf z[{0}] = x[{0}] + y[0]
  }
  // expected-note @+1 {{the moved leaf}}
  dojo.leaf y[0] = n[0]
}
