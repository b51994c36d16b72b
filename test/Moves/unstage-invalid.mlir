// One case per rejection reason of unstage (lib/Moves/StageRegion.cpp).
// RUN: rm -rf %t && split-file %s %t

//--- negative_no_array.mlir
// RUN: perfdojo-opt %t/negative_no_array.mlir --dojo-apply="unstage q" -verify-diagnostics

// expected-error @+1 {{'unstage q': no array named 'q'}}
dojo.kernel @negative_no_array {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- negative_argument.mlir
// RUN: perfdojo-opt %t/negative_argument.mlir --dojo-apply="unstage y" -verify-diagnostics

// expected-error @+1 {{'unstage y': 'y' is not an internal array stored alone in a buffer of its own name, as stage_region creates}}
dojo.kernel @negative_argument {
  // expected-note @+1 {{declared here}}
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- negative_no_pattern.mlir
// The copy-in covers only part of x_s.
// RUN: perfdojo-opt %t/negative_no_pattern.mlir --dojo-apply="unstage x_s" -verify-diagnostics

// expected-error @+1 {{'unstage x_s': the accesses to 'x_s' are not a copy nest right before a node, uses inside it, and a copy nest right after it, as stage_region creates}}
dojo.kernel @negative_no_pattern {
  dojo.buffer x f32 [4] heap in
  dojo.buffer x_s f32 [4] stack
  dojo.buffer y f32 [2] heap out
  dojo.scope 2 {
    dojo.leaf x_s[{0}] = x[{0}]
  }
  dojo.scope 2 {
    dojo.leaf y[{0}] = x_s[{0}]
  }
}

//--- negative_direct_access.mlir
// RUN: perfdojo-opt %t/negative_direct_access.mlir --dojo-apply="unstage x_s" -verify-diagnostics

// expected-error @+1 {{'unstage x_s': the node accesses the buffer of 'x' directly besides the staged copy}}
dojo.kernel @negative_direct_access {
  dojo.buffer x f32 [4] heap in
  dojo.buffer x_s f32 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf x_s[{0}] = x[{0}]
  }
  dojo.scope 4 {
    // expected-note @+1 {{the access}}
    dojo.leaf y[{0}] = x_s[{0}] + x[{0}]
  }
}

//--- negative_declaration.mlir
// x_s is padded: stage_region would not have declared it so.
// RUN: perfdojo-opt %t/negative_declaration.mlir --dojo-apply="unstage x_s" -verify-diagnostics

// expected-error @+1 {{'unstage x_s': 'x_s' is not declared as stage_region would declare it (its name, element type and extents as a copy of 'x', no padding, no :N, heap, stack or reg, right after 'x'); restore its layout first}}
dojo.kernel @negative_declaration {
  dojo.buffer x f32 [4] heap in
  // expected-note @+1 {{declared here}}
  dojo.buffer x_s f32 [4+1] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf x_s[{0}] = x[{0}]
  }
  dojo.scope 4 {
    dojo.leaf y[{0}] = x_s[{0}]
  }
}

//--- negative_restage_st5.mlir
// RUN: perfdojo-opt %t/negative_restage_st5.mlir --dojo-apply="unstage y_s" -verify-diagnostics
// The writer of y was split after staging (found by perfdojo-fuzz-moves on
// layernorm): no single leaf before the node writes all of y in a form ST5
// recognizes, so the inverse stage_region would be refused.

// expected-error @+1 {{'unstage y_s': the inverse stage_region needs a copy-in of 'y', but no leaf before the node writes all of 'y' (ST5)}}
dojo.kernel @negative_restage_st5 {
  dojo.buffer x f32 [6, 16] heap in
  dojo.buffer y f32 [6, 16] heap out
  dojo.buffer y_s f32 [6, 16] stack
  dojo.scope 3 {
    dojo.scope 2 {
      dojo.scope 16 {
        dojo.leaf y[{0}*2+{1}, {2}] = x[{0}*2+{1}, {2}]
      }
    }
  }
  dojo.scope 6 {
    dojo.scope 16 {
      dojo.leaf y_s[{0}, {1}] = y[{0}, {1}]
    }
  }
  // expected-note @+1 {{the node}}
  dojo.scope 6 {
    dojo.scope 16 {
      dojo.leaf y_s[{0}, {1}] = y_s[{0}, {1}] * 2
    }
  }
  dojo.scope 6 {
    dojo.scope 16 {
      dojo.leaf y[{0}, {1}] = y_s[{0}, {1}]
    }
  }
}

//--- negative_conversion.mlir
// A copy nest that converts (f16 to f32) is no staging copy: unstaging it
// would drop the rounding to f16.
// RUN: perfdojo-opt %t/negative_conversion.mlir --dojo-apply="unstage x_s" -verify-diagnostics

// expected-error @+1 {{'unstage x_s': the accesses to 'x_s' are not a copy nest right before a node, uses inside it, and a copy nest right after it, as stage_region creates}}
dojo.kernel @negative_conversion {
  dojo.buffer x f32 [4] heap in
  dojo.buffer x_s f16 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf x_s[{0}] = x[{0}]
  }
  dojo.scope 4 {
    dojo.leaf y[{0}] = x_s[{0}]
  }
}
