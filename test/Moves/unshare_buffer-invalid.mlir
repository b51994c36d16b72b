// One case per rejection reason of unshare_buffer
// (lib/Moves/ShareBuffer.cpp). Errors sit on the kernel, notes on the buffer
// or leaves. Each case is its own file so that it carries its own request.
// RUN: rm -rf %t && split-file %s %t

//--- negative_not_shared.mlir
// RUN: perfdojo-opt %t/negative_not_shared.mlir --dojo-apply="unshare_buffer t 1" -verify-diagnostics

// expected-error @+1 {{'unshare_buffer t 1': 't' does not share its buffer}}
dojo.kernel @negative_not_shared {
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] = t[{0}]
  }
}

//--- negative_not_last.mlir
// RUN: perfdojo-opt %t/negative_not_last.mlir --dojo-apply="unshare_buffer t 1" -verify-diagnostics

// expected-error @+1 {{'unshare_buffer t 1': 't' is not the last array of buffer 'T'; unshare the arrays after it first}}
dojo.kernel @negative_not_last {
  // expected-note @+1 {{declared here}}
  dojo.buffer T f32 [4] stack -> s, t, u
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 1.0
    dojo.leaf y[{0}] = s[{0}]
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] += t[{0}]
    dojo.leaf u[{0}] = 1.0
    dojo.leaf y[{0}] += u[{0}]
  }
}

//--- negative_name_taken.mlir
// RUN: perfdojo-opt %t/negative_name_taken.mlir --dojo-apply="unshare_buffer t 1" -verify-diagnostics

// expected-error @+1 {{'unshare_buffer t 1': a buffer named 't' already exists; the new buffer takes the array's name}}
dojo.kernel @negative_name_taken {
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4] stack -> s, t
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 1.0
    dojo.leaf y[{0}] = s[{0}]
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] += t[{0}]
  }
}

//--- negative_position.mlir
// RUN: perfdojo-opt %t/negative_position.mlir --dojo-apply="unshare_buffer t 3" -verify-diagnostics

// expected-error @+1 {{'unshare_buffer t 3': declaration position 3 must lie between 0 and the number of buffers 2}}
dojo.kernel @negative_position {
  dojo.buffer T f32 [4] stack -> s, t
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 1.0
    dojo.leaf y[{0}] = s[{0}]
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] += t[{0}]
  }
}

//--- negative_communicates.mlir
// RUN: perfdojo-opt %t/negative_communicates.mlir --dojo-apply="unshare_buffer t 1" -verify-diagnostics

// t reads what was written through s: the arrays communicate through the
// shared storage, and t alone would read undefined data.
// expected-error @+1 {{'unshare_buffer t 1': a read of 't' in `y[{0}] = t[{0}]` is not covered by an earlier write through the same array, so it could see a value written through another array of the buffer (S5)}}
dojo.kernel @negative_communicates {
  dojo.buffer T f32 [4] stack -> s, t
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 1.0
  }
  dojo.scope 4 {
    dojo.leaf t[3] = 1.0
    // expected-note @+1 {{the read}}
    dojo.leaf y[{0}] = t[{0}]
  }
}
