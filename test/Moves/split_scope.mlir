// split_scope a@d f (lib/Moves/SplitScope.cpp): a scope of size s becomes
// s/f x f, {d} := {d}*f+{d+1}, deeper depths shift by one. Each case is its
// own file so that it carries its own move; the second and third RUN lines of
// a case apply the move and its inverse (merge_scopes a@d) and require the
// input back.
// RUN: rm -rf %t && split-file %s %t

//--- tile.mlir
// RUN: perfdojo-opt %t/tile.mlir --dojo-apply="split_scope y@0 16" | FileCheck %t/tile.mlir
// RUN: perfdojo-opt %t/tile.mlir > %t/tile.orig
// RUN: perfdojo-opt %t/tile.mlir --dojo-apply="split_scope y@0 16; merge_scopes y@0" | diff %t/tile.orig -

// The catalogue's example: 128 becomes 8 x 16.
// CHECK-LABEL: dojo.kernel @tile
// CHECK:         dojo.scope 8 {
// CHECK-NEXT:      dojo.scope 16 {
// CHECK-NEXT:        dojo.leaf y[{0}*16+{1}] = a[{0}*16+{1}] + b[{0}*16+{1}]
dojo.kernel @tile {
  dojo.buffer a f32 [128] heap in
  dojo.buffer b f32 [128] heap in
  dojo.buffer y f32 [128] heap out
  dojo.scope 128 {
    dojo.leaf y[{0}] = a[{0}] + b[{0}]
  }
}

//--- inner.mlir
// RUN: perfdojo-opt %t/inner.mlir --dojo-apply="split_scope y@1 3" | FileCheck %t/inner.mlir
// RUN: perfdojo-opt %t/inner.mlir > %t/inner.orig
// RUN: perfdojo-opt %t/inner.mlir --dojo-apply="split_scope y@1 3; merge_scopes y@1" | diff %t/inner.orig -

// A scope at depth 1: outer depths keep their variable, the deeper {2}
// becomes {3}, and index values are rewritten like indices.
// CHECK-LABEL: dojo.kernel @inner
// CHECK:         dojo.scope 4 {
// CHECK-NEXT:      dojo.scope 2 {
// CHECK-NEXT:        dojo.scope 3 {
// CHECK-NEXT:          dojo.scope 8 {
// CHECK-NEXT:            dojo.leaf y[{0}, {1}*3+{2}, {3}] = x[{0}, {1}*3+{2}, {3}] * ({1}*24+{2}*8+{3})
dojo.kernel @inner {
  dojo.buffer x f32 [4, 6, 8] heap in
  dojo.buffer y f32 [4, 6, 8] heap out
  dojo.scope 4 {
    dojo.scope 6 {
      dojo.scope 8 {
        dojo.leaf y[{0}, {1}, {2}] = x[{0}, {1}, {2}] * ({1}*8+{2})
      }
    }
  }
}

//--- body.mlir
// RUN: perfdojo-opt %t/body.mlir --dojo-apply="split_scope s#0@0 4" | FileCheck %t/body.mlir
// RUN: perfdojo-opt %t/body.mlir > %t/body.orig
// RUN: perfdojo-opt %t/body.mlir --dojo-apply="split_scope s#0@0 4; merge_scopes s#0@0" | diff %t/body.orig -

// All children move, in order, into the new inner scope; a strided form
// {0}*2+1 becomes {0}*8+{1}*2+1.
// CHECK-LABEL: dojo.kernel @body
// CHECK:         dojo.scope 3 {
// CHECK-NEXT:      dojo.scope 4 {
// CHECK-NEXT:        dojo.leaf s[{0}*4+{1}] = 0
// CHECK-NEXT:        dojo.scope 8 {
// CHECK-NEXT:          dojo.leaf s[{0}*4+{1}] += x[{0}*4+{1}, {2}]
// CHECK-NEXT:        }
// CHECK-NEXT:        dojo.leaf y[{0}*8+{1}*2+1] = s[{0}*4+{1}]
// CHECK-NEXT:        dojo.leaf y[{0}*8+{1}*2] = s[{0}*4+{1}]
dojo.kernel @body {
  dojo.buffer x f32 [12, 8] heap in
  dojo.buffer s f32 [12] stack
  dojo.buffer y f32 [24] heap out
  dojo.scope 12 {
    dojo.leaf s[{0}] = 0
    dojo.scope 8 {
      dojo.leaf s[{0}] += x[{0}, {1}]
    }
    dojo.leaf y[{0}*2+1] = s[{0}]
    dojo.leaf y[{0}*2] = s[{0}]
  }
}
