// RUN: perfdojo-opt %s --convert-dojo-to-scf --canonicalize --cse | FileCheck %s

// Leaves compute with the interpreter's formulas: max as `a < b ? b : a`,
// relu as `a > 0 ? a : 0`, sigmoid as 1 / (1 + exp(-a)), rsqrt as
// 1 / sqrt(a); additions, subtractions and multiplications may contract into
// fused multiply-adds; reductions load, combine and store; index values are
// integers converted to the element type; constants include infinities.

// CHECK-LABEL: func.func @leaves(
// CHECK-SAME:      %[[X:.*]]: memref<8xf32> {llvm.noalias}, %[[Y:.*]]: memref<8xf32> {llvm.noalias}, %[[M:.*]]: memref<f32> {llvm.noalias})
// CHECK-DAG:     %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:         memref.store %[[NEGINF]], %[[M]][]
// CHECK:         scf.for %[[I:.*]] =
// CHECK:           %[[A:.*]] = memref.load %[[X]][%[[I]]]
// CHECK:           %[[OLD:.*]] = memref.load %[[M]][]
// CHECK:           %[[LT:.*]] = arith.cmpf olt, %[[OLD]], %[[A]]
// CHECK:           %[[MAX:.*]] = arith.select %[[LT]], %[[A]], %[[OLD]]
// CHECK:           memref.store %[[MAX]], %[[M]][]
// CHECK:         scf.for %[[I:.*]] =
// CHECK:           %[[A:.*]] = memref.load %[[X]][%[[I]]]
// CHECK:           %[[GT:.*]] = arith.cmpf ogt, %[[A]], %[[ZERO]]
// CHECK:           arith.select %[[GT]], %[[A]], %[[ZERO]]
// CHECK:           %[[NEG:.*]] = arith.negf
// CHECK:           %[[E:.*]] = math.exp %[[NEG]]
// CHECK:           %[[D:.*]] = arith.addf %[[E]], %[[ONE]] : f32
// CHECK:           arith.divf %[[ONE]], %[[D]]
// CHECK:           %[[SQ:.*]] = math.sqrt
// CHECK:           arith.divf %[[ONE]], %[[SQ]]
// CHECK:           %[[C:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK:           %[[F:.*]] = arith.sitofp %[[C]] : i64 to f32
// CHECK:           arith.addf %{{.*}}, %[[F]] fastmath<contract> : f32
dojo.kernel @leaves {
  dojo.buffer x f32 [8] heap in
  dojo.buffer y f32 [8] heap out
  dojo.buffer m f32 [] heap out
  dojo.leaf m[] = -inf
  dojo.scope 8 {
    dojo.leaf m[] max= x[{0}]
  }
  dojo.scope 8 {
    dojo.leaf y[{0}] = relu(x[{0}])
    dojo.leaf y[{0}] = sigmoid(y[{0}])
    dojo.leaf y[{0}] = rsqrt(y[{0}])
    dojo.leaf y[{0}] += ({0})
  }
}
