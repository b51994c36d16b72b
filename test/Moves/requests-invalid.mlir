// Malformed requests (lib/Moves/Move.cpp, lib/Moves/Selector.cpp): the
// error names the request and what is wrong with it. Each case is its own
// file so that it carries its own script.
// RUN: rm -rf %t && split-file %s %t

//--- negative_unknown_move.mlir
// RUN: perfdojo-opt %t/negative_unknown_move.mlir --dojo-apply="frobnicate y@1" -verify-diagnostics

// expected-error @+1 {{unknown move 'frobnicate'; known moves: split_scope, merge_scopes, }}
dojo.kernel @negative_unknown_move {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- negative_no_writer.mlir
// RUN: perfdojo-opt %t/negative_no_writer.mlir --dojo-apply="split_scope q@0 2" -verify-diagnostics

// expected-error @+1 {{'split_scope q@0 2': no leaf writes 'q'}}
dojo.kernel @negative_no_writer {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- negative_ambiguous.mlir
// RUN: perfdojo-opt %t/negative_ambiguous.mlir --dojo-apply="split_scope s@0 2" -verify-diagnostics

// expected-error @+1 {{'split_scope s@0 2': 2 leaves write 's'; name one as 's#0' to 's#1'}}
dojo.kernel @negative_ambiguous {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer s f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0
    dojo.scope 8 {
      dojo.leaf s[{0}] += x[{0}, {1}]
    }
  }
}

//--- negative_leaf_number_range.mlir
// RUN: perfdojo-opt %t/negative_leaf_number_range.mlir --dojo-apply="split_scope s#2@0 2" -verify-diagnostics

// expected-error @+1 {{'split_scope s#2@0 2': 's#2' does not exist: 2 leaf(s) write 's'}}
dojo.kernel @negative_leaf_number_range {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer s f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0
    dojo.scope 8 {
      dojo.leaf s[{0}] += x[{0}, {1}]
    }
  }
}

//--- negative_leaf_number_syntax.mlir
// RUN: perfdojo-opt %t/negative_leaf_number_syntax.mlir --dojo-apply="split_scope s#x@0 2" -verify-diagnostics

// expected-error @+1 {{'split_scope s#x@0 2': expected a leaf number after '#' in 's#x@0'}}
dojo.kernel @negative_leaf_number_syntax {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer s f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0
    dojo.scope 8 {
      dojo.leaf s[{0}] += x[{0}, {1}]
    }
  }
}

//--- negative_depth_too_deep.mlir
// RUN: perfdojo-opt %t/negative_depth_too_deep.mlir --dojo-apply="split_scope y@2 2" -verify-diagnostics

// expected-error @+1 {{'split_scope y@2 2': depth 2 is below leaf 'y', which is at depth 1}}
dojo.kernel @negative_depth_too_deep {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- negative_depth_syntax.mlir
// RUN: perfdojo-opt %t/negative_depth_syntax.mlir --dojo-apply="split_scope y@x 2" -verify-diagnostics

// expected-error @+1 {{'split_scope y@x 2': expected a depth after '@' in 'y@x'}}
dojo.kernel @negative_depth_syntax {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- negative_no_array.mlir
// RUN: perfdojo-opt %t/negative_no_array.mlir --dojo-apply="split_scope @0 2" -verify-diagnostics

// expected-error @+1 {{'split_scope @0 2': expected a location like 'a@1' or 'a#0@1' but found '@0'}}
dojo.kernel @negative_no_array {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- negative_missing_parameter.mlir
// RUN: perfdojo-opt %t/negative_missing_parameter.mlir --dojo-apply="split_scope y@0" -verify-diagnostics

// expected-error @+1 {{'split_scope y@0': expected 1 parameter(s) but found 0}}
dojo.kernel @negative_missing_parameter {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- negative_extra_parameter.mlir
// RUN: perfdojo-opt %t/negative_extra_parameter.mlir --dojo-apply="merge_scopes y@0 4" -verify-diagnostics

// expected-error @+1 {{'merge_scopes y@0 4': expected 0 parameter(s) but found 1}}
dojo.kernel @negative_extra_parameter {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- negative_non_integer_parameter.mlir
// RUN: perfdojo-opt %t/negative_non_integer_parameter.mlir --dojo-apply="split_scope y@0 four" -verify-diagnostics

// expected-error @+1 {{invalid move script: move parameter 'four' is not an integer}}
dojo.kernel @negative_non_integer_parameter {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- negative_huge_parameter.mlir
// RUN: perfdojo-opt %t/negative_huge_parameter.mlir --dojo-apply="split_scope y@0 99999999999999999999" -verify-diagnostics

// expected-error @+1 {{invalid move script: move parameter '99999999999999999999' is beyond the 64-bit integer range}}
dojo.kernel @negative_huge_parameter {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- negative_missing_location.mlir
// RUN: perfdojo-opt %t/negative_missing_location.mlir --dojo-apply="split_scope" -verify-diagnostics

// expected-error @+1 {{invalid move script: expected '<move> <location> [params]' but found 'split_scope'}}
dojo.kernel @negative_missing_location {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- negative_dim_syntax.mlir
// RUN: perfdojo-opt %t/negative_dim_syntax.mlir --dojo-apply="reuse_dims t" -verify-diagnostics

// expected-error @+1 {{'reuse_dims t': expected a buffer dimension like 't.0' but found 't'}}
dojo.kernel @negative_dim_syntax {
  dojo.buffer x f32 [4] heap in
  dojo.buffer t f32 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = x[{0}]
    dojo.leaf y[{0}] = t[{0}]
  }
}

//--- negative_no_buffer.mlir
// RUN: perfdojo-opt %t/negative_no_buffer.mlir --dojo-apply="reuse_dims q.0" -verify-diagnostics

// expected-error @+1 {{'reuse_dims q.0': no buffer named 'q'}}
dojo.kernel @negative_no_buffer {
  dojo.buffer x f32 [4] heap in
  dojo.buffer t f32 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = x[{0}]
    dojo.leaf y[{0}] = t[{0}]
  }
}

//--- negative_dim_range.mlir
// RUN: perfdojo-opt %t/negative_dim_range.mlir --dojo-apply="materialize_dims t.1" -verify-diagnostics

// expected-error @+1 {{'materialize_dims t.1': buffer 't' has rank 1; no dimension 1}}
dojo.kernel @negative_dim_range {
  dojo.buffer x f32 [4] heap in
  dojo.buffer t f32 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = x[{0}]
    dojo.leaf y[{0}] = t[{0}]
  }
}
