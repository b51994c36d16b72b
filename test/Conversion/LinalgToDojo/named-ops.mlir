// convert-linalg-to-dojo on the named ops and linalg.generic: loops become
// scopes (parallel ones outside), indexing maps index lists, the body leaves;
// each converted op is marked for dojo-outline-kernels.
//
// RUN: perfdojo-opt %s --convert-linalg-to-dojo | FileCheck %s
// RUN: perfdojo-opt %s --convert-linalg-to-dojo | FileCheck %s --check-prefix=FOLD
// (test/Conversion/LinalgToDojo/e2e-model.test runs converted kernels
// against upstream's own lowering.)

func.func @bmm(%a: memref<2x3x4xf32>, %b: memref<2x4x5xf32>, %c: memref<2x3x5xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x3x4xf32>, memref<2x4x5xf32>) outs(%c : memref<2x3x5xf32>)
  return
}
func.func @conv_nchw(%x: memref<1x3x9x9xf32>, %w: memref<4x3x3x3xf32>, %y: memref<1x4x4x4xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : memref<1x3x9x9xf32>, memref<4x3x3x3xf32>) outs(%y : memref<1x4x4x4xf32>)
  return
}
func.func @depthwise(%x: memref<1x6x6x8xf32>, %w: memref<3x3x8xf32>, %y: memref<1x4x4x8xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x6x6x8xf32>, memref<3x3x8xf32>) outs(%y : memref<1x4x4x8xf32>)
  return
}
func.func @sum_pool(%x: memref<1x4x4x2xf32>, %w: memref<2x2xf32>, %y: memref<1x2x2x2xf32>) {
  linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : memref<1x4x4x2xf32>, memref<2x2xf32>) outs(%y : memref<1x2x2x2xf32>)
  return
}
func.func @reduce(%x: memref<4x16xf32>, %y: memref<4xf32>) {
  linalg.reduce ins(%x : memref<4x16xf32>) outs(%y : memref<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return
}
func.func @map(%x: memref<4x16xf32>, %z: memref<4x16xf32>, %y: memref<4x16xf32>) {
  linalg.map ins(%x, %z : memref<4x16xf32>, memref<4x16xf32>) outs(%y : memref<4x16xf32>)
    (%a: f32, %b: f32, %o: f32) {
      %m = arith.mulf %a, %b : f32
      %e = math.exp %m : f32
      linalg.yield %e : f32
    }
  return
}
func.func @elementwise(%x: memref<4x16xf32>, %y: memref<4x16xf32>, %z: memref<4x16xf32>) {
  linalg.add ins(%x, %y : memref<4x16xf32>, memref<4x16xf32>) outs(%z : memref<4x16xf32>)
  linalg.exp ins(%z : memref<4x16xf32>) outs(%y : memref<4x16xf32>)
  linalg.elementwise kind=#linalg.elementwise_kind<sub> ins(%x, %y : memref<4x16xf32>, memref<4x16xf32>) outs(%z : memref<4x16xf32>)
  return
}
func.func @moves(%x: memref<4x16xf32>, %b: memref<16xf32>, %t: memref<16x4xf32>, %y: memref<4x16xf32>) {
  linalg.copy ins(%x : memref<4x16xf32>) outs(%y : memref<4x16xf32>)
  linalg.transpose ins(%x : memref<4x16xf32>) outs(%t : memref<16x4xf32>) permutation = [1, 0]
  linalg.broadcast ins(%b : memref<16xf32>) outs(%y : memref<4x16xf32>) dimensions = [0]
  return
}
func.func @ints(%a: memref<4x8xi32>, %b: memref<8xi32>, %s: memref<4xi32>) {
  %zero = arith.constant 0 : i32
  // The fill initializing the reduction's output is folded into its kernel.
  // FOLD: linalg.fill {dojo.folded_into = @ints_generic_5}
  linalg.fill ins(%zero : i32) outs(%s : memref<4xi32>)
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a, %b : memref<4x8xi32>, memref<8xi32>) outs(%s : memref<4xi32>) {
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %p = arith.muli %x, %y : i32
    %r = arith.addi %acc, %p : i32
    linalg.yield %r : i32
  }
  return
}
func.func @matmul_tb(%a: memref<3x4xf64>, %b: memref<5x4xf64>, %c: memref<3x5xf64>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<3x4xf64>, memref<5x4xf64>) outs(%c : memref<3x5xf64>)
  return
}

// CHECK: linalg.batch_matmul{{.*}}dojo.outline = @bmm_batch_matmul_0, dojo.outline_operands = array<i64: 0, 1, 2>
// CHECK: linalg.conv_2d_nchw_fchw{{.*}}dojo.outline = @conv_nchw_conv_2d_nchw_fchw_1, dojo.outline_operands = array<i64: 0, 1, 2>
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc{{.*}}dojo.outline = @depthwise_depthwise_conv_2d_nhwc_hwc_2, dojo.outline_operands = array<i64: 0, 1, 2>
// CHECK: linalg.pooling_nhwc_sum{{.*}}dojo.outline = @sum_pool_pooling_nhwc_sum_3, dojo.outline_operands = array<i64: 0, 2>
// CHECK: linalg.reduce{{.*}}dojo.outline = @reduce_reduce_4, dojo.outline_operands = array<i64: 0, 1>
// CHECK: linalg.map{{.*}}dojo.outline = @map_map_7, dojo.outline_operands = array<i64: 0, 1, 2>
// CHECK: linalg.add{{.*}}dojo.outline = @elementwise_add_8, dojo.outline_operands = array<i64: 0, 1, 2>
// CHECK: linalg.exp{{.*}}dojo.outline = @elementwise_exp_9, dojo.outline_operands = array<i64: 0, 1>
// CHECK: linalg.elementwise{{.*}}dojo.outline = @elementwise_elementwise_10, dojo.outline_operands = array<i64: 0, 1, 2>
// CHECK: linalg.copy{{.*}}dojo.outline = @moves_copy_11, dojo.outline_operands = array<i64: 0, 1>
// CHECK: linalg.transpose{{.*}}dojo.outline = @moves_transpose_12, dojo.outline_operands = array<i64: 0, 1>
// CHECK: linalg.broadcast{{.*}}dojo.outline = @moves_broadcast_13, dojo.outline_operands = array<i64: 0, 1>
// CHECK: linalg.generic{{.*}}dojo.outline = @ints_generic_5, dojo.outline_operands = array<i64: 0, 1, 2>
// CHECK: linalg.matmul{{.*}}dojo.outline = @matmul_tb_matmul_6, dojo.outline_operands = array<i64: 0, 1, 2>
// CHECK-LABEL: dojo.kernel @bmm_batch_matmul_0 {
// CHECK-NEXT: dojo.buffer in0 f32 [2, 3, 4] heap in
// CHECK-NEXT: dojo.buffer in1 f32 [2, 4, 5] heap in
// CHECK-NEXT: dojo.buffer out0 f32 [2, 3, 5] heap inout
// CHECK-NEXT: dojo.scope 2 {
// CHECK-NEXT: dojo.scope 3 {
// CHECK-NEXT: dojo.scope 5 {
// CHECK-NEXT: dojo.scope 4 {
// CHECK-NEXT: dojo.leaf out0[{0}, {1}, {2}] += in0[{0}, {1}, {3}] * in1[{0}, {3}, {2}]
// CHECK-LABEL: dojo.kernel @conv_nchw_conv_2d_nchw_fchw_1 {
// CHECK-NEXT: dojo.buffer in0 f32 [1, 3, 9, 9] heap in
// CHECK-NEXT: dojo.buffer in1 f32 [4, 3, 3, 3] heap in
// CHECK-NEXT: dojo.buffer out0 f32 [1, 4, 4, 4] heap inout
// CHECK-NEXT: dojo.scope 1 {
// CHECK-NEXT: dojo.scope 4 {
// CHECK-NEXT: dojo.scope 4 {
// CHECK-NEXT: dojo.scope 4 {
// CHECK-NEXT: dojo.scope 3 {
// CHECK-NEXT: dojo.scope 3 {
// CHECK-NEXT: dojo.scope 3 {
// CHECK-NEXT: dojo.leaf out0[{0}, {1}, {2}, {3}] += in0[{0}, {4}, {2}*2+{5}, {3}*2+{6}] * in1[{1}, {4}, {5}, {6}]
// CHECK-LABEL: dojo.kernel @depthwise_depthwise_conv_2d_nhwc_hwc_2 {
// CHECK-NEXT: dojo.buffer in0 f32 [1, 6, 6, 8] heap in
// CHECK-NEXT: dojo.buffer in1 f32 [3, 3, 8] heap in
// CHECK-NEXT: dojo.buffer out0 f32 [1, 4, 4, 8] heap inout
// CHECK-NEXT: dojo.scope 1 {
// CHECK-NEXT: dojo.scope 4 {
// CHECK-NEXT: dojo.scope 4 {
// CHECK-NEXT: dojo.scope 8 {
// CHECK-NEXT: dojo.scope 3 {
// CHECK-NEXT: dojo.scope 3 {
// CHECK-NEXT: dojo.leaf out0[{0}, {1}, {2}, {3}] += in0[{0}, {1}+{4}, {2}+{5}, {3}] * in1[{4}, {5}, {3}]
// CHECK-LABEL: dojo.kernel @sum_pool_pooling_nhwc_sum_3 {
// CHECK-NEXT: dojo.buffer in0 f32 [1, 4, 4, 2] heap in
// CHECK-NEXT: dojo.buffer out0 f32 [1, 2, 2, 2] heap inout
// CHECK-NEXT: dojo.scope 1 {
// CHECK-NEXT: dojo.scope 2 {
// CHECK-NEXT: dojo.scope 2 {
// CHECK-NEXT: dojo.scope 2 {
// CHECK-NEXT: dojo.scope 2 {
// CHECK-NEXT: dojo.scope 2 {
// CHECK-NEXT: dojo.leaf out0[{0}, {1}, {2}, {3}] += in0[{0}, {1}*2+{4}, {2}*2+{5}, {3}]
// CHECK-LABEL: dojo.kernel @reduce_reduce_4 {
// CHECK-NEXT: dojo.buffer in0 f32 [4, 16] heap in
// CHECK-NEXT: dojo.buffer out0 f32 [4] heap inout
// CHECK-NEXT: dojo.scope 4 {
// CHECK-NEXT: dojo.scope 16 {
// CHECK-NEXT: dojo.leaf out0[{0}] max= in0[{0}, {1}]
// CHECK-LABEL: dojo.kernel @ints_generic_5 {
// CHECK-NEXT: dojo.buffer in0 i32 [4, 8] heap in
// CHECK-NEXT: dojo.buffer in1 i32 [8] heap in
// CHECK-NEXT: dojo.buffer out0 i32 [4] heap out
// CHECK-NEXT: dojo.scope 4 {
// CHECK-NEXT: dojo.leaf out0[{0}] = 0
// CHECK-NEXT: dojo.scope 8 {
// CHECK-NEXT: dojo.leaf out0[{0}] += in0[{0}, {1}] * in1[{1}]
// CHECK-LABEL: dojo.kernel @matmul_tb_matmul_6 {
// CHECK-NEXT: dojo.buffer in0 f64 [3, 4] heap in
// CHECK-NEXT: dojo.buffer in1 f64 [5, 4] heap in
// CHECK-NEXT: dojo.buffer out0 f64 [3, 5] heap inout
// CHECK-NEXT: dojo.scope 3 {
// CHECK-NEXT: dojo.scope 5 {
// CHECK-NEXT: dojo.scope 4 {
// CHECK-NEXT: dojo.leaf out0[{0}, {1}] += in0[{0}, {2}] * in1[{1}, {2}]
// CHECK-LABEL: dojo.kernel @map_map_7 {
// CHECK-NEXT: dojo.buffer in0 f32 [4, 16] heap in
// CHECK-NEXT: dojo.buffer in1 f32 [4, 16] heap in
// CHECK-NEXT: dojo.buffer out0 f32 [4, 16] heap out
// CHECK-NEXT: dojo.buffer t0 f32 [4, 16] heap
// CHECK-NEXT: dojo.scope 4 {
// CHECK-NEXT: dojo.scope 16 {
// CHECK-NEXT: dojo.leaf t0[{0}, {1}] = in0[{0}, {1}] * in1[{0}, {1}]
// CHECK-NEXT: dojo.leaf out0[{0}, {1}] = exp(t0[{0}, {1}])
// CHECK-LABEL: dojo.kernel @elementwise_add_8 {
// CHECK-NEXT: dojo.buffer in0 f32 [4, 16] heap in
// CHECK-NEXT: dojo.buffer in1 f32 [4, 16] heap in
// CHECK-NEXT: dojo.buffer out0 f32 [4, 16] heap out
// CHECK-NEXT: dojo.scope 4 {
// CHECK-NEXT: dojo.scope 16 {
// CHECK-NEXT: dojo.leaf out0[{0}, {1}] = in0[{0}, {1}] + in1[{0}, {1}]
// CHECK-LABEL: dojo.kernel @elementwise_exp_9 {
// CHECK-NEXT: dojo.buffer in0 f32 [4, 16] heap in
// CHECK-NEXT: dojo.buffer out0 f32 [4, 16] heap out
// CHECK-NEXT: dojo.scope 4 {
// CHECK-NEXT: dojo.scope 16 {
// CHECK-NEXT: dojo.leaf out0[{0}, {1}] = exp(in0[{0}, {1}])
// CHECK-LABEL: dojo.kernel @elementwise_elementwise_10 {
// CHECK-NEXT: dojo.buffer in0 f32 [4, 16] heap in
// CHECK-NEXT: dojo.buffer in1 f32 [4, 16] heap in
// CHECK-NEXT: dojo.buffer out0 f32 [4, 16] heap out
// CHECK-NEXT: dojo.scope 4 {
// CHECK-NEXT: dojo.scope 16 {
// CHECK-NEXT: dojo.leaf out0[{0}, {1}] = in0[{0}, {1}] - in1[{0}, {1}]
// CHECK-LABEL: dojo.kernel @moves_copy_11 {
// CHECK-NEXT: dojo.buffer in0 f32 [4, 16] heap in
// CHECK-NEXT: dojo.buffer out0 f32 [4, 16] heap out
// CHECK-NEXT: dojo.scope 4 {
// CHECK-NEXT: dojo.scope 16 {
// CHECK-NEXT: dojo.leaf out0[{0}, {1}] = in0[{0}, {1}]
// CHECK-LABEL: dojo.kernel @moves_transpose_12 {
// CHECK-NEXT: dojo.buffer in0 f32 [4, 16] heap in
// CHECK-NEXT: dojo.buffer out0 f32 [16, 4] heap out
// CHECK-NEXT: dojo.scope 16 {
// CHECK-NEXT: dojo.scope 4 {
// CHECK-NEXT: dojo.leaf out0[{0}, {1}] = in0[{1}, {0}]
// CHECK-LABEL: dojo.kernel @moves_broadcast_13 {
// CHECK-NEXT: dojo.buffer in0 f32 [16] heap in
// CHECK-NEXT: dojo.buffer out0 f32 [4, 16] heap out
// CHECK-NEXT: dojo.scope 4 {
// CHECK-NEXT: dojo.scope 16 {
// CHECK-NEXT: dojo.leaf out0[{0}, {1}] = in0[{1}]
