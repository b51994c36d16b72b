// One case per rejection reason of set_nontemporal and clear_nontemporal
// (lib/Moves/SetNontemporal.cpp). Errors sit on the kernel, notes on the
// buffer.
// RUN: rm -rf %t && split-file %s %t

//--- negative_no_buffer.mlir
// RUN: perfdojo-opt %t/negative_no_buffer.mlir --dojo-apply="set_nontemporal q" -verify-diagnostics

// expected-error @+1 {{'set_nontemporal q': no buffer named 'q'}}
dojo.kernel @negative_no_buffer {
  dojo.buffer y f32 [16] heap out
  dojo.scope 16:v {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- negative_input.mlir
// RUN: perfdojo-opt %t/negative_input.mlir --dojo-apply="set_nontemporal x" -verify-diagnostics

// expected-error @+1 {{'set_nontemporal x': 'x' is not an 'out' or 'inout' buffer on the heap; only those are written past the caches}}
dojo.kernel @negative_input {
  // expected-note @+1 {{declared here}}
  dojo.buffer x f32 [16] heap in
  dojo.buffer y f32 [16] heap out
  dojo.scope 16:v {
    dojo.leaf y[{0}] = x[{0}]
  }
}

//--- negative_internal.mlir
// RUN: perfdojo-opt %t/negative_internal.mlir --dojo-apply="set_nontemporal t" -verify-diagnostics

// expected-error @+1 {{'set_nontemporal t': 't' is not an 'out' or 'inout' buffer on the heap; only those are written past the caches}}
dojo.kernel @negative_internal {
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [16] heap
  dojo.buffer y f32 [16] heap out
  dojo.scope 16:v {
    dojo.leaf t[{0}] = 1.0
  }
  dojo.scope 16:v {
    dojo.leaf y[{0}] = t[{0}]
  }
}

//--- negative_twice.mlir
// RUN: perfdojo-opt %t/negative_twice.mlir --dojo-apply="set_nontemporal y" -verify-diagnostics

// expected-error @+1 {{'set_nontemporal y': 'y' is nontemporal already}}
dojo.kernel @negative_twice {
  // expected-note @+1 {{declared here}}
  dojo.buffer y f32 [16] heap out nontemporal
  dojo.scope 16:v {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- negative_clear.mlir
// RUN: perfdojo-opt %t/negative_clear.mlir --dojo-apply="clear_nontemporal y" -verify-diagnostics

// expected-error @+1 {{'clear_nontemporal y': 'y' is not nontemporal}}
dojo.kernel @negative_clear {
  // expected-note @+1 {{declared here}}
  dojo.buffer y f32 [16] heap out
  dojo.scope 16:v {
    dojo.leaf y[{0}] = 1.0
  }
}
