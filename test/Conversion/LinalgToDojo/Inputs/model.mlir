#id2 = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
#id4 = affine_map<(n, h, w, c) -> (n, h, w, c)>
#chan = affine_map<(n, h, w, c) -> (c)>
#id3 = affine_map<(b, i, j) -> (b, i, j)>
#red3 = affine_map<(b, i, j) -> (b, i)>

// An MLP block: relu(x W1 + b1) W2 + b2 + x.
func.func @mlp(%x: tensor<8x64xf32>, %w1: tensor<64x128xf32>, %b1: tensor<128xf32>,
               %w2: tensor<128x64xf32>, %b2: tensor<64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8x128xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x128xf32>) -> tensor<8x128xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<8x64xf32>, tensor<64x128xf32>) outs(%f1 : tensor<8x128xf32>) -> tensor<8x128xf32>
  %e2 = tensor.empty() : tensor<8x128xf32>
  %a = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%h, %b1 : tensor<8x128xf32>, tensor<128xf32>) outs(%e2 : tensor<8x128xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x128xf32>
  %e3 = tensor.empty() : tensor<8x64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %o = linalg.matmul ins(%a, %w2 : tensor<8x128xf32>, tensor<128x64xf32>) outs(%f3 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %e4 = tensor.empty() : tensor<8x64xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%o, %b2, %x : tensor<8x64xf32>, tensor<64xf32>, tensor<8x64xf32>) outs(%e4 : tensor<8x64xf32>) {
  ^bb0(%v: f32, %b: f32, %r: f32, %out: f32):
    %s = arith.addf %v, %b : f32
    %t = arith.addf %s, %r : f32
    linalg.yield %t : f32
  } -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// A conv block: relu(conv3x3(x) + b), then a 2x2 max pool.
func.func @conv(%x: tensor<1x10x10x8xf32>, %w: tensor<3x3x8x16xf32>, %b: tensor<16xf32>) -> tensor<1x4x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %e2 = tensor.empty() : tensor<1x8x8x16xf32>
  %r = linalg.generic {indexing_maps = [#id4, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<1x8x8x16xf32>, tensor<16xf32>) outs(%e2 : tensor<1x8x8x16xf32>) {
  ^bb0(%v: f32, %bb: f32, %o: f32):
    %s = arith.addf %v, %bb : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x16xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %e3 = tensor.empty() : tensor<1x4x4x16xf32>
  %f3 = linalg.fill ins(%ninf : f32) outs(%e3 : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%r, %win : tensor<1x8x8x16xf32>, tensor<2x2xf32>) outs(%f3 : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  return %p : tensor<1x4x4x16xf32>
}


// An attention-like block: softmax(q k) per batch, rows reduced with
// linalg.reduce.
func.func @attention(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>) -> tensor<2x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<2x8x8xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%f0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %e1 = tensor.empty() : tensor<2x8xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = linalg.reduce ins(%s : tensor<2x8x8xf32>) outs(%f1 : tensor<2x8xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %r = arith.maximumf %in, %acc : f32
      linalg.yield %r : f32
    }
  %e2 = tensor.empty() : tensor<2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id3, #red3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %m : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e2 : tensor<2x8x8xf32>) {
  ^bb0(%v: f32, %mm: f32, %o: f32):
    %d = arith.subf %v, %mm : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<2x8x8xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %z = linalg.reduce ins(%x : tensor<2x8x8xf32>) outs(%f3 : tensor<2x8xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %r = arith.addf %acc, %in : f32
      linalg.yield %r : f32
    }
  %e4 = tensor.empty() : tensor<2x8x8xf32>
  %p = linalg.generic {indexing_maps = [#id3, #red3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %z : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e4 : tensor<2x8x8xf32>) {
  ^bb0(%v: f32, %zz: f32, %o: f32):
    %d = arith.divf %v, %zz : f32
    linalg.yield %d : f32
  } -> tensor<2x8x8xf32>
  return %p : tensor<2x8x8xf32>
}

// Deterministic inputs: a linear pattern in the indices, scaled small.
func.func @pattern2(%scale: f32, %shift: f32) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %t = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<64x128xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %fj = arith.sitofp %jj : i32 to f32
    %a = arith.mulf %fi, %scale : f32
    %b = arith.mulf %fj, %shift : f32
    %c = arith.subf %a, %b : f32
    linalg.yield %c : f32
  } -> tensor<64x128xf32>
  return %t : tensor<64x128xf32>
}

func.func @pattern_x() -> tensor<1x10x10x8xf32> {
  %e = tensor.empty() : tensor<1x10x10x8xf32>
  %t = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<1x10x10x8xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %n0 = arith.index_cast %i0 : index to i32
    %f0 = arith.sitofp %n0 : i32 to f32
    %c0 = arith.constant 5.000000e-01 : f32
    %m0 = arith.mulf %f0, %c0 : f32
    %i1 = linalg.index 1 : index
    %n1 = arith.index_cast %i1 : index to i32
    %f1 = arith.sitofp %n1 : i32 to f32
    %c1 = arith.constant 3.000000e-02 : f32
    %m1 = arith.mulf %f1, %c1 : f32
    %a1 = arith.addf %m0, %m1 : f32
    %i2 = linalg.index 2 : index
    %n2 = arith.index_cast %i2 : index to i32
    %f2 = arith.sitofp %n2 : i32 to f32
    %c2 = arith.constant -2.000000e-02 : f32
    %m2 = arith.mulf %f2, %c2 : f32
    %a2 = arith.addf %a1, %m2 : f32
    %i3 = linalg.index 3 : index
    %n3 = arith.index_cast %i3 : index to i32
    %f3 = arith.sitofp %n3 : i32 to f32
    %c3 = arith.constant 5.000000e-02 : f32
    %m3 = arith.mulf %f3, %c3 : f32
    %a3 = arith.addf %a2, %m3 : f32
    %k = arith.constant -0.25 : f32
    %r = arith.addf %a3, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x10x10x8xf32>
  return %t : tensor<1x10x10x8xf32>
}

func.func @pattern_w() -> tensor<3x3x8x16xf32> {
  %e = tensor.empty() : tensor<3x3x8x16xf32>
  %t = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<3x3x8x16xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %n0 = arith.index_cast %i0 : index to i32
    %f0 = arith.sitofp %n0 : i32 to f32
    %c0 = arith.constant 4.000000e-02 : f32
    %m0 = arith.mulf %f0, %c0 : f32
    %i1 = linalg.index 1 : index
    %n1 = arith.index_cast %i1 : index to i32
    %f1 = arith.sitofp %n1 : i32 to f32
    %c1 = arith.constant -3.000000e-02 : f32
    %m1 = arith.mulf %f1, %c1 : f32
    %a1 = arith.addf %m0, %m1 : f32
    %i2 = linalg.index 2 : index
    %n2 = arith.index_cast %i2 : index to i32
    %f2 = arith.sitofp %n2 : i32 to f32
    %c2 = arith.constant 2.000000e-02 : f32
    %m2 = arith.mulf %f2, %c2 : f32
    %a2 = arith.addf %a1, %m2 : f32
    %i3 = linalg.index 3 : index
    %n3 = arith.index_cast %i3 : index to i32
    %f3 = arith.sitofp %n3 : i32 to f32
    %c3 = arith.constant -1.000000e-02 : f32
    %m3 = arith.mulf %f3, %c3 : f32
    %a3 = arith.addf %a2, %m3 : f32
    %k = arith.constant -0.25 : f32
    %r = arith.addf %a3, %k : f32
    linalg.yield %r : f32
  } -> tensor<3x3x8x16xf32>
  return %t : tensor<3x3x8x16xf32>
}

func.func @pattern_q() -> tensor<2x8x16xf32> {
  %e = tensor.empty() : tensor<2x8x16xf32>
  %t = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<2x8x16xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %n0 = arith.index_cast %i0 : index to i32
    %f0 = arith.sitofp %n0 : i32 to f32
    %c0 = arith.constant 1.000000e-01 : f32
    %m0 = arith.mulf %f0, %c0 : f32
    %i1 = linalg.index 1 : index
    %n1 = arith.index_cast %i1 : index to i32
    %f1 = arith.sitofp %n1 : i32 to f32
    %c1 = arith.constant 2.000000e-02 : f32
    %m1 = arith.mulf %f1, %c1 : f32
    %a1 = arith.addf %m0, %m1 : f32
    %i2 = linalg.index 2 : index
    %n2 = arith.index_cast %i2 : index to i32
    %f2 = arith.sitofp %n2 : i32 to f32
    %c2 = arith.constant -3.000000e-02 : f32
    %m2 = arith.mulf %f2, %c2 : f32
    %a2 = arith.addf %a1, %m2 : f32
    %k = arith.constant -0.25 : f32
    %r = arith.addf %a2, %k : f32
    linalg.yield %r : f32
  } -> tensor<2x8x16xf32>
  return %t : tensor<2x8x16xf32>
}

func.func @pattern_k() -> tensor<2x16x8xf32> {
  %e = tensor.empty() : tensor<2x16x8xf32>
  %t = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<2x16x8xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %n0 = arith.index_cast %i0 : index to i32
    %f0 = arith.sitofp %n0 : i32 to f32
    %c0 = arith.constant -5.000000e-02 : f32
    %m0 = arith.mulf %f0, %c0 : f32
    %i1 = linalg.index 1 : index
    %n1 = arith.index_cast %i1 : index to i32
    %f1 = arith.sitofp %n1 : i32 to f32
    %c1 = arith.constant 1.000000e-02 : f32
    %m1 = arith.mulf %f1, %c1 : f32
    %a1 = arith.addf %m0, %m1 : f32
    %i2 = linalg.index 2 : index
    %n2 = arith.index_cast %i2 : index to i32
    %f2 = arith.sitofp %n2 : i32 to f32
    %c2 = arith.constant 4.000000e-02 : f32
    %m2 = arith.mulf %f2, %c2 : f32
    %a2 = arith.addf %a1, %m2 : f32
    %k = arith.constant -0.25 : f32
    %r = arith.addf %a2, %k : f32
    linalg.yield %r : f32
  } -> tensor<2x16x8xf32>
  return %t : tensor<2x16x8xf32>
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %s1 = arith.constant 0.013 : f32
  %s2 = arith.constant 0.007 : f32
  %big = call @pattern2(%s1, %s2) : (f32, f32) -> tensor<64x128xf32>
  %w1 = tensor.extract_slice %big[0, 0] [64, 128] [1, 1] : tensor<64x128xf32> to tensor<64x128xf32>
  %x = tensor.extract_slice %big[3, 5] [8, 64] [1, 1] : tensor<64x128xf32> to tensor<8x64xf32>
  %b1 = tensor.extract_slice %big[7, 0] [1, 128] [1, 1] : tensor<64x128xf32> to tensor<128xf32>
  %w2t = call @pattern2(%s2, %s1) : (f32, f32) -> tensor<64x128xf32>
  %w2e = tensor.empty() : tensor<128x64xf32>
  %w2 = linalg.transpose ins(%w2t : tensor<64x128xf32>) outs(%w2e : tensor<128x64xf32>) permutation = [1, 0]
  %b2 = tensor.extract_slice %big[9, 11] [1, 64] [1, 1] : tensor<64x128xf32> to tensor<64xf32>
  %y = call @mlp(%x, %w1, %b1, %w2, %b2) : (tensor<8x64xf32>, tensor<64x128xf32>, tensor<128xf32>, tensor<128x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %ym = bufferization.to_buffer %y : tensor<8x64xf32> to memref<8x64xf32>
  %yu = memref.cast %ym : memref<8x64xf32> to memref<*xf32>
  call @printMemrefF32(%yu) : (memref<*xf32>) -> ()

  %cx = call @pattern_x() : () -> tensor<1x10x10x8xf32>
  %cw = call @pattern_w() : () -> tensor<3x3x8x16xf32>
  %cb = tensor.extract_slice %big[5, 7] [1, 16] [1, 1] : tensor<64x128xf32> to tensor<16xf32>
  %z = call @conv(%cx, %cw, %cb) : (tensor<1x10x10x8xf32>, tensor<3x3x8x16xf32>, tensor<16xf32>) -> tensor<1x4x4x16xf32>
  %zm = bufferization.to_buffer %z : tensor<1x4x4x16xf32> to memref<1x4x4x16xf32>
  %zu = memref.cast %zm : memref<1x4x4x16xf32> to memref<*xf32>
  call @printMemrefF32(%zu) : (memref<*xf32>) -> ()

  %aq = call @pattern_q() : () -> tensor<2x8x16xf32>
  %ak = call @pattern_k() : () -> tensor<2x16x8xf32>
  %att = call @attention(%aq, %ak) : (tensor<2x8x16xf32>, tensor<2x16x8xf32>) -> tensor<2x8x8xf32>
  %am = bufferization.to_buffer %att : tensor<2x8x8xf32> to memref<2x8x8xf32>
  %au = memref.cast %am : memref<2x8x8xf32> to memref<*xf32>
  call @printMemrefF32(%au) : (memref<*xf32>) -> ()
  return
}
