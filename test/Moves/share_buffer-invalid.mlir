// One case per rejection reason of share_buffer (lib/Moves/ShareBuffer.cpp).
// Errors sit on the kernel, notes on the buffers or leaves. Each case is its
// own file so that it carries its own request.
// RUN: rm -rf %t && split-file %s %t

//--- negative_syntax.mlir
// RUN: perfdojo-opt %t/negative_syntax.mlir --dojo-apply="share_buffer t" -verify-diagnostics

// expected-error @+1 {{'share_buffer t': expected two arrays 'a,c' (c moves into a's buffer) but found 't'}}
dojo.kernel @negative_syntax {
  dojo.buffer t f32 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] = t[{0}]
  }
}

//--- negative_no_array.mlir
// RUN: perfdojo-opt %t/negative_no_array.mlir --dojo-apply="share_buffer t,q" -verify-diagnostics

// expected-error @+1 {{'share_buffer t,q': no array named 'q'}}
dojo.kernel @negative_no_array {
  dojo.buffer t f32 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] = t[{0}]
  }
}

//--- negative_argument.mlir
// RUN: perfdojo-opt %t/negative_argument.mlir --dojo-apply="share_buffer t,y" -verify-diagnostics

// expected-error @+1 {{'share_buffer t,y': 'y' is a kernel argument; its storage belongs to the caller (S1)}}
dojo.kernel @negative_argument {
  dojo.buffer t f32 [4] stack
  // expected-note @+1 {{declared here}}
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] = t[{0}]
  }
}

//--- negative_same_buffer.mlir
// RUN: perfdojo-opt %t/negative_same_buffer.mlir --dojo-apply="share_buffer s,t" -verify-diagnostics

// expected-error @+1 {{'share_buffer s,t': 's' and 't' already share buffer 'T'}}
dojo.kernel @negative_same_buffer {
  // expected-note @+1 {{declared here}}
  dojo.buffer T f32 [4] stack -> s, t
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 1.0
    dojo.leaf t[{0}] = s[{0}]
    dojo.leaf y[{0}] = t[{0}]
  }
}

//--- negative_not_alone.mlir
// RUN: perfdojo-opt %t/negative_not_alone.mlir --dojo-apply="share_buffer t,u" -verify-diagnostics

// expected-error @+1 {{'share_buffer t,u': 'u' is not stored alone in a buffer of its own name; share_buffer moves such an array (S1)}}
dojo.kernel @negative_not_alone {
  dojo.buffer t f32 [4] stack
  // expected-note @+1 {{declared here}}
  dojo.buffer U f32 [4] stack -> u
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] = t[{0}]
    dojo.leaf u[{0}] = 2.0
    dojo.leaf y[{0}] += u[{0}]
  }
}

//--- negative_own_name_list.mlir
// RUN: perfdojo-opt %t/negative_own_name_list.mlir --dojo-apply="share_buffer t,u" -verify-diagnostics

// expected-error @+1 {{'share_buffer t,u': buffer 't' lists only its own name ('-> t'); drop the list first (S1)}}
dojo.kernel @negative_own_name_list {
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4] stack -> t
  dojo.buffer u f32 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] = t[{0}]
    dojo.leaf u[{0}] = 2.0
    dojo.leaf y[{0}] += u[{0}]
  }
}

//--- negative_differ.mlir
// RUN: perfdojo-opt %t/negative_differ.mlir --dojo-apply="share_buffer t,u" -verify-diagnostics

// expected-error @+1 {{'share_buffer t,u': buffers 't' and 'u' differ in their padding (S2)}}
dojo.kernel @negative_differ {
  // expected-note @+1 {{the host buffer}}
  dojo.buffer t f32 [4] stack
  // expected-note @+1 {{the buffer of 'u'}}
  dojo.buffer u f32 [4+1] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] = t[{0}]
    dojo.leaf u[{0}] = 2.0
    dojo.leaf y[{0}] += u[{0}]
  }
}

//--- negative_overlap.mlir
// RUN: perfdojo-opt %t/negative_overlap.mlir --dojo-apply="share_buffer t,u" -verify-diagnostics

// u is written before t's element is read: both live at once.
// expected-error @+1 {{'share_buffer t,u': the lifetimes of 'u' and the other arrays of its buffer overlap: the write of 'u' in `u[{0}] = 2` conflicts with the read of 't' in `y[{0}] = t[{0}] + u[{0}]`, which runs later, and the opposite order occurs too (S3)}}
dojo.kernel @negative_overlap {
  dojo.buffer t f32 [4] stack
  dojo.buffer u f32 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = 1.0
    // expected-note @+1 {{the earlier access}}
    dojo.leaf u[{0}] = 2.0
    // expected-note @+1 {{the later access}}
    dojo.leaf y[{0}] = t[{0}] + u[{0}]
  }
}

//--- negative_uncovered.mlir
// RUN: perfdojo-opt %t/negative_uncovered.mlir --dojo-apply="share_buffer t,u" -verify-diagnostics

// u comes after t, but the writes through u that its reduction reads are
// two leaves, which the syntactic coverage of S5 does not combine.
// expected-error @+1 {{'share_buffer t,u': a read of 'u' in `u[{0}] += 2` is not covered by an earlier write through the same array, so it could see a value written through another array of the buffer (S5)}}
dojo.kernel @negative_uncovered {
  dojo.buffer t f32 [4] stack
  dojo.buffer u f32 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] = t[{0}]
  }
  dojo.scope 2 {
    dojo.leaf u[{0}] = 1.0
  }
  dojo.scope 2 {
    dojo.leaf u[{0}+2] = 1.0
  }
  dojo.scope 4 {
    // expected-note @+1 {{the read}}
    dojo.leaf u[{0}] += 2.0
    dojo.leaf y[{0}] += u[{0}]
  }
}

//--- negative_parallel.mlir
// RUN: perfdojo-opt %t/negative_parallel.mlir --dojo-apply="share_buffer t,u" -verify-diagnostics

// Per element u comes first (iteration k-1 writes u[k], iteration k writes
// t[k]), but two iterations of the parallel scope would touch one element
// (heap buffers are shared by the iterations; a stack buffer would be
// private to each).
// expected-error @+1 {{'share_buffer t,u': two iterations of a parallel, vector or GPU scope would conflict through the shared storage: write of 'u' in `u[{0}+1] = x[{0}]` conflicts with the write of 't' in `t[{0}] = x[{0}] * 2` (S4)}}
dojo.kernel @negative_parallel {
  dojo.buffer x f32 [4] heap in
  dojo.buffer t f32 [5] heap
  dojo.buffer u f32 [5] heap
  dojo.buffer y f32 [4] heap out
  dojo.buffer z f32 [4] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 4:p {
    dojo.leaf u[{0}+1] = x[{0}]
    dojo.leaf y[{0}] = u[{0}+1]
    dojo.leaf t[{0}] = x[{0}] * 2.0
    dojo.leaf z[{0}] = t[{0}]
  }
}
