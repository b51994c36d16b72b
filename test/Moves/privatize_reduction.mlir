// privatize_reduction a@e d and unprivatize_reduction (lib/Moves/
// PrivatizeReduction.cpp): the reduction leaf a keeps one partial result per
// iteration of its enclosing scope a@e in a new buffer, initialized right
// before the placement scope at depth d and combined right after it. Each
// case applies the move, then the move and its inverse, which must give the
// input back.
// RUN: rm -rf %t && split-file %s %t

//--- lanes.mlir
// A row maximum, split by 16: the 16 lanes of the inner scope all update
// m[{0}], so they cannot run as one vector; with one partial maximum per
// lane (placement: the scope of size 32) they can.
// RUN: perfdojo-opt %t/lanes.mlir --dojo-apply="privatize_reduction m#1@2 1" | FileCheck %t/lanes.mlir
// RUN: perfdojo-opt %t/lanes.mlir > %t/lanes.orig
// RUN: perfdojo-opt %t/lanes.mlir --dojo-apply="privatize_reduction m#1@2 1; unprivatize_reduction m_p#1@3" | diff %t/lanes.orig -
// RUN: perfdojo-opt %t/lanes.mlir --dojo-check="set_vector m#1@2" -o /dev/null 2>&1 | FileCheck %t/lanes.mlir --check-prefix=BEFORE
// RUN: perfdojo-opt %t/lanes.mlir --dojo-apply="privatize_reduction m#1@2 1" | perfdojo-opt --dojo-check="set_vector m_p#1@2" -o /dev/null 2>&1 | FileCheck %t/lanes.mlir --check-prefix=AFTER
//
// The interpreter computes the same output (max is exact, so bit for bit):
// RUN: perfdojo-run --engine=interp %t/lanes.mlir > %t/lanes.out
// RUN: perfdojo-opt %t/lanes.mlir --dojo-apply="privatize_reduction m#1@2 1; set_vector m_p#1@2" > %t/vector.mlir
// RUN: perfdojo-run --engine=interp %t/vector.mlir >> %t/lanes.out
// RUN: FileCheck %t/lanes.mlir --check-prefix=INTERP < %t/lanes.out

// CHECK-LABEL: dojo.kernel @lanes
// CHECK:         dojo.buffer m f32 [6] heap
// CHECK-NEXT:    dojo.buffer m_p f32 [6, 16] stack
// CHECK:         dojo.scope 6 {
// CHECK-NEXT:      dojo.leaf m[{0}] = -inf
// CHECK-NEXT:      dojo.scope 16 {
// CHECK-NEXT:        dojo.leaf m_p[{0}, {1}] = -inf
// CHECK-NEXT:      }
// CHECK-NEXT:      dojo.scope 32 {
// CHECK-NEXT:        dojo.scope 16 {
// CHECK-NEXT:          dojo.leaf m_p[{0}, {2}] max= x[{0}, {1}*16+{2}]
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      dojo.scope 16 {
// CHECK-NEXT:        dojo.leaf m[{0}] max= m_p[{0}, {1}]
// CHECK-NEXT:      }
// CHECK-NEXT:      dojo.scope 512 {
// CHECK-NEXT:        dojo.leaf y[{0}, {1}] = x[{0}, {1}] - m[{0}]

// BEFORE: illegal: 'set_vector m#1@2'
// AFTER:  'set_vector m_p#1@2' is legal

// INTERP: output y f32 [6, 512]: sum [[SUM:[-+.0-9e]+]], l2 [[L2:[-+.0-9e]+]]
// INTERP: output y f32 [6, 512]: sum [[SUM]], l2 [[L2]]
dojo.kernel @lanes {
  dojo.buffer x f32 [6, 512] heap in
  dojo.buffer m f32 [6] heap
  dojo.buffer y f32 [6, 512] heap out
  dojo.scope 6 {
    dojo.leaf m[{0}] = -inf
    dojo.scope 32 {
      dojo.scope 16 {
        dojo.leaf m[{0}] max= x[{0}, {1}*16+{2}]
      }
    }
    dojo.scope 512 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] - m[{0}]
    }
  }
}

//--- matmul.mlir
// Placement and privatized scope coincide (d = e): one partial sum per
// step of the inner product, summed right after.
// RUN: perfdojo-opt %t/matmul.mlir --dojo-apply="privatize_reduction c#1@2 2" | FileCheck %t/matmul.mlir
// RUN: perfdojo-opt %t/matmul.mlir > %t/matmul.orig
// RUN: perfdojo-opt %t/matmul.mlir --dojo-apply="privatize_reduction c#1@2 2; unprivatize_reduction c_p#1@3" | diff %t/matmul.orig -
// RUN: perfdojo-run --engine=interp %t/matmul.mlir > %t/matmul.out
// RUN: perfdojo-opt %t/matmul.mlir --dojo-apply="privatize_reduction c#1@2 2" > %t/privatized.mlir
// RUN: perfdojo-run --engine=interp %t/privatized.mlir >> %t/matmul.out
// RUN: FileCheck %t/matmul.mlir --check-prefix=INTERP < %t/matmul.out

// CHECK-LABEL: dojo.kernel @matmul
// CHECK:         dojo.buffer c f32 [9, 12] heap out
// CHECK-NEXT:    dojo.buffer c_p f32 [9, 12, 16] stack
// CHECK:         dojo.scope 9 {
// CHECK-NEXT:      dojo.scope 12 {
// CHECK-NEXT:        dojo.leaf c[{0}, {1}] = 0
// CHECK-NEXT:        dojo.scope 16 {
// CHECK-NEXT:          dojo.leaf c_p[{0}, {1}, {2}] = 0
// CHECK-NEXT:        }
// CHECK-NEXT:        dojo.scope 16 {
// CHECK-NEXT:          dojo.leaf c_p[{0}, {1}, {2}] += a[{0}, {2}] * b[{2}, {1}]
// CHECK-NEXT:        }
// CHECK-NEXT:        dojo.scope 16 {
// CHECK-NEXT:          dojo.leaf c[{0}, {1}] += c_p[{0}, {1}, {2}]

// Each partial holds one product and the combination adds them in the
// original order, so the output is the same bit for bit.
// INTERP: output c f32 [9, 12]: sum [[SUM:[-+.0-9e]+]], l2 [[L2:[-+.0-9e]+]]
// INTERP: output c f32 [9, 12]: sum [[SUM]], l2 [[L2]]
dojo.kernel @matmul {
  dojo.buffer a f32 [9, 16] heap in
  dojo.buffer b f32 [16, 12] heap in
  dojo.buffer c f32 [9, 12] heap out
  dojo.scope 9 {
    dojo.scope 12 {
      dojo.leaf c[{0}, {1}] = 0.0
      dojo.scope 16 {
        dojo.leaf c[{0}, {1}] += a[{0}, {2}] * b[{2}, {1}]
      }
    }
  }
}

//--- names.mlir
// The name s_p is taken, so the partials are s_p1; they outgrow the stack
// budget (1 MiB by default), so they live on the heap. The identity of min=
// is inf.
// RUN: perfdojo-opt %t/names.mlir --dojo-apply="privatize_reduction s#1@1 1" | FileCheck %t/names.mlir
// RUN: perfdojo-opt %t/names.mlir > %t/names.orig
// RUN: perfdojo-opt %t/names.mlir --dojo-apply="privatize_reduction s#1@1 1; unprivatize_reduction s_p1#1@2" | diff %t/names.orig -

// CHECK-LABEL: dojo.kernel @names
// CHECK:         dojo.buffer s f32 [70000] heap out
// CHECK-NEXT:    dojo.buffer s_p1 f32 [70000, 4] heap
// CHECK-NEXT:    dojo.buffer s_p f32 [1] heap out
// CHECK:         dojo.scope 70000 {
// CHECK-NEXT:      dojo.leaf s[{0}] = inf
// CHECK-NEXT:      dojo.scope 4 {
// CHECK-NEXT:        dojo.leaf s_p1[{0}, {1}] = inf
// CHECK-NEXT:      }
// CHECK-NEXT:      dojo.scope 4 {
// CHECK-NEXT:        dojo.leaf s_p1[{0}, {1}] min= x[{0}, {1}]
// CHECK-NEXT:      }
// CHECK-NEXT:      dojo.scope 4 {
// CHECK-NEXT:        dojo.leaf s[{0}] min= s_p1[{0}, {1}]
dojo.kernel @names {
  dojo.buffer x f32 [70000, 4] heap in
  dojo.buffer s f32 [70000] heap out
  dojo.buffer s_p f32 [1] heap out
  dojo.scope 70000 {
    dojo.leaf s[{0}] = inf
    dojo.scope 4 {
      dojo.leaf s[{0}] min= x[{0}, {1}]
    }
  }
  dojo.leaf s_p[0] = 1.0
}

//--- remainder.mlir
// A row of 20 summed as 16 lanes and a remainder of 4, inside a loop over
// 3 rows: the remainder's `+=` into s is more of the same reduction, so the
// lanes' partial sums may live across all rows (placement: the scope of
// size 3), combined once; the remainder keeps updating s directly.
// RUN: perfdojo-opt %t/remainder.mlir --dojo-apply="privatize_reduction s#1@2 1" | FileCheck %t/remainder.mlir
// RUN: perfdojo-opt %t/remainder.mlir > %t/remainder.orig
// RUN: perfdojo-opt %t/remainder.mlir --dojo-apply="privatize_reduction s#1@2 1; unprivatize_reduction s_p#1@3" | diff %t/remainder.orig -
//
// The remainder itself then gets partial sums of its own over the same
// placement, and both lane scopes vectorize; the interpreter and the JIT
// match the reference.
// RUN: perfdojo-opt %t/remainder.mlir --dojo-apply="privatize_reduction s#1@2 1; privatize_reduction s#1@2 1; set_vector s_p#1@2; set_vector s_p1#1@2" > %t/remainder.moved.mlir
// RUN: perfdojo-run --engine=interp %t/remainder.moved.mlir | FileCheck %t/remainder.mlir --check-prefix=RESULT
// RUN: perfdojo-run --engine=jit --reps=1 %t/remainder.moved.mlir | FileCheck %t/remainder.mlir --check-prefix=RESULT

// CHECK-LABEL: dojo.kernel @remainder
// CHECK:         dojo.buffer s_p f32 [5, 16] stack
// CHECK:         dojo.scope 5 {
// CHECK-NEXT:      dojo.leaf s[{0}] = 0{{$}}
// CHECK-NEXT:      dojo.scope 16 {
// CHECK-NEXT:        dojo.leaf s_p[{0}, {1}] = 0{{$}}
// CHECK-NEXT:      }
// CHECK-NEXT:      dojo.scope 3 {
// CHECK-NEXT:        dojo.scope 16 {
// CHECK-NEXT:          dojo.leaf s_p[{0}, {2}] += x[{0}, {1}, {2}]
// CHECK-NEXT:        }
// CHECK-NEXT:        dojo.scope 4 {
// CHECK-NEXT:          dojo.leaf s[{0}] += x[{0}, {1}, {2}+16]
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      dojo.scope 16 {
// CHECK-NEXT:        dojo.leaf s[{0}] += s_p[{0}, {1}]

// RESULT: output s f32 [5]
// RESULT-NEXT: matches the f64 reference
dojo.kernel @remainder {
  dojo.buffer x f32 [5, 3, 20] heap in
  dojo.buffer s f32 [5] heap out
  dojo.scope 5 {
    dojo.leaf s[{0}] = 0.0
    dojo.scope 3 {
      dojo.scope 16 {
        dojo.leaf s[{0}] += x[{0}, {1}, {2}]
      }
      dojo.scope 4 {
        dojo.leaf s[{0}] += x[{0}, {1}, {2}+16]
      }
    }
  }
}
