// RUN: split-file %s %t
// RUN: perfdojo-opt %t/grid.mlir -split-input-file --dojo-apply="set_gpu_grid y@1" -verify-diagnostics
// RUN: perfdojo-opt %t/block.mlir -split-input-file --dojo-apply="set_gpu_block y@1" -verify-diagnostics
// RUN: perfdojo-opt %t/warp.mlir -split-input-file --dojo-apply="set_gpu_warp y@1" -verify-diagnostics
// RUN: perfdojo-opt %t/warp-size.mlir --dojo-apply="set_gpu_warp y@2" -verify-diagnostics

//--- grid.mlir
// expected-error @below {{'set_gpu_grid y@1': a :g (GPU grid) scope cannot be nested in a :p (parallel) scope}}
dojo.kernel @negative_grid_in_parallel {
  dojo.buffer y f32 [4, 8] heap out
  // expected-note @below {{the enclosing scope}}
  dojo.scope 4:p {
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = 0
    }
  }
}

// -----

// expected-error @below {{'set_gpu_grid y@1': a :g (GPU grid) scope cannot enclose a :p (parallel) scope}}
dojo.kernel @negative_grid_around_parallel {
  dojo.buffer y f32 [4, 4, 8] heap out
  dojo.scope 4 {
    dojo.scope 4 {
      // expected-note @below {{the enclosed scope}}
      dojo.scope 8:p {
        dojo.leaf y[{0}, {1}, {2}] = 0
      }
    }
  }
}

//--- block.mlir
// expected-error @below {{'set_gpu_block y@1': a :b (GPU block) scope must be nested in a :g (GPU grid) scope}}
dojo.kernel @negative_block_without_grid {
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    // expected-note @below {{the scope}}
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = 0
    }
  }
}

// -----

// expected-error @below {{'set_gpu_block y@1': a :b (GPU block) scope cannot enclose a :g (GPU grid) scope}}
dojo.kernel @negative_block_around_grid {
  dojo.buffer y f32 [4, 4, 8] heap out
  dojo.scope 4:g {
    dojo.scope 4 {
      // expected-note @below {{the enclosed scope}}
      dojo.scope 8:g {
        dojo.leaf y[{0}, {1}, {2}] = 0
      }
    }
  }
}

// -----

// expected-error @below {{'set_gpu_block y@1': scope size 2048 exceeds 1024 threads per block}}
dojo.kernel @negative_block_too_large {
  dojo.buffer y f32 [4, 2048] heap out
  dojo.scope 4:g {
    // expected-note @below {{the scope}}
    dojo.scope 2048 {
      dojo.leaf y[{0}, {1}] = 0
    }
  }
}

//--- warp.mlir
// expected-error @below {{'set_gpu_warp y@1': a :w (GPU warp) scope must be nested in a :b (GPU block) scope}}
dojo.kernel @negative_warp_without_block {
  dojo.buffer y f32 [4, 32] heap out
  dojo.scope 4:g {
    // expected-note @below {{the scope}}
    dojo.scope 32 {
      dojo.leaf y[{0}, {1}] = 0
    }
  }
}

//--- warp-size.mlir
// expected-error @below {{'set_gpu_warp y@2': a warp scope must have the warp size 32, not 16}}
dojo.kernel @negative_warp_size {
  dojo.buffer y f32 [4, 16] heap out
  dojo.scope 4:g {
    dojo.scope 1:b {
      // expected-note @below {{the scope}}
      dojo.scope 16 {
        dojo.leaf y[{0}, {2}] = 0
      }
    }
  }
}
