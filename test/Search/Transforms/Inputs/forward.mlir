// A function a compiler emitted: a matmul with its initialization, a bias
// and ReLU, and a fill of a runtime value.
func.func @forward(%a: memref<9x16xf32>, %b: memref<16x12xf32>, %c: memref<9x12xf32>, %bias: memref<12xf32>, %y: memref<9x12xf32>, %s: f32) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<9x12xf32>)
  linalg.matmul ins(%a, %b : memref<9x16xf32>, memref<16x12xf32>) outs(%c : memref<9x12xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<9x12xf32>, memref<12xf32>) outs(%y : memref<9x12xf32>) {
  ^bb0(%x: f32, %bb: f32, %o: f32):
    %sum = arith.addf %x, %bb : f32
    %r = arith.maximumf %sum, %zero : f32
    linalg.yield %r : f32
  }
  // Not a constant: not converted, left for the compiler's own lowering.
  linalg.fill ins(%s : f32) outs(%y : memref<9x12xf32>)
  return
}
