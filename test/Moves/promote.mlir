// promote a,N and unpromote p (lib/Moves/Promote.cpp): node N's one element
// of array a lives in a private copy while N runs. Each case is its own
// file; the round-trip RUN lines apply a move and its inverse and require
// the input back.
// RUN: rm -rf %t && split-file %s %t

//--- accumulator.mlir
// The row sum accumulates in t_r[{0}]: copy-in (the reduction reads t
// first), the reduction on the copy, copy-out.
// RUN: perfdojo-opt %t/accumulator.mlir --dojo-apply="promote t,t#1@1" | FileCheck %t/accumulator.mlir
// RUN: perfdojo-opt %t/accumulator.mlir > %t/accumulator.orig
// RUN: perfdojo-opt %t/accumulator.mlir --dojo-apply="promote t,t#1@1; unpromote t_r" | diff %t/accumulator.orig -
// RUN: perfdojo-opt %t/accumulator.mlir --dojo-list-moves -o /dev/null | grep -E "^(promote|unpromote) " | FileCheck %t/accumulator.mlir --check-prefix=LIST
// RUN: perfdojo-opt %t/accumulator.mlir --dojo-apply="promote t,t#1@1" --dojo-list-moves -o /dev/null | grep -E "^(promote|unpromote) " | FileCheck %t/accumulator.mlir --check-prefix=PROMOTED
//
// The recipe of moves.md C1: promote, then one register.
// RUN: perfdojo-opt %t/accumulator.mlir --dojo-apply="promote t,t#1@1; reuse_dims t_r.0; set_location t_r 2" | FileCheck %t/accumulator.mlir --check-prefix=REG
//
// The interpreter computes the same output:
// RUN: perfdojo-run --engine=interp %t/accumulator.mlir > %t/accumulator.out
// RUN: perfdojo-opt %t/accumulator.mlir --dojo-apply="promote t,t#1@1; reuse_dims t_r.0; set_location t_r 2" | perfdojo-translate --export-dojo > %t/accumulator.moved.dojo
// RUN: perfdojo-run --engine=interp %t/accumulator.moved.dojo >> %t/accumulator.out
// RUN: FileCheck %t/accumulator.mlir --check-prefix=INTERP < %t/accumulator.out

// CHECK-LABEL: dojo.kernel @accumulator
// CHECK:         dojo.buffer t f32 [6] stack
// CHECK-NEXT:    dojo.buffer t_r f32 [6] stack
// CHECK:         dojo.leaf t[{0}] = 0
// CHECK-NEXT:    dojo.leaf t_r[{0}] = t[{0}]
// CHECK-NEXT:    dojo.scope 4 {
// CHECK-NEXT:      dojo.leaf t_r[{0}] += x[{0}, {1}]
// CHECK-NEXT:    }
// CHECK-NEXT:    dojo.leaf t[{0}] = t_r[{0}]
// CHECK-NEXT:    dojo.leaf y[{0}] = t[{0}] * 2

// The row scope accesses t and y through {0}, its own variable: only the
// inner scope qualifies.
// LIST:      promote t,t#1@1
// LIST-NOT:  {{.}}

// PROMOTED:      promote t_r,t_r#1@1
// PROMOTED-NEXT: unpromote t_r
// PROMOTED-NOT:  {{.}}

// REG: dojo.buffer t_r f32 [6:N] reg

// INTERP: output y f32 [6]: sum [[SUM:[-+.0-9e]+]], l2 [[L2:[-+.0-9e]+]]
// INTERP: output y f32 [6]: sum [[SUM]], l2 [[L2]]
dojo.kernel @accumulator {
  dojo.buffer x f32 [6, 4] heap in
  dojo.buffer t f32 [6] stack
  dojo.buffer y f32 [6] heap out
  dojo.scope 6 {
    dojo.leaf t[{0}] = 0.0
    dojo.scope 4 {
      dojo.leaf t[{0}] += x[{0}, {1}]
    }
    dojo.leaf y[{0}] = t[{0}] * 2.0
  }
}

//--- read_only.mlir
// An input element read in every iteration of a scope: copy-in only.
// RUN: perfdojo-opt %t/read_only.mlir --dojo-apply="promote s,y@1" | FileCheck %t/read_only.mlir
// RUN: perfdojo-opt %t/read_only.mlir > %t/read_only.orig
// RUN: perfdojo-opt %t/read_only.mlir --dojo-apply="promote s,y@1; unpromote s_r" | diff %t/read_only.orig -

// CHECK-LABEL: dojo.kernel @read_only
// CHECK:         dojo.buffer s f32 [3] heap in
// CHECK-NEXT:    dojo.buffer s_r f32 [3] stack
// CHECK:         dojo.scope 3 {
// CHECK-NEXT:      dojo.leaf s_r[{0}] = s[{0}]
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf y[{0}, {1}] = x[{0}, {1}] * s_r[{0}]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
dojo.kernel @read_only {
  dojo.buffer x f32 [3, 8] heap in
  dojo.buffer s f32 [3] heap in
  dojo.buffer y f32 [3, 8] heap out
  dojo.scope 3 {
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] * s[{0}]
    }
  }
}

//--- write_first.mlir
// The node writes the element before reading it: no copy-in (the entry
// value is never seen), copy-out only.
// RUN: perfdojo-opt %t/write_first.mlir --dojo-apply="promote m,m#0@1" | FileCheck %t/write_first.mlir
// RUN: perfdojo-opt %t/write_first.mlir > %t/write_first.orig
// RUN: perfdojo-opt %t/write_first.mlir --dojo-apply="promote m,m#0@1; unpromote m_r" | diff %t/write_first.orig -

// CHECK-LABEL: dojo.kernel @write_first
// CHECK:         dojo.scope 3 {
// CHECK-NEXT:      dojo.scope 1 {
// CHECK-NEXT:        dojo.leaf m_r[{0}] = -inf
// CHECK-NEXT:        dojo.scope 8 {
// CHECK-NEXT:          dojo.leaf m_r[{0}] max= x[{0}, {2}]
// CHECK:           dojo.leaf m[{0}] = m_r[{0}]
// CHECK-NEXT:      dojo.leaf y[{0}] = m[{0}]
dojo.kernel @write_first {
  dojo.buffer x f32 [3, 8] heap in
  dojo.buffer m f32 [3] stack
  dojo.buffer y f32 [3] heap out
  dojo.scope 3 {
    dojo.scope 1 {
      dojo.leaf m[{0}] = -inf
      dojo.scope 8 {
        dojo.leaf m[{0}] max= x[{0}, {2}]
      }
    }
    dojo.leaf y[{0}] = m[{0}]
  }
}
