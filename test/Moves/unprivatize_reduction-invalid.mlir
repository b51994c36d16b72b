// One case per rejection reason of unprivatize_reduction (lib/Moves/
// PrivatizeReduction.cpp): the pattern privatize_reduction leaves, and the
// conditions of privatize_reduction for the restored leaf (one case here,
// the others in privatize_reduction-invalid.mlir). The well-formed pattern
// is privatize_reduction s#1@1 1 applied to
//   4 s[{0}] = 0
//   | 8 s[{0}] += x[{0}, {1}]
// Errors sit on the kernel, notes on the leaves and buffers involved.
// RUN: rm -rf %t && split-file %s %t
// RUN: perfdojo-opt %t/cases.mlir -split-input-file --dojo-apply="unprivatize_reduction s_p#1@2" -verify-diagnostics
// RUN: perfdojo-opt %t/scope.mlir --dojo-apply="unprivatize_reduction s_p#1@1" -verify-diagnostics
// RUN: perfdojo-opt %t/reassociate.mlir --dojo-apply="moves='unprivatize_reduction s_p#1@2' reassociate=false" -verify-diagnostics

//--- scope.mlir
// expected-error @+1 {{'unprivatize_reduction s_p#1@1': the location must name a reduction leaf, the update of privatized partial results}}
dojo.kernel @negative_scope {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer s f32 [4] heap out
  dojo.buffer s_p f32 [4, 8] stack
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0.0
    dojo.scope 8 {
      dojo.leaf s_p[{0}, {1}] = 0.0
    }
    // expected-note @+1 {{the node}}
    dojo.scope 8 {
      dojo.leaf s_p[{0}, {1}] += x[{0}, {1}]
    }
    dojo.scope 8 {
      dojo.leaf s[{0}] += s_p[{0}, {1}]
    }
  }
}

//--- reassociate.mlir
// expected-error @+1 {{'unprivatize_reduction s_p#1@2': reassociation is off, and privatizing a reduction regroups its updates (R1)}}
dojo.kernel @negative_reassociate {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer s f32 [4] heap out
  dojo.buffer s_p f32 [4, 8] stack
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0.0
    dojo.scope 8 {
      dojo.leaf s_p[{0}, {1}] = 0.0
    }
    dojo.scope 8 {
      // expected-note @+1 {{the reduction}}
      dojo.leaf s_p[{0}, {1}] += x[{0}, {1}]
    }
    dojo.scope 8 {
      dojo.leaf s[{0}] += s_p[{0}, {1}]
    }
  }
}

//--- cases.mlir
// expected-error @+1 {{'unprivatize_reduction s_p#1@2': 's_p' is not privatized partial results: they must be an internal buffer of rank at least 1 holding one array}}
dojo.kernel @negative_argument {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer s f32 [4] heap out
  dojo.buffer s_p f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0.0
    dojo.scope 8 {
      dojo.leaf s_p[{0}, {1}] = 0.0
    }
    dojo.scope 8 {
      // expected-note @+1 {{the update}}
      dojo.leaf s_p[{0}, {1}] += x[{0}, {1}]
    }
    dojo.scope 8 {
      dojo.leaf s[{0}] += s_p[{0}, {1}]
    }
  }
}

// -----

// expected-error @+1 {{'unprivatize_reduction s_p#1@2': 's_p' is not privatized partial results: the update reads them}}
dojo.kernel @negative_update_reads {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer s f32 [4] heap out
  dojo.buffer s_p f32 [4, 8] stack
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0.0
    dojo.scope 8 {
      dojo.leaf s_p[{0}, {1}] = 0.0
    }
    dojo.scope 8 {
      // expected-note @+1 {{the update}}
      dojo.leaf s_p[{0}, {1}] += s_p[{0}, {1}] * x[{0}, {1}]
    }
    dojo.scope 8 {
      dojo.leaf s[{0}] += s_p[{0}, {1}]
    }
  }
}

// -----

// expected-error @+1 {{'unprivatize_reduction s_p#1@2': 's_p' is not privatized partial results: they must be accessed only by one initialization, the update and one combination}}
dojo.kernel @negative_other_access {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer s f32 [4] heap out
  dojo.buffer s_p f32 [4, 8] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0.0
    dojo.scope 8 {
      dojo.leaf s_p[{0}, {1}] = 0.0
    }
    dojo.scope 8 {
      // expected-note @+1 {{the update}}
      dojo.leaf s_p[{0}, {1}] += x[{0}, {1}]
    }
    dojo.scope 8 {
      dojo.leaf s[{0}] += s_p[{0}, {1}]
    }
    dojo.leaf y[{0}] = s_p[{0}, 0]
  }
}

// -----

// expected-error @+1 {{'unprivatize_reduction s_p#1@2': 's_p' is not privatized partial results: the initialization and the combination must each be the only leaf of a plain scope of one size, right before and right after a scope enclosing the update}}
dojo.kernel @negative_structure {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer s f32 [4] heap out
  dojo.buffer s_p f32 [4, 8] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0.0
    dojo.scope 8 {
      dojo.leaf s_p[{0}, {1}] = 0.0
    }
    dojo.scope 8 {
      // expected-note @+1 {{the update}}
      dojo.leaf s_p[{0}, {1}] += x[{0}, {1}]
    }
    dojo.leaf y[{0}] = x[{0}, 0]
    dojo.scope 8 {
      dojo.leaf s[{0}] += s_p[{0}, {1}]
    }
  }
}

// -----

// The initialization writes 1, not the identity of +=.
// expected-error @+1 {{'unprivatize_reduction s_p#1@2': 's_p' is not privatized partial results: expected the initialization 's_p[F, {1}] = <identity>', the update 's_p[F, {e}] op= ...' over a scope of size 8 and the combination 'o[F] op= s_p[F, {1}]'}}
dojo.kernel @negative_forms {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer s f32 [4] heap out
  dojo.buffer s_p f32 [4, 8] stack
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0.0
    dojo.scope 8 {
      dojo.leaf s_p[{0}, {1}] = 1.0
    }
    dojo.scope 8 {
      // expected-note @+1 {{the update}}
      dojo.leaf s_p[{0}, {1}] += x[{0}, {1}]
    }
    dojo.scope 8 {
      dojo.leaf s[{0}] += s_p[{0}, {1}]
    }
  }
}

// -----

// privatize_reduction would put these partials on the stack.
// expected-error @+1 {{'unprivatize_reduction s_p#1@2': 's_p' differs from the buffer privatize_reduction would create for 's' (name, extents, padding, `:N`, location or declaration right after 's'), so the inverse could not restore it}}
dojo.kernel @negative_buffer {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer s f32 [4] heap out
  // expected-note @+1 {{declared here}}
  dojo.buffer s_p f32 [4, 8] heap
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0.0
    dojo.scope 8 {
      dojo.leaf s_p[{0}, {1}] = 0.0
    }
    dojo.scope 8 {
      dojo.leaf s_p[{0}, {1}] += x[{0}, {1}]
    }
    dojo.scope 8 {
      dojo.leaf s[{0}] += s_p[{0}, {1}]
    }
  }
}

// -----

// Another leaf inside the placement scope reads s, which would then see a
// partial sum.
// expected-error @+1 {{'unprivatize_reduction s_p#1@2': another leaf in the placement scope at depth 1 accesses 's' other than by more add= updates, and it holds only part of the reduction there (R3)}}
dojo.kernel @negative_other_output_access {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer s f32 [4] heap out
  dojo.buffer s_p f32 [4, 8] stack
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0.0
    dojo.scope 8 {
      dojo.leaf s_p[{0}, {1}] = 0.0
    }
    // expected-note @+1 {{the placement scope}}
    dojo.scope 8 {
      dojo.leaf s_p[{0}, {1}] += x[{0}, {1}]
      // expected-note @+1 {{the other access}}
      dojo.leaf y[{0}, {1}] = s[{0}]
    }
    dojo.scope 8 {
      dojo.leaf s[{0}] += s_p[{0}, {1}]
    }
  }
}
