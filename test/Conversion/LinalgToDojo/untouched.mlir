// What the IR cannot express is left as it is, with a remark saying why;
// nothing is marked and no kernel is built.
//
// RUN: perfdojo-opt %s --convert-linalg-to-dojo -split-input-file -verify-diagnostics | FileCheck %s
// CHECK-NOT: dojo.kernel
// CHECK-NOT: dojo.outline

func.func @tensors(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-remark @below {{not converted to a dojo kernel: it has tensor operands (bufferize first, e.g. one-shot-bufferize)}}
  %r = linalg.add ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%b : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

func.func @dynamic(%a: memref<?x4xf32>, %b: memref<?x4xf32>) {
  // expected-remark @below {{not converted to a dojo kernel: operand 0 has a dynamic shape}}
  linalg.copy ins(%a : memref<?x4xf32>) outs(%b : memref<?x4xf32>)
  return
}

// -----

func.func @strided(%a: memref<4x4xf32, strided<[8, 1]>>, %b: memref<4x4xf32>) {
  // expected-remark @below {{not converted to a dojo kernel: operand 0 has a non-identity layout (a strided view)}}
  linalg.copy ins(%a : memref<4x4xf32, strided<[8, 1]>>) outs(%b : memref<4x4xf32>)
  return
}

// -----

func.func @memory_space(%a: memref<4xf32, 1>, %b: memref<4xf32>) {
  // expected-remark @below {{not converted to a dojo kernel: operand 0 is in a memory space}}
  linalg.copy ins(%a : memref<4xf32, 1>) outs(%b : memref<4xf32>)
  return
}

// -----

func.func @element_type(%a: memref<4xcomplex<f32>>, %b: memref<4xcomplex<f32>>) {
  // expected-remark @below {{not converted to a dojo kernel: operand 0 has element type complex<f32>, not one of f16, bf16, f32, f64, i8, i16, i32, i64 or bool}}
  linalg.copy ins(%a : memref<4xcomplex<f32>>) outs(%b : memref<4xcomplex<f32>>)
  return
}

// -----

func.func @empty(%a: memref<0xf32>, %b: memref<0xf32>) {
  // expected-remark @below {{not converted to a dojo kernel: its iteration space is empty}}
  linalg.copy ins(%a : memref<0xf32>) outs(%b : memref<0xf32>)
  return
}

// -----

func.func @not_linear(%a: memref<8xf32>, %b: memref<4x2xf32>) {
  // expected-remark @below {{not converted to a dojo kernel: the indexing map of operand 0 is not linear (floordiv, mod or a product of loops)}}
  linalg.generic {indexing_maps = [affine_map<(i, j) -> ((i * 2 + j) mod 8)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<8xf32>) outs(%b : memref<4x2xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

func.func @output_broadcast(%a: memref<4x4xf32>, %b: memref<4xf32>) {
  // expected-remark @below {{not converted to a dojo kernel: output operand 1 is not indexed by a permutation of the parallel loops}}
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

func.func @in_place(%a: memref<4xf32>) {
  // expected-remark @below {{not converted to a dojo kernel: input operand 0 is also output operand 1}}
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

func.func @overlap(%a: memref<4xf32>) {
  %b = memref.cast %a : memref<4xf32> to memref<4xf32>
  // expected-remark @below {{not converted to a dojo kernel: input operand 0 is a view of output operand 1}}
  linalg.copy ins(%b : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

func.func @scalar(%s: f32, %b: memref<4xf32>) {
  // expected-remark @below {{not converted to a dojo kernel: its body uses a value from outside that is not a constant}}
  linalg.fill ins(%s : f32) outs(%b : memref<4xf32>)
  return
}

// -----

func.func @inexact_constant(%a: memref<4xi64>, %b: memref<4xi64>) {
  // expected-remark @below {{not converted to a dojo kernel: a constant of its body has no exact f64 value (leaf constants are f64)}}
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%a : memref<4xi64>) outs(%b : memref<4xi64>) {
  ^bb0(%x: i64, %o: i64):
    %big = arith.constant 9007199254740993 : i64
    %r = arith.addi %x, %big : i64
    linalg.yield %r : i64
  }
  return
}

// -----

func.func @compare(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-remark @below {{not converted to a dojo kernel: body operation 'arith.select' has no dojo leaf operation}}
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %x, %zero : f32
    %r = arith.select %c, %x, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

func.func @unsigned(%a: memref<4xi32>, %b: memref<4xi32>) {
  // expected-remark @below {{not converted to a dojo kernel: body operation 'arith.divui' has no dojo leaf operation}}
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%a : memref<4xi32>) outs(%b : memref<4xi32>) {
  ^bb0(%x: i32, %o: i32):
    %r = arith.divui %x, %x : i32
    linalg.yield %r : i32
  }
  return
}

// -----

func.func @cast(%a: memref<4xf16>, %b: memref<4xf32>) {
  // expected-remark @below {{not converted to a dojo kernel: body operation 'arith.extf' has no dojo leaf operation}}
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%a : memref<4xf16>) outs(%b : memref<4xf32>) {
  ^bb0(%x: f16, %o: f32):
    %r = arith.extf %x : f16 to f32
    linalg.yield %r : f32
  }
  return
}

// -----

func.func @not_a_combination(%a: memref<4x8xf32>, %b: memref<4xf32>) {
  // expected-remark @below {{not converted to a dojo kernel: its reduction body does not combine output 0 as `out = out (+ | * | max | min) f(inputs)`}}
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<4x8xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.subf %x, %o : f32
    linalg.yield %r : f32
  }
  return
}

// -----

func.func @earlier_output(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<4xf32>) {
  // expected-remark @below {{not converted to a dojo kernel: output 1 is computed from the old value of an earlier output}}
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%a : memref<4xf32>) outs(%b, %c : memref<4xf32>, memref<4xf32>) {
  ^bb0(%x: f32, %o: f32, %p: f32):
    %r = arith.addf %o, %x : f32
    linalg.yield %x, %r : f32, f32
  }
  return
}
