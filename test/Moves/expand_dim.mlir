// expand_dim b.k n d and collapse_dim b.k (lib/Moves/ExpandDim.cpp): a new
// dimension of extent n at position k of an internal buffer, indexed by the
// variable {d} of the scope that encloses every access, gives each
// iteration of that scope its own copy; collapse_dim drops it again. Each
// case applies the move, then the move and its inverse, which must give the
// input back.
// RUN: rm -rf %t && split-file %s %t

//--- rownorm.mlir
// A scalar heap temporary shared by all rows keeps the row scope
// sequential; one copy per row lets it run in parallel. (On the stack it
// would be private per `:p` iteration already: privatization.mlir.)
// RUN: perfdojo-opt %t/rownorm.mlir --dojo-apply="expand_dim t.0 4 0" | FileCheck %t/rownorm.mlir
// RUN: perfdojo-opt %t/rownorm.mlir > %t/rownorm.orig
// RUN: perfdojo-opt %t/rownorm.mlir --dojo-apply="expand_dim t.0 4 0; collapse_dim t.0" | diff %t/rownorm.orig -
// RUN: perfdojo-opt %t/rownorm.mlir --dojo-check="set_parallel t#0@0" -o /dev/null 2>&1 | FileCheck %t/rownorm.mlir --check-prefix=BEFORE
// RUN: perfdojo-opt %t/rownorm.mlir --dojo-apply="expand_dim t.0 4 0" | perfdojo-opt --dojo-check="set_parallel t#0@0" -o /dev/null 2>&1 | FileCheck %t/rownorm.mlir --check-prefix=AFTER
//
// The interpreter computes the same output, bit for bit:
// RUN: perfdojo-run --engine=interp %t/rownorm.mlir > %t/rownorm.out
// RUN: perfdojo-opt %t/rownorm.mlir --dojo-apply="expand_dim t.0 4 0; set_parallel t#0@0" > %t/expanded.mlir
// RUN: perfdojo-run --engine=interp %t/expanded.mlir >> %t/rownorm.out
// RUN: FileCheck %t/rownorm.mlir --check-prefix=INTERP < %t/rownorm.out

// CHECK-LABEL: dojo.kernel @rownorm
// CHECK:         dojo.buffer t f32 [4] heap
// CHECK:         dojo.scope 4 {
// CHECK-NEXT:      dojo.leaf t[{0}] = 0
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf t[{0}] += x[{0}, {1}] * x[{0}, {1}]
// CHECK-NEXT:      }
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf y[{0}, {1}] = x[{0}, {1}] / t[{0}]

// BEFORE: illegal: 'set_parallel t#0@0': the scope would race: two of its iterations conflict
// AFTER:  'set_parallel t#0@0' is legal

// INTERP: output y f32 [4, 8]: sum [[SUM:[-+.0-9e]+]], l2 [[L2:[-+.0-9e]+]]
// INTERP: output y f32 [4, 8]: sum [[SUM]], l2 [[L2]]
dojo.kernel @rownorm {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer t f32 [] heap
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.leaf t[] = 0.0
    dojo.scope 8 {
      dojo.leaf t[] += x[{0}, {1}] * x[{0}, {1}]
    }
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] / t[]
    }
  }
}

//--- last.mlir
// A new last dimension, indexed by the outer scope; the buffer has two
// arrays, and both get the index.
// RUN: perfdojo-opt %t/last.mlir --dojo-apply="expand_dim t.1 4 0" | FileCheck %t/last.mlir
// RUN: perfdojo-opt %t/last.mlir > %t/last.orig
// RUN: perfdojo-opt %t/last.mlir --dojo-apply="expand_dim t.1 4 0; collapse_dim t.1" | diff %t/last.orig -

// CHECK-LABEL: dojo.kernel @last
// CHECK:         dojo.buffer t f32 [8, 4] stack -> a, b
// CHECK:         dojo.scope 4 {
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf a[{1}, {0}] = x[{0}, {1}] * 2
// CHECK-NEXT:        dojo.leaf y[{0}, {1}] = a[{1}, {0}] + 1
// CHECK-NEXT:        dojo.leaf b[{1}, {0}] = x[{0}, {1}]
// CHECK-NEXT:        dojo.leaf z[{0}, {1}] = b[{1}, {0}]
dojo.kernel @last {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer t f32 [8] stack -> a, b
  dojo.buffer y f32 [4, 8] heap out
  dojo.buffer z f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf a[{1}] = x[{0}, {1}] * 2.0
      dojo.leaf y[{0}, {1}] = a[{1}] + 1.0
      dojo.leaf b[{1}] = x[{0}, {1}]
      dojo.leaf z[{0}, {1}] = b[{1}]
    }
  }
}

//--- collapse.mlir
// After fusion a full temporary is only needed one row at a time: collapse
// its row dimension, then the column dimension too (the inverse re-expands
// at the same position with the scope's size and depth).
// RUN: perfdojo-opt %t/collapse.mlir --dojo-apply="collapse_dim t.0; collapse_dim t.0" | FileCheck %t/collapse.mlir
// RUN: perfdojo-opt %t/collapse.mlir > %t/collapse.orig
// RUN: perfdojo-opt %t/collapse.mlir --dojo-apply="collapse_dim t.0; expand_dim t.0 16 0" | diff %t/collapse.orig -
// RUN: perfdojo-opt %t/collapse.mlir --dojo-apply="collapse_dim t.0; collapse_dim t.0; expand_dim t.0 8 1; expand_dim t.0 16 0" | diff %t/collapse.orig -
// RUN: perfdojo-run --engine=interp %t/collapse.mlir > %t/collapse.out
// RUN: perfdojo-opt %t/collapse.mlir --dojo-apply="collapse_dim t.0; collapse_dim t.0" > %t/scalar.mlir
// RUN: perfdojo-run --engine=interp %t/scalar.mlir >> %t/collapse.out
// RUN: FileCheck %t/collapse.mlir --check-prefix=INTERP < %t/collapse.out

// CHECK-LABEL: dojo.kernel @collapse
// CHECK:         dojo.buffer t f32 [] stack
// CHECK:         dojo.scope 16 {
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf t[] = exp(x[{0}, {1}])
// CHECK-NEXT:        dojo.leaf y[{0}, {1}] = t[] * 2

// INTERP: output y f32 [16, 8]: sum [[SUM:[-+.0-9e]+]], l2 [[L2:[-+.0-9e]+]]
// INTERP: output y f32 [16, 8]: sum [[SUM]], l2 [[L2]]
dojo.kernel @collapse {
  dojo.buffer x f32 [16, 8] heap in
  dojo.buffer t f32 [16, 8] stack
  dojo.buffer y f32 [16, 8] heap out
  dojo.scope 16 {
    dojo.scope 8 {
      dojo.leaf t[{0}, {1}] = exp(x[{0}, {1}])
      dojo.leaf y[{0}, {1}] = t[{0}, {1}] * 2.0
    }
  }
}
