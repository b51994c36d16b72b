// RUN: perfdojo-opt %s --split-input-file --verify-diagnostics --convert-dojo-to-snitch
//
// What the Snitch lowering refuses, one case per message.

dojo.kernel @negative_integer {
  // expected-error @below {{the Snitch lowering runs f32 and f64 kernels; buffer 'x' holds 'i32'}}
  dojo.buffer x i32 [4] heap in
  dojo.buffer y i32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = x[{0}]
  }
}

// -----

dojo.kernel @negative_parallel {
  dojo.buffer x f64 [4] heap in
  dojo.buffer y f64 [4] heap out
  // expected-error @below {{a :p (parallel) scope has no Snitch lowering}}
  dojo.scope 4:p {
    dojo.leaf y[{0}] = x[{0}]
  }
}

// -----

dojo.kernel @negative_log {
  dojo.buffer x f64 [4] heap in
  dojo.buffer y f64 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'log' has no Snitch lowering yet (the lowering emits FP instructions, and polynomials for exp and sigmoid only)}}
    dojo.leaf y[{0}] = log(x[{0}])
  }
}

// -----

dojo.kernel @negative_nine_arguments {
  dojo.buffer a f64 [1] heap in
  dojo.buffer b f64 [1] heap in
  dojo.buffer c f64 [1] heap in
  dojo.buffer d f64 [1] heap in
  dojo.buffer e f64 [1] heap in
  dojo.buffer f f64 [1] heap in
  dojo.buffer g f64 [1] heap in
  dojo.buffer h f64 [1] heap in
  // expected-error @below {{the Snitch lowering passes at most 8 argument buffers (in a0-a7)}}
  dojo.buffer y f64 [1] heap out
  dojo.leaf y[0] = a[0]
}

// -----

dojo.kernel @negative_gpu_location {
  dojo.buffer x f64 [4] heap in
  // expected-error @below {{buffer 't' is in gpu_shared, which a Snitch core does not have}}
  dojo.buffer t f64 [4] gpu_shared
  dojo.buffer y f64 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = x[{0}]
  }
  dojo.scope 4 {
    dojo.leaf y[{0}] = t[{0}]
  }
}

// -----

// Each reg buffer fits the IR's register budget (and the Snitch target's,
// TargetDescription::getSnitch), but together they need more FP registers
// than the 29 the lowering allocates.
dojo.kernel @negative_reg_buffers {
  dojo.buffer x f64 [16] heap in
  dojo.buffer y f64 [16] heap out
  dojo.buffer t f64 [16] reg
  // expected-error @below {{the Snitch lowering needs 16 FP registers for reg buffer 'u', 13 are free (29 are allocatable, ft0-ft2 being kept for SSR streams; earlier reg buffers hold 16)}}
  dojo.buffer u f64 [16] reg
  dojo.scope 16:u {
    dojo.leaf t[{0}] = x[{0}]
  }
  dojo.scope 16:u {
    dojo.leaf u[{0}] = t[{0}] * 2
  }
  dojo.scope 16:u {
    dojo.leaf y[{0}] = u[{0}]
  }
}

// -----

dojo.kernel @negative_floor {
  dojo.buffer x f64 [4] heap in
  dojo.buffer y f64 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'floor' has no Snitch lowering yet (the lowering emits FP instructions, and polynomials for exp and sigmoid only)}}
    dojo.leaf y[{0}] = floor(x[{0}])
  }
}
