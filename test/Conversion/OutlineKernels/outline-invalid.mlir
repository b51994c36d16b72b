// A marked op whose kernel is missing or no longer takes the op's operands
// is an error at the op.
//
// RUN: perfdojo-opt %s --dojo-outline-kernels -split-input-file -verify-diagnostics

func.func @missing(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error @below {{no kernel @gone to call}}
  linalg.copy {dojo.outline = @gone, dojo.outline_operands = array<i64: 0, 1>} ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}

// -----

dojo.kernel @padded {
  dojo.buffer in0 f32 [8] heap in
  dojo.buffer out0 f32 [8] heap out
  dojo.scope 8 {
    dojo.leaf out0[{0}] = in0[{0}]
  }
}
func.func @changed(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error @below {{kernel @padded takes 'memref<8xf32>', 'memref<8xf32>' but the op provides 'memref<4xf32>', 'memref<4xf32>' (did a move change an argument buffer?)}}
  linalg.copy {dojo.outline = @padded, dojo.outline_operands = array<i64: 0, 1>} ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}

// -----

dojo.kernel @copy {
  dojo.buffer in0 f32 [4] heap in
  dojo.buffer out0 f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf out0[{0}] = in0[{0}]
  }
}
func.func @operands(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error @below {{'dojo.outline_operands' names operand 2 of an op with 2}}
  linalg.copy {dojo.outline = @copy, dojo.outline_operands = array<i64: 0, 2>} ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}
