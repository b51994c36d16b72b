// pad_scope a@d s' and unpad_scope a@d s (lib/Moves/PadScope.cpp): a scope
// runs more (or fewer) iterations, the extra ones computing into the padding
// of internal buffers. Each case is its own file; the round-trip RUN lines
// apply a move and its inverse and require the input back.
// RUN: rm -rf %t && split-file %s %t

//--- chain.mlir
// A chain of internal elementwise buffers padded to 16: the middle scope
// can run 16 iterations (reading t's padding, writing u's); the first
// cannot (x is a kernel argument), nor the last (y is one).
// RUN: perfdojo-opt %t/chain.mlir --dojo-apply="pad_scope u@0 16" | FileCheck %t/chain.mlir
// RUN: perfdojo-opt %t/chain.mlir > %t/chain.orig
// RUN: perfdojo-opt %t/chain.mlir --dojo-apply="pad_scope u@0 16; unpad_scope u@0 13" | diff %t/chain.orig -
// RUN: perfdojo-opt %t/chain.mlir --dojo-list-moves -o /dev/null | grep -E "^(pad_scope|unpad_scope) " | FileCheck %t/chain.mlir --check-prefix=LIST
// RUN: perfdojo-opt %t/chain.mlir --dojo-apply="pad_scope u@0 16" --dojo-list-moves -o /dev/null | grep -E "^(pad_scope|unpad_scope) " | FileCheck %t/chain.mlir --check-prefix=PADDED
//
// The interpreter computes the same output:
// RUN: perfdojo-run --engine=interp %t/chain.mlir > %t/chain.out
// RUN: perfdojo-opt %t/chain.mlir --dojo-apply="pad_scope u@0 16" | perfdojo-translate --export-dojo > %t/chain.moved.dojo
// RUN: perfdojo-run --engine=interp %t/chain.moved.dojo >> %t/chain.out
// RUN: FileCheck %t/chain.mlir --check-prefix=INTERP < %t/chain.out

// CHECK-LABEL: dojo.kernel @chain
// CHECK:         dojo.scope 13 {
// CHECK-NEXT:      dojo.leaf t[{0}] = x[{0}] * 2
// CHECK:         dojo.scope 16 {
// CHECK-NEXT:      dojo.leaf u[{0}] = exp(t[{0}])
// CHECK:         dojo.scope 13 {
// CHECK-NEXT:      dojo.leaf y[{0}] = u[{0}] + 1

// 13 rounds up to 14 (f = 2), 16 (f = 4, 8, 16), 32 and 64; 14 and 16 fit
// the padding of t. Once padded, 32 and 64 still do not, and unpad_scope
// lists the smallest legal size.
// LIST:      pad_scope u@0 14
// LIST-NEXT: pad_scope u@0 16
// LIST-NOT:  {{.}}

// PADDED:      unpad_scope u@0 13
// PADDED-NOT:  {{.}}

// INTERP: output y f32 [13]: sum [[SUM:[-+.0-9e]+]], l2 [[L2:[-+.0-9e]+]]
// INTERP: output y f32 [13]: sum [[SUM]], l2 [[L2]]
dojo.kernel @chain {
  dojo.buffer x f32 [13] heap in
  dojo.buffer t f32 [13+3] stack
  dojo.buffer u f32 [13+3] stack
  dojo.buffer y f32 [13] heap out
  dojo.scope 13 {
    dojo.leaf t[{0}] = x[{0}] * 2.0
  }
  dojo.scope 13 {
    dojo.leaf u[{0}] = exp(t[{0}])
  }
  dojo.scope 13 {
    dojo.leaf y[{0}] = u[{0}] + 1.0
  }
}

//--- inner.mlir
// A padded inner scope with a reduction over logical elements only: the
// row scope of 5 runs 8 iterations into the padding of t's second
// dimension; the sum over it still reads t[{0}, 0..4].
// RUN: perfdojo-opt %t/inner.mlir --dojo-apply="pad_scope t#0@1 8" | FileCheck %t/inner.mlir
// RUN: perfdojo-opt %t/inner.mlir > %t/inner.orig
// RUN: perfdojo-opt %t/inner.mlir --dojo-apply="pad_scope t#0@1 8; unpad_scope t#0@1 5" | diff %t/inner.orig -
// RUN: perfdojo-run --engine=interp %t/inner.mlir > %t/inner.out
// RUN: perfdojo-opt %t/inner.mlir --dojo-apply="pad_scope t#0@1 8" | perfdojo-translate --export-dojo > %t/inner.moved.dojo
// RUN: perfdojo-run --engine=interp %t/inner.moved.dojo >> %t/inner.out
// RUN: FileCheck %t/inner.mlir --check-prefix=INTERP < %t/inner.out

// CHECK-LABEL: dojo.kernel @inner
// CHECK:         dojo.scope 4 {
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf t[{0}, {1}] = {1}
// CHECK:           dojo.leaf s[{0}] = 0
// CHECK-NEXT:      dojo.scope 5 {
// CHECK-NEXT:        dojo.leaf s[{0}] += t[{0}, {1}]

// INTERP: output s f32 [4]: sum 40, l2 20
// INTERP: output s f32 [4]: sum 40, l2 20
dojo.kernel @inner {
  dojo.buffer t f32 [4, 5+3] stack
  dojo.buffer s f32 [4] heap out
  dojo.scope 4 {
    dojo.scope 5 {
      dojo.leaf t[{0}, {1}] = ({1})
    }
    dojo.leaf s[{0}] = 0.0
    dojo.scope 5 {
      dojo.leaf s[{0}] += t[{0}, {1}]
    }
  }
}
