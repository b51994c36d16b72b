// RUN: perfdojo-opt %s --convert-parallel-scopes-to-openmp --split-input-file -verify-diagnostics

// The pass calls the OpenMP runtime's queries by name: a module that
// defines one of the names with another type is refused at that symbol,
// not given a second, clashing declaration.

// expected-error @+1 {{'omp_get_thread_num' is the OpenMP runtime's query of type '() -> i32', which convert-parallel-scopes-to-openmp calls; this module defines the name otherwise}}
func.func private @omp_get_thread_num() -> i64

func.func @scale(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %v = memref.load %a[%i] : memref<4xf32>
    memref.store %v, %a[%i] : memref<4xf32>
    scf.reduce
  }
  return
}

// -----

// Another kind of symbol under the name is refused the same way.

// expected-error @+1 {{'omp_get_num_threads' is the OpenMP runtime's query of type '() -> i32'}}
llvm.func @omp_get_num_threads() -> i32

func.func @scale(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %v = memref.load %a[%i] : memref<4xf32>
    memref.store %v, %a[%i] : memref<4xf32>
    scf.reduce
  }
  return
}

// -----

// A declaration of the right type is reused: no error.

func.func private @omp_get_thread_num() -> i32

func.func @reuse(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %v = memref.load %a[%i] : memref<4xf32>
    memref.store %v, %a[%i] : memref<4xf32>
    scf.reduce
  }
  return
}
