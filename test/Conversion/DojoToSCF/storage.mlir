// RUN: perfdojo-opt %s --convert-dojo-to-scf --canonicalize | FileCheck %s

// Arguments become the function's memrefs in declaration order, marked
// noalias (kernel arguments never alias); internal
// buffers are allocated by location (heap: aligned alloc + dealloc, stack:
// alloca); `:N` dimensions are dropped from storage, padding is added to the
// allocated extent, and arrays that share a buffer use one memref.

// CHECK-LABEL: func.func @storage(
// CHECK-SAME:      %[[X:.*]]: memref<4x6xf32> {llvm.noalias}, %[[Y:.*]]: memref<4x6xf32> {llvm.noalias})
// CHECK-DAG:     %[[H:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
// CHECK-DAG:     %[[T:.*]] = memref.alloca() {alignment = 64 : i64} : memref<6xf32>
// CHECK-DAG:     %[[S:.*]] = memref.alloca() {alignment = 64 : i64} : memref<f32>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             %[[V:.*]] = memref.load %[[X]][%[[I]], %[[J]]]
// CHECK:             memref.store %[[V]], %[[T]][%[[J]]]
// CHECK:             memref.load %[[T]][%[[J]]]
// CHECK:             memref.store %{{.*}}, %[[H]][%[[I]], %[[J]]]
// CHECK:             memref.load %[[H]][%[[I]], %[[J]]]
// CHECK:             memref.store %{{.*}}, %[[S]][]
// CHECK:             memref.load %[[S]][]
// CHECK:             arith.mulf
// CHECK:             memref.store %{{.*}}, %[[S]][]
// CHECK:             memref.load %[[S]][]
// CHECK:             memref.store %{{.*}}, %[[Y]][%[[I]], %[[J]]]
// CHECK:         memref.dealloc %[[H]]
// CHECK-NOT:     memref.dealloc
// CHECK:         return
dojo.kernel @storage {
  dojo.buffer x f32 [4, 6] heap in
  dojo.buffer t f32 [4:N, 6] stack
  dojo.buffer h f32 [4, 6+2] heap
  dojo.buffer s f32 [4:N, 6:N] stack -> a, b
  dojo.buffer y f32 [4, 6] heap out
  dojo.scope 4 {
    dojo.scope 6 {
      dojo.leaf t[{0}, {1}] = x[{0}, {1}]
      dojo.leaf h[{0}, {1}] = t[{0}, {1}]
      dojo.leaf a[{0}, {1}] = h[{0}, {1}]
      dojo.leaf b[{0}, {1}] = a[{0}, {1}] * 2.0
      dojo.leaf y[{0}, {1}] = b[{0}, {1}]
    }
  }
}
