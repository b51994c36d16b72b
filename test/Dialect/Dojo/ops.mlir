// RUN: perfdojo-opt %s -split-input-file | FileCheck %s
// RUN: perfdojo-opt %s -split-input-file | perfdojo-opt -split-input-file | FileCheck %s
// RUN: perfdojo-opt %s -split-input-file --mlir-print-op-generic | perfdojo-opt -split-input-file | FileCheck %s
// RUN: perfdojo-opt %s -split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Every buffer form: roles, locations, element types, `:N`, padding, rank 0
// and shared arrays.

// CHECK-LABEL: dojo.kernel @buffer_forms
// CHECK-NEXT:    dojo.buffer a f32 [4, 8] heap in
// CHECK-NEXT:    dojo.buffer b f32 [4, 8] heap inout
// CHECK-NEXT:    dojo.buffer c f32 [4, 8] heap out
// CHECK-NEXT:    dojo.buffer s f32 [] stack
// CHECK-NEXT:    dojo.buffer r f32 [4:N, 8+2] reg
// CHECK-NEXT:    dojo.buffer g f32 [4] gpu_shared
// CHECK-NEXT:    dojo.buffer l f32 [4] gpu_local
// CHECK-NEXT:    dojo.buffer t f32 [4+1:N, 2] tcdm -> t0, t1
// CHECK-NEXT:    dojo.buffer h f16 [2] heap
// CHECK-NEXT:    dojo.buffer bf bf16 [2] heap
// CHECK-NEXT:    dojo.buffer d f64 [2] heap
// CHECK-NEXT:    dojo.buffer i i8 [2] heap
// CHECK-NEXT:    dojo.buffer j i32 [2] heap
// CHECK-NEXT:    dojo.buffer k i16 [2] heap
// CHECK-NEXT:    dojo.buffer n i64 [2] heap
// CHECK-NEXT:    dojo.buffer p bool [2] heap
// CHECK-NEXT:    dojo.leaf s[] = 0
// CHECK-NEXT:    dojo.scope 4 {
// CHECK-NEXT:      dojo.scope 8 {
// CHECK-NEXT:        dojo.leaf c[{0}, {1}] = a[{0}, {1}] + b[{0}, {1}]
// GENERIC-LABEL: "dojo.kernel"() <{sym_name = "buffer_forms"}>
// GENERIC: "dojo.buffer"() <{arrays = [], element_type = f32, location = 0 : i32, name = "a", padding = array<i64: 0, 0>, reused = array<i1: false, false>, role = 1 : i32, shape = array<i64: 4, 8>}>
// GENERIC: "dojo.buffer"() <{arrays = ["t0", "t1"], element_type = f32, location = 5 : i32, name = "t", padding = array<i64: 1, 0>, reused = array<i1: true, false>, role = 0 : i32, shape = array<i64: 4, 2>}>
// GENERIC: "dojo.buffer"() <{arrays = [], element_type = i1, location = 0 : i32, name = "p", padding = array<i64: 0>, reused = array<i1: false>, role = 0 : i32, shape = array<i64: 2>}>
dojo.kernel @buffer_forms {
  dojo.buffer a f32 [4, 8] heap in
  dojo.buffer b f32 [4, 8] heap inout
  dojo.buffer c f32 [4, 8] heap out
  dojo.buffer s f32 [] stack
  dojo.buffer r f32 [4:N, 8+2] reg
  dojo.buffer g f32 [4] gpu_shared
  dojo.buffer l f32 [4] gpu_local
  dojo.buffer t f32 [4+1:N, 2] tcdm -> t0, t1
  dojo.buffer h f16 [2] heap
  dojo.buffer bf bf16 [2] heap
  dojo.buffer d f64 [2] heap
  dojo.buffer i i8 [2] heap
  dojo.buffer j i32 [2] heap
  dojo.buffer k i16 [2] heap
  dojo.buffer n i64 [2] heap
  dojo.buffer p bool [2] heap
  dojo.leaf s[] = 0
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf c[{0}, {1}] = a[{0}, {1}] + b[{0}, {1}]
    }
  }
}

// -----

// Shared arrays are addressed by their own names; padding extends the
// in-bounds range of scratch buffers.

// CHECK-LABEL: dojo.kernel @shared_and_padded
// CHECK:         dojo.leaf t0[{0}] = x[{0}]
// CHECK:         dojo.leaf t1[{0}+1] = t0[{0}]
// CHECK:         dojo.leaf y[{0}] = t1[{0}+1]
dojo.kernel @shared_and_padded {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [4] heap out
  dojo.buffer t f32 [4+1] stack -> t0, t1
  dojo.scope 4 {
    dojo.leaf t0[{0}] = x[{0}]
    dojo.leaf t1[{0}+1] = t0[{0}]
    dojo.leaf y[{0}] = t1[{0}+1]
  }
}

// -----

// Every scope mode in a legal nesting.

// CHECK-LABEL: dojo.kernel @modes
// CHECK-NEXT:    dojo.buffer x f32 [2, 4, 8] heap out
// CHECK-NEXT:    dojo.scope 2:p {
// CHECK-NEXT:      dojo.scope 4:u {
// CHECK-NEXT:        dojo.scope 8:v {
// CHECK-NEXT:          dojo.leaf x[{0}, {1}, {2}] = 1
// CHECK:         dojo.scope 2:g {
// CHECK-NEXT:      dojo.scope 4:b {
// CHECK-NEXT:        dojo.scope 8:w {
// CHECK-NEXT:          dojo.leaf x[{0}, {1}, {2}] += 1
// CHECK:         dojo.scope 2 {
// CHECK-NEXT:      dojo.scope 4:g {
// CHECK-NEXT:        dojo.scope 8:b {
// CHECK-NEXT:          dojo.leaf x[{0}, {1}, {2}] *= 2
// GENERIC-LABEL: "dojo.kernel"() <{sym_name = "modes"}>
// GENERIC: "dojo.scope"() <{mode = 2 : i32, size = 2 : i64}>
// GENERIC: "dojo.scope"() <{mode = 1 : i32, size = 4 : i64}>
// GENERIC: "dojo.scope"() <{mode = 3 : i32, size = 8 : i64}>
// GENERIC: "dojo.scope"() <{mode = 4 : i32, size = 2 : i64}>
// GENERIC: "dojo.scope"() <{mode = 5 : i32, size = 4 : i64}>
// GENERIC: "dojo.scope"() <{mode = 6 : i32, size = 8 : i64}>
dojo.kernel @modes {
  dojo.buffer x f32 [2, 4, 8] heap out
  dojo.scope 2:p {
    dojo.scope 4:u {
      dojo.scope 8:v {
        dojo.leaf x[{0}, {1}, {2}] = 1
      }
    }
  }
  dojo.scope 2:g {
    dojo.scope 4:b {
      dojo.scope 8:w {
        dojo.leaf x[{0}, {1}, {2}] += 1
      }
    }
  }
  dojo.scope 2 {
    dojo.scope 4:g {
      dojo.scope 8:b {
        dojo.leaf x[{0}, {1}, {2}] *= 2
      }
    }
  }
}

// -----

// Every leaf operation: copy, the four infix operators and every function.

// CHECK-LABEL: dojo.kernel @operations
// CHECK:      dojo.leaf y[{0}] = a[{0}]
// CHECK-NEXT: dojo.leaf y[{0}] = a[{0}] + b[{0}]
// CHECK-NEXT: dojo.leaf y[{0}] = a[{0}] - b[{0}]
// CHECK-NEXT: dojo.leaf y[{0}] = a[{0}] * b[{0}]
// CHECK-NEXT: dojo.leaf y[{0}] = a[{0}] / b[{0}]
// CHECK-NEXT: dojo.leaf y[{0}] = max(a[{0}], b[{0}])
// CHECK-NEXT: dojo.leaf y[{0}] = min(a[{0}], b[{0}])
// CHECK-NEXT: dojo.leaf y[{0}] = neg(a[{0}])
// CHECK-NEXT: dojo.leaf y[{0}] = abs(a[{0}])
// CHECK-NEXT: dojo.leaf y[{0}] = exp(a[{0}])
// CHECK-NEXT: dojo.leaf y[{0}] = log(a[{0}])
// CHECK-NEXT: dojo.leaf y[{0}] = sqrt(a[{0}])
// CHECK-NEXT: dojo.leaf y[{0}] = rsqrt(a[{0}])
// CHECK-NEXT: dojo.leaf y[{0}] = tanh(a[{0}])
// CHECK-NEXT: dojo.leaf y[{0}] = sigmoid(a[{0}])
// CHECK-NEXT: dojo.leaf y[{0}] = relu(a[{0}])
// GENERIC-LABEL: "dojo.kernel"() <{sym_name = "operations"}>
// GENERIC: "dojo.leaf"() <{array = "y", indices = #{{.*}}, inputs = [#dojo.access<a[{0}]>], kind = 0 : i32, reduce = 0 : i32}>
// GENERIC: "dojo.leaf"() <{array = "y", indices = #{{.*}}, inputs = [#dojo.access<a[{0}]>, #dojo.access<b[{0}]>], kind = 1 : i32, reduce = 0 : i32}>
// GENERIC-COUNT-14: "dojo.leaf"()
dojo.kernel @operations {
  dojo.buffer a f32 [4] heap in
  dojo.buffer b f32 [4] heap in
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = a[{0}]
    dojo.leaf y[{0}] = a[{0}] + b[{0}]
    dojo.leaf y[{0}] = a[{0}] - b[{0}]
    dojo.leaf y[{0}] = a[{0}] * b[{0}]
    dojo.leaf y[{0}] = a[{0}] / b[{0}]
    dojo.leaf y[{0}] = max(a[{0}], b[{0}])
    dojo.leaf y[{0}] = min(a[{0}], b[{0}])
    dojo.leaf y[{0}] = neg(a[{0}])
    dojo.leaf y[{0}] = abs(a[{0}])
    dojo.leaf y[{0}] = exp(a[{0}])
    dojo.leaf y[{0}] = log(a[{0}])
    dojo.leaf y[{0}] = sqrt(a[{0}])
    dojo.leaf y[{0}] = rsqrt(a[{0}])
    dojo.leaf y[{0}] = tanh(a[{0}])
    dojo.leaf y[{0}] = sigmoid(a[{0}])
    dojo.leaf y[{0}] = relu(a[{0}])
  }
}

// -----

// Every reduction, with a copy, an infix and a function right-hand side.

// CHECK-LABEL: dojo.kernel @reductions
// CHECK:      dojo.leaf s[{0}] = 0
// CHECK:      dojo.leaf s[{0}] += a[{0}, {1}] * b[{1}]
// CHECK-NEXT: dojo.leaf s[{0}] *= a[{0}, {1}]
// CHECK-NEXT: dojo.leaf s[{0}] max= exp(a[{0}, {1}])
// CHECK-NEXT: dojo.leaf s[{0}] min= max(a[{0}, {1}], 0)
// GENERIC-LABEL: "dojo.kernel"() <{sym_name = "reductions"}>
// GENERIC: reduce = 1 : i32
// GENERIC: reduce = 2 : i32
// GENERIC: reduce = 3 : i32
// GENERIC: reduce = 4 : i32
dojo.kernel @reductions {
  dojo.buffer a f32 [4, 8] heap in
  dojo.buffer b f32 [8] heap in
  dojo.buffer s f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0
    dojo.scope 8 {
      dojo.leaf s[{0}] += a[{0}, {1}] * b[{1}]
      dojo.leaf s[{0}] *= a[{0}, {1}]
      dojo.leaf s[{0}] max= exp(a[{0}, {1}])
      dojo.leaf s[{0}] min= max(a[{0}, {1}], 0)
    }
  }
}

// -----

// Constants print in their shortest form that reads back to the same double.

// CHECK-LABEL: dojo.kernel @constants
// CHECK-NEXT: dojo.buffer y f32 [16] heap out
// CHECK-NEXT: dojo.leaf y[0] = 0
// CHECK-NEXT: dojo.leaf y[1] = 1.5
// CHECK-NEXT: dojo.leaf y[2] = 1.5e-5
// CHECK-NEXT: dojo.leaf y[3] = inf
// CHECK-NEXT: dojo.leaf y[4] = -inf
// CHECK-NEXT: dojo.leaf y[5] = -2
// CHECK-NEXT: dojo.leaf y[6] = -0.25
// CHECK-NEXT: dojo.leaf y[7] = 2500
// CHECK-NEXT: dojo.leaf y[8] = 1.0e20
// CHECK-NEXT: dojo.leaf y[9] = 1.0e20
// CHECK-NEXT: dojo.leaf y[10] = 0.1
// CHECK-NEXT: dojo.leaf y[11] = -0.0
// CHECK-NEXT: dojo.leaf y[12] = 1 - -inf
// CHECK-NEXT: dojo.leaf y[13] = max(-3, 1.0e-300)
// CHECK-NEXT: dojo.leaf y[14] = 0.30000000000000004
// CHECK-NEXT: dojo.leaf y[15] = 16
// GENERIC-LABEL: "dojo.kernel"() <{sym_name = "constants"}>
// GENERIC: inputs = [0.000000e+00]
// GENERIC: inputs = [1.500000e+00]
// GENERIC: inputs = [1.500000e-05]
// GENERIC: inputs = [0x7FF0000000000000 : f64]
// GENERIC: inputs = [0xFFF0000000000000 : f64]
dojo.kernel @constants {
  dojo.buffer y f32 [16] heap out
  dojo.leaf y[0] = 0
  dojo.leaf y[1] = 1.5
  dojo.leaf y[2] = 1.5e-5
  dojo.leaf y[3] = inf
  dojo.leaf y[4] = -inf
  dojo.leaf y[5] = -2
  dojo.leaf y[6] = -0.25
  dojo.leaf y[7] = 2.5e+3
  dojo.leaf y[8] = 1.0e20
  // Integer literals wider than 64 bits round to the nearest double.
  dojo.leaf y[9] = 100000000000000000000
  dojo.leaf y[10] = 0.1
  dojo.leaf y[11] = -0
  dojo.leaf y[12] = 1 - -inf
  dojo.leaf y[13] = max(-3, 1.0e-300)
  dojo.leaf y[14] = 0.30000000000000004
  dojo.leaf y[15] = 0x10
}

// -----

// Index values and affine indices: canonical order is terms by increasing
// depth, coefficient after the variable, constant last; negative
// coefficients print with a leading '-'.

// CHECK-LABEL: dojo.kernel @indices
// CHECK:      dojo.leaf y[{0}, {1}] = {1}
// CHECK-NEXT: dojo.leaf y[{0}, {1}] = ({0}*24+{1})
// CHECK-NEXT: dojo.leaf y[{0}, {1}] = ({0}*24+{1})
// CHECK-NEXT: dojo.leaf y[{0}, {1}] = (-{0}+3)
// CHECK-NEXT: dojo.leaf y[{0}, {1}] = (-{1}*2-7)
// CHECK-NEXT: dojo.leaf y[{0}, {1}] = (5)
// CHECK-NEXT: dojo.leaf y[{0}, {1}] = x[{0}*8+{1}] + {0}
// CHECK-NEXT: dojo.leaf y[{0}, {1}] = x[-{0}*8-{1}+31]
// CHECK-NEXT: dojo.leaf y[{0}, {1}] = x[{1}*2]
// CHECK-NEXT: dojo.leaf y[{0}, {1}] = x[{0}*4]
// CHECK-NEXT: dojo.leaf y[{0}, {1}] = x[0]
// GENERIC-LABEL: "dojo.kernel"() <{sym_name = "indices"}>
// GENERIC: inputs = [#dojo.index<({1})>]
// GENERIC: inputs = [#dojo.index<({0}*24+{1})>]
dojo.kernel @indices {
  dojo.buffer x f32 [32] heap in
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = {1}
      dojo.leaf y[{0}, {1}] = ({0}*24+{1})
      dojo.leaf y[{0}, {1}] = ({1} + 24*{0})
      dojo.leaf y[{0}, {1}] = (3 - {0})
      dojo.leaf y[{0}, {1}] = (-7 - 2*{1})
      dojo.leaf y[{0}, {1}] = (5)
      dojo.leaf y[{0}, {1}] = x[{0}*8+{1}] + {0}
      dojo.leaf y[{0}, {1}] = x[31 - {1} - 8*{0}]
      dojo.leaf y[{0}, {1}] = x[{1} + {1}]
      dojo.leaf y[{0}, {1}] = x[{0}*4 + {1} - {1}]
      dojo.leaf y[{0}, {1}] = x[{0} - {0}]
    }
  }
}

// -----

// Leaves at the top level and between scopes; sibling scopes.

// CHECK-LABEL: dojo.kernel @siblings
// CHECK-NEXT: dojo.buffer x f32 [4, 8] heap in
// CHECK-NEXT: dojo.buffer m f32 [4] heap out
// CHECK-NEXT: dojo.leaf m[0] = 0
// CHECK-NEXT: dojo.scope 4 {
// CHECK-NEXT:   dojo.leaf m[{0}] = -inf
// CHECK-NEXT:   dojo.scope 8 {
// CHECK-NEXT:     dojo.leaf m[{0}] max= x[{0}, {1}]
// CHECK-NEXT:   }
// CHECK-NEXT:   dojo.leaf m[{0}] = m[{0}] * 2
// CHECK-NEXT:   dojo.scope 8 {
// CHECK-NEXT:     dojo.leaf m[{0}] min= x[{0}, {1}]
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: dojo.leaf m[3] = m[0]
dojo.kernel @siblings {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer m f32 [4] heap out
  dojo.leaf m[0] = 0
  dojo.scope 4 {
    dojo.leaf m[{0}] = -inf
    dojo.scope 8 {
      dojo.leaf m[{0}] max= x[{0}, {1}]
    }
    dojo.leaf m[{0}] = m[{0}] * 2
    dojo.scope 8 {
      dojo.leaf m[{0}] min= x[{0}, {1}]
    }
  }
  dojo.leaf m[3] = m[0]
}

// -----

// Non-canonical spacing and spellings that the grammar accepts: no spaces,
// `max =`, `+ =`, `exp (`, and the attribute forms of operands.

// CHECK-LABEL: dojo.kernel @spacing
// CHECK:      dojo.leaf y[{0}] = x[{0}*2+1] - 3
// CHECK-NEXT: dojo.leaf y[{0}] max= exp(x[{0}])
// CHECK-NEXT: dojo.leaf y[{0}] += x[{0}]
dojo.kernel @spacing {
  dojo.buffer x f32 [16] heap in
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}]=x[1+2*{0}]-3
    dojo.leaf y[ {0} ] max = exp ( x[{0}] )
    dojo.leaf y[{0}] + = x[{0}]
  }
}

// -----

// The operand attributes print and parse on their own.

// CHECK-LABEL: dojo.kernel @attributes
// CHECK-SAME:    attributes {access = #dojo.access<y[{0}*4+{1}, 2]>, index = #dojo.index<({0}*24+{1})>, scalar = #dojo.access<s[]>}
dojo.kernel @attributes attributes {
    access = #dojo.access<y[4*{0} + {1}, 2]>,
    index = #dojo.index<({1}+{0}*24)>,
    scalar = #dojo.access<s[]>} {
  dojo.buffer y f32 [1] heap out
  dojo.leaf y[0] = 1
}
