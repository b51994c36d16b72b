// RUN: perfdojo-opt %s --split-input-file --verify-diagnostics --convert-dojo-to-gpu

// Kernels the GPU lowering cannot express are refused with the reason,
// never run differently.

dojo.kernel @cpu_parallel {
  dojo.buffer x f32 [32] heap in
  dojo.buffer y f32 [32] heap out
  // expected-error @below {{'dojo.scope' op has mode :p (parallel), which the sm_90 target cannot execute}}
  dojo.scope 32:p {
    dojo.leaf y[{0}] = x[{0}]
  }
}

// -----

dojo.kernel @grid_not_perfect {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer y f32 [4, 8] heap out
  // expected-note @below {{the kernel starts here}}
  dojo.scope 4:g {
    dojo.scope 8 {
      // expected-error @below {{'dojo.scope' op ':g' scope is not part of its kernel's grid}}
      dojo.scope 1:g {
        dojo.scope 1:b {
          dojo.leaf y[{0}, {1}] = x[{0}, {1}]
        }
      }
    }
  }
}

// -----

dojo.kernel @too_many_threads {
  dojo.buffer x f32 [4, 64, 64] heap in
  dojo.buffer y f32 [4, 64, 64] heap out
  // expected-error @below {{'dojo.scope' op launch has 4096 threads per block, more than the 1024 of the sm_90 target}}
  dojo.scope 4:g {
    dojo.scope 64:b {
      dojo.scope 64:b {
        dojo.leaf y[{0}, {1}, {2}] = x[{0}, {1}, {2}]
      }
    }
  }
}

// -----

dojo.kernel @shared_not_private {
  dojo.buffer x f32 [4, 8] heap in
  // expected-error @below {{'dojo.buffer' op gpu_shared buffer 't' is not private to the blocks of one ':g' scope}}
  dojo.buffer t f32 [4, 8] gpu_shared
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4:g {
    dojo.scope 8:b {
      dojo.leaf t[{0}, {1}] = x[{0}, {1}]
    }
  }
  dojo.scope 4:g {
    dojo.scope 8:b {
      dojo.leaf y[{0}, {1}] = t[{0}, {1}]
    }
  }
}

// -----

dojo.kernel @tcdm {
  dojo.buffer x f32 [8] heap in
  // expected-error @below {{'dojo.buffer' op buffer 't' is located in tcdm memory, which the sm_90 target does not have}}
  dojo.buffer t f32 [8] tcdm
  dojo.buffer y f32 [8] heap out
  dojo.scope 8 {
    dojo.leaf t[{0}] = x[{0}]
    dojo.leaf y[{0}] = t[{0}]
  }
}

// -----

dojo.kernel @f64_transcendental {
  dojo.buffer x f64 [8] heap in
  dojo.buffer y f64 [8] heap out
  dojo.scope 8:g {
    // expected-error @below {{'dojo.leaf' op computes exp in f64, which the sm_90 target implements only in f32, f16 and bf16 (no vendor device library is linked)}}
    dojo.leaf y[{0}] = exp(x[{0}])
  }
}

// -----

// No polynomial approximates tan: no GPU implementation in any type.
dojo.kernel @f32_tan {
  dojo.buffer x f32 [8] heap in
  dojo.buffer y f32 [8] heap out
  dojo.scope 8:g {
    // expected-error @below {{'dojo.leaf' op computes tan in f32, which the sm_90 target does not implement (no polynomial approximates it and no vendor device library is linked)}}
    dojo.leaf y[{0}] = tan(x[{0}])
  }
}
