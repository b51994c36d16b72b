// RUN: perfdojo-opt %s --convert-parallel-scopes-to-openmp --split-input-file | FileCheck %s

// A one-dimensional scf.parallel becomes an omp.parallel region in which
// each thread loops over its own block of iterations: thread t of T runs
// [t*q + min(t, r), that + q + (t < r)) with q = n / T, r = n % T.

// CHECK-DAG:   func.func private @omp_get_thread_num() -> i32
// CHECK-DAG:   func.func private @omp_get_num_threads() -> i32
// CHECK-LABEL: func.func @scale
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C17:.*]] = arith.constant 17 : index
// CHECK:         omp.parallel {
// CHECK:           %[[T32:.*]] = func.call @omp_get_thread_num() : () -> i32
// CHECK:           %[[T:.*]] = arith.index_cast %[[T32]] : i32 to index
// CHECK:           %[[N32:.*]] = func.call @omp_get_num_threads() : () -> i32
// CHECK:           %[[N:.*]] = arith.index_cast %[[N32]] : i32 to index
// CHECK:           %[[SPAN:.*]] = arith.subi %[[C17]], %[[C2]] : index
// CHECK:           %[[POS:.*]] = arith.maxsi %[[SPAN]], %{{.*}} : index
// CHECK:           %[[TRIPS:.*]] = arith.ceildivui %[[POS]], %[[C3]] : index
// CHECK:           %[[Q:.*]] = arith.divui %[[TRIPS]], %[[N]] : index
// CHECK:           %[[R:.*]] = arith.remui %[[TRIPS]], %[[N]] : index
// CHECK:           %[[TQ:.*]] = arith.muli %[[T]], %[[Q]] : index
// CHECK:           %[[MIN:.*]] = arith.minui %[[T]], %[[R]] : index
// CHECK:           %[[FIRST:.*]] = arith.addi %[[TQ]], %[[MIN]] : index
// CHECK:           %[[LT:.*]] = arith.cmpi ult, %[[T]], %[[R]] : index
// CHECK:           %[[EXTRA:.*]] = arith.index_castui %[[LT]] : i1 to index
// CHECK:           %[[COUNT:.*]] = arith.addi %[[Q]], %[[EXTRA]] : index
// CHECK:           %[[LAST:.*]] = arith.addi %[[FIRST]], %[[COUNT]] : index
// CHECK:           scf.for %[[K:.*]] = %[[FIRST]] to %[[LAST]] step %{{.*}} {
// CHECK:             %[[KS:.*]] = arith.muli %[[K]], %[[C3]] : index
// CHECK:             %[[I:.*]] = arith.addi %[[C2]], %[[KS]] : index
// CHECK:             memref.load %{{.*}}[%[[I]]]
// CHECK:             memref.store %{{.*}}, %{{.*}}[%[[I]]]
// CHECK:           }
// CHECK:           omp.terminator
// CHECK-NOT:     scf.parallel
func.func @scale(%a: memref<17xf32>) {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c17 = arith.constant 17 : index
  scf.parallel (%i) = (%c2) to (%c17) step (%c3) {
    %v = memref.load %a[%i] : memref<17xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %a[%i] : memref<17xf32>
    scf.reduce
  }
  return
}

// -----

// Nested loops each become a region (the runtime serializes the inner one
// unless nested parallelism is enabled); the queries are declared once.
// A body with stack allocations gets an alloca scope, released every
// iteration.

// CHECK-COUNT-1: func.func private @omp_get_thread_num
// CHECK-LABEL: func.func @nested
// CHECK:         omp.parallel {
// CHECK:           scf.for
// CHECK:             omp.parallel {
// CHECK:               scf.for
// CHECK:                 memref.alloca_scope {
// CHECK:                   memref.alloca() : memref<4xf32>
// CHECK:                 }
// CHECK:               omp.terminator
// CHECK:           omp.terminator
func.func @nested(%a: memref<8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    scf.parallel (%j) = (%c0) to (%c4) step (%c1) {
      %t = memref.alloca() : memref<4xf32>
      %v = memref.load %a[%i, %j] : memref<8x4xf32>
      memref.store %v, %t[%j] : memref<4xf32>
      %w = memref.load %t[%j] : memref<4xf32>
      memref.store %w, %a[%i, %j] : memref<8x4xf32>
      scf.reduce
    }
    scf.reduce
  }
  return
}

// -----

// Loops of several dimensions or with reductions are left to upstream's
// convert-scf-to-openmp; nothing is declared for them.

// CHECK-NOT: omp_get_thread_num
// CHECK-LABEL: func.func @left_alone
// CHECK:         scf.parallel (%{{.*}}, %{{.*}}) =
// CHECK:         scf.parallel (%{{.*}}) = {{.*}} init
// CHECK-NOT:     omp.parallel
func.func @left_alone(%a: memref<4x4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    memref.store %zero, %a[%i, %j] : memref<4x4xf32>
    scf.reduce
  }
  %sum = scf.parallel (%i) = (%c0) to (%c4) step (%c1) init (%zero) -> f32 {
    %v = memref.load %a[%i, %c0] : memref<4x4xf32>
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    }
  }
  return %sum : f32
}
