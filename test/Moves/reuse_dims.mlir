// reuse_dims b.k (lib/Moves/ReuseDims.cpp): dimension k of an internal
// buffer stops being materialized (`:N`); accesses keep their indices. The
// inverse is materialize_dims b.k.
// RUN: rm -rf %t && split-file %s %t

//--- figure6.mlir
// The paper's Figure 6: a producer writes the temporary t and a consumer
// reads it, in two separate nests. Row i of t is only needed during
// iteration i once the nests are fused, so t.0 can then share one row.
//
// Before fusion the move is illegal (the consumer's read would see the slot
// the producer's last iteration left behind); fusion itself is legal:
// RUN: perfdojo-opt %t/figure6.mlir --dojo-check="reuse_dims t.0; join_scopes t@0" -verify-diagnostics -o /dev/null
//
// After fusion it is legal:
// RUN: perfdojo-opt %t/figure6.mlir --dojo-apply="join_scopes t@0; reuse_dims t.0" | FileCheck %t/figure6.mlir
//
// The interpreter computes the same output (bit for bit: only the storage of
// t and the order of independent instances changed), also after fusing the
// inner scopes and reusing t.1, which leaves one element of t:
// RUN: perfdojo-run --engine=interp %t/figure6.mlir > %t/figure6.out
// RUN: perfdojo-opt %t/figure6.mlir --dojo-apply="join_scopes t@0; reuse_dims t.0" | perfdojo-translate --export-dojo > %t/fused.dojo
// RUN: perfdojo-run --engine=interp %t/fused.dojo >> %t/figure6.out
// RUN: perfdojo-opt %t/figure6.mlir --dojo-apply="join_scopes t@0; reuse_dims t.0; join_scopes t@1; reuse_dims t.1" | perfdojo-translate --export-dojo > %t/scalar.dojo
// RUN: perfdojo-run --engine=interp %t/scalar.dojo >> %t/figure6.out
// The same `:N` written by hand on the unfused kernel (bypassing the move)
// would change the output: the verifier rejects it with the move's reason.
// RUN: not perfdojo-run --engine=interp %t/unfused_reuse.mlir 2>&1 | FileCheck %t/figure6.mlir --check-prefix=UNFUSED
// RUN: FileCheck %t/figure6.mlir --check-prefix=INTERP < %t/figure6.out
// RUN: FileCheck %t/figure6.mlir --check-prefix=SCALAR < %t/scalar.dojo

// CHECK-LABEL: dojo.kernel @figure6
// CHECK:         dojo.buffer t f32 [16:N, 8] stack
// CHECK:         dojo.scope 16 {
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf t[{0}, {1}] = exp(x[{0}, {1}])
// CHECK-NEXT:      }
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf y[{0}, {1}] = t[{0}, {1}] * 2

// INTERP:      output y f32 [16, 8]: sum [[SUM:[-+.0-9e]+]], l2 [[L2:[-+.0-9e]+]]
// INTERP:      output y f32 [16, 8]: sum [[SUM]], l2 [[L2]]
// INTERP:      output y f32 [16, 8]: sum [[SUM]], l2 [[L2]]
// UNFUSED: error: 'dojo.buffer' op violates the :N invariant (dimension 0 of 't'): a read of 't' is not covered by an earlier write in the same iteration of its reuse scope at depth 0, so it would see another slot's value (NM4)

// SCALAR:      t f32 [16:N, 8:N] stack
// SCALAR:      16 8 t[{0}, {1}] = exp(x[{0}, {1}])
// SCALAR-NEXT: | | y[{0}, {1}] = t[{0}, {1}] * 2

// expected-remark @+2 {{illegal: 'reuse_dims t.0': a read of 't' is not covered by an earlier write in the same iteration of its reuse scope at depth 0, so it would see another slot's value (NM4)}}
// expected-remark @+1 {{'join_scopes t@0' is legal}}
dojo.kernel @figure6 {
  dojo.buffer x f32 [16, 8] heap in
  dojo.buffer t f32 [16, 8] stack
  dojo.buffer y f32 [16, 8] heap out
  dojo.scope 16 {
    dojo.scope 8 {
      dojo.leaf t[{0}, {1}] = exp(x[{0}, {1}])
    }
  }
  dojo.scope 16 {
    dojo.scope 8 {
      // expected-note @+1 {{the read}}
      dojo.leaf y[{0}, {1}] = t[{0}, {1}] * 2.0
    }
  }
}

//--- unfused_reuse.mlir
dojo.kernel @unfused_reuse {
  dojo.buffer x f32 [16, 8] heap in
  dojo.buffer t f32 [16:N, 8] stack
  dojo.buffer y f32 [16, 8] heap out
  dojo.scope 16 {
    dojo.scope 8 {
      dojo.leaf t[{0}, {1}] = exp(x[{0}, {1}])
    }
  }
  dojo.scope 16 {
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = t[{0}, {1}] * 2.0
    }
  }
}

//--- reduction.mlir
// RUN: perfdojo-opt %t/reduction.mlir --dojo-apply="reuse_dims s.0" | FileCheck %t/reduction.mlir
// RUN: perfdojo-opt %t/reduction.mlir > %t/reduction.orig
// RUN: perfdojo-opt %t/reduction.mlir --dojo-apply="reuse_dims s.0; materialize_dims s.0" | diff %t/reduction.orig -

// RMSNorm's row statistic: every read of s[i] (including the read half of
// +=) follows the plain write s[i] = 0 in the same iteration of the row
// scope, so one slot suffices.
// CHECK-LABEL: dojo.kernel @reduction
// CHECK:         dojo.buffer s f32 [7:N] stack
dojo.kernel @reduction {
  dojo.buffer x f32 [7, 16] heap in
  dojo.buffer s f32 [7] stack
  dojo.buffer y f32 [7, 16] heap out
  dojo.scope 7 {
    dojo.leaf s[{0}] = 0
    dojo.scope 16 {
      dojo.leaf s[{0}] += x[{0}, {1}] * x[{0}, {1}]
    }
    dojo.leaf s[{0}] = rsqrt(s[{0}])
    dojo.scope 16 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] * s[{0}]
    }
  }
}

//--- constant.mlir
// RUN: perfdojo-opt %t/constant.mlir --dojo-apply="reuse_dims t.0" | FileCheck %t/constant.mlir
// RUN: perfdojo-opt %t/constant.mlir > %t/constant.orig
// RUN: perfdojo-opt %t/constant.mlir --dojo-apply="reuse_dims t.0; materialize_dims t.0" | diff %t/constant.orig -

// Every access uses the same constant: one slot is all the kernel touches.
// CHECK-LABEL: dojo.kernel @constant
// CHECK:         dojo.buffer t f32 [4:N] stack
dojo.kernel @constant {
  dojo.buffer x f32 [8] heap in
  dojo.buffer t f32 [4] stack
  dojo.buffer y f32 [8] heap out
  dojo.scope 8 {
    dojo.leaf t[2] = x[{0}] * 3.0
    dojo.leaf y[{0}] = t[2] + 1.0
  }
}

//--- unit_scope.mlir
// RUN: perfdojo-opt %t/unit_scope.mlir --dojo-apply="reuse_dims t.0" | FileCheck %t/unit_scope.mlir
// RUN: perfdojo-opt %t/unit_scope.mlir > %t/unit_scope.orig
// RUN: perfdojo-opt %t/unit_scope.mlir --dojo-apply="reuse_dims t.0; materialize_dims t.0" | diff %t/unit_scope.orig -

// The variable of a size-1 scope is the constant 0: the two size-1 scopes
// below are not separate reuse scopes.
// CHECK-LABEL: dojo.kernel @unit_scope
// CHECK:         dojo.buffer t f32 [1:N, 4] stack
dojo.kernel @unit_scope {
  dojo.buffer x f32 [4] heap in
  dojo.buffer t f32 [1, 4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.scope 1 {
      dojo.leaf t[{1}, {0}] = x[{0}]
    }
    dojo.scope 1 {
      dojo.leaf y[{0}] = t[{1}, {0}] * 2.0
    }
  }
}

//--- keeps_mark.mlir
// RUN: perfdojo-opt %t/keeps_mark.mlir --dojo-apply="split_scope t@0 4" | FileCheck %t/keeps_mark.mlir
// RUN: perfdojo-opt %t/keeps_mark.mlir > %t/keeps_mark.orig
// RUN: perfdojo-opt %t/keeps_mark.mlir --dojo-apply="split_scope t@0 4; merge_scopes t@0" | diff %t/keeps_mark.orig -

// A restructuring that keeps the `:N` invariant is accepted (the reuse
// scope becomes the new inner scope); post-verify-invalid.mlir has one that
// breaks it.
// CHECK-LABEL: dojo.kernel @keeps_mark
// CHECK:         dojo.buffer t f32 [16:N, 8] stack
// CHECK:         dojo.scope 4 {
// CHECK-NEXT:      dojo.scope 4 {
// CHECK-NEXT:        dojo.scope 8 {
// CHECK-NEXT:          dojo.leaf t[{0}*4+{1}, {2}] = exp(x[{0}*4+{1}, {2}])
dojo.kernel @keeps_mark {
  dojo.buffer x f32 [16, 8] heap in
  dojo.buffer t f32 [16:N, 8] stack
  dojo.buffer y f32 [16, 8] heap out
  dojo.scope 16 {
    dojo.scope 8 {
      dojo.leaf t[{0}, {1}] = exp(x[{0}, {1}])
    }
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = t[{0}, {1}] * 2.0
    }
  }
}
