// One case per rejection reason of privatize_reduction (lib/Moves/
// PrivatizeReduction.cpp); R1-R5 are the conditions in its header comment.
// Errors sit on the kernel, notes on the leaves and scopes involved.
// RUN: rm -rf %t && split-file %s %t
// RUN: perfdojo-opt %t/cases.mlir -split-input-file --dojo-apply="privatize_reduction s#1@1 1" -verify-diagnostics
// RUN: perfdojo-opt %t/leaf.mlir --dojo-apply="privatize_reduction s#1@2 1" -verify-diagnostics
// RUN: perfdojo-opt %t/placement.mlir --dojo-apply="privatize_reduction s#1@1 2" -verify-diagnostics
// RUN: perfdojo-opt %t/reassociate.mlir --dojo-apply="moves='privatize_reduction s#1@1 1' reassociate=false" -verify-diagnostics

//--- leaf.mlir
// expected-error @+1 {{'privatize_reduction s#1@2 1': the location names the leaf itself; name the enclosing scope whose iterations get their own partial results}}
dojo.kernel @negative_leaf {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer s f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0.0
    dojo.scope 8 {
      // expected-note @+1 {{the leaf}}
      dojo.leaf s[{0}] += x[{0}, {1}]
    }
  }
}

//--- placement.mlir
// expected-error @+1 {{'privatize_reduction s#1@1 2': the placement depth 2 must lie between 0 and the depth 1 of the privatized scope}}
dojo.kernel @negative_placement {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer s f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0.0
    // expected-note @+1 {{the privatized scope}}
    dojo.scope 8 {
      dojo.leaf s[{0}] += x[{0}, {1}]
    }
  }
}

//--- reassociate.mlir
// expected-error @+1 {{'privatize_reduction s#1@1 1': reassociation is off, and privatizing a reduction regroups its updates (R1)}}
dojo.kernel @negative_reassociate {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer s f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0.0
    dojo.scope 8 {
      // expected-note @+1 {{the reduction}}
      dojo.leaf s[{0}] += x[{0}, {1}]
    }
  }
}

//--- cases.mlir
// expected-error @+1 {{'privatize_reduction s#1@1 1': the leaf assigns 's' instead of reducing into it}}
dojo.kernel @negative_assignment {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer s f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0.0
    dojo.scope 8 {
      // expected-note @+1 {{the leaf}}
      dojo.leaf s[{0}] = x[{0}, {1}]
    }
  }
}

// -----

// The identity of min= in i64, 2^63 - 1, is no constant of the IR (no f64
// spells it).
// expected-error @+1 {{'privatize_reduction s#1@1 1': min= on i64 has no identity to initialize the partial results with (R4)}}
dojo.kernel @negative_identity {
  dojo.buffer x i64 [4, 8] heap in
  dojo.buffer s i64 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = x[{0}, 0]
    dojo.scope 8 {
      // expected-note @+1 {{the reduction}}
      dojo.leaf s[{0}] min= x[{0}, {1}]
    }
  }
}

// -----

// Each iteration of the placement scope reduces into another element.
// expected-error @+1 {{'privatize_reduction s#1@1 1': the output index of 's' uses {1}, which changes inside the placement scope at depth 1 (R2)}}
dojo.kernel @negative_output_index {
  dojo.buffer x f32 [4, 8, 2] heap in
  dojo.buffer s f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf s[{0}, {1}] = 0.0
      dojo.scope 2 {
        // expected-note @+1 {{the reduction}}
        dojo.leaf s[{0}, {1}] += x[{0}, {1}, {2}]
      }
    }
  }
}

// -----

// expected-error @+1 {{'privatize_reduction s#1@1 1': the reduction reads 's', which would then see a partial result (R3)}}
dojo.kernel @negative_reads_output {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer s f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 1.0
    dojo.scope 8 {
      // expected-note @+1 {{the reduction}}
      dojo.leaf s[{0}] += s[{0}] * x[{0}, {1}]
    }
  }
}

// -----

// A running sum: y reads s in the middle of the reduction.
// expected-error @+1 {{'privatize_reduction s#1@1 1': another leaf in the placement scope at depth 1 accesses 's' other than by more add= updates, and it holds only part of the reduction there (R3)}}
dojo.kernel @negative_other_access {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer s f32 [4] heap out
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0.0
    // expected-note @+1 {{the placement scope}}
    dojo.scope 8 {
      dojo.leaf s[{0}] += x[{0}, {1}]
      // expected-note @+1 {{the other access}}
      dojo.leaf y[{0}, {1}] = s[{0}]
    }
  }
}

// -----

// A plain write of s beside the reduction is not more of it.
// expected-error @+1 {{'privatize_reduction s#1@1 1': another leaf in the placement scope at depth 1 accesses 's' other than by more add= updates, and it holds only part of the reduction there (R3)}}
dojo.kernel @negative_other_write {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer s f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0.0
    // expected-note @+1 {{the placement scope}}
    dojo.scope 8 {
      dojo.leaf s[{0}] += x[{0}, {1}]
      // expected-note @+1 {{the other access}}
      dojo.leaf s[{0}] = x[{0}, {1}]
    }
  }
}

// -----

// Another operator into s does not regroup with the sum.
// expected-error @+1 {{'privatize_reduction s#1@1 1': another leaf in the placement scope at depth 1 accesses 's' other than by more add= updates, and it holds only part of the reduction there (R3)}}
dojo.kernel @negative_other_operator {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer s f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0.0
    // expected-note @+1 {{the placement scope}}
    dojo.scope 8 {
      dojo.leaf s[{0}] += x[{0}, {1}]
      // expected-note @+1 {{the other access}}
      dojo.leaf s[{0}] max= x[{0}, {1}]
    }
  }
}

// -----

// A second sum into s that reads s sees the partial result.
// expected-error @+1 {{'privatize_reduction s#1@1 1': another leaf in the placement scope at depth 1 accesses 's' other than by more add= updates, and it holds only part of the reduction there (R3)}}
dojo.kernel @negative_other_update_reads {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer s f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0.0
    // expected-note @+1 {{the placement scope}}
    dojo.scope 8 {
      dojo.leaf s[{0}] += x[{0}, {1}]
      // expected-note @+1 {{the other access}}
      dojo.leaf s[{0}] += s[{0}] * x[{0}, {1}]
    }
  }
}

// -----

// expected-error @+1 {{'privatize_reduction s#1@1 1': a scope between the placement scope and the reduction has a parallel, vector or GPU mode; clear it first (R5)}}
dojo.kernel @negative_mode {
  dojo.buffer x f32 [4, 16] heap in
  dojo.buffer s f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0.0
    dojo.scope 8 {
      // expected-note @+1 {{scope with a mode}}
      dojo.scope 2:v {
        dojo.leaf s[{0}] += x[{0}, {1}*2+{2}]
      }
    }
  }
}
