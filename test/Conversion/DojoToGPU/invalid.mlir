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

// 3 x 330 threads fit a block, but the block reduction pads its 330
// threads to 352 lanes of whole warps: 1,056 threads.
dojo.kernel @padded_too_many_threads {
  dojo.buffer x f32 [2, 3, 330] heap in
  dojo.buffer y f32 [2, 3] heap out
  // expected-error @below {{'dojo.scope' op launch has 1056 threads per block, more than the 1024 of the sm_90 target (its innermost dimension of 330 threads padded to 352 lanes of whole warps for a block reduction)}}
  dojo.scope 2:g {
    dojo.scope 3:b {
      dojo.leaf y[{0}, {1}] = 0
    }
    dojo.scope 3:b {
      dojo.scope 330:b {
        dojo.leaf y[{0}, {1}] += x[{0}, {1}, {2}]
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

// -----

// A block reduction's threads must be consecutive lanes: the innermost
// thread dimension of the launch.
dojo.kernel @block_reduction_outer_dimension {
  dojo.buffer x f32 [8, 16, 4] heap in
  dojo.buffer y f32 [8, 16, 4] heap out
  dojo.buffer s f32 [8] heap out
  dojo.scope 8:g {
    dojo.leaf s[{0}] = 0
    dojo.scope 16:b {
      dojo.scope 4:b {
        dojo.leaf y[{0}, {1}, {2}] = x[{0}, {1}, {2}]
      }
    }
    // expected-error @below {{'dojo.scope' op reduces over threads that are not consecutive lanes: a block reduction must be the innermost thread dimension of its launch, with no ':w' scope in the launch}}
    dojo.scope 16:b {
      dojo.leaf s[{0}] += x[{0}, {1}, 0]
    }
  }
}

// -----

// Warp shuffles need whole warps: a block of 48 threads ends in half a warp.
dojo.kernel @block_reduction_partial_warp {
  dojo.buffer x f32 [8, 3, 16] heap in
  dojo.buffer s f32 [8, 3] heap out
  dojo.scope 8:g {
    dojo.scope 3:b {
      dojo.leaf s[{0}, {1}] = 0
    }
    dojo.scope 3:b {
      // expected-error @below {{'dojo.scope' op reduces by warp shuffles in a block of 48 threads, which is not a whole number of 32-thread warps}}
      dojo.scope 16:b {
        dojo.leaf s[{0}, {1}] += x[{0}, {1}, {2}]
      }
    }
  }
}
