// RUN: perfdojo-opt %s --split-input-file --verify-diagnostics --convert-dojo-to-scf

// Constructs the CPU target cannot express are errors, never a silent
// sequential fallback. (Statements without a value in their element type,
// such as `exp` of an i32, are the verifier's: test/Dialect/Dojo/invalid.mlir.)

dojo.kernel @gpu_mode {
  dojo.buffer x f32 [32] heap in
  dojo.buffer y f32 [32] heap out
  // expected-error @below {{'dojo.scope' op has mode :g (GPU grid), which the cpu target cannot execute}}
  dojo.scope 32:g {
    dojo.leaf y[{0}] = x[{0}]
  }
}

// -----

dojo.kernel @gpu_location {
  dojo.buffer x f32 [32] heap in
  // expected-error @below {{'dojo.buffer' op buffer 't' is located in gpu_shared memory, which the CPU target does not have}}
  dojo.buffer t f32 [32] gpu_shared
  dojo.buffer y f32 [32] heap out
  dojo.scope 32 {
    dojo.leaf t[{0}] = x[{0}]
    dojo.leaf y[{0}] = t[{0}]
  }
}
