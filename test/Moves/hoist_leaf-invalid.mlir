// One case per rejection reason of hoist_leaf (lib/Moves/HoistLeaf.cpp).
// Errors sit on the kernel, notes on the leaves and scopes involved.
// RUN: rm -rf %t && split-file %s %t
// RUN: perfdojo-opt %t/cases.mlir -split-input-file --dojo-apply="hoist_leaf y" -verify-diagnostics
// RUN: perfdojo-opt %t/scope.mlir --dojo-apply="hoist_leaf y@0" -verify-diagnostics

//--- scope.mlir
// expected-error @+1 {{'hoist_leaf y@0': y@0 is a scope; hoist_leaf needs a leaf}}
dojo.kernel @negative_scope {
  dojo.buffer y f32 [4] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- cases.mlir
// expected-error @+1 {{'hoist_leaf y': the leaf is not inside a scope}}
dojo.kernel @negative_top_level {
  dojo.buffer y f32 [1] heap out
  dojo.buffer z f32 [3] heap out
  // expected-note @+1 {{the leaf}}
  dojo.leaf y[0] = 1.0
  dojo.scope 3 {
    dojo.leaf z[{0}] = 2.0
  }
}

// -----

// expected-error @+1 {{'hoist_leaf y': the leaf is the only child of its scope, which would be left empty}}
dojo.kernel @negative_only_child {
  dojo.buffer y f32 [1] heap out
  dojo.scope 4 {
    // expected-note @+1 {{the leaf}}
    dojo.leaf y[0] = 1.0
  }
}

// -----

// expected-error @+1 {{'hoist_leaf y': the leaf is neither the first nor the last child of its scope}}
dojo.kernel @negative_middle {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [1] heap out
  dojo.buffer z f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf z[{0}] = x[{0}]
    // expected-note @+1 {{the leaf}}
    dojo.leaf y[0] = 1.0
    dojo.leaf z[{0}] = x[{0}] * 2.0
  }
}

// -----

// expected-error @+1 {{'hoist_leaf y': the scope has a mode; hoist_leaf needs a plain scope (clear the mode first)}}
dojo.kernel @negative_mode {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [1] heap out
  dojo.buffer z f32 [4] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 4:u {
    dojo.leaf y[0] = 1.0
    dojo.leaf z[{0}] = x[{0}]
  }
}

// -----

// expected-error @+1 {{'hoist_leaf y': the leaf uses {1}, the variable of the scope it would leave}}
dojo.kernel @negative_uses_variable {
  dojo.buffer x f32 [2, 4] heap in
  dojo.buffer y f32 [2, 4] heap out
  dojo.buffer z f32 [2, 4] heap out
  dojo.scope 2 {
    dojo.scope 4 {
      // expected-note @+1 {{the leaf}}
      dojo.leaf y[{0}, {1}] = x[{0}, {1}]
      dojo.leaf z[{0}, {1}] = x[{0}, {1}]
    }
  }
}

// -----

// expected-error @+1 {{'hoist_leaf y': the leaf is a reduction, which is not idempotent: `y[0] += n[0]`}}
dojo.kernel @negative_reduction {
  dojo.buffer x f32 [4] heap in
  dojo.buffer n f32 [1] heap in
  dojo.buffer y f32 [1] heap inout
  dojo.buffer z f32 [4] heap out
  dojo.scope 4 {
    // expected-note @+1 {{the leaf}}
    dojo.leaf y[0] += n[0]
    dojo.leaf z[{0}] = x[{0}]
  }
}

// -----

// y[0] = y[0] * 2 doubles y again in every iteration.
// expected-error @+1 {{'hoist_leaf y': the leaf reads the element it writes ('y'), so running it again changes the result: `y[0] = y[0] * 2`}}
dojo.kernel @negative_reads_output {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [1] heap inout
  dojo.buffer z f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf z[{0}] = x[{0}]
    // expected-note @+1 {{the leaf}}
    dojo.leaf y[0] = y[0] * 2.0
  }
}

// -----

// The scope changes n[0], which the first child reads: every iteration
// computes a different y[0].
// expected-error @+1 {{'hoist_leaf y': a leaf of the scope writes an element the leaf accesses: write of 'n' in `n[0] = x[{0}]` conflicts with the read of 'n' in `y[0] = n[0] * 2`}}
dojo.kernel @negative_written_in_scope {
  dojo.buffer x f32 [4] heap in
  dojo.buffer n f32 [1] heap inout
  dojo.buffer y f32 [1] heap out
  dojo.scope 4 {
    // expected-note @+1 {{the moved leaf}}
    dojo.leaf y[0] = n[0] * 2.0
    // expected-note @+1 {{this leaf of the scope}}
    dojo.leaf n[0] = x[{0}]
  }
}

// -----

// Iterations after the first read the y[0] that the last child wrote in the
// iteration before; after the move they would read the initial value.
// expected-error @+1 {{'hoist_leaf y': a leaf of the scope reads the element the leaf writes, so iterations after the first would see a different value: read of 'y' in `z[{0}] = x[{0}] + y[0]` conflicts with the write of 'y' in `y[0] = n[0]`}}
dojo.kernel @negative_read_in_scope {
  dojo.buffer x f32 [4] heap in
  dojo.buffer n f32 [1] heap in
  dojo.buffer y f32 [1] heap inout
  dojo.buffer z f32 [4] heap out
  dojo.scope 4 {
    // expected-note @+1 {{this leaf of the scope}}
    dojo.leaf z[{0}] = x[{0}] + y[0]
    // expected-note @+1 {{the moved leaf}}
    dojo.leaf y[0] = n[0]
  }
}
