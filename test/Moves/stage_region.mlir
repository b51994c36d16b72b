// stage_region a,N loc and unstage t (lib/Moves/StageRegion.cpp): node N
// works on a staged copy of array a, with total copy nests before and after
// it. Each case is its own file; the round-trip RUN lines apply a move and
// its inverse and require the input back.
// RUN: rm -rf %t && split-file %s %t

//--- packed.mlir
// A matmul stages its input b (copy-in only, before the whole nest) and its
// output tile c around the reduction scope (copy-in: the reduction reads
// c; copy-out: it writes c).
// RUN: perfdojo-opt %t/packed.mlir --dojo-apply="stage_region b,c#0@0 1" | FileCheck %t/packed.mlir
// RUN: perfdojo-opt %t/packed.mlir --dojo-apply="stage_region c,c#1@2 1" | FileCheck %t/packed.mlir --check-prefix=INOUT
// RUN: perfdojo-opt %t/packed.mlir > %t/packed.orig
// RUN: perfdojo-opt %t/packed.mlir --dojo-apply="stage_region b,c#0@0 1; unstage b_s" | diff %t/packed.orig -
// RUN: perfdojo-opt %t/packed.mlir --dojo-apply="stage_region c,c#1@2 1; unstage c_s" | diff %t/packed.orig -
// RUN: perfdojo-opt %t/packed.mlir --dojo-apply="stage_region b,c#0@0 0; stage_region a,c#0@0 1; unstage a_s; unstage b_s" | diff %t/packed.orig -
// RUN: perfdojo-opt %t/packed.mlir --dojo-list-moves -o /dev/null | grep -E "^(stage_region|unstage) " | FileCheck %t/packed.mlir --check-prefix=LIST
// RUN: perfdojo-opt %t/packed.mlir --dojo-apply="stage_region b,c#0@0 1" --dojo-list-moves -o /dev/null | grep -E "^unstage " | FileCheck %t/packed.mlir --check-prefix=STAGED
//
// The interpreter and the JIT compute the same output as before:
// RUN: perfdojo-run --engine=interp %t/packed.mlir > %t/packed.out
// RUN: perfdojo-opt %t/packed.mlir --dojo-apply="stage_region b,c#0@0 1; stage_region c,c#1@2 0" | perfdojo-translate --export-dojo > %t/packed.moved.dojo
// RUN: perfdojo-run --engine=interp %t/packed.moved.dojo >> %t/packed.out
// RUN: FileCheck %t/packed.mlir --check-prefix=INTERP < %t/packed.out
// RUN: perfdojo-run --engine=jit --reps=1 %t/packed.moved.dojo | FileCheck %t/packed.mlir --check-prefix=JIT

// CHECK-LABEL: dojo.kernel @packed
// CHECK:         dojo.buffer b f32 [8, 6] heap in
// CHECK-NEXT:    dojo.buffer b_s f32 [8, 6] stack
// CHECK:         dojo.scope 8 {
// CHECK-NEXT:      dojo.scope 6 {
// CHECK-NEXT:        dojo.leaf b_s[{0}, {1}] = b[{0}, {1}]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    dojo.scope 4 {
// CHECK:             dojo.leaf c[{0}, {1}] += a[{0}, {2}] * b_s[{2}, {1}]
// CHECK-NOT:     b[

// INOUT:         dojo.buffer c f32 [4, 6] heap out
// INOUT-NEXT:    dojo.buffer c_s f32 [4, 6] stack
// INOUT:         dojo.leaf c[{0}, {1}] = 0
// INOUT-NEXT:    dojo.scope 4 {
// INOUT-NEXT:      dojo.scope 6 {
// INOUT-NEXT:        dojo.leaf c_s[{2}, {3}] = c[{2}, {3}]
// INOUT:         dojo.scope 8 {
// INOUT-NEXT:      dojo.leaf c_s[{0}, {1}] += a[{0}, {2}] * b[{2}, {1}]
// INOUT-NEXT:    }
// INOUT-NEXT:    dojo.scope 4 {
// INOUT-NEXT:      dojo.scope 6 {
// INOUT-NEXT:        dojo.leaf c[{2}, {3}] = c_s[{2}, {3}]

// Every copy fits the stack; none is addressable in registers (the copy
// nests are plain scopes). c has no value before the init leaf, and the
// row scopes read it (ST5).
// LIST:      stage_region a,c#0@0 1
// LIST-NEXT: stage_region b,c#0@0 1
// LIST-NEXT: stage_region a,c#0@1 1
// LIST-NEXT: stage_region b,c#0@1 1
// LIST-NEXT: stage_region c,c#1@2 1
// LIST-NEXT: stage_region a,c#1@2 1
// LIST-NEXT: stage_region b,c#1@2 1
// LIST-NOT:  {{.}}

// STAGED: unstage b_s

// INTERP: output c f32 [4, 6]: sum [[SUM:[-+.0-9e]+]], l2 [[L2:[-+.0-9e]+]]
// INTERP: output c f32 [4, 6]: sum [[SUM]], l2 [[L2]]

// JIT: matches
dojo.kernel @packed {
  dojo.buffer a f32 [4, 8] heap in
  dojo.buffer b f32 [8, 6] heap in
  dojo.buffer c f32 [4, 6] heap out
  dojo.scope 4 {
    dojo.scope 6 {
      dojo.leaf c[{0}, {1}] = 0.0
      dojo.scope 8 {
        dojo.leaf c[{0}, {1}] += a[{0}, {2}] * b[{2}, {1}]
      }
    }
  }
}

//--- write_all.mlir
// The node writes every element of y: copy-out only (a copy-in would read
// the output before anything writes it).
// RUN: perfdojo-opt %t/write_all.mlir --dojo-apply="stage_region y,y@0 1" | FileCheck %t/write_all.mlir
// RUN: perfdojo-opt %t/write_all.mlir > %t/write_all.orig
// RUN: perfdojo-opt %t/write_all.mlir --dojo-apply="stage_region y,y@0 1; unstage y_s" | diff %t/write_all.orig -

// CHECK-LABEL: dojo.kernel @write_all
// CHECK:         dojo.buffer y_s f32 [3, 5] stack
// CHECK:         dojo.scope 5 {
// CHECK-NEXT:      dojo.scope 3 {
// CHECK-NEXT:        dojo.leaf y_s[{1}, {0}] = x[{1}, {0}] * 2
// CHECK:         dojo.scope 3 {
// CHECK-NEXT:      dojo.scope 5 {
// CHECK-NEXT:        dojo.leaf y[{0}, {1}] = y_s[{0}, {1}]
// CHECK-NOT:     y_s[{0}, {1}] = y[
dojo.kernel @write_all {
  dojo.buffer x f32 [3, 5] heap in
  dojo.buffer y f32 [3, 5] heap out
  dojo.scope 5 {
    dojo.scope 3 {
      dojo.leaf y[{1}, {0}] = x[{1}, {0}] * 2.0
    }
  }
}

//--- init_inside.mlir
// The node holds the initialization of each row's sum and its reduction:
// every element it reads it has written first (the `:N` invariant's NM4
// test at the node's depth), so no copy-in, only the copy-out. A copy-in
// would read the output before anything writes it.
// RUN: perfdojo-opt %t/init_inside.mlir --dojo-apply="stage_region y,y#0@0 1" | FileCheck %t/init_inside.mlir
// RUN: perfdojo-opt %t/init_inside.mlir > %t/init_inside.orig
// RUN: perfdojo-opt %t/init_inside.mlir --dojo-apply="stage_region y,y#0@0 1; unstage y_s" | diff %t/init_inside.orig -
// RUN: perfdojo-run --engine=interp %t/init_inside.mlir > %t/init_inside.out
// RUN: perfdojo-opt %t/init_inside.mlir --dojo-apply="stage_region y,y#0@0 1" | perfdojo-translate --export-dojo > %t/init_inside.moved.dojo
// RUN: perfdojo-run --engine=interp %t/init_inside.moved.dojo >> %t/init_inside.out
// RUN: FileCheck %t/init_inside.mlir --check-prefix=INTERP < %t/init_inside.out
// The inner scope alone reads each sum the initialization wrote before it:
// that staging keeps its copy-in.
// RUN: perfdojo-opt %t/init_inside.mlir --dojo-apply="stage_region y,y#1@1 1" | FileCheck %t/init_inside.mlir --check-prefix=INNER

// CHECK-LABEL: dojo.kernel @init_inside
// CHECK:         dojo.buffer y_s f32 [4] stack
// CHECK-NEXT:    dojo.scope 4 {
// CHECK-NEXT:      dojo.leaf y_s[{0}] = 0
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf y_s[{0}] += x[{0}, {1}]
// CHECK:         dojo.scope 4 {
// CHECK-NEXT:      dojo.leaf y[{0}] = y_s[{0}]
// CHECK-NOT:     = y[

// INNER:         dojo.leaf y[{0}] = 0
// INNER-NEXT:    dojo.scope 4 {
// INNER-NEXT:      dojo.leaf y_s[{1}] = y[{1}]
// INNER:           dojo.leaf y_s[{0}] += x[{0}, {1}]
// INNER:           dojo.leaf y[{1}] = y_s[{1}]

// INTERP: output y f32 [4]: sum [[SUM:[-+.0-9e]+]], l2 [[L2:[-+.0-9e]+]]
// INTERP: output y f32 [4]: sum [[SUM]], l2 [[L2]]
dojo.kernel @init_inside {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 0.0
    dojo.scope 8 {
      dojo.leaf y[{0}] += x[{0}, {1}]
    }
  }
}

//--- write_part.mlir
// The node writes one column of y only: the copy-in keeps the other
// column for the total copy-out.
// RUN: perfdojo-opt %t/write_part.mlir --dojo-apply="stage_region y,y#1@0 0" | FileCheck %t/write_part.mlir
// RUN: perfdojo-opt %t/write_part.mlir > %t/write_part.orig
// RUN: perfdojo-opt %t/write_part.mlir --dojo-apply="stage_region y,y#1@0 0; unstage y_s" | diff %t/write_part.orig -
// RUN: perfdojo-run --engine=interp %t/write_part.mlir > %t/write_part.out
// RUN: perfdojo-opt %t/write_part.mlir --dojo-apply="stage_region y,y#1@0 0" | perfdojo-translate --export-dojo > %t/write_part.moved.dojo
// RUN: perfdojo-run --engine=interp %t/write_part.moved.dojo >> %t/write_part.out
// RUN: FileCheck %t/write_part.mlir --check-prefix=INTERP < %t/write_part.out

// CHECK-LABEL: dojo.kernel @write_part
// CHECK:         dojo.buffer y_s f32 [4, 2] heap
// CHECK:         dojo.leaf y_s[{0}, {1}] = y[{0}, {1}]
// CHECK:         dojo.scope 4 {
// CHECK-NEXT:      dojo.leaf y_s[{0}, 0] = x[{0}]
// CHECK:         dojo.leaf y[{0}, {1}] = y_s[{0}, {1}]

// INTERP: output y f32 [4, 2]: sum [[SUM:[-+.0-9e]+]], l2 [[L2:[-+.0-9e]+]]
// INTERP: output y f32 [4, 2]: sum [[SUM]], l2 [[L2]]
dojo.kernel @write_part {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [4, 2] heap out
  dojo.scope 4 {
    dojo.scope 2 {
      dojo.leaf y[{0}, {1}] = 1.0
    }
  }
  dojo.scope 4 {
    dojo.leaf y[{0}, 0] = x[{0}]
  }
}

//--- register.mlir
// A single accumulator element staged in a register: the copies are
// size-1 nests, so every index is a constant.
// RUN: perfdojo-opt %t/register.mlir --dojo-apply="stage_region s,s#1@0 2" | FileCheck %t/register.mlir
// RUN: perfdojo-opt %t/register.mlir > %t/register.orig
// RUN: perfdojo-opt %t/register.mlir --dojo-apply="stage_region s,s#1@0 2; unstage s_s" | diff %t/register.orig -
// RUN: perfdojo-opt %t/register.mlir --dojo-apply="stage_region s,s#1@0 2" | perfdojo-translate --export-dojo > %t/register.moved.dojo
// RUN: perfdojo-run --engine=jit --reps=1 %t/register.moved.dojo | FileCheck %t/register.mlir --check-prefix=JIT

// CHECK-LABEL: dojo.kernel @register
// CHECK:         dojo.buffer s_s f32 [1] reg
// CHECK:         dojo.scope 1 {
// CHECK-NEXT:      dojo.leaf s_s[{0}] = s[{0}]
// CHECK:         dojo.scope 8 {
// CHECK-NEXT:      dojo.leaf s_s[0] += x[{0}]
// CHECK:         dojo.scope 1 {
// CHECK-NEXT:      dojo.leaf s[{0}] = s_s[{0}]

// JIT: matches
dojo.kernel @register {
  dojo.buffer x f32 [8] heap in
  dojo.buffer s f32 [1] heap out
  dojo.leaf s[0] = 0.0
  dojo.scope 8 {
    dojo.leaf s[0] += x[{0}]
  }
}
