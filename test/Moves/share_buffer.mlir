// share_buffer a,c and unshare_buffer c k (lib/Moves/ShareBuffer.cpp):
// array c moves into the buffer of array a when their lifetimes are
// disjoint per element. Each case is its own file; the round-trip RUN lines
// apply a move and its inverse and require the input back.
// RUN: rm -rf %t && split-file %s %t

//--- sequential.mlir
// t lives in the first two scopes, u in the last two: u's reads are
// covered by its own write.
// RUN: perfdojo-opt %t/sequential.mlir --dojo-apply="share_buffer t,u" | FileCheck %t/sequential.mlir
// RUN: perfdojo-opt %t/sequential.mlir > %t/sequential.orig
// RUN: perfdojo-opt %t/sequential.mlir --dojo-apply="share_buffer t,u; unshare_buffer u 2" | diff %t/sequential.orig -
// RUN: perfdojo-opt %t/sequential.mlir --dojo-list-moves -o /dev/null | grep -E "^(share_buffer|unshare_buffer) " | FileCheck %t/sequential.mlir --check-prefix=LIST
// RUN: perfdojo-opt %t/sequential.mlir --dojo-apply="share_buffer t,u" --dojo-list-moves -o /dev/null | grep -E "^(share_buffer|unshare_buffer) " | FileCheck %t/sequential.mlir --check-prefix=SHARED
//
// The interpreter computes the same output with the shared storage:
// RUN: perfdojo-run --engine=interp %t/sequential.mlir > %t/sequential.out
// RUN: perfdojo-opt %t/sequential.mlir --dojo-apply="share_buffer t,u" | perfdojo-translate --export-dojo > %t/sequential.moved.dojo
// RUN: perfdojo-run --engine=interp %t/sequential.moved.dojo >> %t/sequential.out
// RUN: FileCheck %t/sequential.mlir --check-prefix=INTERP < %t/sequential.out

// CHECK-LABEL: dojo.kernel @sequential
// CHECK-NEXT:    dojo.buffer x f32 [8] heap in
// CHECK-NEXT:    dojo.buffer t f32 [8] stack -> t, u
// CHECK-NEXT:    dojo.buffer y f32 [8] heap out
// CHECK-NEXT:    dojo.scope 8

// LIST:      share_buffer t,u
// LIST-NEXT: share_buffer u,t
// LIST-NOT:  {{.}}

// SHARED:     unshare_buffer u 2
// SHARED-NOT: {{.}}

// INTERP: output y f32 [8]: sum [[SUM:[-+.0-9e]+]], l2 [[L2:[-+.0-9e]+]]
// INTERP: output y f32 [8]: sum [[SUM]], l2 [[L2]]
dojo.kernel @sequential {
  dojo.buffer x f32 [8] heap in
  dojo.buffer t f32 [8] stack
  dojo.buffer u f32 [8] stack
  dojo.buffer y f32 [8] heap out
  dojo.scope 8 {
    dojo.leaf t[{0}] = exp(x[{0}])
  }
  dojo.scope 8 {
    dojo.leaf y[{0}] = t[{0}] * 2.0
  }
  dojo.scope 8 {
    dojo.leaf u[{0}] = y[{0}] + 1.0
  }
  dojo.scope 8 {
    dojo.leaf y[{0}] += u[{0}]
  }
}

//--- in_place.mlir
// Per element, t's accesses all come before u's, inside one scope: u can
// overwrite t's element in place. The host already holds two arrays.
// RUN: perfdojo-opt %t/in_place.mlir --dojo-apply="share_buffer s,u" | FileCheck %t/in_place.mlir
// RUN: perfdojo-opt %t/in_place.mlir > %t/in_place.orig
// RUN: perfdojo-opt %t/in_place.mlir --dojo-apply="share_buffer s,u; unshare_buffer u 2" | diff %t/in_place.orig -
// RUN: perfdojo-run --engine=interp %t/in_place.mlir > %t/in_place.out
// RUN: perfdojo-opt %t/in_place.mlir --dojo-apply="share_buffer s,u" | perfdojo-translate --export-dojo > %t/in_place.moved.dojo
// RUN: perfdojo-run --engine=interp %t/in_place.moved.dojo >> %t/in_place.out
// RUN: FileCheck %t/in_place.mlir --check-prefix=INTERP < %t/in_place.out

// CHECK-LABEL: dojo.kernel @in_place
// CHECK-NEXT:    dojo.buffer x f32 [8] heap in
// CHECK-NEXT:    dojo.buffer T f32 [8] stack -> s, t, u
// CHECK-NEXT:    dojo.buffer y f32 [8] heap out

// INTERP: output y f32 [8]: sum [[SUM:[-+.0-9e]+]], l2 [[L2:[-+.0-9e]+]]
// INTERP: output y f32 [8]: sum [[SUM]], l2 [[L2]]
dojo.kernel @in_place {
  dojo.buffer x f32 [8] heap in
  dojo.buffer T f32 [8] stack -> s, t
  dojo.buffer u f32 [8] stack
  dojo.buffer y f32 [8] heap out
  dojo.scope 8 {
    dojo.leaf t[{0}] = exp(x[{0}])
    dojo.leaf u[{0}] = t[{0}] * 2.0
    dojo.leaf y[{0}] = u[{0}] + 1.0
  }
}
