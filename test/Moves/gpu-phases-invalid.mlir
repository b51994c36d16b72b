// The GPU `:b` phase rule and the block shape (Analysis/Concurrency.h,
// docs/moves.md section 10): one case per rejection, in set_gpu_block and in
// the post-verification of every move.
// RUN: rm -rf %t && split-file %s %t
// RUN: perfdojo-opt %t/one.mlir --dojo-apply="set_gpu_block y@2" -verify-diagnostics
// RUN: perfdojo-opt %t/sub.mlir --dojo-apply="set_gpu_block y@2" -verify-diagnostics
// RUN: perfdojo-opt %t/size.mlir --dojo-apply="set_gpu_block y@1" -verify-diagnostics
// RUN: perfdojo-opt %t/clear.mlir --dojo-apply="clear_mode t@1" -verify-diagnostics
// RUN: perfdojo-opt %t/merge.mlir --dojo-apply="set_gpu_block y@1" -verify-diagnostics

//--- one.mlir
// One phase alone in a sequential scope: no barrier between its iterations,
// so thread j+1 in iteration 0 and thread j in iteration 1 both write
// t[i, j+1] and may run at the same time.
// expected-error @+1 {{'set_gpu_block y@2': the scope would race: two of its iterations conflict: write of 't' in `t[{0}, {1}+{2}] = x[{0}, {1}, {2}]` conflicts with the write of 't' in `t[{0}, {1}+{2}] = x[{0}, {1}, {2}]`}}
dojo.kernel @negative_one_phase_across_iterations {
  dojo.buffer x f32 [4, 2, 8] heap in
  dojo.buffer t f32 [4, 9] heap
  dojo.buffer y f32 [4, 2, 8] heap out
  dojo.scope 4:g {
    dojo.scope 2 {
      dojo.scope 8 {
        // expected-note @+2 {{conflicts with this leaf}}
        // expected-note @+1 {{this leaf}}
        dojo.leaf t[{0}, {1}+{2}] = x[{0}, {1}, {2}]
        dojo.leaf y[{0}, {1}, {2}] = t[{0}, {1}+{2}] * 2
      }
    }
  }
}

//--- sub.mlir
// Two `:b` subtrees inside one phase are not separated by a barrier: the
// second reads what other threads of the first write.
// expected-error @+1 {{'set_gpu_block y@2': the scope would race: two of its iterations conflict: write of 't' in `t[{0}, {1}*4+{2}] = x[{0}, {1}, {2}]` conflicts with the read of 't' in `y[{0}, {1}, {2}] = t[{0}, {1}*4-{2}+3]`}}
dojo.kernel @negative_sub_phases {
  dojo.buffer x f32 [4, 2, 4] heap in
  dojo.buffer t f32 [4, 8] heap
  dojo.buffer y f32 [4, 2, 4] heap out
  dojo.scope 4:g {
    dojo.scope 2:b {
      dojo.scope 4:b {
        // expected-note @+1 {{this leaf}}
        dojo.leaf t[{0}, {1}*4+{2}] = x[{0}, {1}, {2}]
      }
      dojo.scope 4 {
        // expected-note @+1 {{conflicts with this leaf}}
        dojo.leaf y[{0}, {1}, {2}] = t[{0}, {1}*4-{2}+3]
      }
    }
  }
}

//--- size.mlir
// expected-error @+1 {{'set_gpu_block y@1': the phases of the kernel would have different :b sizes: [4] in one phase and [8] in another (a block has one shape per launch)}}
dojo.kernel @negative_block_sizes {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer t f32 [8] gpu_shared
  dojo.buffer y f32 [4, 4] heap out
  dojo.scope 4:g {
    // expected-note @+1 {{the other phase}}
    dojo.scope 8:b {
      dojo.leaf t[{1}] = x[{0}, {1}]
    }
    // expected-note @+1 {{this phase}}
    dojo.scope 4 {
      dojo.leaf y[{0}, {1}] = t[{1}*2]
    }
  }
}

//--- clear.mlir
// Post-verification: clearing the outer `:b` of one phase leaves it a [4]
// block beside a [2, 4] one.
// expected-error @+1 {{'clear_mode t@1': the result would give the phases of a kernel different :b sizes: [4] in one phase and [2, 4] in another (a block has one shape per launch)}}
dojo.kernel @negative_clear_outer_block {
  dojo.buffer x f32 [4, 2, 4] heap in
  dojo.buffer t f32 [2, 4] gpu_shared
  dojo.buffer y f32 [4, 2, 4] heap out
  dojo.scope 4:g {
    dojo.scope 2:b {
      // expected-note @+1 {{this phase}}
      dojo.scope 4:b {
        dojo.leaf t[{1}, {2}] = x[{0}, {1}, {2}]
      }
    }
    // expected-note @+1 {{the other phase}}
    dojo.scope 2:b {
      dojo.scope 4:b {
        dojo.leaf y[{0}, {1}, {2}] = t[-{1}+1, -{2}+3]
      }
    }
  }
}

//--- merge.mlir
// Post-verification: a `:b` around both phases makes them one phase, so the
// barrier between the load and the use is gone (the new scope itself is
// race-free: its iterations touch different rows of t).
// expected-error @+1 {{'set_gpu_block y@1': the result would make the :b scope race: two of its iterations conflict: write of 't' in `t[{1}, {2}] = x[{0}, {1}, {2}]` conflicts with the read of 't' in `y[{0}, {1}, {2}] = t[{1}, -{2}+7]`}}
dojo.kernel @negative_merge_phases {
  dojo.buffer x f32 [4, 2, 8] heap in
  dojo.buffer t f32 [2, 8] gpu_shared
  dojo.buffer y f32 [4, 2, 8] heap out
  dojo.scope 4:g {
    dojo.scope 2 {
      // expected-note @+1 {{the scope}}
      dojo.scope 8:b {
        // expected-note @+1 {{this leaf}}
        dojo.leaf t[{1}, {2}] = x[{0}, {1}, {2}]
      }
      dojo.scope 8:b {
        // expected-note @+1 {{conflicts with this leaf}}
        dojo.leaf y[{0}, {1}, {2}] = t[{1}, -{2}+7]
      }
    }
  }
}
