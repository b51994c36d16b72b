// dojo-outline-kernels lowers the kernels to functions and replaces each
// converted op by a call; the fills folded into a kernel go, ops left
// untouched by the conversion stay.
//
// RUN: perfdojo-opt %s --pass-pipeline='builtin.module(convert-linalg-to-dojo, dojo-heuristic{target=cpu}, dojo-outline-kernels)' --mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s
// RUN: perfdojo-opt %s --pass-pipeline='builtin.module(convert-linalg-to-dojo, dojo-outline-kernels)' --mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=NODOJO

// CHECK-LABEL: func.func @forward(
// CHECK-SAME: %[[A:[^:]+]]: memref<9x16xf32>, %[[B:[^:]+]]: memref<16x12xf32>, %[[C:[^:]+]]: memref<9x12xf32>, %[[BIAS:[^:]+]]: memref<12xf32>, %[[Y:[^:]+]]: memref<9x12xf32>, %[[S:[^:]+]]: f32)
// CHECK-NOT: linalg.fill
// CHECK: call @forward_matmul_0(%[[A]], %[[B]], %[[C]]) : (memref<9x16xf32>, memref<16x12xf32>, memref<9x12xf32>) -> ()
// CHECK: call @forward_generic_1(%[[C]], %[[BIAS]], %[[Y]])
// CHECK: linalg.fill ins(%[[S]] : f32) outs(%[[Y]] : memref<9x12xf32>)
// CHECK: return
// The kernels' functions assume their arguments do not overlap.
// CHECK-DAG: func.func @forward_matmul_0(%{{.*}}: memref<9x16xf32> {llvm.noalias}, %{{.*}}: memref<16x12xf32> {llvm.noalias}, %{{.*}}: memref<9x12xf32> {llvm.noalias})
// CHECK-DAG: func.func @forward_generic_1(%{{.*}}: memref<9x12xf32> {llvm.noalias}, %{{.*}}: memref<12xf32> {llvm.noalias}, %{{.*}}: memref<9x12xf32> {llvm.noalias})
// NODOJO-NOT: dojo.
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
