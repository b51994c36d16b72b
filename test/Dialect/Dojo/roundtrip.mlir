// RUN: perfdojo-opt %s | perfdojo-opt | FileCheck %s
// RUN: perfdojo-opt %s --mlir-print-op-generic | perfdojo-opt | FileCheck %s

// CHECK-LABEL: dojo.kernel @softmax
// CHECK:   dojo.buffer x f32 [4, 8] heap in
// CHECK:   dojo.buffer t f32 [4, 8:N, 2+3] stack -> t0, t1
// CHECK:   dojo.scope 4:p {
// CHECK:     dojo.leaf m[{0}] = -inf
// CHECK:     dojo.scope 8 {
// CHECK:       dojo.leaf m[{0}] max= x[{0}, {1}]
// CHECK:     dojo.scope 8:v {
// CHECK:       dojo.leaf y[{0}, {1}] = x[{0}, {1}] - m[{0}]
// CHECK:   dojo.leaf y[0, 0] = 1.5e-5
// CHECK:   dojo.leaf y[0, 1] = ({0}*3+2)
dojo.kernel @softmax {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer m f32 [4] heap
  dojo.buffer t f32 [4, 8:N, 2+3] stack -> t0, t1
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4:p {
    dojo.leaf m[{0}] = -inf
    dojo.scope 8 {
      dojo.leaf m[{0}] max= x[{0}, {1}]
    }
    dojo.scope 8:v {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] - m[{0}]
    }
  }
  dojo.leaf y[0, 0] = 1.5e-5
  dojo.scope 1 {
    dojo.leaf y[0, 1] = ({0}*3+2)
  }
}
