// One case per rejection reason of stage_region (lib/Moves/StageRegion.cpp).
// Errors sit on the kernel, notes on the node, leaves or buffers. Each case
// is its own file so that it carries its own request.
// RUN: rm -rf %t && split-file %s %t

//--- negative_syntax.mlir
// RUN: perfdojo-opt %t/negative_syntax.mlir --dojo-apply="stage_region x 1" -verify-diagnostics

// expected-error @+1 {{'stage_region x 1': expected 'a,N' (an array, then a node selector) but found 'x'}}
dojo.kernel @negative_syntax {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = x[{0}]
  }
}

//--- negative_params.mlir
// RUN: perfdojo-opt %t/negative_params.mlir --dojo-apply="stage_region x,y@0" -verify-diagnostics

// expected-error @+1 {{'stage_region x,y@0': expected 1 parameter(s) but found 0}}
dojo.kernel @negative_params {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = x[{0}]
  }
}

//--- negative_no_array.mlir
// RUN: perfdojo-opt %t/negative_no_array.mlir --dojo-apply="stage_region q,y@0 1" -verify-diagnostics

// expected-error @+1 {{'stage_region q,y@0 1': no array named 'q'}}
dojo.kernel @negative_no_array {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = x[{0}]
  }
}

//--- negative_bad_node.mlir
// RUN: perfdojo-opt %t/negative_bad_node.mlir --dojo-apply="stage_region x,q@0 1" -verify-diagnostics

// expected-error @+1 {{'stage_region x,q@0 1': no leaf writes 'q'}}
dojo.kernel @negative_bad_node {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = x[{0}]
  }
}

//--- negative_bad_location.mlir
// RUN: perfdojo-opt %t/negative_bad_location.mlir --dojo-apply="stage_region x,y@0 9" -verify-diagnostics

// expected-error @+1 {{'stage_region x,y@0 9': location 9 is not one of heap=0, stack=1, reg=2, gpu_shared=3, gpu_local=4, tcdm=5}}
dojo.kernel @negative_bad_location {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = x[{0}]
  }
}

//--- negative_unavailable_location.mlir
// RUN: perfdojo-opt %t/negative_unavailable_location.mlir --dojo-apply="stage_region x,y@0 3" -verify-diagnostics

// expected-error @+1 {{'stage_region x,y@0 3': location gpu_shared is not available for this target yet}}
dojo.kernel @negative_unavailable_location {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = x[{0}]
  }
}

//--- negative_no_access.mlir
// RUN: perfdojo-opt %t/negative_no_access.mlir --dojo-apply="stage_region x,y#1@0 1" -verify-diagnostics

// expected-error @+1 {{'stage_region x,y#1@0 1': the node does not access 'x' (ST1)}}
dojo.kernel @negative_no_access {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = x[{0}]
  }
  // expected-note @+1 {{the node}}
  dojo.scope 4 {
    dojo.leaf y[{0}] += 1.0
  }
}

//--- negative_other_array.mlir
// RUN: perfdojo-opt %t/negative_other_array.mlir --dojo-apply="stage_region t,y@0 1" -verify-diagnostics

// expected-error @+1 {{'stage_region t,y@0 1': the node also accesses another array of the buffer of 't', which would not see the staged copy (ST2)}}
dojo.kernel @negative_other_array {
  dojo.buffer x f32 [4] heap in
  dojo.buffer t f32 [4] stack -> t, u
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = x[{0}]
  }
  dojo.scope 4 {
    // expected-note @+1 {{the other access}}
    dojo.leaf u[{0}] = t[{0}] * 2.0
    dojo.leaf y[{0}] = u[{0}]
  }
}

//--- negative_padded.mlir
// RUN: perfdojo-opt %t/negative_padded.mlir --dojo-apply="stage_region t,y@0 1" -verify-diagnostics

// expected-error @+1 {{'stage_region t,y@0 1': the buffer of 't' has padding or a :N dimension, so copies over its extents are not its storage; unpad or materialize it first (ST3)}}
dojo.kernel @negative_padded {
  dojo.buffer x f32 [4] heap in
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4+4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = x[{0}]
  }
  dojo.scope 4 {
    dojo.leaf y[{0}] = t[{0}]
  }
}

//--- negative_mode.mlir
// RUN: perfdojo-opt %t/negative_mode.mlir --dojo-apply="stage_region x,y@1 1" -verify-diagnostics

// expected-error @+1 {{'stage_region x,y@1 1': an enclosing scope has a parallel, vector or GPU mode; clear it first (ST4)}}
dojo.kernel @negative_mode {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer y f32 [4, 8] heap out
  // expected-note @+1 {{the scope with a mode}}
  dojo.scope 4:p {
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}]
    }
  }
}

//--- negative_undefined.mlir
// The node reads s before writing it (its reduction starts from the value
// s holds at the node's entry), so it needs a copy-in; the nest before it
// writes all of s, but through one index of two variables, a form ST5 does
// not recognize as writing every element.
// RUN: perfdojo-opt %t/negative_undefined.mlir --dojo-apply="stage_region s,s#1@0 1" -verify-diagnostics

// expected-error @+1 {{'stage_region s,s#1@0 1': the node reads 's' or does not write all of it, so the copy needs a copy-in, but no leaf before the node writes all of 's' (ST5)}}
dojo.kernel @negative_undefined {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer s f32 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 2 {
    dojo.scope 2 {
      dojo.leaf s[{0} * 2 + {1}] = 0.0
    }
  }
  // expected-note @+1 {{the node}}
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf s[{0}] += x[{0}, {1}]
    }
    dojo.leaf y[{0}] = s[{0}]
  }
}

//--- negative_budget.mlir
// RUN: perfdojo-opt %t/negative_budget.mlir --dojo-apply="stage_region x,y@0 2" -verify-diagnostics

// expected-error @+1 {{'stage_region x,y@0 2': the copy of 'x' would allocate 128 elements, over the register budget of 64 elements}}
dojo.kernel @negative_budget {
  dojo.buffer x f32 [128] heap in
  dojo.buffer y f32 [128] heap out
  dojo.scope 128 {
    dojo.leaf y[{0}] = x[{0}]
  }
}

//--- negative_partly_defined.mlir
// Only one column of y is written before the node: the copy-in would read
// the other, which nothing writes.
// RUN: perfdojo-opt %t/negative_partly_defined.mlir --dojo-apply="stage_region y,y#1@0 1" -verify-diagnostics

// expected-error @+1 {{'stage_region y,y#1@0 1': the node reads 'y' or does not write all of it, so the copy needs a copy-in, but no leaf before the node writes all of 'y' (ST5)}}
dojo.kernel @negative_partly_defined {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [4, 2] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}, 1] = 1.0
  }
  // expected-note @+1 {{the node}}
  dojo.scope 4 {
    dojo.leaf y[{0}, 0] = x[{0}]
  }
}
