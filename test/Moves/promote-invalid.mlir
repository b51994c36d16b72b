// One case per rejection reason of promote (lib/Moves/Promote.cpp). Errors
// sit on the kernel, notes on the node, leaves or scopes. Each case is its
// own file so that it carries its own request.
// RUN: rm -rf %t && split-file %s %t

//--- negative_syntax.mlir
// RUN: perfdojo-opt %t/negative_syntax.mlir --dojo-apply="promote t" -verify-diagnostics

// expected-error @+1 {{'promote t': expected 'a,N' (an array, then a node selector) but found 't'}}
dojo.kernel @negative_syntax {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- negative_no_array.mlir
// RUN: perfdojo-opt %t/negative_no_array.mlir --dojo-apply="promote q,y@0" -verify-diagnostics

// expected-error @+1 {{'promote q,y@0': no array named 'q'}}
dojo.kernel @negative_no_array {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- negative_bad_node.mlir
// RUN: perfdojo-opt %t/negative_bad_node.mlir --dojo-apply="promote y,q@0" -verify-diagnostics

// expected-error @+1 {{'promote y,q@0': no leaf writes 'q'}}
dojo.kernel @negative_bad_node {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- negative_no_access.mlir
// RUN: perfdojo-opt %t/negative_no_access.mlir --dojo-apply="promote x,y#1@1" -verify-diagnostics

// expected-error @+1 {{'promote x,y#1@1': the node does not access 'x' (C1)}}
dojo.kernel @negative_no_access {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = x[{0}]
    // expected-note @+1 {{the node}}
    dojo.scope 2 {
      dojo.leaf y[{0}] += 1.0
    }
  }
}

//--- negative_different_index.mlir
// RUN: perfdojo-opt %t/negative_different_index.mlir --dojo-apply="promote x,y#0@1" -verify-diagnostics

// expected-error @+1 {{'promote x,y#0@1': the node accesses 'x' through different index lists [{0}] and [{0}+1] (C1)}}
dojo.kernel @negative_different_index {
  dojo.buffer x f32 [5] heap in
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.scope 2 {
      // expected-note @+1 {{the first access}}
      dojo.leaf y[{0}] = x[{0}]
      // expected-note @+1 {{a different one}}
      dojo.leaf y[{0}] += x[{0}+1]
    }
  }
}

//--- negative_variant_index.mlir
// RUN: perfdojo-opt %t/negative_variant_index.mlir --dojo-apply="promote x,y#1@1" -verify-diagnostics

// expected-error @+1 {{'promote x,y#1@1': the index list [{1}] of 'x' changes inside the node at depth 1 (C1)}}
dojo.kernel @negative_variant_index {
  dojo.buffer x f32 [2] heap in
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 0.0
    dojo.scope 2 {
      // expected-note @+1 {{the access}}
      dojo.leaf y[{0}] += x[{1}]
    }
  }
}

//--- negative_alias.mlir
// RUN: perfdojo-opt %t/negative_alias.mlir --dojo-apply="promote s,y@1" -verify-diagnostics

// expected-error @+1 {{'promote s,y@1': the node also accesses another array of the buffer of 's', which would not see the private copy (C2)}}
dojo.kernel @negative_alias {
  dojo.buffer T f32 [4] stack -> s, t
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 1.0
    dojo.scope 2 {
      dojo.leaf y[{0}] = s[{0}]
      // expected-note @+1 {{the other access}}
      dojo.leaf t[{0}] = 2.0
    }
  }
}

//--- negative_parallel_around.mlir
// RUN: perfdojo-opt %t/negative_parallel_around.mlir --dojo-apply="promote t,t#1@1" -verify-diagnostics

// expected-error @+1 {{'promote t,t#1@1': an enclosing scope has a parallel, vector or GPU mode; clear it first (C3)}}
dojo.kernel @negative_parallel_around {
  dojo.buffer x f32 [6, 4] heap in
  dojo.buffer t f32 [6] stack
  dojo.buffer y f32 [6] heap out
  // expected-note @+1 {{the scope with a mode}}
  dojo.scope 6:p {
    dojo.leaf t[{0}] = 0.0
    dojo.scope 4 {
      dojo.leaf t[{0}] += x[{0}, {1}]
    }
    dojo.leaf y[{0}] = t[{0}] * 2.0
  }
}
