// pad_dim b.k p and unpad_dim b.k p (lib/Moves/PadDim.cpp): the allocated
// extent of dimension k of an internal buffer grows or shrinks by p
// elements; indices never change. Each is the other's inverse. Each case is
// its own file; the round-trip RUN lines apply a move and its inverse and
// require the input back.
// RUN: rm -rf %t && split-file %s %t

//--- pad.mlir
// RUN: perfdojo-opt %t/pad.mlir --dojo-apply="pad_dim t.1 4" | FileCheck %t/pad.mlir
// RUN: perfdojo-opt %t/pad.mlir --dojo-apply="pad_dim t.1 4; pad_dim t.0 1" | FileCheck %t/pad.mlir --check-prefix=TWICE
// RUN: perfdojo-opt %t/pad.mlir > %t/pad.orig
// RUN: perfdojo-opt %t/pad.mlir --dojo-apply="pad_dim t.1 4; unpad_dim t.1 4" | diff %t/pad.orig -
//
// The interpreter computes the same output in the padded storage:
// RUN: perfdojo-translate --export-dojo %t/pad.mlir > %t/pad.dojo
// RUN: perfdojo-opt %t/pad.mlir --dojo-apply="pad_dim t.1 4; pad_dim t.0 1" | perfdojo-translate --export-dojo > %t/pad.moved.dojo
// RUN: perfdojo-run --engine=interp %t/pad.dojo > %t/pad.out
// RUN: perfdojo-run --engine=interp %t/pad.moved.dojo >> %t/pad.out
// RUN: FileCheck %t/pad.mlir --check-prefix=INTERP < %t/pad.out

// CHECK-LABEL: dojo.kernel @pad
// CHECK:         dojo.buffer t f32 [6, 12+4] stack
// CHECK:         dojo.leaf t[{0}, {1}] = exp(x[{0}, {1}])
// CHECK:         dojo.leaf y[{0}, {1}] = t[{0}, {1}] * 2

// TWICE: dojo.buffer t f32 [6+1, 12+4] stack

// INTERP: output y f32 [6, 12]: sum [[SUM:[-+.0-9e]+]], l2 [[L2:[-+.0-9e]+]]
// INTERP: output y f32 [6, 12]: sum [[SUM]], l2 [[L2]]
dojo.kernel @pad {
  dojo.buffer x f32 [6, 12] heap in
  dojo.buffer t f32 [6, 12] stack
  dojo.buffer y f32 [6, 12] heap out
  dojo.scope 6 {
    dojo.scope 12 {
      dojo.leaf t[{0}, {1}] = exp(x[{0}, {1}])
    }
  }
  dojo.scope 6 {
    dojo.scope 12 {
      dojo.leaf y[{0}, {1}] = t[{0}, {1}] * 2
    }
  }
}

//--- unpad.mlir
// RUN: perfdojo-opt %t/unpad.mlir --dojo-apply="unpad_dim t.0 3" | FileCheck %t/unpad.mlir
// RUN: perfdojo-opt %t/unpad.mlir > %t/unpad.orig
// RUN: perfdojo-opt %t/unpad.mlir --dojo-apply="unpad_dim t.0 3; pad_dim t.0 3" | diff %t/unpad.orig -
//
// Removing padding that is used is illegal: the leaves reach index 5 (the
// second element of the padding), so unpadding by 4 or more would cut it
// off; the first access that does is named.
// RUN: perfdojo-opt %t/unpad.mlir --dojo-check="unpad_dim t.0 3; unpad_dim t.0 4" -verify-diagnostics -o /dev/null
// RUN: perfdojo-run --engine=interp %t/unpad.mlir > %t/unpad.out
// RUN: perfdojo-opt %t/unpad.mlir --dojo-apply="unpad_dim t.0 3" | perfdojo-translate --export-dojo > %t/unpad.moved.dojo
// RUN: perfdojo-run --engine=interp %t/unpad.moved.dojo >> %t/unpad.out
// RUN: FileCheck %t/unpad.mlir --check-prefix=INTERP < %t/unpad.out

// CHECK-LABEL: dojo.kernel @unpad
// CHECK:         dojo.buffer t f32 [4+2] stack
// CHECK:         dojo.leaf t[{0}] = {0}
// CHECK:         dojo.leaf y[{0}] = t[{0}+2]

// INTERP: output y f32 [4]: sum 14, l2 7.34846923
// INTERP: output y f32 [4]: sum 14, l2 7.34846923

// expected-remark @+2 {{'unpad_dim t.0 3' is legal}}
// expected-remark @+1 {{illegal: 'unpad_dim t.0 4': index {0} on dimension 0 of 't' reaches 5, in the padding that would be removed (allocated extent 5 after the move)}}
dojo.kernel @unpad {
  dojo.buffer t f32 [4+5] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 6 {
    // expected-note @+1 {{this access}}
    dojo.leaf t[{0}] = ({0})
  }
  dojo.scope 4 {
    dojo.leaf y[{0}] = t[{0}+2]
  }
}
